"""Counts for the home dashboard. Each area registers (key, model label, extra filter); a user sees the
counts of the areas whose records they may view, scoped like the lists themselves."""

from __future__ import annotations

from django.apps import apps

from apps.common.commentable import visible_records

DASHBOARD_COUNTS: list[tuple[str, str, dict]] = [
    ("products", "products.product", {"is_active": True}),
    ("customers", "customers.customer", {}),
    ("suppliers", "suppliers.supplier", {}),
    # orders still expecting goods (apps/purchaseorders/models.py OPEN_STATUSES)
    (
        "open_purchase_orders",
        "purchaseorders.purchaseorder",
        {"status__in": ("confirmed", "sent", "partly_received")},
    ),
    ("sales_orders", "salesorders.salesorder", {}),
    ("shipments", "logistics.shipmentinfo", {}),
]


def register_count(key: str, model_label: str, filters: dict | None = None) -> None:
    if all(existing != key for existing, _, _ in DASHBOARD_COUNTS):
        DASHBOARD_COUNTS.append((key, model_label, filters or {}))


def dashboard_counts(user, tenant) -> dict[str, int]:
    counts = {}
    for key, label, filters in DASHBOARD_COUNTS:
        model = apps.get_model(label)
        queryset = visible_records(model, user, tenant)
        if queryset.query.is_empty():
            continue
        counts[key] = queryset.filter(**filters).distinct().count()
    return counts
