"""Accounting fixtures: the sales world of tenant 3 (customers, products, stock), a fake Visma server on
127.0.0.1 (fake_visma.py), connections of both providers pointing at it, and posted invoices."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.accounting.models import AccountingConnection
from apps.salesorders import services as sales
from apps.salesorders.tests import conftest as salesfx

from .fake_visma import FakeVisma

world = salesfx.world
sales_world = salesfx.sales_world
put_stock = salesfx.put_stock
make_sales_order = salesfx.make_sales_order
_fast_passwords = salesfx._fast_passwords


@pytest.fixture
def fake(settings):
    # The connection's URLs are tenant addresses: the outbound policy refuses loopback and plain http
    # unless the operator allows them (apps/common/outbound.py). The fake on 127.0.0.1 is reached so.
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = FakeVisma()
    yield server
    server.close()


@pytest.fixture
def net_connection(fake, sales_world, in_tenant):
    with in_tenant(sales_world["tenant3"]):
        return AccountingConnection.objects.create(
            provider="visma_net",
            base_url=f"{fake.url}/v1/",
            token_url=f"{fake.url}/token",
            client_id="cartontrace",
            client_secret="s3cret",
            company_id="1234567",
        )


@pytest.fixture
def ea_connection(fake, sales_world, in_tenant):
    with in_tenant(sales_world["tenant3"]):
        return AccountingConnection.objects.create(
            provider="visma_eaccounting",
            base_url=f"{fake.url}/v2/",
            token_url=f"{fake.url}/token",
            client_id="cartontrace",
            client_secret="s3cret",
            refresh_token="rt-1",
            company_id="1234567",
            options={"unit_id": "u-1", "coding_id": "c-1"},
        )


@pytest.fixture
def post_invoice(sales_world, put_stock, make_sales_order, in_tenant):
    """post_invoice(): a shipped order of 40 cartons and 10 boxes, invoiced and posted; returns the invoice."""
    w = sales_world
    put_stock(w["carton"], "1000")
    put_stock(w["box"], "1000")
    with in_tenant(w["tenant3"]):
        w["sales"].visma_owner_id = "EMP-7"
        w["sales"].visma_code = "SP-42"
        w["sales"].save()

    def make(carton="40", box="10"):
        order = make_sales_order(
            lines=[(w["carton"], "100", "2.50"), (w["box"], "10", "12.00")], owner=w["sales"]
        )
        with in_tenant(w["tenant3"]):
            lines = list(order.lines.order_by("line_number"))
            shipment = sales.shipment_create(
                sales_order=order,
                lines=[
                    sales.ShipmentLineInput(order_line=lines[0], quantity=Decimal(carton)),
                    sales.ShipmentLineInput(order_line=lines[1], quantity=Decimal(box)),
                ],
            )
            sales.shipment_ship(shipment=shipment)
            invoice = sales.invoice_create(sales_order=order)
            sales.invoice_post(invoice=invoice)
            invoice.refresh_from_db()
            return invoice

    return make
