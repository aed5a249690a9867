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
from apps.salesorders.models import SalesOrder, SalesOrderLine

world = purchasing.world
issue_labels = purchasing.issue_labels
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
