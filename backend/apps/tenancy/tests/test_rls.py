"""PostgreSQL row-level security: every tenant table is forced, unset means no rows, tenants can't cross."""

import pytest
from django.db import connection

from apps.suppliers.models import ParentVendor
from apps.tenancy import rls
from apps.tenancy.context import tenant_context

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def tables_with_tenant_column() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.columns "
            "WHERE column_name = 'tenant_id' AND table_schema = current_schema()"
        )
        return {row[0] for row in cursor.fetchall()}


def test_connected_as_an_ordinary_role(pg_role_check):
    pass


def test_every_table_with_a_tenant_column_has_forced_rls_and_the_policy():
    tables = tables_with_tenant_column() - set(rls.RLS_EXEMPT_TABLES)
    assert tables, "no tenant tables found"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class "
            "WHERE relname = ANY(%s) AND relkind = 'r'",
            [list(tables)],
        )
        flags = {name: (enabled, forced) for name, enabled, forced in cursor.fetchall()}
        cursor.execute("SELECT tablename FROM pg_policies WHERE policyname = %s", [rls.POLICY_NAME])
        with_policy = {row[0] for row in cursor.fetchall()}
    missing = sorted(t for t in tables if flags.get(t) != (True, True) or t not in with_policy)
    assert not missing, f"tables without forced row-level security: {missing}"
    # Every TenantModel's table is among them (a new tenant model gets its policy from post_migrate).
    assert set(rls.tenant_tables()) <= tables


def test_sql_without_the_tenant_setting_sees_no_rows(tenant2, tenant3):
    with tenant_context(tenant2):
        ParentVendor.objects.create(name="Vendor A")
    with tenant_context(tenant3):
        ParentVendor.objects.create(name="Vendor B")
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('app.tenant_id', '', true)")
        cursor.execute("SELECT count(*) FROM suppliers_parentvendor")
        assert cursor.fetchone()[0] == 0


def test_one_tenant_cannot_read_or_write_anothers_rows(tenant2, tenant3):
    with tenant_context(tenant2):
        own = ParentVendor.objects.create(name="Vendor A")
    with tenant_context(tenant3):
        ParentVendor.objects.create(name="Vendor B")
    with tenant_context(tenant3), connection.cursor() as cursor:
        # Raw SQL bypasses the managers: only the database policy stands in the way.
        cursor.execute("SELECT name FROM suppliers_parentvendor")
        assert [row[0] for row in cursor.fetchall()] == ["Vendor B"]
        cursor.execute("UPDATE suppliers_parentvendor SET name = 'hijacked' WHERE id = %s", [own.pk])
        assert cursor.rowcount == 0
        cursor.execute("DELETE FROM suppliers_parentvendor WHERE id = %s", [own.pk])
        assert cursor.rowcount == 0
        with pytest.raises(Exception, match="row-level security"):
            with connection.cursor() as inner:
                inner.execute("SAVEPOINT rls_insert")
                try:
                    inner.execute(
                        "INSERT INTO suppliers_parentvendor (tenant_id, name, cname, code) VALUES (%s, 'x', '', '')",
                        [tenant2.pk],
                    )
                finally:
                    inner.execute("ROLLBACK TO SAVEPOINT rls_insert")
    with tenant_context(tenant2):
        assert ParentVendor.objects.get(pk=own.pk).name == "Vendor A"


def test_the_setting_is_transaction_local():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.tenant_id', true)")
        assert cursor.fetchone()[0] in (None, "")


def test_a_database_that_is_up_to_date_is_left_alone():
    # The test database was migrated: every policy is already ours, so migrate changes nothing (no
    # ACCESS EXCLUSIVE lock on any table, no moment without a policy).
    assert rls.apply_policies() == []


def test_only_a_table_whose_policy_differs_is_changed():
    table = ParentVendor._meta.db_table
    quoted = connection.ops.quote_name(table)
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER POLICY {rls.POLICY_NAME} ON {quoted} USING (true)")
    assert rls.tables_needing_policy(connection, rls.tenant_tables()) == [table]
    assert rls.apply_policies() == [table]
    assert rls.apply_policies() == []
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {quoted} NO FORCE ROW LEVEL SECURITY")
    assert rls.apply_policies() == [table]


def test_a_locked_table_is_retried_then_reported(monkeypatch):
    """Another transaction holds the table: the change waits at most the lock timeout per attempt and
    then says what to do, instead of queueing every reader behind it."""
    import psycopg

    table = ParentVendor._meta.db_table
    quoted = connection.ops.quote_name(table)
    monkeypatch.setattr(rls, "tables_needing_policy", lambda conn, tables: [table])
    monkeypatch.setattr(rls, "LOCK_TIMEOUT", "50ms")
    monkeypatch.setattr(rls, "LOCK_ATTEMPTS", 2)
    monkeypatch.setattr(rls.time, "sleep", lambda seconds: None)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as other:
        other.execute(f"SELECT 1 FROM {quoted} LIMIT 1")  # an open transaction holding ACCESS SHARE
        with pytest.raises(rls.PolicyLockTimeout, match="stayed locked"):
            rls.apply_policies()
        other.rollback()
    # Once the other transaction has ended, the same change goes through.
    assert rls.apply_policies() == [table]
