"""dds.json: the Annex II information of a delivery in the shape of the EU information system's V3
`SubmitDdsRequest` (docs/regulation.md, "The V3 submission"); dds.xml (xml.py) is the same request as the SOAP body.

    {"format": "cartontrace-dds/3",
     "operatorRole": "OPERATOR" | "REPRESENTATIVE_OPERATOR",
     "statement": {                                  # the keys in the schema's order
        internalReferenceNumber (<= 35), activityType, representedOperator?, countryOfActivity,
        borderCrossCountry, comment (<= 2000), commodities [1..200], geoLocationConfidential,
        groupedDeclarations [{"groupedDeclaration": <reference number>}]},
     "meta": {...}}                                  # ours: not part of the request

There is no `operator` element: the operator is the TRACES account that submits. `representedOperator`
(only for REPRESENTATIVE_OPERATOR) = {operatorReferenceNumber [{identifierType: eori|vat, identifierValue}],
operatorAddress {country, street, postalCode, city, fullAddress?}, operatorEmail?, operatorPhone?,
operatorName}. Commodity = {position, descriptors {descriptionOfGoods, goodsMeasure {netWeight}},
hsHeading, speciesInfo [{scientificName, commonName}], producers [{position, country, name?,
geometryGeojson}]}. Empty optional values are left out, never sent empty.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from itertools import zip_longest
from typing import Any

from django.utils import timezone

from apps.eudr.geo import collection_to_base64
from apps.tenancy.operator import normalise_identifier

from .checks import DESCRIPTION_MAX, DdsCheck, DdsFacts

DEFAULT_HS_HEADING = "4819"
ACTIVITY_IMPORT = "IMPORT"
OPERATOR = "OPERATOR"
REPRESENTATIVE_OPERATOR = "REPRESENTATIVE_OPERATOR"
FORMAT = "cartontrace-dds/3"
INTERNAL_REFERENCE_MAX = 35
COMMENT_MAX = 2000


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
            # Each name 1 to 200 characters when present: an empty one is left out, never sent empty.
            pair = {
                key: value[:200] for key, value in (("scientificName", sci), ("commonName", com)) if value
            }
            if pair and pair not in pairs:
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
    result = []
    for position, ((name, country), features) in enumerate(groups.items(), start=1):
        producer: dict[str, Any] = {"position": position, "country": country}
        if name:
            producer["name"] = name[:500]
        producer["geometryGeojson"] = collection_to_base64(
            {"type": "FeatureCollection", "features": features}
        )
        result.append(producer)
    return result


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
    for position, (heading, entry) in enumerate(by_heading.items(), start=1):
        result.append(
            {
                "position": position,
                "descriptors": {
                    "descriptionOfGoods": _truncate("; ".join(entry["names"]), DESCRIPTION_MAX),
                    "goodsMeasure": {"netWeight": _kg(entry["kg"])},
                },
                "hsHeading": heading,
                "speciesInfo": species,
                "producers": plot_producers,
            }
        )
    return result


def _represented_operator(tenant) -> dict[str, Any]:
    """`representedOperator` when the company files as an authorised representative (docs/regulation.md)."""
    if tenant.operator_role != REPRESENTATIVE_OPERATOR:
        return {}
    identifiers = [
        {"identifierType": kind, "identifierValue": value[:80]}
        for kind, value in (
            ("eori", normalise_identifier(tenant.represented_operator_eori)),
            ("vat", normalise_identifier(tenant.represented_operator_vat)),
        )
        if value
    ]
    address: dict[str, Any] = {
        "country": tenant.represented_operator_country,
        "street": _truncate(tenant.represented_operator_street, 300),
        "postalCode": _truncate(tenant.represented_operator_postal_code, 80),
        "city": _truncate(tenant.represented_operator_city, 200),
    }
    if tenant.represented_operator_address.strip():
        address["fullAddress"] = _truncate(tenant.represented_operator_address, 250)
    represented: dict[str, Any] = {"operatorReferenceNumber": identifiers, "operatorAddress": address}
    if tenant.represented_operator_email:
        represented["operatorEmail"] = tenant.represented_operator_email[:200]
    if tenant.represented_operator_phone:
        represented["operatorPhone"] = tenant.represented_operator_phone[:50]
    represented["operatorName"] = _truncate(tenant.represented_operator_name, 200)
    return {"representedOperator": represented}


def internal_reference(delivery, suffix: str) -> str:
    """Our reference of the statement in the EU information system (at most 35 characters)."""
    number = "".join(
        ch for ch in (delivery.delivery_number or str(delivery.pk)) if ch.isalnum() or ch in "-_/"
    )
    suffix = suffix.upper()
    return f"{number[: INTERNAL_REFERENCE_MAX - len(suffix) - 1]}-{suffix}"


def build_request(facts: DdsFacts, *, internal_reference_number: str) -> dict[str, Any]:
    """{"operatorRole", "statement"}: the V3 `SubmitDdsRequest` as data (JSON and XML are made from it)."""
    delivery, tenant = facts.delivery, facts.tenant
    grouped = []
    if delivery.upstream_dds_reference:
        grouped.append({"groupedDeclaration": delivery.upstream_dds_reference})
    vendor = delivery.parent_vendor
    statement: dict[str, Any] = {
        "internalReferenceNumber": internal_reference_number[:INTERNAL_REFERENCE_MAX],
        "activityType": ACTIVITY_IMPORT,
        **_represented_operator(tenant),
        "countryOfActivity": tenant.country,
        "borderCrossCountry": tenant.country,
        "comment": _truncate(
            f"Raw-material delivery {delivery.delivery_number} of {vendor.name if vendor else '-'}; "
            f"harvest {delivery.harvest_begin_month or '?'} to {delivery.harvest_end_month or '?'}.",
            COMMENT_MAX,
        ),
        "commodities": commodities(facts),
        "geoLocationConfidential": bool(delivery.geolocation_confidential),
        "groupedDeclarations": grouped,
    }
    return {"operatorRole": tenant.operator_role or OPERATOR, "statement": statement}


def build_statement(facts: DdsFacts, *, checks: list[DdsCheck], job_id: str) -> dict[str, Any]:
    """dds.json: the request, plus our `meta` (who, what, when, the warnings)."""
    delivery = facts.delivery
    request = build_request(facts, internal_reference_number=internal_reference(delivery, job_id[:8]))
    vendor = delivery.parent_vendor
    return {
        "format": FORMAT,
        **request,
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
