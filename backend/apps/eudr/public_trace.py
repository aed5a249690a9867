"""What the public carton trace page shows (GET /api/eudrtrack/{code}/), read without a signed-in user.

The carton is found by its public code across tenants (`selectors.carton_tenant_for_public_code`, which
works under PostgreSQL row-level security), then the tenant is entered and only the carton's own rows are
read. The payload is an explicit allow-list: never a DDS verification number (the tenant's own or the
upstream one: with the reference number it opens the whole statement), prices, purchase orders or any
other carton. The DDS reference number shown is that of the tenant's own statement that covered the
carton's placing, else the upstream statement's (apps/eudr/placing.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import date
from itertools import zip_longest
from typing import Any

from django.db import transaction

from apps.eudr.geo import PROPERTY_NAMES, validate_geojson
from apps.eudr.models import BATCH_CODE_RE, CartonLabel, RawMaterialLine
from apps.eudr.placing import statements_for
from apps.eudr.selectors import carton_tenant_for_public_code
from apps.eudr.warehouse import warehouse
from apps.tenancy.context import entered_tenant


def batch_date(code: str) -> date | None:
    """The production date in a batch code (20261121A -> 2026-11-21), None when the code has none."""
    match = BATCH_CODE_RE.match(code or "")
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def species_of(lines) -> list[dict[str, str]]:
    """Scientific and common names of the delivery's materials, paired by position, without repeats."""
    pairs: list[dict[str, str]] = []
    for line in lines:
        scientific = [s for s in (line.scientific_names or []) if isinstance(s, str)]
        common = [c for c in (line.common_names or []) if isinstance(c, str)]
        for sci, com in zip_longest(scientific, common, fillvalue=""):
            pair = {"scientific_name": sci.strip(), "common_name": com.strip()}
            if (pair["scientific_name"] or pair["common_name"]) and pair not in pairs:
                pairs.append(pair)
    return pairs


def public_plots(geojson: Any) -> dict[str, Any] | None:
    """The plots as the validator normalises them, keeping only the EU's four plot properties."""
    if not geojson:
        return None
    result = validate_geojson(geojson)
    features = []
    for index, feature in enumerate(result.feature_collection["features"]):
        if feature["geometry"] is None:
            continue
        properties = {k: v for k, v in feature["properties"].items() if k in PROPERTY_NAMES}
        area = result.areas_ha[index]
        features.append(
            {
                "type": "Feature",
                "properties": {**properties, "area_ha": area},
                "geometry": feature["geometry"],
            }
        )
    if not features:
        return None
    return {"type": "FeatureCollection", "features": features}


def public_trace(code: str) -> dict[str, Any] | None:
    """The public facts of the active carton with this code, or None (unknown, voided or malformed code).
    The slow path: the endpoint reads the precomputed answer (apps/eudr/trace_store.py) first."""
    found = public_trace_of(code)
    return found[1] if found else None


def public_trace_of(code: str, then: Callable[[CartonLabel, dict[str, Any]], Any] | None = None) -> Any:
    """(label, payload) of the active carton with this code, read from the live rows; None when unknown.
    `then(label, payload)`: called inside the carton's tenant instead, and its result returned."""
    normalised = (code or "").strip().upper()
    with transaction.atomic(savepoint=False):
        tenant_id = carton_tenant_for_public_code(normalised, enter_tenant=True)
        if tenant_id is None:
            return None
        with entered_tenant(tenant_id):
            label = (
                CartonLabel.objects.select_related("raw_material__parent_vendor", "product")
                .filter(code=normalised, status=CartonLabel.Status.ACTIVE)
                .first()
            )
            if label is None:
                return None
            payload = payloads_for([label])[label.pk]
            return then(label, payload) if then is not None else (label, payload)


def payloads_for(labels: list[CartonLabel]) -> dict[int, dict[str, Any]]:
    """The public payload of each label (loaded with its delivery, parent vendor and product, in the
    labels' tenant): one read each of the deliveries' lines, the covering statements and the warehouse
    histories, however many labels."""
    deliveries = {label.raw_material_id: label.raw_material for label in labels}
    lines: dict[int, list[RawMaterialLine]] = defaultdict(list)
    for line in RawMaterialLine.objects.filter(delivery_id__in=list(deliveries)):
        lines[line.delivery_id].append(line)
    statements = statements_for(labels)
    histories = warehouse().public_histories(labels)
    facts = {pk: _delivery_facts(delivery, lines[pk]) for pk, delivery in deliveries.items()}
    result = {}
    for label in labels:
        product = label.product
        statement = statements[label.pk]
        delivery_facts = facts[label.raw_material_id]
        result[label.pk] = {
            "code": label.code,
            "article_number": label.article_number,
            "product_name": product.name,
            "product_name_zh": product.name_zh,
            "production_batch_code": label.production_batch_code,
            "production_date": batch_date(label.production_batch_code),
            "batch_sequence": label.batch_sequence,
            **delivery_facts,
            # The statement that covered this carton's placing (ours), else the referenced upstream one;
            # never a verification number (apps/eudr/placing.py).
            "dds_reference_number": statement.reference if statement.kind in ("own", "upstream") else "",
            # Whose statement it is: an upstream one is labelled as another operator's.
            "dds_reference_kind": statement.kind if statement.kind in ("own", "upstream") else "",
            # The warehouse steps that may be public: kind, date, country; never the customer.
            "warehouse_history": histories[label.pk],
        }
    return result


def _delivery_facts(delivery, lines) -> dict[str, Any]:
    """What every carton of a delivery shows alike (the plots validated once per delivery)."""
    vendor = delivery.parent_vendor
    certifications = []
    if delivery.fm_certification_type and delivery.fm_certification_type != "none":
        certifications.append(
            {
                "kind": "FM",
                "scheme": delivery.fm_certification_type,
                "claim": delivery.get_fm_certification_type_display(),
                "certificate_number": delivery.fm_certificate_number,
                "valid_until": delivery.fm_certificate_expiry,
            }
        )
    if delivery.coc_certification or delivery.coc_certificate_number:
        claim = delivery.coc_certification
        certifications.append(
            {
                "kind": "COC",
                "scheme": _scheme_of(claim, delivery.coc_certificate_number),
                "claim": claim,
                "certificate_number": delivery.coc_certificate_number,
                "valid_until": delivery.coc_certificate_expiry,
            }
        )
    confidential = bool(delivery.geolocation_confidential)
    # Plots outside their country of production are not shown until corrected or confirmed.
    under_review = (
        not confidential
        and bool(delivery.location_geojson)
        and bool(delivery.plots_outside_country())
        and not delivery.outside_confirmed()
    )
    return {
        "supplier": {"name": vendor.name if vendor else "", "cname": vendor.cname if vendor else ""},
        "origin": {
            "country_code": delivery.country_code,
            "country_name": delivery.country_name,
            "species": species_of(lines),
            "forest_supplier_name": delivery.forest_supplier_name,
            "harvest_begin_month": delivery.harvest_begin_month,
            "harvest_end_month": delivery.harvest_end_month,
        },
        "certifications": certifications,
        "geolocation_confidential": confidential,
        "plots_under_review": under_review,
        "plots": None if confidential or under_review else public_plots(delivery.location_geojson),
    }


def _scheme_of(claim: str, number: str) -> str:
    text = f"{claim} {number}".upper()
    for scheme in ("FSC", "PEFC"):
        if scheme in text:
            return scheme
    return ""
