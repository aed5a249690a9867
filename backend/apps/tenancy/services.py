"""Writes on tenants: setting up a new company (the tenant and its default roles)."""

from __future__ import annotations

from django.db import connection, transaction
from django.utils.text import slugify

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant


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


@transaction.atomic
def tenant_create(*, name: str, code: str = "", **fields) -> Tenant:
    """Creates a tenant with the default roles (apps/users/roles.py). Raises ValueError for a name or
    code already in use."""
    from apps.users.roles import roles_ensure_defaults

    name = name.strip()
    if not name:
        raise ValueError("The tenant needs a name.")
    if Tenant.objects.filter(name__iexact=name).exists():
        raise ValueError(f"A tenant named {name!r} already exists.")
    if code and Tenant.objects.filter(code=code).exists():
        raise ValueError(f"A tenant with the code {code!r} already exists.")
    tenant = Tenant.objects.create(name=name, code=code or _free_code(name), **fields)
    with tenant_context(tenant):
        roles_ensure_defaults()
    return tenant
