"""Shipment reads: cartons carried (EUDR carton labels whose `container` matches), scoped like the list."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Prefetch, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from apps.logistics.models import ShipmentInfo
from apps.purchaseorders.models import PurchaseOrder
from apps.purchaseorders.selectors import active_cartons, carton_label_model


def cartons_in_container_subquery(parent_vendor_id: int | None = None):
    """Active carton labels whose container text equals the shipment's container number (0 without the
    EUDR area). For a supplier user only their own vendor's cartons count."""
    model = carton_label_model()
    if model is None or "container" not in {field.name for field in model._meta.get_fields()}:
        return Value(0, output_field=IntegerField())
    cartons = active_cartons(model).filter(container=OuterRef("container_number"))
    if parent_vendor_id is not None:
        scope = getattr(model, "supplier_scope", None)
        cartons = cartons.filter(**{scope: parent_vendor_id}) if scope else cartons.none()
    counts = cartons.order_by().values("container").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counts, output_field=IntegerField()), 0)


def shipment_list_queryset(queryset: QuerySet, *, parent_vendor_id: int | None = None) -> QuerySet:
    """Shipments with carrier, carried orders (only the supplier's own for a supplier user) and the
    carton count: a constant number of queries per page."""
    orders = PurchaseOrder.objects.select_related("supplier").order_by("order_number")
    if parent_vendor_id is not None:
        orders = orders.filter(supplier__parent_vendor_id=parent_vendor_id)
    return (
        queryset.select_related("shipment_company")
        .prefetch_related(Prefetch("purchase_orders", queryset=orders))
        .annotate(cartons_count=cartons_in_container_subquery(parent_vendor_id))
    )


def shipments_visible_to_vendor(queryset: QuerySet, parent_vendor_id: int) -> QuerySet:
    """Shipments carrying at least one order of the parent vendor (no duplicates)."""
    from apps.logistics.models import ShipmentPurchaseOrder

    carrying = ShipmentPurchaseOrder.objects.filter(
        purchase_order__supplier__parent_vendor_id=parent_vendor_id
    ).values("shipment_id")
    return queryset.filter(pk__in=carrying)


def dispatches(queryset: QuerySet) -> QuerySet:
    """Dispatches with their shipment, order, customer, carrier and the shipment's carton count (one query)."""
    from apps.salesorders.models import ShipmentCarton

    cartons = (
        ShipmentCarton.objects.filter(shipment_id=OuterRef("sales_shipment_id"))
        .order_by()
        .values("shipment_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return queryset.select_related("sales_shipment__sales_order__customer", "carrier").annotate(
        cartons_count=Coalesce(Subquery(cartons, output_field=IntegerField()), 0)
    )


__all__ = ["ShipmentInfo", "dispatches", "shipment_list_queryset", "shipments_visible_to_vendor"]
