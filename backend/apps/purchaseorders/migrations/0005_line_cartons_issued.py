from django.db import migrations, models

# The count of each line's active labels, once, for the rows that exist. Row-level security is forced on
# both tables, so on PostgreSQL each tenant is entered in turn (the policies read app.tenant_id).
COUNT_SQL = """
UPDATE purchaseorders_purchaseorderline AS line
SET cartons_issued = (
    SELECT COUNT(*) FROM eudr_cartonlabel AS label
    WHERE label.purchase_order_line_id = line.id AND label.status <> 'voided'
)
WHERE line.tenant_id = %s
"""


def count_issued(apps, schema_editor):
    connection = schema_editor.connection
    Tenant = apps.get_model("tenancy", "Tenant")
    with connection.cursor() as cursor:
        for tenant_id in Tenant.objects.values_list("pk", flat=True).order_by("pk"):
            if connection.vendor == "postgresql":
                cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
            cursor.execute(COUNT_SQL, [tenant_id])
        if connection.vendor == "postgresql":
            cursor.execute("SELECT set_config('app.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0004_verbose_names"),
        ("eudr", "0007_merge_dds_filing_order_tolerance"),
        ("tenancy", "0002_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="purchaseorderline",
            name="cartons_issued",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="issued cartons"),
        ),
        migrations.RunPython(count_issued, migrations.RunPython.noop),
    ]
