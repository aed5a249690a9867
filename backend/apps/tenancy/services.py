"""Writes of the tenancy area: setting up a new company (the tenant and its default roles) and the
company settings (the operator data of due diligence statements)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.utils.text import slugify

from apps.tenancy.context import tenant_context
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
    "represented_operator_street",
    "represented_operator_postal_code",
    "represented_operator_city",
    "represented_operator_country",
    "represented_operator_eori",
    "represented_operator_vat",
    "represented_operator_email",
    "represented_operator_phone",
    "allow_backorders",
    "allow_negative_stock",
    "eudr_import_role",
    "eudr_purchase_role",
    "eudr_primary_role",
    "eudr_is_sme",
    "simplified_declaration_id",
    "allow_unlabelled_shipping",
    "registration_number",
    "iban",
    "bic",
    "payment_terms_days",
    "allow_uncovered_shipping",
    "public_trace_max_age",
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


def _free_code(name: str) -> str:
    base = (slugify(name) or "tenant")[:40]
    code, n = base, 1
    while Tenant.objects.filter(code=code).exists():
        n += 1
        code = f"{base}-{n}"
    return code


def tenant_sequence_reset() -> None:
    """After rows were inserted with explicit ids (the demo tenants), the next id must follow them."""
    from django.core.management.color import no_style

    statements = connection.ops.sequence_reset_sql(no_style(), [Tenant])
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


# What a new tenant starts with beyond its row, each run inside the new tenant: registered on start by the
# areas above tenancy, which imports none of them (`UsersConfig.ready`: the default roles, apps/users/roles.py).
_tenant_setups: list[Callable[[], object]] = []


def on_tenant_created(setup: Callable[[], object]) -> None:
    """Run `setup()` inside every tenant `tenant_create` makes (once per function, in registration order)."""
    if setup not in _tenant_setups:
        _tenant_setups.append(setup)


@transaction.atomic
def tenant_create(*, name: str, code: str = "", **fields) -> Tenant:
    """Creates a tenant with what the areas set up in a new one (`on_tenant_created`: the default roles,
    apps/users/roles.py). Raises ValueError for a name or code already in use."""
    name = name.strip()
    if not name:
        raise ValueError("The tenant needs a name.")
    if Tenant.objects.filter(name__iexact=name).exists():
        raise ValueError(f"A tenant named {name!r} already exists.")
    if code and Tenant.objects.filter(code=code).exists():
        raise ValueError(f"A tenant with the code {code!r} already exists.")
    tenant = Tenant.objects.create(name=name, code=code or _free_code(name), **fields)
    with tenant_context(tenant):
        for setup in _tenant_setups:
            setup()
    return tenant
