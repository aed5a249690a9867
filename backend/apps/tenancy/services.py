"""Writes of the tenancy area: the company settings (the operator data of due diligence statements)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from apps.tenancy.models import Tenant

COMPANY_SETTINGS_FIELDS = (
    "legal_name",
    "address",
    "country",
    "eori_number",
    "vat_number",
    "email",
    "phone",
    "operator_role",
    "represented_operator_name",
    "represented_operator_address",
    "represented_operator_country",
    "represented_operator_eori",
    "represented_operator_vat",
    "represented_operator_email",
    "represented_operator_phone",
)


@transaction.atomic
def company_settings_update(*, tenant_id: int, data: dict[str, Any]) -> Tenant:
    """Saves the validated company settings of one tenant (the row locked, so two edits do not
    interleave). Only the settings fields are written; name, code and activity stay as they are."""
    tenant = Tenant.objects.select_for_update().get(pk=tenant_id)
    changed = [name for name in COMPANY_SETTINGS_FIELDS if name in data]
    for name in changed:
        setattr(tenant, name, data[name])
    tenant.save(update_fields=[*changed, "updated_at"])
    return tenant
