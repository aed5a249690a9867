"""Pick lists say where: each shipment line lists the locations of the shipment's warehouse that hold its
product (on hand and cartons in stock), nearest first (location code order, docs/warehouse.md)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import selectors
from apps.inventory.models import Location, Warehouse, WarehouseCarton
from apps.salesorders import services

pytestmark = pytest.mark.django_db


def _shipment(order, quantity, in_tenant, tenant):
    with in_tenant(tenant):
        line = order.lines.get()
        return services.shipment_create(
            sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=Decimal(quantity))]
        )


@pytest.fixture
def shelves(sales_world, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        c09 = Location.objects.create(warehouse=w["warehouse"], code="C-09")
        b02 = Location.objects.create(warehouse=w["warehouse"], code="B-02", name="Aisle B")
        other = Warehouse.objects.create(code="HAM", name="Hamburg")
        far = Location.objects.create(warehouse=other, code="A-00")
    return {"c09": c09, "b02": b02, "far": far}


def test_the_pick_line_lists_its_locations_nearest_first(
    sales_world, shelves, api, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "5", shelves["c09"])
    put_stock(w["carton"], "3", shelves["b02"])
    put_stock(w["carton"], "2")
    put_stock(w["carton"], "9", shelves["far"])  # another warehouse: not on this pick list
    codes = carton_codes(w["carton"], 3)  # in stock at A-01
    with in_tenant(w["tenant3"]):
        WarehouseCarton.objects.filter(label__code=codes[0]).update(location=shelves["b02"])
    order = make_sales_order(lines=[(w["carton"], "3", "2.00")])
    shipment = _shipment(order, "3", in_tenant, w["tenant3"])
    client = api(w["warehouse_user"], w["tenant3"])
    body = client.get(f"/api/salesorders/shipments/{shipment.pk}/").json()["data"]
    where = body["lines"][0]["pick_locations"]
    assert [(row["location_code"], row["on_hand"], row["cartons"]) for row in where] == [
        ("A-01", "2.000", 2),
        ("B-02", "3.000", 1),
        ("C-09", "5.000", 0),
    ]
    assert where[1]["location"] == shelves["b02"].pk and where[1]["location_name"] == "Aisle B"

    # a picked carton is no longer where to pick: the list follows the carton's state
    client.post(f"/api/salesorders/shipments/{shipment.pk}/cartons/", {"codes": [codes[0]]}, format="json")
    body = client.get(f"/api/salesorders/shipments/{shipment.pk}/").json()["data"]
    assert [row["cartons"] for row in body["lines"][0]["pick_locations"]] == [2, 0, 0]


def test_a_shipped_shipment_lists_no_locations(
    sales_world, api, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "5")
    codes = carton_codes(w["carton"], 1)
    order = make_sales_order(lines=[(w["carton"], "3", "2.00")])
    shipment = _shipment(order, "1", in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=shipment, codes=codes)
        services.shipment_ship(shipment=shipment)
    body = api(w["warehouse_user"], w["tenant3"]).get(f"/api/salesorders/shipments/{shipment.pk}/").json()
    assert body["data"]["lines"][0]["pick_locations"] == []


def test_the_selector_without_products_and_for_an_empty_product(sales_world, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        assert selectors.pick_locations(warehouse_id=w["warehouse"].pk, product_ids=[]) == {}
        assert selectors.pick_locations(warehouse_id=w["warehouse"].pk, product_ids=[w["box"].pk]) == {
            w["box"].pk: []
        }


def test_another_company_and_a_supplier_cannot_read_where_the_goods_are(
    sales_world, api, put_stock, make_sales_order, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "5")
    order = make_sales_order(lines=[(w["carton"], "3", "2.00")])
    shipment = _shipment(order, "1", in_tenant, w["tenant3"])
    url = f"/api/salesorders/shipments/{shipment.pk}/"
    assert api(w["other_admin"], w["tenant2"]).get(url).status_code == 404
    for supplier in (w["supplier_user_a"], w["supplier_user_b"]):
        assert api(supplier, w["tenant3"]).get(url).status_code in (403, 404)
