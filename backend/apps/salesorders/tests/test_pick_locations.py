"""Pick lists say where: each line of an open shipment lists the locations of its warehouse that hold it,
nearest first (location code order): labelled goods where their cartons stand in stock, unlabelled goods
where units are on hand. Picked cartons leave the list; a shipment that has left lists nothing; the detail
costs the same number of queries however many lines it has."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from apps.inventory.models import Location, WarehouseCarton
from apps.salesorders import services

pytestmark = pytest.mark.django_db


def _detail(client, shipment):
    response = client.get(f"/api/salesorders/shipments/{shipment.pk}/")
    assert response.status_code == 200, response.json()
    return response.json()["data"]


@pytest.fixture
def spread(sales_world, put_stock, make_sales_order, carton_codes, in_tenant):
    """3 labelled cartons on two shelves (B-02 holds 2, A-01 holds 1) and unlabelled boxes on one shelf."""
    w = sales_world
    with in_tenant(w["tenant3"]):
        far = Location.objects.create(warehouse=w["warehouse"], code="B-02", kind=Location.Kind.STORAGE)
    put_stock(w["carton"], "10")
    put_stock(w["box"], "7", location=far)
    codes = carton_codes(w["carton"], 3)
    with in_tenant(w["tenant3"]):
        WarehouseCarton.objects.filter(label__code__in=codes[:2]).update(
            location=far, updated_at=timezone.now()
        )
        order = make_sales_order(lines=[(w["carton"], "3", "2.00"), (w["box"], "4", "1.00")])
        carton_line, box_line = order.lines.order_by("line_number")
        shipment = services.shipment_create(
            sales_order=order,
            lines=[
                services.ShipmentLineInput(order_line=carton_line, quantity=Decimal("3")),
                services.ShipmentLineInput(order_line=box_line, quantity=Decimal("4")),
            ],
        )
    return {"shipment": shipment, "codes": codes, "far": far}


def test_each_line_lists_where_it_stands_nearest_first(sales_world, spread, api):
    w = sales_world
    data = _detail(api(w["warehouse_user"], w["tenant3"]), spread["shipment"])
    lines = {line["product_number"]: line["id"] for line in data["lines"]}
    places = [(p["shipment_line"], p["code"], p["cartons"], p["quantity"]) for p in data["pick_locations"]]
    assert places == [
        (lines["CT-6040"], "A-01", 1, "1.000"),
        (lines["CT-6040"], "B-02", 2, "2.000"),
        (lines["CT-3020"], "B-02", None, "7.000"),
    ]


def test_picked_cartons_leave_the_list_and_a_shipped_shipment_lists_nothing(
    sales_world, spread, api, in_tenant
):
    w = sales_world
    client = api(w["warehouse_user"], w["tenant3"])
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=spread["shipment"], codes=spread["codes"][:2])
    cartons = [
        (p["code"], p["cartons"])
        for p in _detail(client, spread["shipment"])["pick_locations"]
        if p["cartons"]
    ]
    assert cartons == [("A-01", 1)]
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=spread["shipment"], codes=spread["codes"][2:])
        services.shipment_ship(shipment=spread["shipment"])
    assert _detail(client, spread["shipment"])["pick_locations"] == []


def test_the_detail_query_count_does_not_grow_with_places(sales_world, spread, api, count_queries, in_tenant):
    w = sales_world
    client = api(w["warehouse_user"], w["tenant3"])
    url = f"/api/salesorders/shipments/{spread['shipment'].pk}/"
    client.get(url)  # first request of the user: its permissions are read once and cached
    two_places = count_queries(lambda: client.get(url))
    with in_tenant(w["tenant3"]):
        more = Location.objects.create(warehouse=w["warehouse"], code="C-03", kind=Location.Kind.STORAGE)
        WarehouseCarton.objects.filter(label__code=spread["codes"][2]).update(location=more)
    assert count_queries(lambda: client.get(url)) == two_places


def test_another_company_cannot_read_the_pick_list(sales_world, spread, api):
    w = sales_world
    assert (
        api(w["other_admin"], w["tenant2"])
        .get(f"/api/salesorders/shipments/{spread['shipment'].pk}/")
        .status_code
        == 404
    )
    assert api(w["supplier_user_a"], w["tenant3"]).get(
        f"/api/salesorders/shipments/{spread['shipment'].pk}/"
    ).status_code in (403, 404)
