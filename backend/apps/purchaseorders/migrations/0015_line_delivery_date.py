from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0014_supplier_invoice_findings"),
    ]

    operations = [
        migrations.AddField(
            model_name="purchaseorderline",
            name="delivery_date",
            field=models.DateField(blank=True, null=True, verbose_name="delivery date"),
        ),
    ]
