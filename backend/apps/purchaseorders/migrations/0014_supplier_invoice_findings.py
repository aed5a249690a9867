from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0013_list_ordering_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="supplierinvoice",
            name="einvoice_findings",
            field=models.JSONField(blank=True, db_default=[], default=list, verbose_name="e-invoice findings"),
        ),
    ]
