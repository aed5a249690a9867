"""Demo tenants, roles and sign-ins (password demo1234, demo data only)."""

from __future__ import annotations

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership, Tenant
from apps.tenancy.services import tenant_sequence_reset
from apps.users.models import Department, User
from apps.users.roles import roles_ensure_defaults

DEMO_PASSWORD = "demo1234"

TENANTS = [
    # One company in each EUDR role (docs/eudr.md, "The company's role"): the Sandbox is a micro or small
    # primary operator with its simplified declaration, Nordic Packaging a downstream trader (SME) that
    # keeps its suppliers' reference numbers, EuroTrade the importing operator that files statements.
    (
        1,
        "Sandbox",
        "sandbox",
        {
            "eudr_import_role": "none",
            "eudr_primary_role": "micro_small_primary",
            "eudr_is_sme": True,
            "simplified_declaration_id": "S26SEFORESTA01",
        },
    ),
    (
        2,
        "Nordic Packaging AB",
        "nordic-packaging",
        {
            "country": "SE",
            "vat_number": "SE556677889901",
            "eori_number": "SE5566778899",
            "eudr_import_role": "none",
            "eudr_purchase_role": "downstream",
            "eudr_is_sme": True,
        },
    ),
    (
        3,
        "EuroTrade Goods BV",
        "eurotrade",
        {
            "country": "NL",
            "vat_number": "NL862345678B01",
            "eori_number": "NL862345678",
            "address": "Havenweg 12, 3089 JA Rotterdam",
            "legal_name": "EuroTrade Goods B.V.",
            "email": "compliance@eurotrade.example",
            "phone": "+31 10 123 4567",
            "registration_number": "KvK 24123456",
            "iban": "NL91ABNA0417164300",
            "bic": "ABNANL2A",
            "eudr_import_role": "operator",
        },
    ),
]

DEMO_SIGN_INS = [
    ("admin", "internal, all tenants, all roles (starts in the empty Sandbox: switch company to 3)"),
    ("sales", "internal, tenant 2 only"),
    ("warehouse", "warehouse user, tenant 3"),
    ("supplier", "supplier user, tenant 3, parent vendor Shanghai Evergreen Packaging"),
    ("supplier2", "supplier user, tenant 3, parent vendor Ningbo Bluewave Cartons"),
]


def load(ctx: dict) -> None:
    tenants = {}
    for pk, name, code, extra in TENANTS:
        tenant, _ = Tenant.objects.update_or_create(pk=pk, defaults={"name": name, "code": code, **extra})
        tenants[pk] = tenant
    tenant_sequence_reset()
    ctx["tenants"] = tenants

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
