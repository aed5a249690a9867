"""The demo's warehouse floor, loaded the way `make run` loads it: a container at the dock with cartons
to receive, stock in several locations, sales shipments ready to pick whose cartons are in stock, and
the shipped sales shipments carrying their cartons (picked from stock, with their warehouse history)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from apps.common.management.commands.load_demo import demo_modules
from apps.eudr.models import CartonLabel
from apps.inventory.demo import DEMO_CONTAINER, DEMO_CONTAINER_CARTONS, STOCKED_CONTAINER
from apps.inventory.models import CartonEvent, Location, Stock, WarehouseCarton
from apps.logistics.models import ShipmentInfo
from apps.salesorders.models import Shipment, ShipmentCarton
from apps.tenancy.context import tenant_context

pytestmark = pytest.mark.django_db


def test_demo_areas_load_after_the_areas_they_need():
    order = [label for label, _module in demo_modules()]
    assert order.index("inventory") > max(order.index(a) for a in ("purchaseorders", "logistics", "eudr"))
    assert order.index("salesorders") > order.index("inventory")
    # the others keep the app order
    assert order.index("products") < order.index("customers") < order.index("suppliers")


def test_demo_warehouse_floor():
    call_command("load_demo", stdout=io.StringIO())
    with tenant_context(3):
        # a container at the dock, its cartons waiting to be scanned in
        dock = ShipmentInfo.objects.get(container_number=DEMO_CONTAINER)
        assert dock.status == ShipmentInfo.Status.ARRIVED
        waiting = CartonLabel.objects.filter(container=DEMO_CONTAINER, status="active")
        assert waiting.count() == DEMO_CONTAINER_CARTONS
        assert not WarehouseCarton.objects.filter(label__container=DEMO_CONTAINER).exists()
        assert waiting.first().purchase_order_line.order.status in ("confirmed", "sent", "partly_received")

        # stock in several locations, of storage and the receiving dock
        stocked_locations = Location.objects.filter(stock__quantity__gt=0).distinct()
        assert stocked_locations.filter(kind="storage").count() >= 4
        assert {loc.warehouse.code for loc in stocked_locations} == {"RTM", "VNL"}

        # the stocked container's cartons: in stock on the shelves, each posted by a receipt
        stocked = WarehouseCarton.objects.filter(inbound_shipment__container_number=STOCKED_CONTAINER)
        assert stocked.count() == 90
        assert not stocked.filter(status="received").exists()
        assert not stocked.filter(receipt__isnull=True).exists()
        in_stock = stocked.filter(status="in_stock")
        assert {c.location.code for c in in_stock.select_related("location")} == {"A-01", "A-02", "B-01"}
        # where a carton is, its unit is: no shelf holds fewer units of a product than its cartons
        for carton_location, product_id in set(in_stock.values_list("location_id", "product_id")):
            on_shelf = Stock.objects.get(location_id=carton_location, product_id=product_id).quantity
            assert on_shelf >= in_stock.filter(location_id=carton_location, product_id=product_id).count()

        # sales shipments ready to pick, today, with cartons of each line's product in stock
        to_pick = list(Shipment.objects.filter(status="draft", planned_date__isnull=False))
        assert len(to_pick) >= 2
        for shipment in to_pick:
            for line in shipment.lines.select_related("order_line"):
                free = in_stock.filter(
                    product_id=line.order_line.product_id, label__sales_shipment_carton__isnull=True
                ).count()
                assert free >= line.quantity, (shipment.shipment_number, line.order_line.product_id)

        # every shipped sales shipment carries its cartons, shipped with a history naming the customer
        shipped = list(
            Shipment.objects.filter(status__in=["shipped", "delivered"]).select_related("sales_order")
        )
        assert len(shipped) >= 4
        for shipment in shipped:
            cartons = ShipmentCarton.objects.filter(shipment=shipment)
            assert cartons.exists(), shipment.shipment_number
            for link in cartons:
                state = WarehouseCarton.objects.get(label_id=link.carton_id)
                assert state.status == "shipped" and state.location_id is None
                kinds = list(CartonEvent.objects.filter(carton=state).values_list("kind", flat=True))
                assert kinds[:2] == ["received", "stocked"] and kinds[-2:] == ["picked", "shipped"]
                assert CartonEvent.objects.get(carton=state, kind="shipped").customer_id == (
                    shipment.sales_order.customer_id
                )
        # a partial shipment among them (the order stays partially shipped)
        assert any(s.sales_order.status == "partially_shipped" for s in shipped)
