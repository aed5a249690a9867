"""The inventory API: stock with reserved/available and totals, as-of, transfers and counts, carton scans
and history, inbound shipments, the search; roles, tenant isolation and query counts of every list."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import services
from apps.inventory.models import ReorderPoint
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder

pytestmark = pytest.mark.django_db


def receive(world, in_tenant, product, qty, location=None):
    with in_tenant(world["tenant3"]):
        services.stock_moves_post(
            moves=[
                services.MoveSpec(
                    product_id=product.pk, quantity=Decimal(qty), to_location=location or world["receiving"]
                )
            ],
            kind="receipt",
            reference="IN",
        )


@pytest.fixture
def container(world, in_tenant, make_order, issue_labels):
    order = make_order(lines=[(world["carton"], "10", "1")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234565", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=3, container="MSCU1234565")
    return {"shipment": shipment, "order": order, "labels": labels}


def test_stock_rows_totals_filters_and_as_of(world, api, in_tenant, shelf):
    receive(world, in_tenant, world["carton"], "7")
    receive(world, in_tenant, world["carton"], "3", shelf)
    receive(world, in_tenant, world["box"], "2")
    with in_tenant(world["tenant3"]):
        ReorderPoint.objects.create(product=world["carton"], reorder_point=Decimal("20"))
    client = api(world["warehouse_user"], world["tenant3"])
    rows = client.get(f"/api/inventory/stock/?product={world['carton'].pk}").json()["data"]["results"]
    assert [(r["location_code"], r["on_hand"], r["reserved"], r["available"]) for r in rows] == [
        ("A-01", "3.000", "0.000", "3.000"),
        ("RECV", "7.000", "0.000", "7.000"),
    ]
    below = client.get("/api/inventory/stock/?below_reorder_point=true").json()["data"]["results"]
    assert {r["article_number"] for r in below} == {"CT-6040"}
    by_location = client.get(f"/api/inventory/stock/?location={shelf.pk}").json()["data"]["count"]
    assert by_location == 1
    totals = client.get("/api/inventory/stock/totals/").json()["data"]["results"]
    assert [(t["article_number"], t["on_hand"], t["locations"]) for t in totals] == [
        ("CT-3020", "2.000", 1),
        ("CT-6040", "10.000", 2),
    ]
    as_of = client.get("/api/inventory/stock/as-of/?at=2000-01-01").json()["data"]
    assert as_of["count"] == 0
    now = client.get(f"/api/inventory/stock/as-of/?at=2999-01-01&warehouse={world['warehouse'].pk}").json()
    assert now["data"]["count"] == 3
    bad = client.get("/api/inventory/stock/as-of/?at=yesterday")
    assert bad.status_code == 400 and bad.json()["error"] == "validation_error"


def test_transfer_and_count_endpoints(world, api, in_tenant, shelf):
    receive(world, in_tenant, world["carton"], "5")
    client = api(world["warehouse_user"], world["tenant3"])
    body = {
        "product": world["carton"].pk,
        "from_location": world["receiving"].pk,
        "to_location": shelf.pk,
        "quantity": "2",
    }
    answer = client.post("/api/inventory/transfers/", body, format="json")
    assert answer.status_code == 201 and answer.json()["data"]["kind"] == "transfer"
    too_much = client.post("/api/inventory/transfers/", {**body, "quantity": "9"}, format="json")
    assert too_much.status_code == 409 and too_much.json()["error"] == "insufficient_stock"
    for junk in (
        {},
        [],
        {"quantity": "-1"},
        {**body, "product": world["product_x"].pk},
        "x",
        {**body, "quantity": "x"},
    ):
        assert client.post("/api/inventory/transfers/", junk, format="json").status_code == 400
    count = client.post(
        "/api/inventory/counts/",
        {
            "lines": [
                {
                    "product": world["carton"].pk,
                    "location": shelf.pk,
                    "counted_quantity": "5",
                    "reason": "Found",
                }
            ]
        },
        format="json",
    )
    assert count.status_code == 201
    assert count.json()["data"]["lines"][0]["difference"] == "3.000"
    for junk in ({}, {"lines": []}, {"lines": [{}]}, {"lines": "x"}, [1]):
        assert client.post("/api/inventory/counts/", junk, format="json").status_code == 400
    moves = client.get("/api/inventory/moves/?document_type=count").json()["data"]["results"]
    assert moves[0]["reason"] == "Found" and moves[0]["created_by_name"] == "picker"
    # a sales user reads nothing of the warehouse's writes
    assert (
        api(world["supplier_user_a"], world["tenant3"])
        .post("/api/inventory/transfers/", body, format="json")
        .status_code
        == 403
    )


def test_scan_endpoints_and_carton_page(world, api, in_tenant, container, shelf):
    client = api(world["warehouse_user"], world["tenant3"])
    shipment = container["shipment"]
    code = container["labels"][0].code
    first = client.post(
        "/api/inventory/cartons/receive/",
        {"code": code, "shipment": shipment.pk, "scan_id": "s-1"},
        format="json",
    )
    assert first.status_code == 201 and first.json()["data"]["carton"]["status"] == "received"
    again = client.post(
        "/api/inventory/cartons/receive/",
        {"code": code, "shipment": shipment.pk, "scan_id": "s-1"},
        format="json",
    )
    assert again.status_code == 200 and again.json()["data"]["duplicate"] is True
    refused = client.post(
        "/api/inventory/cartons/receive/", {"code": code, "shipment": shipment.pk}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["error"] == "carton_already_received"
    unknown = client.post(
        "/api/inventory/cartons/receive/", {"code": "NOPE", "shipment": shipment.pk}, format="json"
    )
    assert unknown.status_code == 404 and unknown.json()["error"] == "carton_unknown"
    for junk in (
        {},
        {"code": code},
        {"code": code, "shipment": 999999},
        [],
        {"code": ["x"], "shipment": "a"},
    ):
        assert client.post("/api/inventory/cartons/receive/", junk, format="json").status_code == 400
    inbound = client.get("/api/inventory/inbound/").json()["data"]["results"]
    assert inbound[0]["cartons_expected"] == 3 and inbound[0]["cartons_pending"] == 1
    detail = client.get(f"/api/inventory/inbound/{shipment.pk}/").json()["data"]
    assert detail["lines"][0]["cartons_received"] == 1
    posted = client.post(f"/api/inventory/inbound/{shipment.pk}/post-receipts/")
    assert posted.status_code == 201 and len(posted.json()["data"]) == 1
    moved = client.post("/api/inventory/cartons/move/", {"code": code, "location": shelf.pk}, format="json")
    assert moved.status_code == 201 and moved.json()["data"]["carton"]["location_code"] == "A-01"
    page = client.get(f"/api/inventory/cartons/{code.lower()}/").json()["data"]
    assert [e["kind"] for e in page["events"]] == ["received", "stocked", "moved"]
    stock = client.get(f"/api/inventory/stock/?location={shelf.pk}").json()["data"]["results"]
    assert stock[0]["on_hand"] == "1.000"


def test_search_finds_each_kind(world, api, in_tenant, container):
    client = api(world["warehouse_user"], world["tenant3"])
    code = container["labels"][0].code
    exact = client.get(f"/api/inventory/search/?q={code.lower()}").json()["data"]
    assert exact == [
        {
            "type": "carton",
            "id": container["labels"][0].pk,
            "label": f"{code} · CT-6040",
            "url": f"/warehouse/inventory?carton={code}",
            "code": code,
        }
    ]
    kinds = {hit["type"] for hit in client.get("/api/inventory/search/?q=PO-2026").json()["data"]}
    assert kinds == {"purchase_order"}
    assert client.get("/api/inventory/search/?q=MSCU").json()["data"][0]["type"] == "shipment"
    assert client.get("/api/inventory/search/?q=CT-60").json()["data"][0]["type"] == "product"
    assert client.get("/api/inventory/search/?q=a").json()["data"] == []
    assert (
        api(world["other_admin"], world["tenant2"]).get(f"/api/inventory/search/?q={code}").json()["data"]
        == []
    )


LISTS = (
    "/api/inventory/warehouses/",
    "/api/inventory/locations/",
    "/api/inventory/stock/",
    "/api/inventory/stock/totals/",
    "/api/inventory/stock/as-of/?at=2999-01-01",
    "/api/inventory/moves/",
    "/api/inventory/counts/",
    "/api/inventory/cartons/",
    "/api/inventory/inbound/",
)


def test_lists_isolated_role_checked_and_count_stable(
    world, api, in_tenant, container, shelf, count_queries, issue_labels
):
    client = api(world["warehouse_user"], world["tenant3"])

    def grow(n):
        receive(world, in_tenant, world["box"], "2", shelf)
        receive(world, in_tenant, world["carton"], "4")
        with in_tenant(world["tenant3"]):
            services.stock_count_post(
                lines=[
                    services.CountLineInput(
                        product_id=world["box"].pk, location=shelf, counted_quantity=Decimal(n)
                    )
                ],
                user=None,
            )
            ShipmentInfo.objects.create(container_number="TGHU0000009")
            services.carton_receive(
                code=container["labels"][n].code, shipment=container["shipment"], user=None
            )

    grow(0)
    counts = {}
    for url in LISTS:
        client.get(url)
        counts[url] = count_queries(lambda url=url: client.get(url))
    grow(1)
    for url in LISTS:
        assert count_queries(lambda url=url: client.get(url)) == counts[url], url
        assert api(world["other_admin"], world["tenant2"]).get(url).json()["data"]["count"] == 0, url
        assert api(world["supplier_user_a"], world["tenant3"]).get(url).status_code == 403, url
        assert client.get(url).json()["data"]["count"] > 0, url
    assert (
        api(world["other_admin"], world["tenant2"])
        .get(f"/api/inventory/cartons/{container['labels'][0].code}/")
        .status_code
        == 404
    )
