"""PostgreSQL: a second, SELECT-only row-level-security policy on carton labels for the public trace page.

The table's `tenant_isolation` policy (apps/tenancy/rls.py) admits the rows of the tenant in
`app.tenant_id`. The public trace page knows no tenant, only a carton's public code; this policy admits
exactly the row whose code equals the transaction-local setting `app.public_code`
(selectors.carton_tenant_for_public_code sets it, reads the one row, and clears it). Policies of the same
command are OR-ed, so tenant requests are unaffected; writes still need the tenant policy.
"""

from django.db import migrations

TABLE = "eudr_cartonlabel"
POLICY = "carton_public_code"


def create_policy(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP POLICY IF EXISTS {POLICY} ON {TABLE}")
    schema_editor.execute(
        f"CREATE POLICY {POLICY} ON {TABLE} AS PERMISSIVE FOR SELECT "
        f"USING (code = nullif(current_setting('app.public_code', true), ''))"
    )


def drop_policy(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP POLICY IF EXISTS {POLICY} ON {TABLE}")


class Migration(migrations.Migration):
    dependencies = [("eudr", "0001_initial")]

    operations = [migrations.RunPython(create_policy, drop_policy)]
