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
