"""One flow of goods, property-based: hypothesis drives random mixes of quantity receipts, carton scans,
posting, picks, unpicks, shipments and voids through the areas' own services, and after every step
checks that the records agree: stock on hand is the sum of the moves per product and location, every
carton is in exactly one state (and its rows say the same), an order line's received quantity is its
receipts, and a shipped carton can never be voided."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, event, example, given, settings, target
from hypothesis import strategies as st

from apps.common.exceptions import DomainError
from apps.eudr import services as eudr
from apps.eudr.models import CartonLabel
from apps.inventory import carton_life as life
from apps.inventory import errors
from apps.inventory import services as inventory
from apps.inventory.models import Stock, StockMove, WarehouseCarton
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders import services as purchasing
from apps.purchaseorders.models import ReceiptLine
from apps.salesorders import services as sales
from apps.salesorders.models import Shipment, ShipmentCarton
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

CARTONS = 6

step = st.one_of(
    st.tuples(st.just("receive"), st.integers(1, 3)),
    st.tuples(st.just("scan"), st.integers(0, CARTONS - 1), st.integers(0, 1)),
    st.tuples(st.just("post"), st.just(0)),
    st.tuples(st.just("pick"), st.integers(0, CARTONS - 1)),
    st.tuples(st.just("unpick"), st.integers(0, CARTONS - 1)),
    st.tuples(st.just("ship"), st.just(0)),
    st.tuples(st.just("void"), st.integers(0, CARTONS - 1)),
)


@pytest.fixture
def flow(sales_world, in_tenant, make_order, issue_labels, make_sales_order):
    w = sales_world
    # The walk is the flow of goods; which statement covers an imported carton (and refuses shipping it
    # until one does) is apps/eudr/tests/test_placing.py's and test_carton_life.py's.
    Tenant.objects.filter(pk=w["tenant3"].pk).update(allow_backorders=True, allow_uncovered_shipping=True)
    order = make_order(lines=[(w["carton"], str(CARTONS), "1")])
    with in_tenant(w["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234565", status="arrived")
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        line = order.lines.get()
    labels = issue_labels(line, count=CARTONS, container="MSCU1234565")
    sales_order = make_sales_order(lines=[(w["carton"], str(CARTONS), "2.00")])
    return {"order": order, "line": line, "container": shipment, "labels": labels, "sales_order": sales_order}


def _open_shipment(sales_order):
    shipment = Shipment.objects.filter(sales_order=sales_order, status__in=["draft", "picked"]).first()
    if shipment is not None:
        return shipment
    line = sales_order.lines.get()
    line.refresh_from_db()
    if line.quantity - line.quantity_shipped <= 0:
        return None
    return sales.shipment_create(
        sales_order=sales_order,
        lines=[
            sales.ShipmentLineInput(
                order_line=line, quantity=min(Decimal(2), line.quantity - line.quantity_shipped)
            )
        ],
    )


def _run(op, arg, extra, w, flow):
    labels, user = flow["labels"], w["warehouse_user"]
    if op == "receive":
        purchasing.receipt_create(
            purchase_order=flow["order"],
            lines=[purchasing.ReceiptLineInput(order_line_id=flow["line"].pk, quantity=Decimal(arg))],
            user=w["purchasing"],
        )
    elif op == "scan":
        location = w["storage"] if extra else None
        inventory.carton_receive(
            code=labels[arg].code, shipment=flow["container"], user=user, location=location
        )
    elif op == "post":
        inventory.cartons_receiving_post(shipment=flow["container"], user=user)
    elif op == "pick":
        shipment = _open_shipment(flow["sales_order"])
        if shipment is not None:
            sales.shipment_cartons_add(shipment=shipment, codes=[labels[arg].code], user=user)
    elif op == "unpick":
        shipment = _open_shipment(flow["sales_order"])
        if shipment is not None:
            sales.shipment_cartons_remove(shipment=shipment, codes=[labels[arg].code])
    elif op == "ship":
        shipment = _open_shipment(flow["sales_order"])
        if shipment is not None:
            sales.shipment_ship(shipment=shipment, user=user)
    else:
        eudr.cartons_delete(
            ids=[labels[arg].pk], queryset=CartonLabel.objects.all(), user=w["admin"], reason="test"
        )


def _check(flow):
    # stock on hand = the sum of the moves, per product and location
    for row in Stock.objects.all():
        into = StockMove.objects.filter(product=row.product_id, to_location=row.location_id).aggregate(
            q=Sum("quantity")
        )["q"] or Decimal(0)
        out = StockMove.objects.filter(product=row.product_id, from_location=row.location_id).aggregate(
            q=Sum("quantity")
        )["q"] or Decimal(0)
        assert row.quantity == into - out
    # the order line's received quantity = its receipts; no more cartons stocked than units received
    line = type(flow["line"]).objects.get(pk=flow["line"].pk)
    receipts = ReceiptLine.objects.filter(order_line=line).aggregate(q=Sum("quantity"))["q"] or Decimal(0)
    assert line.received_qty == receipts
    assert WarehouseCarton.objects.filter(receipt__isnull=False).count() <= line.received_qty
    # every carton in exactly one state, and its rows say the same
    on_shipment = {
        sc.carton_id: sc.shipment.status for sc in ShipmentCarton.objects.select_related("shipment")
    }
    rows = {c.label_id: c for c in WarehouseCarton.objects.all()}
    for label in CartonLabel.objects.filter(pk__in=[label.pk for label in flow["labels"]]):
        carton = rows.get(label.pk)
        state = life.life_of(label=label, carton=carton)
        if state == life.Life.VOIDED or state in (life.Life.LABELLED, life.Life.IN_CONTAINER):
            assert carton is None and label.pk not in on_shipment
        elif state == life.Life.RECEIVED:
            assert carton.receipt_id is None and carton.location_id and label.pk not in on_shipment
        elif state == life.Life.IN_STOCK:
            assert carton.receipt_id and carton.location_id and label.pk not in on_shipment
        elif state == life.Life.PICKED:
            assert (
                carton.receipt_id and carton.location_id and on_shipment.get(label.pk) in ("draft", "picked")
            )
        else:
            assert carton.receipt_id and carton.location_id is None and on_shipment.get(label.pk) == "shipped"
            # a shipped carton can never be voided
            with pytest.raises(errors.CartonNotVoidable), transaction.atomic():
                eudr.cartons_delete(ids=[label.pk], queryset=CartonLabel.objects.all(), reason="x")


# The sales order's open shipment wants 2 cartons, and a labelled line ships only picked cartons: two
# cartons picked, then shipped, then voiding them is tried (and refused).
TO_THE_CUSTOMER = [
    ("scan", 0, 0),
    ("scan", 1, 1),
    ("post", 0),
    ("pick", 0),
    ("pick", 1),
    ("ship", 0),
    ("void", 0),
    ("void", 1),
]
# The same by a quantity receipt first (the scans complete it), with an unpick on the way.
BY_QUANTITY_TO_THE_CUSTOMER = [
    ("receive", 2),
    ("scan", 0, 0),
    ("scan", 1, 0),
    ("pick", 0),
    ("unpick", 0),
    ("pick", 0),
    ("pick", 1),
    ("ship", 0),
    ("void", 1),
]


def _walk(steps, w, flow) -> int:
    """Runs the steps (a refused step changes nothing), checks the invariants after each, and answers how
    many of the flow's cartons have shipped."""
    for item in steps:
        op, arg, extra = (*item, 0)[:3]
        try:
            with transaction.atomic():
                _run(op, arg, extra, w, flow)
        except DomainError:
            pass
        _check(flow)
    return WarehouseCarton.objects.filter(
        label__in=flow["labels"], status=WarehouseCarton.Status.SHIPPED
    ).count()


# A random mix, or a random head, the way to a shipment (which a random head may already have changed,
# so it may be refused in part) and a random tail: without it few random mixes pick two cartons in stock
# and ship them.
mixes = st.one_of(
    st.lists(step, min_size=1, max_size=14),
    st.tuples(st.lists(step, max_size=4), st.lists(step, max_size=6)).map(
        lambda parts: [*parts[0], *TO_THE_CUSTOMER[:6], *parts[1]]
    ),
)


@pytest.mark.parametrize("steps", [TO_THE_CUSTOMER, BY_QUANTITY_TO_THE_CUSTOMER], ids=["scans", "quantity"])
def test_the_fixed_walks_reach_shipped_cartons(sales_world, flow, in_tenant, steps):
    """The explicit examples below do ship (so every run checks that a shipped carton cannot be voided)."""
    with in_tenant(sales_world["tenant3"]):
        assert _walk(steps, sales_world, flow) == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=mixes)
# Every run walks cartons to their customer and tries to void them there (the examples); about half of
# the random mixes pass through a shipment on their way, and `target` steers towards more shipped cartons.
@example(steps=TO_THE_CUSTOMER)
@example(steps=BY_QUANTITY_TO_THE_CUSTOMER)
def test_any_mix_of_receipts_scans_picks_shipments_and_voids_keeps_one_truth(
    sales_world, flow, in_tenant, steps
):
    w = sales_world
    with in_tenant(w["tenant3"]):
        savepoint = transaction.savepoint()
        try:
            shipped = _walk(steps, w, flow)
            event(f"cartons shipped: {shipped}")
            target(float(shipped), label="cartons shipped")
        finally:
            transaction.savepoint_rollback(savepoint)
