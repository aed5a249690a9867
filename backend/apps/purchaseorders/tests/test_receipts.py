"""Receipts: partial and repeated receipts, over-receipt, stock posting, atomicity, permissions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory.models import Location, Stock, StockMove, Warehouse
from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine, Receipt, ReceiptLine

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/receipts/"


@pytest.fixture
def order(world, make_order):
    return make_order(lines=[(world["carton"], "100", "1.25"), (world["box"], "50", "0.80")])


def lines_of(order, in_tenant, tenant):
    with in_tenant(tenant):
        return list(PurchaseOrderLine.objects.filter(order=order).order_by("line_number"))


def receive(client, order, quantities, **extra):
    return client.post(
        URL,
        {
            "purchase_order": order.pk,
            "lines": [{"order_line": line.pk, "quantity": qty} for line, qty in quantities],
            **extra,
        },
        format="json",
    )


def stock_at(location, product, in_tenant, tenant):
    with in_tenant(tenant):
        row = Stock.objects.filter(location=location, product=product).first()
        return row.quantity if row else Decimal("0")


def test_partial_receipts_then_auto_complete(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    client = api(world["warehouse_user"], tenant)

    first = receive(client, order, [(carton_line, "60")], note="First truck")
    assert first.status_code == 201, first.json()
    data = first.json()["data"]
    assert data["receipt_number"].startswith("RC-") and data["receipt_number"].endswith("-00001")
    assert data["lines"][0]["quantity"] == "60.000" and data["lines"][0]["location"] == "RECV"
    assert data["warehouse_detail"]["code"] == "RTM"

    second = receive(client, order, [(carton_line, "40"), (box_line, "20")])
    assert second.status_code == 201
    assert second.json()["data"]["receipt_number"].endswith("-00002")
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    assert carton_line.received_qty == Decimal("100") and box_line.received_qty == Decimal("20")
    assert stock_at(world["receiving"], world["carton"], in_tenant, tenant) == Decimal("100")
    assert stock_at(world["receiving"], world["box"], in_tenant, tenant) == Decimal("20")
    with in_tenant(tenant):
        assert StockMove.objects.filter(kind="receipt").count() == 3
        assert PurchaseOrder.objects.get(pk=order.pk).status == "partly_received"

    last = receive(client, order, [(box_line, "30")])
    assert last.status_code == 201
    with in_tenant(tenant):
        assert PurchaseOrder.objects.get(pk=order.pk).status == "received"
    # a received order receives nothing more
    again = receive(client, order, [(box_line, "1")])
    assert again.status_code == 409 and again.json()["error"] == "order_not_receivable"


def test_over_receipt_is_refused(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    response = receive(api(world["purchasing"], tenant), order, [(carton_line, "100.001")])
    assert response.status_code == 400
    assert response.json()["error"] == "over_receipt"
    assert "still open" in response.json()["message"]
    with in_tenant(tenant):
        assert not Receipt.objects.exists() and not StockMove.objects.exists()


def test_over_receipt_with_permission(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    response = receive(
        api(world["purchasing"], tenant), order, [(carton_line, "110")], allow_over_receipt=True
    )
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["over_receipt"] is True
    carton_line, _ = lines_of(order, in_tenant, tenant)
    assert carton_line.received_qty == Decimal("110")


def test_over_receipt_flag_needs_the_permission(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    response = receive(
        api(world["warehouse_user"], tenant), order, [(carton_line, "110")], allow_over_receipt=True
    )
    assert response.status_code == 403
    with in_tenant(tenant):
        assert not Receipt.objects.exists()


def test_failure_on_a_later_line_posts_nothing(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    # the first line is fine and is processed first; the second is over-received
    response = receive(api(world["purchasing"], tenant), order, [(carton_line, "10"), (box_line, "51")])
    assert response.status_code == 400
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    assert carton_line.received_qty == 0 and box_line.received_qty == 0
    with in_tenant(tenant):
        assert Receipt.objects.count() == 0
        assert ReceiptLine.objects.count() == 0
        assert StockMove.objects.count() == 0
        assert Stock.objects.filter(quantity__gt=0).count() == 0


def test_stock_failure_rolls_back_the_receipt(world, order, in_tenant, monkeypatch):
    """The stock posting fails after the receipt and its lines were written: nothing survives."""
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    from apps.inventory import services as inventory

    real_post = inventory.stock_moves_post

    def post_then_fail(**kwargs):
        real_post(**kwargs)
        raise inventory.InsufficientStock()

    monkeypatch.setattr(inventory, "stock_moves_post", post_then_fail)
    with in_tenant(tenant):
        with pytest.raises(inventory.InsufficientStock):
            services.receipt_create(
                purchase_order=order,
                lines=[services.ReceiptLineInput(order_line_id=carton_line.pk, quantity=Decimal("5"))],
                user=world["purchasing"],
            )
        assert Receipt.objects.count() == 0
        assert StockMove.objects.count() == 0
        assert PurchaseOrderLine.objects.get(pk=carton_line.pk).received_qty == 0
        assert not Stock.objects.filter(quantity__gt=0).exists()


def test_line_of_another_order_and_bad_quantities(world, api, order, make_order, in_tenant):
    tenant = world["tenant3"]
    other = make_order()
    (foreign_line,) = lines_of(other, in_tenant, tenant)
    carton_line, _ = lines_of(order, in_tenant, tenant)
    client = api(world["purchasing"], tenant)
    assert receive(client, order, [(foreign_line, "1")]).status_code == 400
    assert receive(client, order, [(carton_line, "0")]).status_code == 400
    assert receive(client, order, [(carton_line, "-3")]).status_code == 400
    assert receive(client, order, [(carton_line, "1"), (carton_line, "1")]).status_code == 400
    assert receive(client, order, []).status_code == 400


@pytest.mark.parametrize("status", ["received", "closed", "cancelled"])
def test_only_open_orders_receive(world, api, order, in_tenant, status):
    tenant = world["tenant3"]
    with in_tenant(tenant):
        PurchaseOrder.objects.filter(pk=order.pk).update(status=status)
    carton_line, _ = lines_of(order, in_tenant, tenant)
    response = receive(api(world["purchasing"], tenant), order, [(carton_line, "1")])
    assert response.status_code == 409 and response.json()["error"] == "order_not_receivable"


def test_warehouse_without_receiving_location(world, api, order, in_tenant):
    tenant = world["tenant3"]
    with in_tenant(tenant):
        bare = Warehouse.objects.create(code="EMPTY", name="No docks")
        Location.objects.create(warehouse=bare, code="S1", kind=Location.Kind.STORAGE)
    carton_line, _ = lines_of(order, in_tenant, tenant)
    response = receive(api(world["purchasing"], tenant), order, [(carton_line, "1")], warehouse=bare.pk)
    assert response.status_code == 409 and response.json()["error"] == "no_receiving_location"


def test_receipts_cannot_be_edited_or_deleted(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    client = api(world["admin"], tenant)
    receipt_id = receive(client, order, [(carton_line, "1")]).json()["data"]["id"]
    assert client.patch(f"{URL}{receipt_id}/", {"note": "x"}, format="json").status_code == 405
    assert client.delete(f"{URL}{receipt_id}/").status_code == 405


def test_order_with_receipts_cannot_be_deleted(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    client = api(world["admin"], tenant)
    receive(client, order, [(carton_line, "1")])
    response = client.delete(f"/api/purchaseorders/orders/{order.pk}/")
    assert response.status_code == 409 and response.json()["error"] == "order_in_use"


def test_received_line_cannot_be_removed_or_cut_below_received(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    client = api(world["admin"], tenant)
    receive(client, order, [(carton_line, "30")])
    url = f"/api/purchaseorders/orders/{order.pk}/"
    removed = client.patch(
        url,
        {"lines": [{"id": box_line.pk, "product": world["box"].pk, "order_qty": "50", "unit_cost": "0.8"}]},
        format="json",
    )
    assert removed.status_code == 409 and removed.json()["error"] == "line_received"
    cut = client.patch(
        url,
        {
            "lines": [
                {"id": carton_line.pk, "product": world["carton"].pk, "order_qty": "20", "unit_cost": "1.25"},
                {"id": box_line.pk, "product": world["box"].pk, "order_qty": "50", "unit_cost": "0.8"},
            ]
        },
        format="json",
    )
    assert cut.status_code == 409 and cut.json()["error"] == "below_received"


def test_list_detail_filters_and_query_count(world, api, order, make_order, in_tenant, count_queries):
    tenant = world["tenant3"]
    carton_line, box_line = lines_of(order, in_tenant, tenant)
    client = api(world["purchasing"], tenant)
    receive(client, order, [(carton_line, "1")])
    client.get(URL)
    one = count_queries(lambda: client.get(URL))
    for _ in range(4):
        receive(client, order, [(carton_line, "1"), (box_line, "1")])
    assert count_queries(lambda: client.get(URL)) == one
    body = client.get(f"{URL}?purchase_order={order.pk}&ordering=receipt_number").json()["data"]
    assert body["count"] == 5
    assert body["results"][1]["lines_count"] == 2 and body["results"][1]["total_qty"] == "2.000"
    other = make_order()
    assert client.get(f"{URL}?purchase_order={other.pk}").json()["data"]["count"] == 0
    detail = client.get(f"{URL}{body['results'][1]['id']}/").json()["data"]
    assert len(detail["lines"]) == 2 and detail["purchase_order_number"] == order.order_number
    export = client.get(f"{URL}export/?format=csv")
    assert order.order_number in b"".join(export.streaming_content).decode("utf-8-sig")


def test_tenant_isolation_and_roles(world, api, order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    receipt_id = receive(api(world["admin"], tenant), order, [(carton_line, "1")]).json()["data"]["id"]
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(URL).json()["data"]["count"] == 0
    assert stranger.get(f"{URL}{receipt_id}/").status_code == 404
    refused = stranger.post(
        URL,
        {"purchase_order": order.pk, "lines": [{"order_line": carton_line.pk, "quantity": "1"}]},
        format="json",
    )
    assert refused.status_code == 400  # the order does not exist in tenant 2
    assert api(world["sales"], tenant).get(URL).status_code == 403
    assert receive(api(world["sales"], tenant), order, [(carton_line, "1")]).status_code == 403
    assert receive(api(world["supplier_user_a"], tenant), order, [(carton_line, "1")]).status_code == 403


def test_suppliers_see_only_their_vendors_receipts(world, api, order, make_order, in_tenant):
    tenant = world["tenant3"]
    carton_line, _ = lines_of(order, in_tenant, tenant)
    other = make_order(supplier=world["supplier_b"])
    (other_line,) = lines_of(other, in_tenant, tenant)
    admin = api(world["admin"], tenant)
    mine = receive(admin, order, [(carton_line, "1")]).json()["data"]["id"]
    theirs = receive(admin, other, [(other_line, "1")]).json()["data"]["id"]
    client = api(world["supplier_user_a"], tenant)
    assert [r["id"] for r in client.get(URL).json()["data"]["results"]] == [mine]
    assert client.get(f"{URL}{theirs}/").status_code == 404
    assert client.get(f"{URL}?purchase_order={other.pk}").json()["data"]["count"] == 0
