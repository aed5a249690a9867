"""Demo sales (tenant 3): orders in every status for several customers, partial shipments carrying
cartons from the warehouse's stock, shipments ready to pick (their products' cartons are on the shelves),
posted invoices with a credit note, an overdue invoice, a draft invoice of the shipped order, a busy
delivery week, and two quotations (one sent, one a draft). Quantities are small so
the stock received by the purchasing demo covers them. Loads after the warehouse floor (`DEMO_AFTER`):
the products sold are those the warehouse holds cartons of.

Dates are relative to the day the demo is loaded, so the lists look current.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from apps.common.exceptions import DomainError
from apps.customers.models import Customer
from apps.inventory.demo import ensure_warehouses
from apps.inventory.models import Stock, WarehouseCarton
from apps.salesorders import services
from apps.salesorders.models import SalesOrder
from apps.tenancy.models import Tenant

D = Decimal

DEMO_AFTER = ("inventory",)

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
    # shipments to pick today (/warehouse/deliveries), their cartons in stock
    (1, 1, "to_pick", [(0, 2, "3.20")], 0),
    (3, 2, "to_pick", [(1, 3, "4.10"), (2, 2, "2.90")], 0),
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
    _attach_cartons(shipment, user)
    services.shipment_ship(shipment=shipment, user=user)
    return shipment


def _attach_cartons(shipment, user=None) -> None:
    """Picks up to two cartons of each line's product that are in the warehouse's stock (received and put
    away) onto the shipment, if the warehouse has any."""
    from apps.inventory.models import WarehouseCarton

    codes = []
    for line in shipment.lines.select_related("order_line"):
        codes += list(
            WarehouseCarton.objects.filter(
                product_id=line.order_line.product_id,
                status=WarehouseCarton.Status.IN_STOCK,
                location__warehouse_id=shipment.warehouse_id,
                label__status="active",
                label__sales_shipment_carton__isnull=True,
            )
            .order_by("label__code")
            .values_list("label__code", flat=True)[: min(2, int(line.quantity))]
        )
    if codes:
        services.shipment_cartons_add(shipment=shipment, codes=codes, user=user)


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
            Stock.objects.filter(quantity__gte=100, product__is_active=True)
            .select_related("product")
            .order_by("-quantity", "product_id")
        )
        # The products the warehouse holds cartons of come first (most cartons first), so the shipments
        # carry cartons; then the others by stock.
        cartons = dict(
            WarehouseCarton.objects.filter(status=WarehouseCarton.Status.IN_STOCK)
            .values("product_id")
            .annotate(n=Count("pk"))
            .values_list("product_id", "n")
        )
        products = []
        for row in sorted(stocked, key=lambda row: -cartons.get(row.product_id, 0)):
            if row.product not in products:
                products.append(row.product)
        if not customers or len(products) < 3:
            return
        # The demo's history shipped loose (unlabelled) stock of labelled products too, so its delivery
        # notes say so per line; the company setting is off again afterwards: from now on labelled goods
        # ship as picked cartons.
        Tenant.objects.filter(pk=tenant.pk).update(allow_unlabelled_shipping=True)
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
        Tenant.objects.filter(pk=tenant.pk).update(allow_unlabelled_shipping=False)
        _quotations(customers, products, user, today)


def _quotations(customers, products, user, today) -> None:
    """Two quotations before any order: one sent to its customer and awaiting an answer, one still a
    draft. Neither is accepted, so the orders above stay the demo's whole history."""
    sent = services.quotation_create(
        customer=customers[1 % len(customers)],
        quotation_date=today - timedelta(days=5),
        valid_until=today + timedelta(days=25),
        lines=[
            services.QuotationLineInput(product=products[0], quantity=D("500"), unit_price=D("1.85")),
            services.QuotationLineInput(
                product=products[1], quantity=D("200"), unit_price=D("2.40"), discount_percent=D("5")
            ),
        ],
        user=user,
    )
    services.quotation_send(quotation=sent)
    services.quotation_create(
        customer=customers[2 % len(customers)],
        quotation_date=today - timedelta(days=1),
        valid_until=today + timedelta(days=30),
        lines=[services.QuotationLineInput(product=products[2], quantity=D("1000"), unit_price=D("0.95"))],
        user=user,
    )


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
    if state == "to_pick":
        services.shipment_create(
            sales_order=order,
            lines=[
                services.ShipmentLineInput(order_line=line, quantity=line.quantity)
                for line in order.lines.order_by("line_number")
            ],
            user=user,
            planned_date=today,
        )
        return
    if state == "cancelled":
        services.sales_order_cancel(order=order)
        return
    if state == "partially_shipped":
        _ship(order, "0.4", user, 1)
        return
    _ship(order, "1", user, days_ago - 2)
    if state == "shipped":
        # invoiced as a draft, not posted yet: its note and terms can still be edited
        services.invoice_create(sales_order=order, user=user, note="Delivered to the back entrance")
        return
    invoice = services.invoice_create(sales_order=order, user=user)
    services.invoice_post(invoice=invoice, user=user, issue_date=today - timedelta(days=days_ago - 3))
    invoice.refresh_from_db()
    if state == "credited":
        first = invoice.lines.order_by("id").first()
        services.credit_note_create(
            invoice=invoice,
            lines=[services.CreditLineInput(invoice_line_id=first.pk, quantity=D("2"))],
            user=user,
            note="Two cartons damaged in transport",
            post=True,
        )
        services.invoice_payment_record(
            invoice=invoice,
            amount=D("50.00"),
            received_on=min(invoice.issue_date + timedelta(days=12), today),
            reference=_statement_line(invoice),
            user=user,
        )
    if state == "closed":
        services.invoice_payment_record(
            invoice=invoice,
            amount=services.invoice_open_amount(invoice),
            received_on=min(invoice.issue_date + timedelta(days=20), today),
            reference=_statement_line(invoice),
            user=user,
        )
        services.sales_order_close(order=order)


def _statement_line(invoice) -> str:
    """A demo payment's reference: the bank statement it came on and the invoice's RF reference."""
    return f"Bank statement {invoice.issue_date:%Y}-{invoice.issue_date:%j} / {invoice.payment_reference}"
