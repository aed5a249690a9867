"""Demo tenants (demo data only): one company in each EUDR role. Their roles, departments and sign-ins are
the users demo's (apps/users/demo.py)."""

from __future__ import annotations

from apps.tenancy.models import Tenant
from apps.tenancy.services import tenant_sequence_reset

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


def load(ctx: dict) -> None:
    tenants = {}
    for pk, name, code, extra in TENANTS:
        tenant, _ = Tenant.objects.update_or_create(pk=pk, defaults={"name": name, "code": code, **extra})
        tenants[pk] = tenant
    tenant_sequence_reset()
    ctx["tenants"] = tenants
