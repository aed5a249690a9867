"""NumberSequence is no longer a model: its counters moved into the numbering module (numbering 0002). Its table
stays for this release (the previous release still writes to it while it runs beside this one); the next
release drops it. Its foreign key to the tenant goes now: nothing reads the table through it, and the
tenant table could not be emptied (TRUNCATE) while a table outside the models refers to it."""

from django.db import migrations

DROP_FOREIGN_KEYS = """
DO $$
DECLARE constraint_row record;
BEGIN
    FOR constraint_row IN
        SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'purchaseorders_numbersequence'::regclass
    LOOP
        EXECUTE format('ALTER TABLE purchaseorders_numbersequence DROP CONSTRAINT %I', constraint_row.conname);
    END LOOP;
END $$;
"""


def drop_foreign_keys(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(DROP_FOREIGN_KEYS)  # no parameters: the % of format() stays as it is


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0006_list_order_date_index"),
        ("numbering", "0002_carry_over"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="NumberSequence")],
            database_operations=[migrations.RunPython(drop_foreign_keys, migrations.RunPython.noop)],
        )
    ]
