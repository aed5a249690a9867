"""Demo roles, departments and users (password demo1234, demo data only) of the demo tenants
(apps/tenancy/demo.py): the default roles and four departments in every tenant; the sign-ins of the
foundation (an administrator of every tenant, a sales user, a warehouse user); internal users of tenant 3
beyond them (a purchaser, a sales colleague and a former employee whose account is deactivated); and the
sign-ins of two parent vendors (supplier users). The vendors are the suppliers demo's, so this loads after
it (`DEMO_AFTER`); no area before the suppliers uses the demo's users, and these are the only demo rows of
users, roles, departments and memberships, made in the same order as ever (the same ids)."""

from __future__ import annotations

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership
from apps.users.models import Department, User
from apps.users.roles import roles_ensure_defaults

DEMO_PASSWORD = "demo1234"

DEMO_SIGN_INS = [
    ("admin", "internal, all tenants, all roles (starts in the empty Sandbox: switch company to 3)"),
    ("sales", "internal, tenant 2 only"),
    ("warehouse", "warehouse user, tenant 3"),
    ("supplier", "supplier user, tenant 3, parent vendor Shanghai Evergreen Packaging"),
    ("supplier2", "supplier user, tenant 3, parent vendor Ningbo Bluewave Cartons"),
]

DEMO_AFTER = ("suppliers",)

DEMO_USERS = [
    {
        "username": "purchaser",
        "role": "Purchasing",
        "department": "Purchasing",
        "active": True,
        "fields": {
            "email": "purchasing@eurotrade.example",
            "first_name": "Pieter",
            "last_name": "Jansen",
            "name": "Pieter Jansen",
            "phone": "+31 10 123 4570",
            "visma_owner_id": "3002",
            "visma_id": "U-3002",
            "visma_code": "PUR",
            "city": "Rotterdam",
            "country": "Netherlands",
        },
    },
    {
        "username": "sales.nl",
        "role": "Sales",
        "department": "Sales",
        "active": True,
        "fields": {
            "email": "sales@eurotrade.example",
            "first_name": "Sanne",
            "last_name": "Bakker",
            "name": "Sanne Bakker",
            "phone": "+31 10 123 4571",
            "visma_owner_id": "3003",
            "visma_id": "U-3003",
            "visma_code": "SNL",
            "city": "Rotterdam",
            "country": "Netherlands",
        },
    },
    {
        "username": "former",
        "role": "Purchasing",
        "department": "Purchasing",
        "active": False,
        "fields": {
            "email": "former@eurotrade.example",
            "name": "Frank de Boer",
            "city": "Utrecht",
            "country": "Netherlands",
        },
    },
]


def load(ctx: dict) -> None:
    load_sign_ins(ctx)
    tenant = ctx["tenants"][3]
    for spec in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=spec["username"], defaults={**spec["fields"], "is_active": spec["active"]}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([ctx["roles"][3][spec["role"]]])
            membership.department = ctx["departments"][3][spec["department"]]
            membership.save()
        ctx["users"][spec["username"]] = user
    load_supplier_users(ctx)


def load_supplier_users(ctx: dict) -> None:
    """The parent vendors' sign-ins, once the suppliers demo made the vendors (`DEMO_AFTER`)."""
    from apps.suppliers.models import ParentVendor

    tenant = ctx["tenants"][3]
    with tenant_context(tenant):
        vendors = {v.code: v for v in ParentVendor.objects.all()}
    for username, vendor_code, full_name in (
        ("supplier", "PV-SEP", "Li Wei"),
        ("supplier2", "PV-NBC", "Chen Jing"),
    ):
        user, created = User.objects.get_or_create(
            username=username,
            defaults={
                "email": f"{username}@factory.example",
                "name": full_name,
                "is_supplier": True,
                "parent_vendor": vendors[vendor_code],
                "country": "China",
            },
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([ctx["roles"][3]["Supplier"]])
        ctx["users"][username] = user


def load_sign_ins(ctx: dict) -> None:
    """The roles and departments of every demo tenant and the foundation's sign-ins."""
    tenants = ctx["tenants"]
    roles = {}
    departments = {}
    for pk, tenant in tenants.items():
        with tenant_context(tenant):
            roles[pk] = roles_ensure_defaults()
            departments[pk] = {
                name: Department.objects.get_or_create(name=name)[0]
                for name in ("Management", "Sales", "Purchasing", "Warehouse")
            }
    ctx["roles"] = roles
    ctx["departments"] = departments

    def user(username: str, **fields) -> User:
        obj, created = User.objects.get_or_create(username=username, defaults=fields)
        if created:
            obj.set_password(DEMO_PASSWORD)
            obj.save()
        return obj

    admin = user(
        "admin",
        email="admin@eurotrade.example",
        first_name="Ada",
        last_name="Admin",
        name="Ada Admin",
        is_staff=True,
        is_superuser=False,
        visma_owner_id="1001",
        visma_id="U-1001",
        visma_code="ADM",
        city="Rotterdam",
        country="Netherlands",
    )
    sales = user(
        "sales",
        email="sales@nordic.example",
        first_name="Sven",
        last_name="Sales",
        name="Sven Sales",
        visma_owner_id="2001",
        visma_id="U-2001",
        visma_code="SAL",
        city="Malmö",
        country="Sweden",
    )
    warehouse = user(
        "warehouse",
        email="warehouse@eurotrade.example",
        first_name="Willem",
        last_name="de Vries",
        name="Willem de Vries",
        is_warehouse=True,
        visma_owner_id="3001",
        city="Rotterdam",
        country="Netherlands",
    )
    ctx["users"] = {"admin": admin, "sales": sales, "warehouse": warehouse}

    def member(u: User, tenant_id: int, role_names: list[str], department: str | None = None) -> None:
        membership, _ = Membership.objects.get_or_create(user=u, tenant=tenants[tenant_id])
        with tenant_context(tenants[tenant_id]):
            membership.roles.set([roles[tenant_id][name] for name in role_names])
            if department:
                membership.department = departments[tenant_id][department]
                membership.save()

    for tenant_id in tenants:
        member(admin, tenant_id, list(roles[tenant_id].keys()), "Management")
    member(sales, 2, ["Sales"], "Sales")
    member(warehouse, 3, ["Warehouse"], "Warehouse")
