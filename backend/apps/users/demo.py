"""Demo internal users of tenant 3 beyond the foundation's sign-ins (password demo1234): a purchaser, a
sales colleague and a former employee whose account is deactivated."""

from __future__ import annotations

from apps.tenancy.context import tenant_context
from apps.tenancy.demo import DEMO_PASSWORD
from apps.tenancy.models import Membership
from apps.users.models import User

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
