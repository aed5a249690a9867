"""The price permission (apps/common/prices.py), granted to the existing roles that see prices today:
the default roles except Warehouse, and every role that edits products or purchase orders or sells.
Roles are tenant rows under row-level security, so each tenant is entered in turn."""

from django.db import migrations

GRANTED_ROLE_NAMES = ("Administrator", "Purchasing", "Sales", "Supplier")
PRICE_EDITORS = (
    ("products", "change_product"),
    ("products", "add_product"),
    ("purchaseorders", "change_purchaseorder"),
    ("purchaseorders", "add_purchaseorder"),
    ("salesorders", "add_salesorder"),
)


def grant(apps, schema_editor):
    from django.db.models import Q

    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Tenant = apps.get_model("tenancy", "Tenant")
    Role = apps.get_model("users", "Role")
    content_type, _ = ContentType.objects.get_or_create(app_label="products", model="product")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="see_prices", defaults={"name": "Can see prices and amounts"}
    )
    editors = Q()
    for app_label, codename in PRICE_EDITORS:
        editors |= Q(permissions__content_type__app_label=app_label, permissions__codename=codename)
    postgres = schema_editor.connection.vendor == "postgresql"
    for tenant_id in Tenant.objects.values_list("pk", flat=True):
        if postgres:
            with schema_editor.connection.cursor() as cursor:
                cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
        roles = Role.objects.filter(tenant_id=tenant_id).filter(Q(name__in=GRANTED_ROLE_NAMES) | editors)
        for role in roles.distinct():
            if role.name != "Warehouse":
                role.permissions.add(permission)
    if postgres:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SELECT set_config('app.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [
        ("products", "0004_verbose_names"),
        ("users", "0002_verbose_names"),
        ("tenancy", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="product",
            options={
                "ordering": ["article_number"],
                "permissions": [("see_prices", "Can see prices and amounts")],
                "verbose_name": "product",
                "verbose_name_plural": "products",
            },
        ),
        migrations.RunPython(grant, migrations.RunPython.noop),
    ]
