"""The tenancy area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Raised by the company settings views and services; the API's exception handler turns them into
the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Forbidden


class TenancyErrorCode(StrEnum):
    PERMISSION_DENIED = "permission_denied"


class CompanySettingsForbidden(Forbidden):
    """Reading the company settings is for every internal member; changing them needs
    `tenancy.change_tenant` (the Administrator role)."""

    error = TenancyErrorCode.PERMISSION_DENIED
    default_message = _("You do not have permission to change the company settings.")
