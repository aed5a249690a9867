"""The suppliers area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Services raise them; the API's exception handler turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict


class SuppliersErrorCode(StrEnum):
    PARENT_VENDOR_IN_USE = "parent_vendor_in_use"
    SUPPLIER_IN_USE = "supplier_in_use"


class ParentVendorInUse(Conflict):
    error = SuppliersErrorCode.PARENT_VENDOR_IN_USE
    default_message = _("This parent vendor still has suppliers or users and cannot be deleted.")


class SupplierInUse(Conflict):
    error = SuppliersErrorCode.SUPPLIER_IN_USE
    default_message = _("This supplier has purchase orders and cannot be deleted. Deactivate it instead.")
