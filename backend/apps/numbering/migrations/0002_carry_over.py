"""The counters of the purchasing area (purchase orders, receipts, sales orders, shipments, stock counts
shared its `NumberSequence` table) and of the invoices (`InvoiceCounter`) move into the numbering module's
counter: each series continues after its last number. A counter the numbering table already has keeps the
higher of the two values, so running this again changes nothing.

The old tables stay in the database for this release (the previous release still writes to them while it
runs beside this one); the next release drops them. Row-level security is forced on every table, so on
PostgreSQL each tenant is entered in turn (the policies read app.tenant_id).
"""

from django.db import migrations

# old key -> series (apps/numbering/services.py); a key not listed keeps its name
SEQUENCE_KEYS = {"stockcount": "stock_count"}
INVOICE_SERIES = {"INV": "invoice", "CN": "credit_note"}

UPSERT = """
INSERT INTO numbering_counter (tenant_id, series, year, last_value)
VALUES (%s, %s, %s, %s)
ON CONFLICT (tenant_id, series, year)
DO UPDATE SET last_value = GREATEST(numbering_counter.last_value, EXCLUDED.last_value)
"""


def _rows(cursor, table: str, name_column: str, tenant_id: int) -> list[tuple[str, int, int]]:
    cursor.execute(
        f"SELECT {name_column}, year, last_value FROM {table} WHERE tenant_id = %s ORDER BY id",  # noqa: S608
        [tenant_id],
    )
    return list(cursor.fetchall())


def carry_over(apps, schema_editor) -> None:
    connection = schema_editor.connection
    Tenant = apps.get_model("tenancy", "Tenant")
    tables = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for tenant_id in Tenant.objects.values_list("pk", flat=True).order_by("pk"):
            if connection.vendor == "postgresql":
                cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
            rows = []
            if "purchaseorders_numbersequence" in tables:
                for key, year, value in _rows(cursor, "purchaseorders_numbersequence", "key", tenant_id):
                    rows.append((SEQUENCE_KEYS.get(key, key), year, value))
            if "salesorders_invoicecounter" in tables:
                for series, year, value in _rows(cursor, "salesorders_invoicecounter", "series", tenant_id):
                    rows.append((INVOICE_SERIES.get(series, series), year, value))
            for series, year, value in rows:
                if connection.vendor == "postgresql":
                    cursor.execute(UPSERT, [tenant_id, series, year, value])
                else:
                    cursor.execute(
                        "INSERT INTO numbering_counter (tenant_id, series, year, last_value) VALUES (%s, %s, %s, %s)"
                        " ON CONFLICT (tenant_id, series, year) DO UPDATE SET last_value ="
                        " MAX(numbering_counter.last_value, excluded.last_value)",
                        [tenant_id, series, year, value],
                    )
        if connection.vendor == "postgresql":
            cursor.execute("SELECT set_config('app.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [
        ("numbering", "0001_initial"),
        ("purchaseorders", "0006_list_order_date_index"),
        ("salesorders", "0009_invoice_seller_payment_details"),
        ("tenancy", "0010_company_payment_details"),
    ]

    operations = [migrations.RunPython(carry_over, migrations.RunPython.noop)]
