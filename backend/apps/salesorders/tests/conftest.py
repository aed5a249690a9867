"""Sales fixtures: the purchasing world (tenants 2 and 3, products, a warehouse with a receiving and a
storage location, users of every role) plus customers and stock on hand."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from apps.customers.models import Customer
from apps.inventory import services as inventory
from apps.inventory.models import Location
from apps.purchaseorders.tests import conftest as purchasing
from apps.salesorders import services
from apps.salesorders.models import SalesOrder, SalesOrderLine

world = purchasing.world
issue_labels = purchasing.issue_labels
make_order = purchasing.make_order
_fast_passwords = purchasing._fast_passwords


@pytest.fixture
def sales_world(world, in_tenant):
    w = world
    with in_tenant(w["tenant3"]):
        w["customer"] = Customer.objects.create(
            number="C-1001",
            name="Bakkerij de Vries BV",
            vat_id="NL001234567B01",
            billing_street="Dorpsstraat 1",
            billing_post_code="1234 AB",
            billing_city="Utrecht",
            billing_country="NL",
            delivery_street="Havenweg 9",
            delivery_post_code="3011 AA",
            delivery_city="Rotterdam",
            delivery_country="NL",
        )
        w["customer_b"] = Customer.objects.create(
            number="C-1002", name="Hamburg Food GmbH", vat_id="DE123456789"
        )
        w["storage"] = Location.objects.get(code="A-01")
    with in_tenant(w["tenant2"]):
        w["customer_x"] = Customer.objects.create(number="C-9", name="Other tenant's customer")
    return w


@pytest.fixture
def put_stock(sales_world, in_tenant):
    """put_stock(product, quantity, location=storage): receives stock through the move service."""

    def put(product, quantity, location=None):
        with in_tenant(sales_world["tenant3"]):
            inventory.stock_moves_post(
                moves=[
                    inventory.MoveSpec(
                        product_id=product.pk,
                        quantity=Decimal(quantity),
                        to_location=location or sales_world["storage"],
                    )
                ],
                kind="receipt",
                reference="TEST",
            )

    return put


@pytest.fixture
def bare_order(sales_world, in_tenant):
    """An order with lines written directly (no services): bare_order([(product, qty), ...])."""
    counter = {"n": 0}

    def make(lines, tenant=None):
        counter["n"] += 1
        with in_tenant(tenant or sales_world["tenant3"]):
            order = SalesOrder.objects.create(
                order_number=f"SO-T-{counter['n']}",
                customer=sales_world["customer"],
                order_date=date(2026, 3, 1),
            )
            for i, (product, qty) in enumerate(lines, start=1):
                SalesOrderLine.objects.create(
                    order=order,
                    line_number=i,
                    product=product,
                    quantity=Decimal(qty),
                    unit_price=Decimal("1"),
                )
            return order

    return make


@pytest.fixture
def make_sales_order(sales_world, in_tenant):
    """make_sales_order([(product, qty, price), ...], confirm=True, **fields) through the services."""
    from apps.salesorders import services

    def make(lines=None, confirm=True, customer=None, **fields):
        with in_tenant(sales_world["tenant3"]):
            return services.sales_order_create(
                customer=customer or sales_world["customer"],
                order_date=fields.pop("order_date", date(2026, 3, 1)),
                lines=[
                    services.LineInput(
                        product=product,
                        quantity=Decimal(qty),
                        unit_price=Decimal(price),
                        vat_rate=Decimal(fields.get("vat_rate", "21")),
                    )
                    for product, qty, price in (lines or [(sales_world["carton"], "100", "2.50")])
                ],
                confirm=confirm,
                **{k: v for k, v in fields.items() if k != "vat_rate"},
            )

    return make


@pytest.fixture
def carton_codes(sales_world, make_order, issue_labels, in_tenant):
    """carton_codes(product, count): active carton labels of `product` (via a purchase order line)."""

    def make(product, count=2, in_stock=True):
        """`in_stock`: the cartons were received into the warehouse's storage location (the warehouse
        lets only those go on a shipment)."""
        from django.utils import timezone

        from apps.inventory.models import WarehouseCarton

        po = make_order(lines=[(product, "1000", "1.00")])
        with in_tenant(sales_world["tenant3"]):
            line = po.lines.get()
        labels = issue_labels(line, count=count)
        if in_stock:
            with in_tenant(sales_world["tenant3"]):
                WarehouseCarton.objects.bulk_create(
                    [
                        WarehouseCarton(
                            label=label,
                            product=product,
                            status=WarehouseCarton.Status.IN_STOCK,
                            location=sales_world["storage"],
                            received_at=timezone.now(),
                        )
                        for label in labels
                    ]
                )
        return [label.code for label in labels]

    return make


@pytest.fixture
def draft_invoice(sales_world, put_stock, make_sales_order, in_tenant):
    """A draft invoice of five shipped cartons (tenant 3)."""
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("5"))],
        )
        services.shipment_ship(shipment=shipment)
        return services.invoice_create(sales_order=order)
