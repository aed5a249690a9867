"""The current tenant of a request or a job: one context variable, mirrored into PostgreSQL.

`tenant_context(tenant)` is the only way code enters a tenant. It sets the context variable that the
tenant-scoped managers read and, on PostgreSQL, the transaction-local setting `app.tenant_id` that the
row-level-security policies read (`set_config(..., is_local => true)` is `SET LOCAL`: it ends with the
transaction, so it cannot leak to the next request through a pooled connection).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.db import connections, transaction

if TYPE_CHECKING:
    from .models import Tenant

_current_tenant_id: ContextVar[int | None] = ContextVar("current_tenant_id", default=None)


class TenantNotSet(RuntimeError):
    """A tenant-scoped query ran outside any tenant: the code forgot `tenant_context`."""


def get_current_tenant_id() -> int | None:
    return _current_tenant_id.get()


def require_tenant_id() -> int:
    tenant_id = _current_tenant_id.get()
    if tenant_id is None:
        raise TenantNotSet("No tenant is active: wrap the code in tenancy.context.tenant_context().")
    return tenant_id


def _set_db_tenant(tenant_id: int | None, using: str = "default") -> None:
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('app.tenant_id', %s, true)", ["" if tenant_id is None else str(tenant_id)]
        )


def activate(tenant: Tenant | int | None, *, in_database: bool = False):
    """Enter a tenant; returns a token for `deactivate`. Prefer `tenant_context`.

    `in_database=True`: the statement that found the tenant already applied `app.tenant_id` in this
    transaction (`tenant_setting`), so no statement of its own is sent (docs/performance.md,
    "Per-request overhead")."""
    tenant_id = tenant if tenant is None or isinstance(tenant, int) else tenant.pk
    token = _current_tenant_id.set(tenant_id)
    if not in_database:
        _set_db_tenant(tenant_id)
    return token


def tenant_setting(field: str = "tenant_id"):
    """A select-list expression that enters the tenant in `field` for the transaction, for a query that
    reads at most one row (the request's membership): the setting travels with the read instead of
    costing a statement of its own, and is applied only when the row is found."""
    from django.db.models import BooleanField, F, Func, TextField, Value
    from django.db.models.functions import Cast

    return Func(
        Value("app.tenant_id"),
        Cast(F(field), output_field=TextField()),
        Value(True, output_field=BooleanField()),
        function="set_config",
        output_field=TextField(),
    )


def deactivate(token) -> None:
    _current_tenant_id.reset(token)
    _set_db_tenant(_current_tenant_id.get())


@contextlib.contextmanager
def building_for(tenant_id: int) -> Iterator[None]:
    """`tenant_id` as the active tenant while querysets are built, not run: tenant-scoped managers filter
    by it, and no statement is sent to the database on entering or leaving (`tenancy.compiled`)."""
    token = _current_tenant_id.set(tenant_id)
    try:
        yield
    finally:
        _current_tenant_id.reset(token)


@contextlib.contextmanager
def tenant_context(tenant: Tenant | int | None, using: str = "default") -> Iterator[None]:
    """Enter a tenant for the block. On PostgreSQL outside a transaction the block gets one, since the
    row-level-security setting is transaction-local (in autocommit it would end with the next statement)."""
    connection = connections[using]
    needs_transaction = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic(using=using) if needs_transaction else contextlib.nullcontext():
        token = activate(tenant)
        try:
            yield
        finally:
            deactivate(token)


@contextlib.contextmanager
def entered_tenant(tenant_id: int) -> Iterator[None]:
    """Like `tenant_context` for a tenant whose setting the caller's last statement already applied in
    the current transaction (`tenant_setting`, `carton_tenant_for_public_code(enter_tenant=True)`)."""
    token = activate(tenant_id, in_database=True)
    try:
        yield
    finally:
        deactivate(token)


def sync_db_tenant() -> None:
    """Re-apply the current tenant to the database, e.g. at the start of a new transaction."""
    _set_db_tenant(_current_tenant_id.get())
