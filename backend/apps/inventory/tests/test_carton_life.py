"""The carton's life (apps.inventory.carton_life): every state and step of the state machine, every refusal,
one carton walked from its label to its customer through the areas' own services, voiding (who, when,
why) only before the carton reached the warehouse, and the public trace reading the life."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import timezone

from apps.eudr.models import CartonLabel
from apps.eudr.placing import available_statement_record
from apps.inventory import carton_life as life
from apps.inventory import errors, services
from apps.inventory.models import CartonEvent, WarehouseCarton
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.salesorders import services as sales

pytestmark = pytest.mark.django_db

WAREHOUSE_STATES = {
    life.Life.RECEIVED: "received",
    life.Life.IN_STOCK: "in_stock",
    life.Life.PICKED: "picked",
    life.Life.SHIPPED: "shipped",
    life.Life.DELIVERED: "delivered",
}


def _fake(state: life.Life):
    """A label and warehouse row (not saved) in `state`."""
    label = SimpleNamespace(
        code="TESTCODE",
        status="voided" if state == life.Life.VOIDED else "active",
        container="MSCU1234565" if state == life.Life.IN_CONTAINER else "",
    )
    carton = SimpleNamespace(status=WAREHOUSE_STATES[state]) if state in WAREHOUSE_STATES else None
    return label, carton


@pytest.mark.parametrize("state", list(life.Life))
@pytest.mark.parametrize("action", list(life.Action))
def test_every_step_of_every_state_is_allowed_or_refused_by_name(state, action):
    label, carton = _fake(state)
    assert life.life_of(label=label, carton=carton) == state
    allowed = life.TRANSITIONS.get((state, action))
    if allowed is not None:
        assert life.carton_check(label=label, carton=carton, action=action) == allowed
        return
    with pytest.raises(errors.CartonRefused) as refused:
        life.carton_check(label=label, carton=carton, action=action)
    assert refused.value.data["code"] == "TESTCODE"
    assert "TESTCODE" in str(refused.value.message)
    assert refused.value.status_code == 409
    if state == life.Life.VOIDED:
        assert refused.value.error == "carton_voided"
    elif action == life.Action.VOID:
        assert refused.value.error == "carton_not_voidable"
    elif action == life.Action.SHIP and state not in (life.Life.SHIPPED, life.Life.DELIVERED):
        assert refused.value.error == "carton_not_picked"


def test_the_machine_allows_voiding_only_before_the_warehouse_and_shipped_never_goes_back():
    voidable = {state for (state, action) in life.TRANSITIONS if action == life.Action.VOID}
    assert voidable == {life.Life.LABELLED, life.Life.IN_CONTAINER}
    for (state, _action), after in life.TRANSITIONS.items():
        if state in (life.Life.SHIPPED, life.Life.DELIVERED):
            assert after == life.Life.DELIVERED
        assert after != life.Life.LABELLED and after != life.Life.IN_CONTAINER


@pytest.fixture
def container(sales_world, in_tenant, make_order, issue_labels):
    w = sales_world
    order = make_order(lines=[(w["carton"], "10", "1")])
    with in_tenant(w["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234565", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=4, container="MSCU1234565")
    return {"shipment": shipment, "order": order, "line": line, "labels": labels}


def _state(label):
    label = CartonLabel.objects.get(pk=label.pk)
    return life.life_of(label=label, carton=WarehouseCarton.objects.filter(label=label).first())


def test_one_carton_from_its_label_to_its_customer_and_every_refusal_on_the_way(
    sales_world, container, in_tenant, make_sales_order, api
):
    w = sales_world
    label, spare = container["labels"][0], container["labels"][1]
    user = w["warehouse_user"]
    with in_tenant(w["tenant3"]):
        assert _state(label) == life.Life.IN_CONTAINER
        # not yet in the warehouse: cannot be moved, picked or shipped
        with pytest.raises(errors.CartonNotInStock):
            services.carton_move(code=label.code, location=w["storage"], user=user)
        with pytest.raises(errors.CartonNotPicked):
            services.cartons_shipped(label_ids=[label.pk], reference="X", customer_id=None, user=user)

        services.carton_receive(code=label.code, shipment=container["shipment"], user=user)
        assert _state(label) == life.Life.RECEIVED
        with pytest.raises(errors.CartonAlreadyReceived):
            services.carton_receive(code=label.code, shipment=container["shipment"], user=user)
        services.carton_move(code=label.code, location=w["storage"], user=user)
        assert _state(label) == life.Life.RECEIVED

        (receipt,) = services.cartons_receiving_post(shipment=container["shipment"], user=user)
        assert _state(label) == life.Life.IN_STOCK
        assert WarehouseCarton.objects.get(label=label).receipt == receipt
        with pytest.raises(errors.CartonTransitionRefused):
            services.cartons_delivered(label_ids=[label.pk], reference="X")

    order = make_sales_order(lines=[(w["carton"], "1", "2.00")])
    with in_tenant(w["tenant3"]):
        shipment = sales.shipment_create(
            sales_order=order,
            lines=[sales.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("1"))],
        )
        sales.shipment_cartons_add(shipment=shipment, codes=[label.code], user=user)
        assert _state(label) == life.Life.PICKED
        with pytest.raises(errors.CartonPicked):
            services.carton_move(code=label.code, location=w["receiving"], user=user)
        sales.shipment_cartons_remove(shipment=shipment, codes=[label.code])
        assert _state(label) == life.Life.IN_STOCK
        with pytest.raises(errors.CartonTransitionRefused):
            services.cartons_unpicked(label_ids=[label.pk], reference="X")
        sales.shipment_cartons_add(shipment=shipment, codes=[label.code], user=user)
        # imported, it leaves for the customer only once a statement of ours covers its placing
        with pytest.raises(errors.CartonNotCovered):
            sales.shipment_ship(shipment=shipment, user=user)
        assert _state(label) == life.Life.PICKED
        available_statement_record(
            shipment=container["shipment"],
            reference_number="26NLX7TVCZAQ2S",
            verification_number="SFFCB4Y3",
            submitted_at=timezone.now(),
        )
        sales.shipment_ship(shipment=shipment, user=user)
        assert _state(label) == life.Life.SHIPPED
        with pytest.raises(errors.CartonAlreadyShipped):
            services.carton_move(code=label.code, location=w["receiving"], user=user)
        sales.shipment_deliver(shipment=shipment)
        assert _state(label) == life.Life.DELIVERED
        kinds = list(CartonEvent.objects.filter(carton__label=label).values_list("kind", flat=True))
        assert kinds == [
            "received",
            "moved",
            "stocked",
            "picked",
            "unpicked",
            "picked",
            "shipped",
            "delivered",
        ]

    # deleting (voiding) the shipped carton's label is refused in the user's language; nothing is voided
    client = api(w["admin"], w["tenant3"])
    refused = client.post(
        "/api/eudr/cartons/bulk-delete/",
        {"ids": [spare.pk, label.pk], "reason": "misprint"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh",
    )
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"] == "carton_not_voidable"
    assert label.code in refused.json()["message"] and "纸箱" in refused.json()["message"]
    with in_tenant(w["tenant3"]):
        assert CartonLabel.objects.filter(pk__in=[spare.pk, label.pk], status="active").count() == 2

    # the public trace reads the life: received, put away, stocked, shipped, delivered
    steps = api().get(f"/api/eudrtrack/{label.code}/").json()["data"]["warehouse_history"]
    assert [step["kind"] for step in steps] == ["received", "put_away", "stocked", "shipped", "delivered"]


def test_a_label_before_the_warehouse_is_voided_with_who_and_why(sales_world, container, in_tenant, api):
    w = sales_world
    received, spare = container["labels"][0], container["labels"][1]
    with in_tenant(w["tenant3"]):
        services.carton_receive(code=received.code, shipment=container["shipment"], user=w["warehouse_user"])
    client = api(w["admin"], w["tenant3"])
    refused = client.post("/api/eudr/cartons/bulk-delete/", {"ids": [received.pk]}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "carton_not_voidable"
    assert "received into the warehouse" in refused.json()["message"]
    done = client.post(
        "/api/eudr/cartons/bulk-delete/", {"ids": [spare.pk], "reason": "Label misprinted"}, format="json"
    )
    assert done.status_code == 200 and done.json()["data"]["deleted"] == 1
    listed = client.get("/api/eudr/cartons/", {"status": "voided"}).json()["data"]["results"]
    row = next(item for item in listed if item["id"] == spare.pk)
    assert row["life"] == "voided" and row["void_reason"] == "Label misprinted"
    assert row["voided_by"] == w["admin"].username and row["voided_at"]
    live = client.get("/api/eudr/cartons/").json()["data"]["results"]
    assert {item["code"]: item["life"] for item in live}[received.code] == "received"
    # a voided carton is refused at every later step
    with in_tenant(w["tenant3"]), pytest.raises(errors.CartonVoided):
        services.carton_receive(code=spare.code, shipment=container["shipment"], user=w["warehouse_user"])
    assert api().get(f"/api/eudrtrack/{spare.code}/").status_code == 404


def test_another_tenant_or_vendor_cannot_void_or_read_the_labels(sales_world, container, api, in_tenant):
    w = sales_world
    label = container["labels"][0]
    for other in (api(w["other_admin"], w["tenant2"]), api(w["supplier_user_b"], w["tenant3"])):
        answer = other.post(
            "/api/eudr/cartons/bulk-delete/", {"ids": [label.pk], "reason": "x"}, format="json"
        )
        assert answer.status_code in (403, 404)
        assert label.code not in other.get("/api/eudr/cartons/").content.decode()
    with in_tenant(w["tenant3"]):
        assert CartonLabel.objects.get(pk=label.pk).status == "active"


def test_deleting_a_picked_shipment_returns_its_cartons_to_stock(
    sales_world, in_tenant, put_stock, make_sales_order, carton_codes
):
    w = sales_world
    put_stock(w["carton"], "5")
    codes = carton_codes(w["carton"], 2)
    order = make_sales_order(lines=[(w["carton"], "2", "2.00")])
    with in_tenant(w["tenant3"]):
        shipment = sales.shipment_create(
            sales_order=order,
            lines=[sales.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("2"))],
        )
        sales.shipment_cartons_add(shipment=shipment, codes=codes)
        sales.shipment_delete(shipment=shipment)
        assert set(
            WarehouseCarton.objects.filter(label__code__in=codes).values_list("status", flat=True)
        ) == {"in_stock"}
