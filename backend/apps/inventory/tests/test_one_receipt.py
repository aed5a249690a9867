"""One receipt: receiving a line of labelled goods by quantity and receiving its cartons by scan are the
same receipt. A scan completes a quantity receipt (never a second one); a quantity receipt takes the
cartons already scanned; the order line, the container and the stock agree after any mix."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from apps.inventory import errors, selectors, services
from apps.inventory.models import Stock, StockMove, WarehouseCarton
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders import services as purchasing
from apps.purchaseorders.models import Receipt, ReceiptLine

pytestmark = pytest.mark.django_db


@pytest.fixture
def container(world, in_tenant, make_order, issue_labels):
    order = make_order(lines=[(world["carton"], "10", "1"), (world["box"], "5", "2")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234565", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        carton_line, box_line = order.lines.order_by("line_number")
    cartons = issue_labels(carton_line, count=4, container="MSCU1234565")
    return {
        "shipment": shipment,
        "order": order,
        "line": carton_line,
        "box_line": box_line,
        "cartons": cartons,
    }


def scan(world, in_tenant, code, shipment, **kwargs):
    with in_tenant(world["tenant3"]):
        return services.carton_receive(code=code, shipment=shipment, user=world["warehouse_user"], **kwargs)


def receive(world, in_tenant, order, line, quantity):
    with in_tenant(world["tenant3"]):
        return purchasing.receipt_create(
            purchase_order=order,
            lines=[purchasing.ReceiptLineInput(order_line_id=line.pk, quantity=Decimal(quantity))],
            user=world["purchasing"],
        )


def agree(world, line):
    """The line's received quantity is its receipts; stock is the ledger; every carton is in one state."""
    line.refresh_from_db()
    receipts = ReceiptLine.objects.filter(order_line=line).aggregate(q=Sum("quantity"))["q"] or 0
    assert line.received_qty == receipts
    for row in Stock.objects.all():
        moved_in = StockMove.objects.filter(to_location=row.location, product=row.product).aggregate(
            q=Sum("quantity")
        )["q"] or Decimal(0)
        moved_out = StockMove.objects.filter(from_location=row.location, product=row.product).aggregate(
            q=Sum("quantity")
        )["q"] or Decimal(0)
        assert row.quantity == moved_in - moved_out
    in_stock = WarehouseCarton.objects.filter(label__purchase_order_line=line, receipt__isnull=False).count()
    assert in_stock <= line.received_qty
    return line


def test_scanning_completes_a_quantity_receipt_and_never_adds_a_second(world, in_tenant, container, shelf):
    order, line, shipment = container["order"], container["line"], container["shipment"]
    receipt = receive(world, in_tenant, order, line, "10")
    with in_tenant(world["tenant3"]):
        assert Stock.objects.get(product=world["carton"], location=world["receiving"]).quantity == 10
    # the line is fully received: its cartons are still welcome, each completing the quantity receipt
    first = scan(world, in_tenant, container["cartons"][0].code, shipment)
    assert first.carton.status == "in_stock" and first.carton.receipt_id == receipt.pk
    second = scan(world, in_tenant, container["cartons"][1].code, shipment, location=shelf)
    assert second.carton.status == "in_stock" and second.carton.location_id == shelf.pk
    with in_tenant(world["tenant3"]):
        assert Receipt.objects.count() == 1
        line = agree(world, line)
        assert line.received_qty == 10
        stock = {s.location_id: s.quantity for s in Stock.objects.filter(product=world["carton"])}
        assert stock == {world["receiving"].pk: Decimal("9"), shelf.pk: Decimal("1")}
        with pytest.raises(errors.NothingToPost):
            services.cartons_receiving_post(shipment=shipment, user=None)
        listed = selectors.inbound_shipments(ShipmentInfo.objects.all()).get()
        assert (listed.cartons_received, listed.cartons_pending) == (2, 0)


def test_a_quantity_receipt_takes_the_cartons_already_scanned(world, in_tenant, container, shelf):
    order, line, shipment = container["order"], container["line"], container["shipment"]
    scan(world, in_tenant, container["cartons"][0].code, shipment)
    scan(world, in_tenant, container["cartons"][1].code, shipment, location=shelf)
    receipt = receive(world, in_tenant, order, line, "5")
    with in_tenant(world["tenant3"]):
        cartons = WarehouseCarton.objects.filter(label__purchase_order_line=line)
        assert {(c.status, c.receipt_id) for c in cartons} == {("in_stock", receipt.pk)}
        with pytest.raises(errors.NothingToPost):
            services.cartons_receiving_post(shipment=shipment, user=None)
        line = agree(world, line)
        assert line.received_qty == 5 and Receipt.objects.count() == 1
        stock = {s.location_id: s.quantity for s in Stock.objects.filter(product=world["carton"])}
        assert stock == {world["receiving"].pk: Decimal("4"), shelf.pk: Decimal("1")}


def test_any_mix_of_quantity_and_scans_agrees(world, in_tenant, container):
    order, line, shipment = container["order"], container["line"], container["shipment"]
    receive(world, in_tenant, order, line, "1")
    scan(world, in_tenant, container["cartons"][0].code, shipment)  # completes the receipt of 1
    scan(world, in_tenant, container["cartons"][1].code, shipment)  # a new carton: pending
    with in_tenant(world["tenant3"]):
        assert WarehouseCarton.objects.get(label=container["cartons"][1]).status == "received"
        services.cartons_receiving_post(shipment=shipment, user=world["warehouse_user"])
        assert Receipt.objects.count() == 2
    receive(world, in_tenant, order, line, "8")
    with in_tenant(world["tenant3"]):
        line = agree(world, line)
        assert line.received_qty == 10
    # the line is fully received by quantity; the remaining cartons complete that receipt
    scan(world, in_tenant, container["cartons"][2].code, shipment)
    scan(world, in_tenant, container["cartons"][3].code, shipment)
    with in_tenant(world["tenant3"]):
        line = agree(world, line)
        assert line.received_qty == 10 and Receipt.objects.count() == 3
        assert set(WarehouseCarton.objects.values_list("status", flat=True)) == {"in_stock"}
        assert Stock.objects.get(product=world["carton"], location=world["receiving"]).quantity == 10


def test_a_carton_beyond_what_was_received_and_ordered_is_refused(world, in_tenant, make_order, issue_labels):
    order = make_order(lines=[(world["carton"], "2", "1")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="TGHU8912347", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=3, container="TGHU8912347")
    receive(world, in_tenant, order, line, "2")
    with in_tenant(world["tenant3"]):
        order.refresh_from_db()
        assert order.status == "received"
    # a received order's cartons still complete its receipt
    scan(world, in_tenant, labels[0].code, shipment)
    scan(world, in_tenant, labels[1].code, shipment)
    with pytest.raises(errors.OrderNotOpen):
        scan(world, in_tenant, labels[2].code, shipment)
    with in_tenant(world["tenant3"]):
        assert agree(world, line).received_qty == 2 and Receipt.objects.count() == 1


def test_unlabelled_goods_keep_the_quantity_receipt(world, in_tenant, container):
    receipt = receive(world, in_tenant, container["order"], container["box_line"], "5")
    with in_tenant(world["tenant3"]):
        assert receipt.lines.get().quantity == 5 and not WarehouseCarton.objects.exists()
        assert Stock.objects.get(product=world["box"], location=world["receiving"]).quantity == 5


def test_the_scan_api_answers_the_completed_receipt(world, in_tenant, container, api):
    receive(world, in_tenant, container["order"], container["line"], "3")
    client = api(world["warehouse_user"], world["tenant3"])
    answer = client.post(
        "/api/inventory/cartons/receive/",
        {"code": container["cartons"][0].code, "shipment": container["shipment"].pk},
        format="json",
    )
    assert answer.status_code in (200, 201), answer.content
    assert answer.json()["data"]["carton"]["status"] == "in_stock"


def test_container_progress_counts_its_labelled_cartons(
    world, in_tenant, make_order, issue_labels, container
):
    """A container's progress is its labelled cartons received of its labelled cartons: labels naming
    another container of the same order are not its cartons."""
    shipment = container["shipment"]
    issue_labels(container["line"], count=5, container="OTHER1234567")  # same order, another container
    scan(world, in_tenant, container["cartons"][0].code, shipment)
    with in_tenant(world["tenant3"]):
        listed = selectors.inbound_shipments(ShipmentInfo.objects.all()).get()
        assert (listed.cartons_received, listed.cartons_expected) == (1, 4)
        (line,) = selectors.inbound_lines(shipment)
        assert (line["cartons_received"], line["cartons_expected"]) == (1, 4)


def test_low_compares_the_products_total_available_with_its_reorder_point(world, in_tenant, api, shelf):
    from apps.inventory.models import ReorderPoint

    with in_tenant(world["tenant3"]):
        for location, quantity in ((world["receiving"], "3000"), (shelf, "14")):
            services.stock_moves_post(
                moves=[
                    services.MoveSpec(
                        product_id=world["carton"].pk, quantity=Decimal(quantity), to_location=location
                    )
                ],
                kind="receipt",
                reference="TEST",
            )
        ReorderPoint.objects.create(product=world["carton"], reorder_point=Decimal("500"))
    client = api(world["admin"], world["tenant3"])
    rows = client.get("/api/inventory/stock/", {"product": world["carton"].pk}).json()["data"]["results"]
    assert {row["location_code"]: row["below_reorder_point"] for row in rows} == {
        world["receiving"].code: False,
        shelf.code: False,
    }
    assert {Decimal(row["product_available"]) for row in rows} == {Decimal("3014")}
    with in_tenant(world["tenant3"]):
        ReorderPoint.objects.filter(product=world["carton"]).update(reorder_point=Decimal("5000"))
    rows = client.get("/api/inventory/stock/", {"product": world["carton"].pk}).json()["data"]["results"]
    assert all(row["below_reorder_point"] for row in rows)


def test_scanned_cartons_derive_the_order_status(world, in_tenant, make_order, issue_labels):
    """The container scan's posting receives through the purchase receipt service: the order becomes
    partly received, then received (docs/purchasing.md, "Lifecycle")."""
    order = make_order(lines=[(world["carton"], "3", "1")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="TGHU8912347", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=3, container="TGHU8912347")
    scan(world, in_tenant, labels[0].code, shipment)
    with in_tenant(world["tenant3"]):
        services.cartons_receiving_post(shipment=shipment, user=world["warehouse_user"])
        order.refresh_from_db()
        assert order.status == "partly_received"
    scan(world, in_tenant, labels[1].code, shipment)
    scan(world, in_tenant, labels[2].code, shipment)
    with in_tenant(world["tenant3"]):
        services.cartons_receiving_post(shipment=shipment, user=world["warehouse_user"])
        order.refresh_from_db()
        assert order.status == "received"
        assert agree(world, line).received_qty == 3


def test_a_draft_orders_cartons_are_not_received(world, in_tenant, make_order, issue_labels):
    order = make_order(lines=[(world["carton"], "2", "1")])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="TGHU8912347", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=1, container="TGHU8912347")
    with in_tenant(world["tenant3"]):
        type(order).objects.filter(pk=order.pk).update(status="draft")
    with pytest.raises(errors.OrderNotOpen):
        scan(world, in_tenant, labels[0].code, shipment)
