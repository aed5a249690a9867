"""Sales events reach the e-mail scenarios: order confirmed, shipment shipped, invoice posted."""

from decimal import Decimal

import pytest

from apps.notifications.models import EmailMessage
from apps.notifications.tests.test_events import _scenario
from apps.salesorders import services

pytestmark = pytest.mark.django_db


def test_confirm_ship_and_post_send_their_scenarios_once(
    sales_world, put_stock, make_sales_order, in_tenant, django_capture_on_commit_callbacks
):
    w = sales_world
    put_stock(w["carton"], "500")
    with in_tenant(w["tenant3"]):
        _scenario("sales_order.confirmed", subject="Confirmed {{ order.number }}")
        _scenario("sales_shipment.shipped", subject="Shipped {{ shipment.number }}")
        _scenario("invoice.posted", subject="Invoice {{ invoice.number }}")
    with django_capture_on_commit_callbacks(execute=True):
        order = make_sales_order(lines=[(w["carton"], "100", "2.50")])
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        with django_capture_on_commit_callbacks(execute=True):
            shipment = services.shipment_create(
                sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=Decimal("40"))]
            )
            services.shipment_ship(shipment=shipment)
        with django_capture_on_commit_callbacks(execute=True):
            invoice = services.invoice_post(invoice=services.invoice_create(sales_order=order))
        subjects = list(EmailMessage.objects.order_by("pk").values_list("event", "subject", "status"))
    assert subjects == [
        ("sales_order.confirmed", f"Confirmed {order.order_number}", "sent"),
        ("sales_shipment.shipped", f"Shipped {shipment.shipment_number}", "sent"),
        ("invoice.posted", f"Invoice {invoice.number}", "sent"),
    ]
