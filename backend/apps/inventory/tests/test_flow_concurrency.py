"""The flow of goods under concurrency (PostgreSQL row locks): two requests receiving, picking or shipping
the same cartons at the same moment end consistent. The carton's life locks its warehouse rows in primary
key order (apps/inventory/carton_life.py), so opposite orders never deadlock; the loser gets a domain
error (a 409 over the API), never a database error (a 500), and nothing is counted twice."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import Sum

from apps.common.exceptions import DomainError
from apps.inventory import services as inventory
from apps.inventory.models import Stock, StockMove, WarehouseCarton
from apps.inventory.tests import test_one_receipt
from apps.purchaseorders import services as purchasing
from apps.purchaseorders.models import ReceiptLine
from apps.salesorders import services as sales
from apps.salesorders.models import ShipmentCarton
from apps.tenancy.context import tenant_context

container = test_one_receipt.container  # the fixture: a container with labelled cartons of an order

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(tenant, *jobs) -> list[str]:
    """Runs the jobs in two threads released together; each answers "ok", its domain error key, or the
    class of any other exception (which fails the test: a deadlock would surface as a 500)."""
    barrier = threading.Barrier(len(jobs))
    results: list[str] = [""] * len(jobs)

    def work(index):
        try:
            with tenant_context(tenant), transaction.atomic():
                barrier.wait(timeout=10)
                jobs[index]()
            results[index] = "ok"
        except DomainError as exc:
            results[index] = exc.error
        except Exception as exc:  # reported and asserted below
            results[index] = f"crash:{type(exc).__name__}:{exc}"
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(result.startswith("crash") for result in results), results
    return results


def _shipment(order, quantity, in_tenant, tenant):
    with in_tenant(tenant):
        line = order.lines.get()
        return sales.shipment_create(
            sales_order=order, lines=[sales.ShipmentLineInput(order_line=line, quantity=Decimal(quantity))]
        )


def test_two_picks_of_the_same_cartons_in_opposite_order(
    sales_world, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "20")
    codes = carton_codes(w["carton"], 3)
    first = _shipment(make_sales_order(lines=[(w["carton"], "3", "2.00")]), "3", in_tenant, w["tenant3"])
    second = _shipment(make_sales_order(lines=[(w["carton"], "3", "2.00")]), "3", in_tenant, w["tenant3"])
    results = _race(
        w["tenant3"],
        lambda: sales.shipment_cartons_add(shipment=type(first).objects.get(pk=first.pk), codes=codes),
        lambda: sales.shipment_cartons_add(
            shipment=type(second).objects.get(pk=second.pk), codes=list(reversed(codes))
        ),
    )
    assert sorted(results) == ["carton_not_in_stock", "ok"]
    winner = first if results[0] == "ok" else second
    with in_tenant(w["tenant3"]):
        assert set(ShipmentCarton.objects.values_list("shipment_id", flat=True)) == {winner.pk}
        assert ShipmentCarton.objects.count() == 3
        assert set(
            WarehouseCarton.objects.filter(label__code__in=codes).values_list("status", flat=True)
        ) == {"picked"}


def test_shipping_while_unpicking_ends_consistent(
    sales_world, put_stock, make_sales_order, carton_codes, in_tenant
):
    w = sales_world
    put_stock(w["carton"], "20")
    codes = carton_codes(w["carton"], 2)
    shipment = _shipment(make_sales_order(lines=[(w["carton"], "2", "2.00")]), "2", in_tenant, w["tenant3"])
    with in_tenant(w["tenant3"]):
        sales.shipment_cartons_add(shipment=shipment, codes=codes)
    results = _race(
        w["tenant3"],
        lambda: sales.shipment_ship(shipment=type(shipment).objects.get(pk=shipment.pk)),
        lambda: sales.shipment_cartons_remove(
            shipment=type(shipment).objects.get(pk=shipment.pk), codes=codes[:1]
        ),
    )
    assert "ok" in results, results
    with in_tenant(w["tenant3"]):
        shipped = WarehouseCarton.objects.filter(status="shipped").count()
        issued = StockMove.objects.filter(kind="issue").aggregate(s=Sum("quantity"))["s"] or Decimal("0")
        if results[0] == "ok":  # shipped first: both cartons left, the unpick was refused
            assert results[1] != "ok" and shipped == 2 and issued == Decimal("2")
        else:  # unpicked first: the labelled line lacks a carton, nothing shipped
            assert results[0] == "cartons_not_picked" and shipped == 0 and issued == Decimal("0")
        assert Stock.objects.aggregate(s=Sum("quantity"))["s"] == Decimal("20") - issued


def test_a_scan_and_a_quantity_receipt_of_the_same_line_count_once(world, container, in_tenant):
    w, c = world, container
    code = c["cartons"][0].code
    results = _race(
        w["tenant3"],
        lambda: inventory.carton_receive(code=code, shipment=c["shipment"], user=w["warehouse_user"]),
        lambda: purchasing.receipt_create(
            purchase_order=c["order"],
            lines=[purchasing.ReceiptLineInput(order_line_id=c["line"].pk, quantity=Decimal("1"))],
            user=w["purchasing"],
        ),
    )
    assert results == ["ok", "ok"]
    with in_tenant(w["tenant3"]):
        line = type(c["line"]).objects.get(pk=c["line"].pk)
        receipts = ReceiptLine.objects.filter(order_line=line).aggregate(s=Sum("quantity"))["s"]
        # one unit received, whichever came first: the scan completes the quantity receipt or is taken by it
        assert line.received_qty == receipts == Decimal("1")
        assert WarehouseCarton.objects.get(label__code=code).status == "in_stock"
        assert Stock.objects.filter(product=line.product).aggregate(s=Sum("quantity"))["s"] == Decimal("1")


def test_the_same_carton_scanned_twice_at_once_is_received_once(world, container, in_tenant):

    w, c = world, container
    code = c["cartons"][1].code
    results = _race(
        w["tenant3"],
        lambda: inventory.carton_receive(code=code, shipment=c["shipment"], user=w["warehouse_user"]),
        lambda: inventory.carton_receive(code=code, shipment=c["shipment"], user=w["warehouse_user"]),
    )
    assert sorted(results) == ["carton_already_received", "ok"]
    with in_tenant(w["tenant3"]):
        assert WarehouseCarton.objects.filter(label__code=code).count() == 1


def test_posting_scanned_cartons_while_the_line_is_received_by_quantity(world, container, in_tenant):
    """The container's posting and a quantity receipt of the same order line at the same moment: both
    take the scanned cartons and lock the order line and the cartons, so whichever runs second sees what
    the first did. The cartons are received once, and the line counts each unit once."""
    w, c = world, container
    codes = [carton.code for carton in c["cartons"][:2]]
    with in_tenant(w["tenant3"]):
        for code in codes:
            inventory.carton_receive(code=code, shipment=c["shipment"], user=w["warehouse_user"])
    results = _race(
        w["tenant3"],
        lambda: inventory.cartons_receiving_post(shipment=c["shipment"], user=w["warehouse_user"]),
        lambda: purchasing.receipt_create(
            purchase_order=c["order"],
            lines=[purchasing.ReceiptLineInput(order_line_id=c["line"].pk, quantity=Decimal("2"))],
            user=w["purchasing"],
        ),
    )
    assert results[1] == "ok", results
    with in_tenant(w["tenant3"]):
        line = type(c["line"]).objects.get(pk=c["line"].pk)
        receipts = ReceiptLine.objects.filter(order_line=line).aggregate(s=Sum("quantity"))["s"]
        assert line.received_qty == receipts
        cartons = WarehouseCarton.objects.filter(label__code__in=codes)
        assert set(cartons.values_list("status", flat=True)) == {"in_stock"}
        # each carton stands for one received unit, in one receipt
        assert cartons.exclude(receipt=None).count() == 2
        stock = Stock.objects.filter(product=line.product).aggregate(s=Sum("quantity"))["s"]
        assert stock == line.received_qty
        if results[0] == "ok" and line.received_qty == Decimal("4"):
            # posted first (one receipt holds both cartons), then the quantity receipt took 2 units more
            assert cartons.values("receipt").distinct().count() == 1
        else:
            # the quantity receipt took both scanned cartons; the posting found nothing left to post
            assert results[0] == "nothing_to_post" and line.received_qty == Decimal("2"), results
