"""Demo purchase orders in every status (draft, confirmed, sent, partly received and received from their
receipts, closed, cancelled) for both demo parent vendors (tenant 3, and some in tenant 2),
with lines on carton products (apps/products/demo.py article numbers) and receipts into the warehouse.

Dates are relative to the day the demo is loaded, so the lists look current.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from apps.inventory.demo import ensure_warehouses
from apps.products.models import Product
from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrder
from apps.suppliers.models import Supplier
from apps.tenancy.context import tenant_context

# (supplier number, days ago, promise in days, type, description, final status,
#  [(article, qty, unit cost or None = the product's purchase price)], received fraction per line)
ORDERS = {
    3: [
        (
            "S-1001",
            60,
            -20,
            "standard",
            "Spring range shipping cartons",
            "received",
            [("CT-SW-4030", 6000, None), ("CT-SW-6040", 4000, None)],
            [1, 1],
        ),
        (
            "S-1001",
            24,
            21,
            "standard",
            "Kitchenware master cartons",
            "sent",
            [("CT-DW-4030", 5000, None), ("CT-DW-6040", 2500, None), ("PA-DV-12", 5000, None)],
            [0.6, 0, 0],
        ),
        (
            "S-1002",
            12,
            35,
            "blanket",
            "Folding boxes, call-off 2026",
            "confirmed",
            [("FB-2015", 20000, None), ("FB-1510", 15000, None)],
            [0, 0],
        ),
        (
            "S-1002",
            30,
            10,
            "sample",
            "Sample run white-top cartons",
            "draft",
            [("CT-SW-4030W", 200, None)],
            [0],
        ),
        (
            "S-1001",
            45,
            0,
            "standard",
            "Moving boxes, replaced by new artwork",
            "cancelled",
            [("CT-DW-5545", 3000, None)],
            [0],
        ),
        (
            "S-2001",
            50,
            -10,
            "standard",
            "Heavy duty pallet boxes",
            "closed",
            [("CT-TW-1208", 400, None), ("CT-TW-8060", 600, None)],
            [1, 1],
        ),
        (
            "S-2001",
            18,
            28,
            "standard",
            "E-commerce cartons Q3",
            "sent",
            [("CT-SW-2520", 12000, None), ("CT-SW-3525", 8000, None)],
            [0.5, 0.25],
        ),
        (
            "S-2002",
            8,
            42,
            "standard",
            "Printed retail boxes",
            "sent",
            [("FB-3020", 6000, None), ("FB-1212", 4000, None)],
            [0, 0],
        ),
        (
            "S-2002",
            26,
            14,
            "blanket",
            "Bottle boxes, waiting for customer forecast",
            "draft",
            [("FB-2510", 10000, None)],
            [0],
        ),
        (
            "S-2001",
            40,
            5,
            "sample",
            "Cube box samples",
            "cancelled",
            [("CT-DW-4040", 50, None)],
            [0],
        ),
    ],
    2: [
        (
            "S-1001",
            35,
            -5,
            "standard",
            "Shipping cartons for the Malmö store",
            "received",
            [("CT-SW-5035", 3000, None)],
            [1],
        ),
        (
            "S-2001",
            15,
            30,
            "standard",
            "Double wall cartons",
            "sent",
            [("CT-DW-5040", 2000, None), ("CT-DW-8060", 500, None)],
            [0.4, 0],
        ),
        (
            "S-2002",
            20,
            20,
            "sample",
            "Gift box samples",
            "draft",
            [("FB-2015", 300, None)],
            [0],
        ),
    ],
}

FALLBACK_COST = Decimal("0.85")


def _product(article: str, fallback: list[Product], index: int) -> Product | None:
    product = Product.objects.filter(article_number=article).first()
    if product is None and fallback:
        product = fallback[index % len(fallback)]
    return product


def load(ctx: dict) -> None:
    ensure_warehouses(ctx)
    admin = ctx["users"]["admin"]
    warehouse_user = ctx["users"].get("warehouse", admin)
    today = timezone.localdate()
    ctx["purchase_orders"] = {}
    for tenant_id, orders in ORDERS.items():
        created: list[PurchaseOrder] = []
        with tenant_context(ctx["tenants"][tenant_id]):
            if PurchaseOrder.objects.exists():
                ctx["purchase_orders"][tenant_id] = list(PurchaseOrder.objects.order_by("order_number"))
                continue
            fallback = list(Product.objects.filter(is_active=True).order_by("article_number")[:20])
            for index, (
                number,
                days_ago,
                promise_in,
                kind,
                description,
                status,
                lines,
                received,
            ) in enumerate(orders):
                supplier = Supplier.objects.filter(number=number).first()
                if supplier is None:
                    continue
                line_inputs = []
                for line_index, (article, qty, cost) in enumerate(lines):
                    product = _product(article, fallback, index + line_index)
                    if product is None:
                        continue
                    price = cost or getattr(product, "purchase_price", None) or FALLBACK_COST
                    line_inputs.append(
                        services.LineInput(product=product, order_qty=Decimal(qty), unit_cost=Decimal(price))
                    )
                if not line_inputs:
                    continue  # no products in this tenant yet
                order_date = today - timedelta(days=days_ago)
                order = services.purchase_order_create(
                    supplier=supplier,
                    order_date=order_date,
                    lines=line_inputs,
                    currency=getattr(supplier, "currency", "") or "EUR",
                    description=description,
                    type=kind,
                    promise_date=today + timedelta(days=promise_in),
                    owner=admin,
                )
                if status == "draft":
                    created.append(order)
                    continue
                services.purchase_order_confirm(order=order)
                if status == "sent":
                    # marked sent without e-mailing: the demo's mails are made by apps/notifications/demo.py
                    PurchaseOrder.objects.filter(pk=order.pk).update(status=PurchaseOrder.Status.SENT)
                    order.status = PurchaseOrder.Status.SENT
                order_lines = list(order.lines.order_by("line_number"))
                to_receive = [
                    services.ReceiptLineInput(
                        order_line_id=line.pk,
                        quantity=(line.order_qty * Decimal(str(fraction))).quantize(Decimal("1")),
                    )
                    for line, fraction in zip(order_lines, received, strict=False)
                    if fraction
                ]
                if status in ("received", "closed"):
                    # two deliveries: about half first, the rest a week later (the order is received)
                    first = [
                        services.ReceiptLineInput(
                            order_line_id=r.order_line_id, quantity=(r.quantity / 2).quantize(Decimal("1"))
                        )
                        for r in to_receive
                    ]
                    services.receipt_create(
                        purchase_order=order,
                        lines=first,
                        user=warehouse_user,
                        receipt_date=order_date + timedelta(days=days_ago // 2),
                        note="First truck from the port",
                    )
                    rest = [
                        services.ReceiptLineInput(
                            order_line_id=r.order_line_id, quantity=r.quantity - f.quantity
                        )
                        for r, f in zip(to_receive, first, strict=True)
                    ]
                    services.receipt_create(
                        purchase_order=order,
                        lines=rest,
                        user=warehouse_user,
                        receipt_date=order_date + timedelta(days=days_ago // 2 + 7),
                        note="Second truck",
                    )
                elif to_receive:
                    services.receipt_create(
                        purchase_order=order,
                        lines=to_receive,
                        user=warehouse_user,
                        receipt_date=today - timedelta(days=3),
                        note="Partial delivery",
                    )
                if status == "cancelled":
                    services.purchase_order_cancel(order=order)
                elif status == "closed":
                    services.purchase_order_close(order=order)
                order.refresh_from_db()
                created.append(order)
        ctx["purchase_orders"][tenant_id] = created
