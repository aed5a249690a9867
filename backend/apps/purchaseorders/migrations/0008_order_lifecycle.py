"""The purchase order lifecycle (docs/purchasing.md, "Lifecycle"): draft -> confirmed -> sent ->
partly_received -> received -> closed, and cancelled. Existing orders were all released to their
supplier, so:

- open or on hold with nothing received -> confirmed; with something received -> partly_received
  (on hold is gone: an order that should wait stays confirmed and is not sent);
- completed with every line fully received -> received; completed by hand short -> closed;
- cancelled stays.

E-mail scenarios of `purchase_order.created` now react to `purchase_order.sent` (the order goes to the
supplier when it is sent, not when a draft is created).

Row-level security is forced on these tables, so on PostgreSQL each tenant is entered in turn."""

from django.db import migrations, models

RECEIVED_SOMETHING = (
    "EXISTS (SELECT 1 FROM purchaseorders_purchaseorderline l WHERE l.order_id = o.id AND l.received_qty > 0)"
)
OPEN_LINE = (
    "EXISTS (SELECT 1 FROM purchaseorders_purchaseorderline l "
    "WHERE l.order_id = o.id AND l.received_qty < l.order_qty)"
)
FORWARD = [
    f"UPDATE purchaseorders_purchaseorder o SET status = 'partly_received' "
    f"WHERE o.tenant_id = %s AND o.status IN ('open', 'on_hold') AND {RECEIVED_SOMETHING}",
    "UPDATE purchaseorders_purchaseorder o SET status = 'confirmed' "
    "WHERE o.tenant_id = %s AND o.status IN ('open', 'on_hold')",
    f"UPDATE purchaseorders_purchaseorder o SET status = 'closed' "
    f"WHERE o.tenant_id = %s AND o.status = 'completed' AND {OPEN_LINE}",
    "UPDATE purchaseorders_purchaseorder o SET status = 'received' WHERE o.tenant_id = %s AND o.status = 'completed'",
    "UPDATE notifications_emailscenario SET event = 'purchase_order.sent' "
    "WHERE tenant_id = %s AND event = 'purchase_order.created'",
    "UPDATE notifications_emailtemplate SET event = 'purchase_order.sent' "
    "WHERE tenant_id = %s AND event = 'purchase_order.created'",
]
BACKWARD = [
    "UPDATE purchaseorders_purchaseorder o SET status = 'open' "
    "WHERE o.tenant_id = %s AND o.status IN ('draft', 'confirmed', 'sent', 'partly_received')",
    "UPDATE purchaseorders_purchaseorder o SET status = 'completed' "
    "WHERE o.tenant_id = %s AND o.status IN ('received', 'closed')",
    "UPDATE notifications_emailscenario SET event = 'purchase_order.created' "
    "WHERE tenant_id = %s AND event = 'purchase_order.sent'",
    "UPDATE notifications_emailtemplate SET event = 'purchase_order.created' "
    "WHERE tenant_id = %s AND event = 'purchase_order.sent'",
]


def _run(statements):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        Tenant = apps.get_model("tenancy", "Tenant")
        with connection.cursor() as cursor:
            for tenant_id in Tenant.objects.values_list("pk", flat=True).order_by("pk"):
                if connection.vendor == "postgresql":
                    cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
                for sql in statements:
                    cursor.execute(sql, [tenant_id])
            if connection.vendor == "postgresql":
                cursor.execute("SELECT set_config('app.tenant_id', '', true)")

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0007_delete_numbersequence"),
        ("notifications", "0004_daily_events_runs"),
        ("tenancy", "0002_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="purchaseorder",
            name="status",
            field=models.CharField(
                choices=[
                    ("draft", "Draft"),
                    ("confirmed", "Confirmed"),
                    ("sent", "Sent"),
                    ("partly_received", "Partly received"),
                    ("received", "Received"),
                    ("closed", "Closed"),
                    ("cancelled", "Cancelled"),
                ],
                default="draft",
                max_length=20,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
