"""Demo sales (tenant 3): orders in every status for several customers, partial shipments (with carton
labels where the demo has any by then), posted invoices with a credit note, an overdue invoice, and a
busy delivery week. Quantities are small so the stock received by the purchasing demo covers them.

Dates are relative to the day the demo is loaded, so the lists look current.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.common.exceptions import DomainError
from apps.customers.models import Customer
from apps.inventory.demo import ensure_warehouses
from apps.inventory.models import Stock
from apps.salesorders import services
from apps.salesorders.models import SalesOrder

D = Decimal

# (customer index, days ago, final state, [(product index, qty, price)], requested in days)
PLAN = [
    (0, 2, "draft", [(0, 40, "3.20"), (1, 25, "4.10")], 14),
    (1, 5, "confirmed", [(0, 30, "3.10")], 1),
    (2, 12, "partially_shipped", [(1, 60, "4.05"), (2, 20, "2.75")], -2),
    (3, 20, "shipped", [(0, 25, "3.15")], -10),
    (4, 40, "credited", [(1, 30, "4.00"), (0, 10, "3.00")], -30),
    (0, 75, "overdue", [(2, 40, "2.80")], -60),
    (1, 9, "cancelled", [(0, 15, "3.20")], 5),
    (2, 50, "closed", [(1, 40, "4.00")], -40),
    (3, 3, "confirmed", [(2, 12, "2.90")], 2),
    (4, 4, "confirmed", [(0, 8, "3.30"), (2, 6, "2.95")], 3),
    (0, 1, "confirmed", [(1, 10, "4.20")], 4),
]


def _ship(order, fraction: str, user, days_ago: int):
    lines = [
        services.ShipmentLineInput(
            order_line=line, quantity=max(D("1"), (line.quantity * D(fraction)).quantize(D("1")))
        )
        for line in order.lines.order_by("line_number")
    ]
    shipment = services.shipment_create(
        sales_order=order,
        lines=lines,
        user=user,
        planned_date=timezone.localdate() - timedelta(days=days_ago),
    )
    _attach_cartons(shipment)
    services.shipment_ship(shipment=shipment, user=user)
    return shipment


def _attach_cartons(shipment) -> None:
    """Puts up to two free carton labels of each line's product on the shipment (if the demo has any)."""
    from apps.eudr.models import CartonLabel

    codes = []
    for line in shipment.lines.select_related("order_line"):
        codes += list(
            CartonLabel.objects.filter(
                product_id=line.order_line.product_id, status="active", sales_shipment_carton__isnull=True
            ).values_list("code", flat=True)[:2]
        )
    if codes:
        services.shipment_cartons_add(shipment=shipment, codes=codes)


def load(ctx: dict) -> None:
    ensure_warehouses(ctx)
    tenant = ctx["tenants"][3]
    user = ctx["users"]["admin"]
    today = timezone.localdate()
    from apps.tenancy.context import tenant_context

    with tenant_context(tenant):
        if SalesOrder.objects.exists():
            return
        customers = list(Customer.objects.filter(is_active=True).order_by("number")[:5])
        stocked = list(
            Stock.objects.filter(quantity__gte=100)
            .select_related("product")
            .order_by("-quantity", "product_id")
        )
        products = []
        for row in stocked:
            if row.product not in products:
                products.append(row.product)
        if not customers or len(products) < 3:
            return
        for c_index, days_ago, state, lines, requested_in in PLAN:
            try:
                with transaction.atomic():
                    _create(
                        customers[c_index % len(customers)],
                        products,
                        days_ago,
                        state,
                        lines,
                        requested_in,
                        user,
                        today,
                    )
            except DomainError:
                continue  # not enough stock in this demo for this one


def _create(customer, products, days_ago, state, lines, requested_in, user, today) -> None:
    order = services.sales_order_create(
        customer=customer,
        order_date=today - timedelta(days=days_ago),
        customer_reference=f"PO-{customer.number[-3:]}-{days_ago:03d}",
        lines=[
            services.LineInput(
                product=products[p],
                quantity=D(qty),
                unit_price=D(price),
                vat_rate=D("21"),
                requested_date=today + timedelta(days=requested_in),
            )
            for p, qty, price in lines
        ],
        user=user,
        confirm=state != "draft",
    )
    if state in ("draft", "confirmed"):
        return
    if state == "cancelled":
        services.sales_order_cancel(order=order)
        return
    if state == "partially_shipped":
        _ship(order, "0.4", user, 1)
        return
    _ship(order, "1", user, days_ago - 2)
    if state == "shipped":
        return
    invoice = services.invoice_create(sales_order=order, user=user)
    services.invoice_post(invoice=invoice, user=user, issue_date=today - timedelta(days=days_ago - 3))
    if state == "credited":
        first = invoice.lines.order_by("id").first()
        services.credit_note_create(
            invoice=invoice,
            lines=[services.CreditLineInput(invoice_line_id=first.pk, quantity=D("2"))],
            user=user,
            note="Two cartons damaged in transport",
            post=True,
        )
        services.invoice_payment_record(invoice=invoice, amount=D("50.00"))
    if state == "closed":
        services.invoice_payment_record(invoice=invoice, amount=services.invoice_open_amount(invoice))
        services.sales_order_close(order=order)
