"""Reads of the due diligence area (docs/duediligence.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from . import benchmark as benchmarks
from .models import (
    AuditEntry,
    FilingOverride,
    ForestResult,
    RiskAssessment,
    RiskLevel,
    SubstantiatedConcern,
)

# A supplier relationship's assessment covers its deliveries for a year; a delivery's own one always.
VENDOR_ASSESSMENT_VALID = timedelta(days=365)


def plot_countries(geojson: Any) -> list[str]:
    """The `ProducerCountry` of each plot (upper case), in order, without repeats."""
    found: list[str] = []
    features = geojson.get("features") if isinstance(geojson, dict) else None
    for feature in features or []:
        properties = feature.get("properties") if isinstance(feature, dict) else None
        code = properties.get("ProducerCountry") if isinstance(properties, dict) else None
        if isinstance(code, str) and code.strip() and code.strip().upper() not in found:
            found.append(code.strip().upper())
    return found


def countries_of_production(delivery) -> list[dict[str, Any]]:
    """The delivery's country of production and every plot's, each with its benchmark level."""
    current = benchmarks.current()
    codes: list[str] = []
    if delivery.country_code:
        codes.append(delivery.country_code.upper())
    for code in plot_countries(delivery.location_geojson):
        if code not in codes:
            codes.append(code)
    return [{"country_code": code, "level": current.level_of(code)} for code in codes]


def simplified_due_diligence(countries: list[dict[str, Any]]) -> bool:
    """Art. 13: every country of production is low risk (and there is at least one)."""
    return bool(countries) and all(c["level"] == RiskLevel.LOW for c in countries)


def current_assessment(delivery) -> RiskAssessment | None:
    """The assessment that counts for the delivery: its own latest, else its supplier relationship's
    latest of the last year."""
    own = RiskAssessment.objects.filter(delivery=delivery).select_related("assessed_by").first()
    if own is not None or not delivery.parent_vendor_id:
        return own
    return (
        RiskAssessment.objects.filter(
            delivery__isnull=True,
            parent_vendor_id=delivery.parent_vendor_id,
            assessed_at__gte=timezone.now() - VENDOR_ASSESSMENT_VALID,
        )
        .select_related("assessed_by")
        .first()
    )


def open_concerns_for(delivery) -> QuerySet[SubstantiatedConcern]:
    """Unresolved concerns naming the delivery, one of its statements, or its supplier."""
    names = Q(delivery=delivery) | Q(submission__delivery=delivery)
    if delivery.parent_vendor_id:
        names |= Q(parent_vendor_id=delivery.parent_vendor_id)
    return SubstantiatedConcern.objects.filter(names, resolved_at__isnull=True)


def latest_override(delivery) -> FilingOverride | None:
    return FilingOverride.objects.filter(delivery=delivery).select_related("by").first()


def audit_for_delivery(delivery_id: int) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(delivery_id=delivery_id).select_related("user")


def audit_for_submission(submission_id: int) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(submission_id=submission_id).select_related("user")


def forest_results(delivery) -> QuerySet[ForestResult]:
    """The forest check of the delivery's plots: one row per plot and layer, by plot."""
    return ForestResult.objects.filter(delivery=delivery)


def forest_flags(delivery) -> list[ForestResult]:
    """The results that found tree-cover loss after 2020 on a plot (the cut-off of Art. 2(13))."""
    return list(forest_results(delivery).filter(loss_cells_after_cutoff__gt=0))
