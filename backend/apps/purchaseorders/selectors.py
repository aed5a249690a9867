"""Reads of purchase orders and receipts that are more than a plain queryset.

Carton counts come from the EUDR carton labels (`eudr.CartonLabel`, FK `purchase_order_line`) when that
model exists; without it they are 0. Counts are subqueries, so a list runs a constant number of queries.
"""

from __future__ import annotations

import functools
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Count,
    DecimalField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine, Receipt, ReceiptLine
from apps.tenancy.context import get_current_tenant_id


@functools.cache
def _table_exists(table: str) -> bool:
    return table in connection.introspection.table_names()


def carton_label_model():
    """The EUDR carton label model, or None when the EUDR area is not installed or not migrated (yet)."""
    try:
        model = apps.get_model("eudr", "CartonLabel")
    except LookupError:
        return None
    field_names = {field.name for field in model._meta.get_fields()}
    if "purchase_order_line" not in field_names or not _table_exists(model._meta.db_table):
        return None
    return model


def production_batch_model():
    """The EUDR production batch model (batches are started against an order line), or None."""
    try:
        model = apps.get_model("eudr", "ProductionBatch")
    except LookupError:
        return None
    field_names = {field.name for field in model._meta.get_fields()}
    if "purchase_order_line" not in field_names or not _table_exists(model._meta.db_table):
        return None
    return model


def lines_with_cartons(line_ids, *, active_only: bool) -> set[int]:
    """The ids among `line_ids` that carton labels were issued against: active labels only, or (with
    `active_only=False`) any label or production batch, voided ones included. Empty without EUDR."""
    line_ids = list(line_ids)
    label_model = carton_label_model()
    if not line_ids or label_model is None:
        return set()
    labels = active_cartons(label_model) if active_only else label_model.objects.all()
    found = set(
        labels.filter(purchase_order_line_id__in=line_ids).values_list("purchase_order_line_id", flat=True)
    )
    batch_model = production_batch_model()
    if not active_only and batch_model is not None:
        found |= set(
            batch_model.objects.filter(purchase_order_line_id__in=line_ids).values_list(
                "purchase_order_line_id", flat=True
            )
        )
    return found


def order_is_referenced(order: PurchaseOrder) -> bool:
    """True once receipts, shipments or carton labels (any, voided included) refer to the order."""
    if order.receipts.exists() or order.shipment_links.exists():
        return True
    line_ids = PurchaseOrderLine.objects.filter(order=order).values_list("pk", flat=True)
    return bool(lines_with_cartons(line_ids, active_only=False))


def active_cartons(model):
    queryset = model.objects.all()
    if "status" in {field.name for field in model._meta.get_fields()}:
        queryset = queryset.exclude(status="voided")
    return queryset


def cartons_per_order_subquery():
    """Active cartons issued against the order: the sum of its lines' `cartons_issued` counters (the
    order's lines by their order index).

    A counter, not a count of labels: with stale statistics the planner read every label of the tenant
    (through the tenant index that row-level security filters on) once per listed line, 1.5 s for a page
    of 20 orders over 100,000 labels (docs/performance.md, "Purchase order list: cartons issued")."""
    per_order = (
        PurchaseOrderLine.objects.filter(order=OuterRef("pk"))
        .order_by()
        .values("order")
        .annotate(total=Sum("cartons_issued"))
        .values("total")
    )
    return Coalesce(Subquery(per_order, output_field=IntegerField()), 0)


def _line_sum(field: str):
    sums = (
        PurchaseOrderLine.objects.filter(order=OuterRef("pk"))
        .order_by()
        .values("order")
        .annotate(total=Sum(field))
        .values("total")
    )
    return Coalesce(
        Subquery(sums, output_field=DecimalField(max_digits=16, decimal_places=3)),
        Value(Decimal("0")),
        output_field=DecimalField(max_digits=16, decimal_places=3),
    )


def order_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Orders with supplier, parent vendor and owner joined, plus lines count, ordered and received
    quantities and cartons issued: one query for any page size."""
    queryset = queryset if queryset is not None else PurchaseOrder.objects.all()
    lines_count = (
        PurchaseOrderLine.objects.filter(order=OuterRef("pk"))
        .order_by()
        .values("order")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return queryset.select_related("supplier__parent_vendor", "owner").annotate(
        lines_count=Coalesce(Subquery(lines_count, output_field=IntegerField()), 0),
        ordered_qty=_line_sum("order_qty"),
        received_total_qty=_line_sum("received_qty"),
        cartons_issued=cartons_per_order_subquery(),
    )


def order_lines_queryset() -> QuerySet:
    return PurchaseOrderLine.objects.select_related("product")


def order_status_summary(queryset: QuerySet) -> dict:
    """Counts and total amounts per status (and per currency) of the given, already filtered, orders."""
    rows = (
        queryset.order_by()
        .values("status", "currency")
        .annotate(count=Count("pk"), amount=Sum("total_amount"))
        .order_by("status", "currency")
    )
    statuses: dict[str, dict] = {value: {"count": 0, "amounts": {}} for value in PurchaseOrder.Status.values}
    totals: dict[str, Decimal] = {}
    count = 0
    for row in rows:
        amount = (row["amount"] or Decimal("0")).quantize(Decimal("0.01"))
        entry = statuses[row["status"]]
        entry["count"] += row["count"]
        entry["amounts"][row["currency"]] = str(amount)
        totals[row["currency"]] = totals.get(row["currency"], Decimal("0")) + amount
        count += row["count"]
    total = {"count": count, "amounts": {currency: str(amount) for currency, amount in totals.items()}}
    return {"statuses": statuses, "total": total}


def receipt_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Receipts with order, supplier, warehouse and author joined, plus the lines' count and quantity. The
    totals are subqueries per listed receipt, not a join with GROUP BY, so the page is read in the order
    of an index (tenant, <ordering>, id) and only its rows' lines are added up (docs/performance.md,
    "Indexes for the list orderings")."""
    queryset = queryset if queryset is not None else Receipt.objects.all()
    lines = ReceiptLine.objects.filter(receipt=OuterRef("pk")).order_by().values("receipt")
    quantity = DecimalField(max_digits=16, decimal_places=3)
    return queryset.select_related(
        "purchase_order__supplier__parent_vendor", "warehouse", "created_by"
    ).annotate(
        lines_count=Coalesce(
            Subquery(lines.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0
        ),
        total_qty=Coalesce(
            Subquery(lines.annotate(s=Sum("quantity")).values("s"), output_field=quantity),
            Value(Decimal("0")),
            output_field=quantity,
        ),
    )


def owner_candidates(search: str = "") -> QuerySet:
    """Internal users with an active membership in the current tenant: who may own purchase orders.
    `search` matches the user name, names and e-mail."""
    users = get_user_model().objects.filter(
        memberships__tenant_id=get_current_tenant_id() or 0,
        memberships__is_active=True,
        is_active=True,
        is_supplier=False,
    )
    search = search.strip()
    if search:
        users = users.filter(
            Q(username__icontains=search)
            | Q(name__icontains=search)
            | Q(profile_name__icontains=search)
            | Q(first_name__icontains=search)
            | Q(last_name__icontains=search)
            | Q(email__icontains=search)
        )
    return users.distinct().order_by("username")


def receipt_with_room(line: PurchaseOrderLine) -> Receipt | None:
    """The oldest purchase receipt of the order line that received more units than cartons were scanned
    against it: a carton of the line scanned now completes that receipt instead of making another (the
    container scan asks for it through apps/inventory/receiving.py)."""
    from apps.inventory.models import WarehouseCarton

    rows = (
        ReceiptLine.objects.filter(order_line=line)
        .select_related("receipt__warehouse")
        .order_by("receipt_id", "pk")
    )
    covered = dict(
        WarehouseCarton.objects.filter(label__purchase_order_line=line, receipt__isnull=False)
        .order_by()
        .values("receipt_id")
        .annotate(n=Count("pk"))
        .values_list("receipt_id", "n")
    )
    for row in rows:
        if row.quantity - covered.get(row.receipt_id, 0) >= 1:
            return row.receipt
    return None


def order_search(text: str, limit: int) -> list:
    """Purchase orders whose number contains `text`, as hits of the warehouse search (registered on start
    by PurchaseordersConfig.ready)."""
    from apps.inventory.selectors import SearchHit

    return [
        SearchHit("purchase_order", pk, f"{number} · {supplier}", f"/purchase/orders/{number}")
        for pk, number, supplier in PurchaseOrder.objects.filter(order_number__icontains=text).values_list(
            "pk", "order_number", "supplier__name"
        )[:limit]
    ]
