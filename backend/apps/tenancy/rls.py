"""PostgreSQL row-level security for every tenant table (defence in depth behind the managers).

After every `migrate`, each concrete TenantModel's table whose RLS state differs from this module's
(apply_policies: nothing is touched on a database that is up to date) gets RLS enabled and forced (so the table
owner, which the app connects as, is subject to it too) and exactly one policy that admits rows of the
tenant in the transaction-local setting `app.tenant_id`. Unset means no rows. A new tenant model gets
its policy without anyone writing a migration for it; tests/test_rls.py fails if any table with a
`tenant_id` column lacks it.

Superusers and roles with BYPASSRLS skip every policy, so the app must connect as an ordinary role
(docs/tenancy.md).
"""

from __future__ import annotations

import hashlib
import time

from django.apps import apps
from django.db import connection

POLICY_NAME = "tenant_isolation"
TENANT_PREDICATE = "tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint"

# Tables with a tenant_id column that are deliberately not under RLS, with the reason.
RLS_EXEMPT_TABLES = {
    "tenancy_membership": "identity: read before a tenant is entered, always filtered by user",
}

# Tables of tenant models removed from the code that stay in the database for one release (expand/contract:
# the previous release still writes to them while it runs beside this one); they keep their policy until
# a later release drops them.
RETIRED_TENANT_TABLES = {
    "purchaseorders_numbersequence": "its counters moved to the numbering module (numbering 0002)",
    "salesorders_invoicecounter": "its counters moved to the numbering module (numbering 0002)",
}


def tenant_tables() -> list[str]:
    from .models import TenantModel

    tables = []
    for model in apps.get_models():
        if issubclass(model, TenantModel) and not model._meta.proxy and model._meta.managed:
            tables.append(model._meta.db_table)
    return sorted(set(tables) | set(RETIRED_TENANT_TABLES))


# The policy's comment names the predicate it was made from: a policy whose comment, expression, command
# or flags differ from what this code would create is replaced; one that matches is left alone.
POLICY_VERSION = hashlib.sha256(TENANT_PREDICATE.encode()).hexdigest()[:16]
POLICY_COMMENT = f"cartontrace tenant isolation {POLICY_VERSION}"
LOCK_TIMEOUT = "2s"
LOCK_ATTEMPTS = 5


class PolicyLockTimeout(RuntimeError):
    """A table stayed locked by other transactions through every attempt to change its policy."""


def policy_sql(table: str) -> list[str]:
    quoted = connection.ops.quote_name(table)
    return [
        f"ALTER TABLE {quoted} ENABLE ROW LEVEL SECURITY",
        f"ALTER TABLE {quoted} FORCE ROW LEVEL SECURITY",
        f"DROP POLICY IF EXISTS {POLICY_NAME} ON {quoted}",
        f"CREATE POLICY {POLICY_NAME} ON {quoted} USING ({TENANT_PREDICATE}) WITH CHECK ({TENANT_PREDICATE})",
        f"COMMENT ON POLICY {POLICY_NAME} ON {quoted} IS '{POLICY_COMMENT}'",
    ]


_STATE_SQL = """
SELECT c.relname,
       c.relrowsecurity AND c.relforcerowsecurity,
       count(p.oid),
       bool_and(p.polcmd = '*' AND p.polpermissive AND p.polroles = '{0}'::oid[]
                AND pg_get_expr(p.polqual, p.polrelid) = pg_get_expr(p.polwithcheck, p.polrelid)
                AND obj_description(p.oid, 'pg_policy') = %s)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
LEFT JOIN pg_policy p ON p.polrelid = c.oid AND p.polname = %s
WHERE c.relkind IN ('r', 'p') AND c.relname = ANY(%s)
GROUP BY c.relname, c.relrowsecurity, c.relforcerowsecurity
"""


def tables_needing_policy(conn, tables: list[str]) -> list[str]:
    """The tables whose row-level security is off or not forced, or whose tenant policy is missing or not
    exactly ours. Other policies on a table (the public carton look-up, the print agents' token look-up)
    belong to their own migrations and are not this module's."""
    with conn.cursor() as cursor:
        cursor.execute(_STATE_SQL, [POLICY_COMMENT, POLICY_NAME, tables])
        state = {name: (forced, count, ours) for name, forced, count, ours in cursor.fetchall()}
    stale = []
    for table in tables:
        forced, count, ours = state.get(table, (False, 0, False))
        if not (forced and count == 1 and ours):
            stale.append(table)
    return stale


def _apply_one(conn, table: str) -> None:
    """One table's policy in one transaction: readers see the old policy or the new one, never a moment
    without any (which, with RLS forced, reads as an empty table). A short lock timeout keeps the
    ACCESS EXCLUSIVE request from queueing every reader behind a long transaction; it is retried."""
    from django.db import OperationalError, transaction

    for attempt in range(1, LOCK_ATTEMPTS + 1):
        try:
            with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
                for statement in policy_sql(table):
                    cursor.execute(statement)
            return
        except OperationalError as exc:
            if "lock timeout" not in str(exc) and "lock_timeout" not in str(exc):
                raise
            if attempt == LOCK_ATTEMPTS:
                raise PolicyLockTimeout(
                    f"{table} stayed locked by other transactions through {LOCK_ATTEMPTS} attempts "
                    f"of {LOCK_TIMEOUT}; run `manage.py migrate` again when they have ended."
                ) from exc
            time.sleep(0.5 * attempt)


def apply_policies(using_connection=None) -> list[str]:
    """Brings every tenant table's row-level security to what this code defines; answers the tables it
    changed (none on a database that is already up to date)."""
    conn = using_connection or connection
    if conn.vendor != "postgresql":
        return []
    existing = set(conn.introspection.table_names())
    tables = [table for table in tenant_tables() if table in existing]
    changed = []
    for table in tables_needing_policy(conn, tables):
        _apply_one(conn, table)
        changed.append(table)
    return changed


def apply_policies_after_migrate(sender, app_config=None, using="default", **kwargs) -> None:
    # post_migrate fires once per app; the policies only need applying once, after the last app.
    if app_config is None or app_config.label != "tenancy":
        return
    from django.db import connections

    apply_policies(connections[using])
