"""PostgreSQL row-level security for every tenant table (defence in depth behind the managers).

After every `migrate`, each concrete TenantModel's table gets RLS enabled and forced (so the table
owner, which the app connects as, is subject to it too) and exactly one policy that admits rows of the
tenant in the transaction-local setting `app.tenant_id`. Unset means no rows. A new tenant model gets
its policy without anyone writing a migration for it; tests/test_rls.py fails if any table with a
`tenant_id` column lacks it.

Superusers and roles with BYPASSRLS skip every policy, so the app must connect as an ordinary role
(docs/tenancy.md).
"""

from __future__ import annotations

from django.apps import apps
from django.db import connection

POLICY_NAME = "tenant_isolation"
TENANT_PREDICATE = "tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint"

# Tables with a tenant_id column that are deliberately not under RLS, with the reason.
RLS_EXEMPT_TABLES = {
    "tenancy_membership": "identity: read before a tenant is entered, always filtered by user",
}


def tenant_tables() -> list[str]:
    from .models import TenantModel

    tables = []
    for model in apps.get_models():
        if issubclass(model, TenantModel) and not model._meta.proxy and model._meta.managed:
            tables.append(model._meta.db_table)
    return sorted(set(tables))


def policy_sql(table: str) -> list[str]:
    quoted = connection.ops.quote_name(table)
    return [
        f"ALTER TABLE {quoted} ENABLE ROW LEVEL SECURITY",
        f"ALTER TABLE {quoted} FORCE ROW LEVEL SECURITY",
        f"DROP POLICY IF EXISTS {POLICY_NAME} ON {quoted}",
        f"CREATE POLICY {POLICY_NAME} ON {quoted} USING ({TENANT_PREDICATE}) WITH CHECK ({TENANT_PREDICATE})",
    ]


def apply_policies(using_connection=None) -> list[str]:
    conn = using_connection or connection
    if conn.vendor != "postgresql":
        return []
    existing = set(conn.introspection.table_names())
    applied = []
    with conn.cursor() as cursor:
        for table in tenant_tables():
            if table not in existing:
                continue
            for statement in policy_sql(table):
                cursor.execute(statement)
            applied.append(table)
    return applied


def apply_policies_after_migrate(sender, app_config=None, using="default", **kwargs) -> None:
    # post_migrate fires once per app; the policies only need applying once, after the last app.
    if app_config is None or app_config.label != "tenancy":
        return
    from django.db import connections

    apply_policies(connections[using])
