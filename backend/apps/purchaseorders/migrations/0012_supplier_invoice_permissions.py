"""The supplier invoice permissions, granted to the existing roles that work on purchase orders (those
holding purchaseorders.change_purchaseorder: Administrator and Purchasing by default). New tenants get
them from their default roles' patterns ("purchaseorders.*"). Roles are tenant rows under row-level
security, so each tenant is entered in turn."""

from django.db import migrations

MODELS = {"supplierinvoice": "supplier invoice", "supplierinvoiceline": "supplier invoice line"}
ACTIONS = ("add", "change", "delete", "view")


def grant(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Tenant = apps.get_model("tenancy", "Tenant")
    Role = apps.get_model("users", "Role")
    permissions = []
    for model, verbose in MODELS.items():
        content_type, _ = ContentType.objects.get_or_create(app_label="purchaseorders", model=model)
        for action in ACTIONS:
            permission, _ = Permission.objects.get_or_create(
                content_type=content_type,
                codename=f"{action}_{model}",
                defaults={"name": f"Can {action} {verbose}"},
            )
            permissions.append(permission)
    postgres = schema_editor.connection.vendor == "postgresql"
    for tenant_id in Tenant.objects.values_list("pk", flat=True):
        if postgres:
            with schema_editor.connection.cursor() as cursor:
                cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
        roles = Role.objects.filter(
            tenant_id=tenant_id,
            permissions__content_type__app_label="purchaseorders",
            permissions__codename="change_purchaseorder",
        ).exclude(name__in=("Supplier", "Warehouse"))
        for role in roles.distinct():
            role.permissions.add(*permissions)
    if postgres:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SELECT set_config('app.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [
        ("purchaseorders", "0011_supplier_invoices"),
        ("users", "0002_verbose_names"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
