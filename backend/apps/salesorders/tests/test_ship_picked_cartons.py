"""Shipping labelled goods ships their picked cartons: a line of a labelled product cannot ship more than
its picked cartons, unless the company allows shipping unlabelled stock; then the delivery note says per
line what shipped without a label. Unlabelled goods ship by quantity."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory.models import StockMove, WarehouseCarton
from apps.salesorders import services
from apps.salesorders.models import ShipmentLine
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db


@pytest.fixture
def labelled_shipment(sales_world, put_stock, make_sales_order, carton_codes, in_tenant):
    w = sales_world
    put_stock(w["carton"], "10")
    codes = carton_codes(w["carton"], 3)
    order = make_sales_order(lines=[(w["carton"], "5", "2.00")])
    with in_tenant(w["tenant3"]):
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("3"))],
        )
    return {"shipment": shipment, "codes": codes, "order": order}


def test_a_labelled_line_without_its_picked_cartons_does_not_ship(
    sales_world, labelled_shipment, in_tenant, api
):
    w = sales_world
    shipment = labelled_shipment["shipment"]
    client = api(w["warehouse_user"], w["tenant3"])
    refused = client.post(f"/api/salesorders/shipments/{shipment.pk}/ship/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 409 and refused.json()["error"] == "cartons_not_picked"
    assert "0 of 3 cartons are picked" in refused.json()["message"]
    (line,) = refused.json()["data"]["lines"]
    assert (line["picked"], line["missing"]) == (0, "3.000")
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=shipment, codes=labelled_shipment["codes"][:2])
    refused = client.post(f"/api/salesorders/shipments/{shipment.pk}/ship/", HTTP_ACCEPT_LANGUAGE="zh")
    assert refused.status_code == 409 and "纸箱" in refused.json()["message"]
    with in_tenant(w["tenant3"]):
        assert not StockMove.objects.filter(kind="issue").exists()
        services.shipment_cartons_add(shipment=shipment, codes=labelled_shipment["codes"][2:])
    detail = client.get(f"/api/salesorders/shipments/{shipment.pk}/").json()["data"]
    (row,) = detail["lines"]
    assert row["labelled"] is True and row["cartons_picked"] == 3 and Decimal(row["shipped_quantity"]) == 0
    shipped = client.post(f"/api/salesorders/shipments/{shipment.pk}/ship/")
    assert shipped.status_code == 200, shipped.content
    with in_tenant(w["tenant3"]):
        assert set(
            WarehouseCarton.objects.filter(label__code__in=labelled_shipment["codes"]).values_list(
                "status", flat=True
            )
        ) == {"shipped"}
        assert ShipmentLine.objects.get(shipment=shipment).unlabelled_quantity == 0


def test_the_company_may_allow_unlabelled_stock_and_the_delivery_note_says_so(
    sales_world, labelled_shipment, in_tenant
):
    from apps.salesorders.pdf import delivery_note_pdf
    from apps.salesorders.tests.test_invoices import _pdf_text

    w = sales_world
    Tenant.objects.filter(pk=w["tenant3"].pk).update(allow_unlabelled_shipping=True)
    shipment = labelled_shipment["shipment"]
    with in_tenant(w["tenant3"]):
        services.shipment_cartons_add(shipment=shipment, codes=labelled_shipment["codes"][:1])
        services.shipment_ship(shipment=shipment)
        line = ShipmentLine.objects.get(shipment=shipment)
        assert line.unlabelled_quantity == 2
        shipment.refresh_from_db()
        text = _pdf_text(delivery_note_pdf(shipment))
    assert "2 shipped without a carton label" in text
    assert labelled_shipment["codes"][0] in text


def test_unlabelled_goods_ship_by_quantity(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["box"], "10")
    order = make_sales_order(lines=[(w["box"], "4", "1.00")])
    with in_tenant(w["tenant3"]):
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("4"))],
        )
        services.shipment_ship(shipment=shipment)
        shipment.refresh_from_db()
        assert shipment.status == "shipped"


def test_only_the_company_itself_changes_the_setting(sales_world, api):
    w = sales_world
    mine = api(w["admin"], w["tenant3"]).patch(
        "/api/tenants/current/", {"allow_unlabelled_shipping": True}, format="json"
    )
    assert mine.status_code == 200, mine.content
    assert mine.json()["data"]["allow_unlabelled_shipping"] is True
    assert not Tenant.objects.get(pk=w["tenant2"].pk).allow_unlabelled_shipping
