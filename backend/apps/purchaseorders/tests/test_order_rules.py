"""What an order may no longer change once goods, shipments or carton labels refer to it; the owner
options; receipts into an inactive warehouse."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.common.exceptions import DomainError
from apps.inventory.models import StockMove, Warehouse
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrderLine, Receipt

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"
RECEIPTS = "/api/purchaseorders/receipts/"


@pytest.fixture
def order(world, make_order):
    return make_order(lines=[(world["carton"], "100", "1.25"), (world["box"], "50", "0.80")])


def lines_of(order, in_tenant, world):
    with in_tenant(world["tenant3"]):
        return list(PurchaseOrderLine.objects.filter(order=order).order_by("line_number"))


def line_payload(line, **changes):
    payload = {
        "id": line.pk,
        "product": line.product_id,
        "order_qty": str(line.order_qty),
        "unit_cost": str(line.unit_cost),
    }
    payload.update(changes)
    return payload


def receive(world, api, order, line, qty="10"):
    response = api(world["purchasing"], world["tenant3"]).post(
        RECEIPTS,
        {"purchase_order": order.pk, "lines": [{"order_line": line.pk, "quantity": qty}]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response


def patch_lines(client, order, lines):
    return client.patch(f"{URL}{order.pk}/", {"lines": lines}, format="json")


# ------------------------------------------------------------------------------- A: product and weight


def test_product_of_a_received_line_cannot_change(world, api, order, in_tenant):
    carton_line, box_line = lines_of(order, in_tenant, world)
    receive(world, api, order, carton_line)
    client = api(world["purchasing"], world["tenant3"])

    response = patch_lines(
        client, order, [line_payload(carton_line, product=world["box"].pk), line_payload(box_line)]
    )
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "line_product_locked"
    assert body["message"] == "Line 1 has received goods: its product cannot be changed."

    renamed = patch_lines(
        client, order, [line_payload(carton_line, product_number="CT-OTHER"), line_payload(box_line)]
    )
    assert renamed.status_code == 409 and renamed.json()["error"] == "line_product_locked"

    # quantity, price, description and weight may still change; the product snapshot stays
    fine = patch_lines(
        client,
        order,
        [
            line_payload(carton_line, order_qty="120", line_description="Reprint", weight_per_carton="0.9"),
            line_payload(box_line),
        ],
    )
    assert fine.status_code == 200, fine.json()
    first = fine.json()["data"]["lines"][0]
    assert (first["product"], first["product_number"]) == (world["carton"].pk, "CT-6040")
    assert first["weight_per_carton"] == "0.900"


def test_product_of_a_labelled_line_cannot_change(world, api, order, in_tenant, issue_labels):
    carton_line, box_line = lines_of(order, in_tenant, world)
    issue_labels(box_line)
    client = api(world["purchasing"], world["tenant3"])
    response = patch_lines(
        client, order, [line_payload(carton_line), line_payload(box_line, product=world["carton"].pk)]
    )
    assert response.status_code == 409
    assert response.json()["error"] == "line_product_locked"
    assert response.json()["message"] == "Line 2 has carton labels: its product cannot be changed."
    with in_tenant(world["tenant3"]):
        assert PurchaseOrderLine.objects.get(pk=box_line.pk).product_id == world["box"].pk
    # the other line is free
    free = patch_lines(
        client, order, [line_payload(carton_line, product=world["box"].pk), line_payload(box_line)]
    )
    assert free.status_code == 200, free.json()
    assert free.json()["data"]["lines"][0]["product_number"] == "CT-3020"


def test_weight_used_by_labels_cannot_change(world, api, order, in_tenant, issue_labels):
    carton_line, box_line = lines_of(order, in_tenant, world)
    issue_labels(carton_line)
    client = api(world["purchasing"], world["tenant3"])
    response = patch_lines(
        client, order, [line_payload(carton_line, weight_per_carton="0.9"), line_payload(box_line)]
    )
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "line_weight_locked"
    assert body["message"] == "Line 1 has carton labels: its weight per carton cannot be changed."
    cleared = patch_lines(
        client, order, [line_payload(carton_line, weight_per_carton=None), line_payload(box_line)]
    )
    assert cleared.status_code == 409 and cleared.json()["error"] == "line_weight_locked"

    # the same weight written differently, or no weight sent, is no change
    same = patch_lines(
        client,
        order,
        [line_payload(carton_line, weight_per_carton="0.85", order_qty="90"), line_payload(box_line)],
    )
    assert same.status_code == 200, same.json()
    omitted = patch_lines(client, order, [line_payload(carton_line, unit_cost="2"), line_payload(box_line)])
    assert omitted.status_code == 200
    assert omitted.json()["data"]["lines"][0]["weight_per_carton"] == "0.850"


def test_voided_labels_release_product_and_weight(world, api, order, in_tenant, issue_labels):
    carton_line, box_line = lines_of(order, in_tenant, world)
    issue_labels(carton_line, status="voided")
    client = api(world["purchasing"], world["tenant3"])
    response = patch_lines(
        client, order, [line_payload(carton_line, weight_per_carton="0.9"), line_payload(box_line)]
    )
    assert response.status_code == 200, response.json()


# ------------------------------------------------------------------------------- B: supplier


def test_supplier_can_change_while_nothing_refers_to_the_order(world, api, order):
    client = api(world["purchasing"], world["tenant3"])
    response = client.patch(f"{URL}{order.pk}/", {"supplier": world["supplier_b"].pk}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["supplier"] == world["supplier_b"].pk


def _with_receipt(world, api, order, in_tenant, issue_labels):
    receive(world, api, order, lines_of(order, in_tenant, world)[0])


def _with_shipment(world, api, order, in_tenant, issue_labels):
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234566")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)


def _with_labels(world, api, order, in_tenant, issue_labels):
    issue_labels(lines_of(order, in_tenant, world)[1])


def _with_voided_labels(world, api, order, in_tenant, issue_labels):
    issue_labels(lines_of(order, in_tenant, world)[1], status="voided")


@pytest.mark.parametrize("refer", [_with_receipt, _with_shipment, _with_labels, _with_voided_labels])
def test_supplier_is_fixed_once_anything_refers_to_the_order(
    world, api, order, in_tenant, issue_labels, refer
):
    refer(world, api, order, in_tenant, issue_labels)
    client = api(world["purchasing"], world["tenant3"])
    response = client.patch(f"{URL}{order.pk}/", {"supplier": world["supplier_b"].pk}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "supplier_locked"
    assert body["message"] == (
        "The supplier cannot be changed: receipts, shipments or carton labels refer to this order."
    )
    # the same supplier, and other header fields, are still accepted
    same = client.patch(
        f"{URL}{order.pk}/", {"supplier": world["supplier_a"].pk, "description": "Rush"}, format="json"
    )
    assert same.status_code == 200, same.json()
    assert same.json()["data"]["supplier"] == world["supplier_a"].pk


# ------------------------------------------------------------------------------- C: at least one line


@pytest.mark.parametrize("method", ["patch", "put"])
def test_an_order_keeps_at_least_one_line(world, api, order, in_tenant, method):
    client = api(world["purchasing"], world["tenant3"])
    payload = {"lines": []}
    if method == "put":
        payload.update({"order_date": "2026-03-01", "supplier": world["supplier_a"].pk})
    response = getattr(client, method)(f"{URL}{order.pk}/", payload, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert body["data"]["lines"] == ["Add at least one line."]
    assert len(lines_of(order, in_tenant, world)) == 2


def test_service_refuses_an_empty_line_list(world, order, in_tenant):
    with in_tenant(world["tenant3"]), pytest.raises(DomainError) as raised:
        services.purchase_order_update(order=order, fields={}, lines=[])
    assert raised.value.error == "validation_error" and "lines" in raised.value.data


# ------------------------------------------------------------------------------- D: removing a labelled line


@pytest.mark.parametrize("status", ["active", "voided"])
def test_line_with_carton_labels_cannot_be_removed(world, api, order, in_tenant, issue_labels, status):
    carton_line, box_line = lines_of(order, in_tenant, world)
    issue_labels(box_line, status=status)
    response = patch_lines(api(world["purchasing"], world["tenant3"]), order, [line_payload(carton_line)])
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "line_has_cartons"
    assert body["message"] == "Line 2 has carton labels and cannot be removed."
    assert len(lines_of(order, in_tenant, world)) == 2


def test_received_line_removal_still_says_received(world, api, order, in_tenant, issue_labels):
    carton_line, box_line = lines_of(order, in_tenant, world)
    receive(world, api, order, box_line)
    issue_labels(box_line)
    response = patch_lines(api(world["purchasing"], world["tenant3"]), order, [line_payload(carton_line)])
    assert response.status_code == 409 and response.json()["error"] == "line_received"


# ------------------------------------------------------------------------------- E: inactive warehouse


def test_receipt_into_an_inactive_warehouse_is_refused(world, api, order, in_tenant):
    with in_tenant(world["tenant3"]):
        Warehouse.objects.filter(pk=world["warehouse"].pk).update(is_active=False)
    carton_line, _ = lines_of(order, in_tenant, world)
    response = api(world["purchasing"], world["tenant3"]).post(
        RECEIPTS,
        {
            "purchase_order": order.pk,
            "warehouse": world["warehouse"].pk,
            "lines": [{"order_line": carton_line.pk, "quantity": "5"}],
        },
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert body["data"]["warehouse"] == ["This warehouse is inactive."]
    with in_tenant(world["tenant3"]):
        assert not Receipt.objects.exists() and not StockMove.objects.exists()
        assert PurchaseOrderLine.objects.get(pk=carton_line.pk).received_qty == Decimal("0")


# ------------------------------------------------------------------------------- owners


def test_owner_options_are_the_tenants_internal_users(world, api):
    client = api(world["purchasing"], world["tenant3"])
    response = client.get(f"{URL}owners/?page_size=200")
    assert response.status_code == 200
    names = {row["username"] for row in response.json()["data"]["results"]}
    assert {"boss", "buyer", "seller", "picker"} <= names
    assert not names & {"sup_a", "sup_b", "stranger"}
    found = client.get(f"{URL}owners/?search=buy").json()["data"]["results"]
    assert [row["username"] for row in found] == ["buyer"]
    by_id = client.get(f"{URL}owners/?id={world['admin'].pk}").json()["data"]["results"]
    assert [row["id"] for row in by_id] == [world["admin"].pk]
    assert client.get(f"{URL}owners/?id={world['other_admin'].pk}").json()["data"]["count"] == 0


def test_supplier_users_cannot_list_owners(world, api):
    assert api(world["supplier_user_a"], world["tenant3"]).get(f"{URL}owners/").status_code == 403


def test_owner_is_set_changed_and_filtered(world, api, order):
    client = api(world["purchasing"], world["tenant3"])
    changed = client.patch(f"{URL}{order.pk}/", {"owner": world["admin"].pk}, format="json")
    assert changed.status_code == 200 and changed.json()["data"]["owner"] == world["admin"].pk
    assert [o["id"] for o in client.get(f"{URL}?owner={world['admin'].pk}").json()["data"]["results"]] == [
        order.pk
    ]
    assert client.get(f"{URL}?owner={world['purchasing'].pk}").json()["data"]["count"] == 0
    for stranger in (world["other_admin"], world["supplier_user_a"]):
        refused = client.patch(f"{URL}{order.pk}/", {"owner": stranger.pk}, format="json")
        assert refused.status_code == 400 and "owner" in refused.json()["data"]


def test_another_tenant_cannot_change_the_order(world, api, order):
    client = api(world["other_admin"], world["tenant2"])
    assert client.patch(f"{URL}{order.pk}/", {"lines": []}, format="json").status_code == 404
    assert client.get(f"{URL}owners/").json()["data"]["count"] >= 1  # its own users only
    usernames = {row["username"] for row in client.get(f"{URL}owners/").json()["data"]["results"]}
    assert usernames == {"stranger"}
