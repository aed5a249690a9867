"""Demo internal users of tenant 3 beyond the foundation's sign-ins (password demo1234): a purchaser, a
sales colleague and a former employee whose account is deactivated; and the sign-ins of two parent vendors
(supplier users), so it loads after the suppliers demo (`DEMO_AFTER`)."""

from __future__ import annotations

from apps.tenancy.context import tenant_context
from apps.tenancy.demo import DEMO_PASSWORD
from apps.tenancy.models import Membership
from apps.users.models import User

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
