"""The customers area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Services raise them; the API's exception handler turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict


class CustomersErrorCode(StrEnum):
    CUSTOMER_IN_USE = "customer_in_use"


class CustomerInUse(Conflict):
    error = CustomersErrorCode.CUSTOMER_IN_USE
    default_message = _("This customer has orders and cannot be deleted. Deactivate it instead.")
