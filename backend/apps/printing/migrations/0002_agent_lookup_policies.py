"""PostgreSQL: SELECT-only row-level-security policies for finding an agent's tenant by its token hash and
a pairing code's tenant by the code's hash, before any tenant is known (the agent API has no tenant_id).

Each admits exactly the row whose hash equals a transaction-local setting (`app.agent_token_hash`,
`app.pairing_code_hash`), which services._tenant_by_setting sets, reads one row with, and clears, as
eudr's carton_public_code policy does for the public trace page. Policies of one command are OR-ed, so
tenant requests are unaffected; writes still need the tenant policy.
"""

from django.db import migrations

POLICIES = [
    ("printing_printagent", "printagent_token_lookup", "token_hash", "app.agent_token_hash"),
    ("printing_pairingcode", "pairingcode_lookup", "code_hash", "app.pairing_code_hash"),
]


def create_policies(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, policy, column, setting in POLICIES:
        schema_editor.execute(f"DROP POLICY IF EXISTS {policy} ON {table}")
        schema_editor.execute(
            f"CREATE POLICY {policy} ON {table} AS PERMISSIVE FOR SELECT "
            f"USING ({column} = nullif(current_setting('{setting}', true), ''))"
        )


def drop_policies(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, policy, _column, _setting in POLICIES:
        schema_editor.execute(f"DROP POLICY IF EXISTS {policy} ON {table}")


class Migration(migrations.Migration):
    dependencies = [("printing", "0001_initial")]

    operations = [migrations.RunPython(create_policies, drop_policies)]
