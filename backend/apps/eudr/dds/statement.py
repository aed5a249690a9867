"""dds.json: the Annex II information of a delivery, shaped like the EU information system's API (v3)
statement (EUDR.md, "What a DDS holds"). `statement` can be submitted as it is; `meta` is ours.

Shape (keys of `statement`): operatorRole (OPERATOR or REPRESENTATIVE_OPERATOR, from the company
settings), operator {name, address, country, email, phone, identifiers [{type: EORI|VAT, value}]},
representedOperator (same shape; only for REPRESENTATIVE_OPERATOR), internalReferenceNumber, activityType, countryOfActivity, borderCrossCountry,
comment, geoLocationConfidential, commodities [{descriptors {descriptionOfGoods, goodsMeasure {netWeight}},
hsHeading, speciesInfo [{scientificName, commonName}], producers [{country, name, geometryGeojson}]}],
groupedDeclarations [{referenceNumber, verificationNumber}].
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from itertools import zip_longest
from typing import Any

from django.utils import timezone

from apps.eudr.geo import collection_to_base64

from .checks import DESCRIPTION_MAX, DdsCheck, DdsFacts

DEFAULT_HS_HEADING = "4819"
ACTIVITY_IMPORT = "IMPORT"
OPERATOR = "OPERATOR"
REPRESENTATIVE_OPERATOR = "REPRESENTATIVE_OPERATOR"
FORMAT = "cartontrace-dds/1"


def _kg(value) -> float:
    return float(Decimal(value or 0).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))


def _truncate(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def hs_heading(code: str) -> str:
    digits = "".join(ch for ch in (code or "") if ch.isdigit())[:6]
    return digits if len(digits) >= 4 else DEFAULT_HS_HEADING


def species_info(lines) -> list[dict[str, str]]:
    pairs: list[dict[str, str]] = []
    for line in lines:
        scientific = [str(s).strip() for s in (line.scientific_names or []) if str(s).strip()]
        common = [str(c).strip() for c in (line.common_names or []) if str(c).strip()]
        for sci, com in zip_longest(scientific, common, fillvalue=""):
            pair = {"scientificName": sci[:200], "commonName": com[:200]}
            if sci and pair not in pairs:
                pairs.append(pair)
    return pairs[:500]


def producers(facts: DdsFacts) -> list[dict[str, Any]]:
    """One producer per (name, country) of the plots; each with the base64 GeoJSON of its own plots."""
    delivery = facts.delivery
    if facts.geo is None:
        return []
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for feature in facts.geo.feature_collection["features"]:
        if feature["geometry"] is None:
            continue
        properties = feature["properties"]
        name = str(properties.get("ProducerName") or delivery.forest_supplier_name or "").strip()
        country = str(properties.get("ProducerCountry") or delivery.country_code or "").strip()
        groups.setdefault((name, country), []).append(feature)
    return [
        {
            "country": country,
            "name": name[:500],
            "geometryGeojson": collection_to_base64({"type": "FeatureCollection", "features": features}),
        }
        for (name, country), features in groups.items()
    ][:1000]


def commodities(facts: DdsFacts) -> list[dict[str, Any]]:
    """One commodity per HS heading of the carton products issued from the delivery."""
    delivery = facts.delivery
    species = species_info(facts.lines)
    plot_producers = producers(facts)
    by_heading: dict[str, dict[str, Any]] = {}
    for product, net_kg, _count in facts.products:
        heading = hs_heading(product.hs_code)
        entry = by_heading.setdefault(heading, {"kg": Decimal(0), "names": []})
        entry["kg"] += Decimal(net_kg or 0)
        entry["names"].append(f"{product.name} ({product.article_number})")
    if not by_heading:
        by_heading[DEFAULT_HS_HEADING] = {
            "kg": Decimal(delivery.original_kg or 0),
            "names": [delivery.description or "Paper and paperboard packaging"],
        }
    result = []
    for heading, entry in by_heading.items():
        result.append(
            {
                "descriptors": {
                    "descriptionOfGoods": _truncate("; ".join(entry["names"]), DESCRIPTION_MAX),
                    "goodsMeasure": {"netWeight": _kg(entry["kg"])},
                },
                "hsHeading": heading,
                "speciesInfo": species,
                "producers": plot_producers,
            }
        )
    return result[:200]


def _identifiers(eori: str, vat: str) -> list[dict[str, str]]:
    return [{"type": kind, "value": value} for kind, value in (("EORI", eori), ("VAT", vat)) if value]


def _represented_operator(tenant) -> dict[str, Any]:
    """`representedOperator` when the company files as an authorised representative (EUDR.md)."""
    if tenant.operator_role != REPRESENTATIVE_OPERATOR:
        return {}
    return {
        "representedOperator": {
            "name": tenant.represented_operator_name,
            "address": tenant.represented_operator_address,
            "country": tenant.represented_operator_country,
            "email": tenant.represented_operator_email,
            "phone": tenant.represented_operator_phone,
            "identifiers": _identifiers(tenant.represented_operator_eori, tenant.represented_operator_vat),
        }
    }


def build_statement(facts: DdsFacts, *, checks: list[DdsCheck], job_id: str) -> dict[str, Any]:
    delivery, tenant = facts.delivery, facts.tenant
    identifiers = _identifiers(tenant.eori_number, tenant.vat_number)
    grouped = []
    if delivery.upstream_dds_reference and delivery.upstream_dds_verification:
        grouped.append(
            {
                "referenceNumber": delivery.upstream_dds_reference,
                "verificationNumber": delivery.upstream_dds_verification,
            }
        )
    vendor = delivery.parent_vendor
    statement = {
        "operatorRole": tenant.operator_role or OPERATOR,
        "operator": {
            "name": tenant.legal_name or tenant.name,
            "address": tenant.address,
            "country": tenant.country,
            "email": tenant.email,
            "phone": tenant.phone,
            "identifiers": identifiers,
        },
        **_represented_operator(tenant),
        "internalReferenceNumber": _truncate(
            f"{delivery.delivery_number or delivery.pk}-{job_id[:8]}".upper(), 50
        ),
        "activityType": ACTIVITY_IMPORT,
        "countryOfActivity": tenant.country,
        "borderCrossCountry": tenant.country,
        "comment": _truncate(
            f"Raw-material delivery {delivery.delivery_number} of {vendor.name if vendor else '-'}; "
            f"harvest {delivery.harvest_begin_month or '?'} to {delivery.harvest_end_month or '?'}.",
            500,
        ),
        "geoLocationConfidential": bool(delivery.geolocation_confidential),
        "commodities": commodities(facts),
        "groupedDeclarations": grouped,
    }
    return {
        "format": FORMAT,
        "statement": statement,
        "meta": {
            "generatedAt": timezone.now().isoformat(),
            "jobId": job_id,
            "delivery": {
                "id": delivery.pk,
                "deliveryNumber": delivery.delivery_number,
                "parentVendor": vendor.name if vendor else "",
                "countryOfProduction": delivery.country_code,
                "forestSupplier": delivery.forest_supplier_name,
                "harvestBeginMonth": delivery.harvest_begin_month,
                "harvestEndMonth": delivery.harvest_end_month,
                "cartons": facts.labels_count,
                "plotAreaHa": facts.geo.total_area_ha if facts.geo else None,
            },
            "warnings": [c.as_dict() for c in checks if c.severity == "warning"],
        },
    }
