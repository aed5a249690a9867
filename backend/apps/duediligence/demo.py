"""Due diligence demo data (docs/duediligence.md): tenant 3 has assessed its Brazilian supplier (Ningbo
Bluewave's eucalyptus from a standard-risk country): one criterion at risk, mitigated by an independent
audit, concluded negligible. Shanghai Evergreen's paper comes from low-risk China (simplified due
diligence), so it needs none."""

from __future__ import annotations

from apps.duediligence.services import CRITERIA, assessment_create
from apps.suppliers.models import ParentVendor
from apps.tenancy.context import tenant_context

from .models import RiskAssessment

DEMO_AFTER = ("eudr",)
TENANT = 3

EVIDENCE = {
    "a": "Brazil: standard risk in Implementing Regulation (EU) 2025/1093.",
    "b": "Plantation forest (eucalyptus), Mato Grosso do Sul; FSC forest management certificate FSC-C009927.",
    "c": "No indigenous territory within 10 km of the plots (FUNAI map, 2026-03).",
    "d": "Not applicable: no indigenous peoples concerned.",
    "e": "No claims registered for the plots (FUNAI, state land registry extract 2026-03).",
    "f": "Deforestation in the state is significant: see the audit below.",
    "g": "Certificates checked in the FSC database on 2026-10-02; plots match the CAR registration.",
    "h": "Corruption perception index 36: documents were checked against the public registers.",
    "i": "Two steps: plantation to Suzano mill to the carton factory; mass balance by delivery.",
    "j": "FSC Mix Credit claim; the factory keeps this paper apart (batch records).",
    "k": "No conclusions concerning Brazilian plantation eucalyptus.",
    "l": "No substantiated concerns, no non-compliance history.",
    "m": "None found.",
    "n": "FSC FM and COC certificates valid; SGS audit report 2026-114.",
}


def load(ctx: dict) -> None:
    tenant = ctx["tenants"][TENANT]
    admin = ctx["users"]["admin"]
    with tenant_context(tenant):
        vendor = ParentVendor.objects.filter(code="PV-NBC").first()
        if vendor is None or RiskAssessment.objects.exists():
            return
        assessment_create(
            delivery_id=None,
            parent_vendor=vendor,
            criteria=[
                {"code": code, "finding": "risk" if code == "f" else "no_risk", "evidence": EVIDENCE[code]}
                for code in CRITERIA
            ],
            conclusion=RiskAssessment.Conclusion.NEGLIGIBLE,
            mitigation=[
                {
                    "kind": "independent_audit",
                    "description": "Satellite and field audit of the plots against the 2020 forest cover",
                    "evidence": "SGS audit report 2026-114: no forest loss after 31 December 2020",
                }
            ],
            summary="Standard-risk country; the one risk found is mitigated by the independent audit.",
            user=admin,
        )
