"""Carton scanning: receiving a container (each refusal), posting one receipt per order, put-away moves,
a scan sent twice recorded once, the public history without the customer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import errors, selectors, services
from apps.inventory.models import CartonEvent, Location, Stock, WarehouseCarton
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders.models import Receipt

pytestmark = pytest.mark.django_db


@pytest.fixture
def container(world, in_tenant, make_order, issue_labels):
    order = make_order(lines=[(world["carton"], "10", "1"), (world["box"], "3", "2")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234565", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        carton_line, box_line = order.lines.order_by("line_number")
    cartons = issue_labels(carton_line, count=3, container="MSCU1234565")
    boxes = issue_labels(box_line, count=4)
    return {"shipment": shipment, "order": order, "cartons": cartons, "boxes": boxes}


def scan(world, in_tenant, code, shipment, **kwargs):
    with in_tenant(world["tenant3"]):
        return services.carton_receive(code=code, shipment=shipment, user=world["warehouse_user"], **kwargs)


def test_receiving_scans_then_posts_one_receipt_per_order(world, in_tenant, container, shelf):
    shipment = container["shipment"]
    first = scan(world, in_tenant, container["cartons"][0].code.lower(), shipment)
    assert first.carton.status == "received" and first.carton.location == world["receiving"]
    scan(
        world, in_tenant, f"https://x.test/eudrtrace/{container['cartons'][1].code}", shipment, location=shelf
    )
    scan(world, in_tenant, container["boxes"][0].code, shipment)
    with in_tenant(world["tenant3"]):
        assert Stock.objects.filter(quantity__gt=0).count() == 0
        listed = selectors.inbound_shipments(ShipmentInfo.objects.all()).get()
        assert (listed.cartons_expected, listed.cartons_received, listed.cartons_pending) == (7, 3, 3)
        receipts = services.cartons_receiving_post(shipment=shipment, user=world["warehouse_user"])
        assert len(receipts) == 1 and Receipt.objects.count() == 1
        lines = {line.order_line.product_id: line.quantity for line in receipts[0].lines.all()}
        assert lines == {world["carton"].pk: Decimal("2"), world["box"].pk: Decimal("1")}
        stock = {(s.product_id, s.location_id): s.quantity for s in Stock.objects.exclude(quantity=0)}
        assert stock == {
            (world["carton"].pk, world["receiving"].pk): Decimal("1"),
            (world["carton"].pk, shelf.pk): Decimal("1"),
            (world["box"].pk, world["receiving"].pk): Decimal("1"),
        }
        assert set(WarehouseCarton.objects.values_list("status", flat=True)) == {"in_stock"}
        with pytest.raises(errors.NothingToPost):
            services.cartons_receiving_post(shipment=shipment, user=None)
        lines = {row["article_number"]: row for row in selectors.inbound_lines(shipment)}
        assert lines["CT-6040"]["cartons_expected"] == 3 and lines["CT-6040"]["cartons_received"] == 2


def test_each_receiving_refusal(world, in_tenant, container, make_order, issue_labels):
    shipment = container["shipment"]
    code = container["cartons"][0].code
    scan(world, in_tenant, code, shipment)
    with pytest.raises(services.CartonAlreadyReceived):
        scan(world, in_tenant, code, shipment)
    with pytest.raises(services.CartonUnknown):
        scan(world, in_tenant, "NOSUCHCODE1", shipment)
    other_order = make_order()
    with in_tenant(world["tenant3"]):
        other_line = other_order.lines.get()
    (stray,) = issue_labels(other_line, count=1)
    with pytest.raises(services.CartonNotOnShipment):
        scan(world, in_tenant, stray.code, shipment)
    with in_tenant(world["tenant3"]):
        first_line = container["order"].lines.get(line_number=1)
    (voided,) = issue_labels(first_line, count=1, status="voided", container="MSCU1234565")
    with pytest.raises(services.CartonVoided):
        scan(world, in_tenant, voided.code, shipment)
    # another tenant's carton
    with in_tenant(world["tenant2"]):
        own = ShipmentInfo.objects.create(container_number="TGHU0000009")
        with pytest.raises(services.CartonOtherCompany):
            services.carton_receive(code=container["cartons"][1].code, shipment=own, user=None)
    # the box line orders 3: a fourth carton would over-receive it
    for box in container["boxes"][:3]:
        scan(world, in_tenant, box.code, shipment)
    with pytest.raises(services.CartonOverReceipt):
        scan(world, in_tenant, container["boxes"][3].code, shipment)
    with in_tenant(world["tenant3"]):
        assert WarehouseCarton.objects.count() == 4


def test_a_scan_sent_twice_is_recorded_once(world, in_tenant, container, shelf):
    shipment = container["shipment"]
    code = container["cartons"][0].code
    first = scan(world, in_tenant, code, shipment, scan_id="phone-1-0001")
    again = scan(world, in_tenant, code, shipment, scan_id="phone-1-0001")
    assert not first.duplicate and again.duplicate and again.carton.pk == first.carton.pk
    with in_tenant(world["tenant3"]):
        moved = services.carton_move(code=code, location=shelf, user=None, scan_id="phone-1-0002")
        repeat = services.carton_move(code=code, location=shelf, user=None, scan_id="phone-1-0002")
        assert repeat.duplicate and CartonEvent.objects.filter(kind="moved").count() == 1
        assert moved.carton.location == shelf


def test_put_away_moves_stock_with_the_carton(world, in_tenant, container, shelf):
    shipment = container["shipment"]
    code = container["cartons"][0].code
    scan(world, in_tenant, code, shipment)
    with in_tenant(world["tenant3"]):
        services.cartons_receiving_post(shipment=shipment, user=None)
        services.carton_move(code=code, location=shelf, user=world["warehouse_user"])
        assert Stock.objects.get(product=world["carton"], location=shelf).quantity == 1
        assert Stock.objects.get(product=world["carton"], location=world["receiving"]).quantity == 0
        carton = WarehouseCarton.objects.get()
        assert [e.kind for e in carton.events.all()] == ["received", "stocked", "moved"]
        carton.status = "shipped"
        carton.save()
        with pytest.raises(services.CartonAlreadyShipped):
            services.carton_move(code=code, location=world["receiving"], user=None)
        with pytest.raises(services.CartonNotInStock):
            services.carton_move(code=container["cartons"][1].code, location=shelf, user=None)


def test_public_history_has_no_customer(world, in_tenant, container):
    from apps.customers.models import Customer

    code = container["cartons"][0].code
    scan(world, in_tenant, code, container["shipment"])
    with in_tenant(world["tenant3"]):
        carton = WarehouseCarton.objects.get()
        customer = Customer.objects.create(number="C-1", name="Secret Buyer BV")
        secret_shelf = Location.objects.create(warehouse=world["warehouse"], code="SECRET-07")
        for _twice in range(2):  # two moves on one day are one public "put away" step
            CartonEvent.objects.create(carton=carton, kind="moved", location=secret_shelf, reference="RECV")
        CartonEvent.objects.create(carton=carton, kind="picked", customer=customer, reference="SH-1")
        CartonEvent.objects.create(carton=carton, kind="shipped", customer=customer, reference="SO-1")
        history = selectors.public_carton_history(carton.label)
    assert [item["kind"] for item in history] == ["received", "put_away", "shipped"]
    for secret in ("Secret", "SO-1", "SH-1", "SECRET-07", "RECV", "RTM"):
        assert secret not in str(history)
