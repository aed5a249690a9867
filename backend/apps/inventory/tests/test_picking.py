"""Picking cartons onto a sales shipment: the warehouse's refusals (not received into stock, already
shipped, line fully picked), the carton history (picked and shipped to the customer, unpicked), and the
public history without the customer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import selectors
from apps.inventory import services as inventory
from apps.inventory.models import CartonEvent, StockMove, WarehouseCarton
from apps.salesorders import services

pytestmark = pytest.mark.django_db


def shipment_for(order, quantity, in_tenant, tenant):
    with in_tenant(tenant):
        line = order.lines.get()
        return services.shipment_create(
            sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=Decimal(quantity))]
        )


def test_pick_then_ship_records_the_cartons_history(
    sales_world, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "50")
    codes = carton_codes(w["carton"], 3)
    order = make_sales_order(lines=[(w["carton"], "10", "2.00")])
    shipment = shipment_for(order, "2", in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=shipment, codes=codes[:2], user=w["warehouse_user"])
        assert set(
            WarehouseCarton.objects.filter(label__code__in=codes[:2]).values_list("status", flat=True)
        ) == {"picked"}
        with pytest.raises(inventory.CartonLineFull) as refused:
            services.shipment_cartons_add(shipment=shipment, codes=[codes[2]])
        assert refused.value.data == {"code": codes[2]}
        services.shipment_cartons_remove(shipment=shipment, codes=[codes[1]])
        assert WarehouseCarton.objects.get(label__code=codes[1]).status == "in_stock"
        services.shipment_cartons_add(shipment=shipment, codes=[codes[2]])
        services.shipment_ship(shipment=shipment, user=w["warehouse_user"])
        shipped = WarehouseCarton.objects.get(label__code=codes[0])
        assert shipped.status == "shipped" and shipped.location is None
        kinds = list(CartonEvent.objects.filter(carton=shipped).values_list("kind", "customer__name"))
        assert kinds == [("picked", "Bakkerij de Vries BV"), ("shipped", "Bakkerij de Vries BV")]
        assert list(
            CartonEvent.objects.filter(carton__label__code=codes[1]).values_list("kind", flat=True)
        ) == ["picked", "unpicked"]
        move = StockMove.objects.get(kind="issue")
        assert move.document_type == "shipment" and move.document_id == shipment.pk
        public = selectors.public_carton_history(shipped.label)
        assert [event["kind"] for event in public] == ["shipped"]
        assert "Bakkerij" not in str(public)


def test_pick_refusals(sales_world, put_stock, make_sales_order, carton_codes, in_tenant):
    w = sales_world
    put_stock(w["carton"], "50")
    not_received = carton_codes(w["carton"], 1, in_stock=False)
    codes = carton_codes(w["carton"], 2)
    order = make_sales_order(lines=[(w["carton"], "10", "2.00")])
    first = shipment_for(order, "2", in_tenant, w["tenant3"])
    second = shipment_for(order, "2", in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        with pytest.raises(inventory.CartonNotInStock) as refused:
            services.shipment_cartons_add(shipment=first, codes=not_received)
        assert refused.value.error == "carton_not_in_stock"
        WarehouseCarton.objects.filter(label__code=codes[0]).update(status="received")
        with pytest.raises(inventory.CartonNotInStock):
            services.shipment_cartons_add(shipment=first, codes=[codes[0]])
        WarehouseCarton.objects.filter(label__code=codes[0]).update(status="shipped")
        with pytest.raises(inventory.CartonAlreadyShipped) as refused:
            services.shipment_cartons_add(shipment=second, codes=[codes[0]])
        assert refused.value.error == "carton_already_shipped"
        assert not first.cartons.exists() and not second.cartons.exists()


def test_picking_through_the_api(sales_world, api, put_stock, make_sales_order, carton_codes, in_tenant):
    w = sales_world
    put_stock(w["carton"], "50")
    codes = carton_codes(w["carton"], 1)
    outside = carton_codes(w["carton"], 1, in_stock=False)
    order = make_sales_order(lines=[(w["carton"], "10", "2.00")])
    shipment = shipment_for(order, "3", in_tenant, w["tenant3"])
    client = api(w["warehouse_user"], w["tenant3"])
    url = f"/api/salesorders/shipments/{shipment.pk}/cartons/"
    refused = client.post(url, {"codes": outside}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "carton_not_in_stock"
    assert client.post(url, {"codes": codes}, format="json").status_code in (200, 201)
    page = client.get(f"/api/inventory/cartons/{codes[0]}/").json()["data"]
    assert page["status"] == "picked" and page["events"][-1]["customer_name"] == "Bakkerij de Vries BV"


def test_public_trace_shows_the_warehouse_steps_without_the_customer(
    sales_world, api, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "50")
    codes = carton_codes(w["carton"], 1)
    order = make_sales_order(lines=[(w["carton"], "10", "2.00")])
    shipment = shipment_for(order, "1", in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=shipment, codes=codes)
        services.shipment_ship(shipment=shipment)
    answer = api().get(f"/api/eudrtrack/{codes[0]}/")
    assert answer.status_code == 200
    steps = answer.json()["data"]["warehouse_history"]
    assert [step["kind"] for step in steps] == ["shipped"]
    assert "Bakkerij" not in answer.content.decode()
