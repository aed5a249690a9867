"""The ledger: stock = sum of moves after any sequence of operations, as-of replay, transfers, counts,
negative stock refused (unless the company allows it), moves append-only."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common.exceptions import DomainError
from apps.inventory import selectors, services
from apps.inventory.models import LedgerIsAppendOnly, Location, Stock, StockCount, StockMove

pytestmark = pytest.mark.django_db


def receive(product, location, qty, user=None, moved_at=None):
    return services.stock_moves_post(
        moves=[services.MoveSpec(product_id=product.pk, quantity=Decimal(qty), to_location=location)],
        kind="receipt",
        reference="IN",
        user=user,
        moved_at=moved_at,
    )


def stock_of(product, location) -> Decimal:
    row = Stock.objects.filter(product=product, location=location).first()
    return row.quantity if row else Decimal("0")


operation = st.one_of(
    st.tuples(st.just("receive"), st.integers(0, 1), st.integers(0, 2), st.integers(1, 50)),
    st.tuples(st.just("issue"), st.integers(0, 1), st.integers(0, 2), st.integers(1, 50)),
    st.tuples(st.just("transfer"), st.integers(0, 1), st.integers(0, 2), st.integers(1, 50)),
    st.tuples(st.just("count"), st.integers(0, 1), st.integers(0, 2), st.integers(0, 60)),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=st.lists(operation, min_size=1, max_size=12))
def test_stock_is_the_sum_of_the_moves_after_any_operations(world, in_tenant, operations):
    with in_tenant(world["tenant3"]):
        products = [world["carton"], world["box"]]
        locations = list(Location.objects.filter(warehouse=world["warehouse"]).order_by("code"))[:3]
        while len(locations) < 3:
            locations.append(
                Location.objects.create(warehouse=world["warehouse"], code=f"Z-{len(locations)}")
            )
        user = world["admin"]
        for op, p, loc, qty in operations:
            product, location = products[p], locations[loc]
            try:
                if op == "receive":
                    receive(product, location, qty, user)
                elif op == "issue":
                    services.stock_moves_post(
                        moves=[
                            services.MoveSpec(
                                product_id=product.pk, quantity=Decimal(qty), from_location=location
                            )
                        ],
                        kind="issue",
                        reference="OUT",
                        user=user,
                    )
                elif op == "transfer":
                    target = locations[(loc + 1) % 3]
                    services.stock_transfer(
                        product_id=product.pk,
                        from_location=location,
                        to_location=target,
                        quantity=Decimal(qty),
                        user=user,
                    )
                else:
                    services.stock_count_post(
                        lines=[
                            services.CountLineInput(
                                product_id=product.pk, location=location, counted_quantity=Decimal(qty)
                            )
                        ],
                        user=user,
                    )
            except services.InsufficientStock:
                pass
        replayed = selectors.stock_as_of(at=timezone.now() + timedelta(seconds=1))
        stored = {
            (row.product_id, row.location_id): row.quantity for row in Stock.objects.exclude(quantity=0)
        }
        assert stored == replayed
        assert all(quantity >= 0 for quantity in stored.values())


def test_as_of_replays_the_ledger(world, in_tenant, shelf):
    carton, receiving = world["carton"], world["receiving"]
    with in_tenant(world["tenant3"]):
        now = timezone.now()
        receive(carton, receiving, "10", moved_at=now - timedelta(days=3))
        services.stock_moves_post(
            moves=[
                services.MoveSpec(
                    product_id=carton.pk, quantity=Decimal("4"), from_location=receiving, to_location=shelf
                )
            ],
            kind="transfer",
            reference="T",
            moved_at=now - timedelta(days=2),
        )
        services.stock_moves_post(
            moves=[services.MoveSpec(product_id=carton.pk, quantity=Decimal("1"), from_location=shelf)],
            kind="issue",
            reference="I",
            moved_at=now - timedelta(days=1),
        )
        assert selectors.stock_as_of(at=now - timedelta(days=4)) == {}
        assert selectors.stock_as_of(at=now - timedelta(days=3)) == {(carton.pk, receiving.pk): Decimal("10")}
        assert selectors.stock_as_of(at=now - timedelta(days=2)) == {
            (carton.pk, receiving.pk): Decimal("6"),
            (carton.pk, shelf.pk): Decimal("4"),
        }
        assert selectors.stock_as_of(at=now, location_ids=[shelf.pk]) == {(carton.pk, shelf.pk): Decimal("3")}


def test_transfer_moves_stock_and_refuses_negative_and_same_location(world, in_tenant, shelf):
    carton, receiving = world["carton"], world["receiving"]
    with in_tenant(world["tenant3"]):
        receive(carton, receiving, "5")
        move = services.stock_transfer(
            product_id=carton.pk,
            from_location=receiving,
            to_location=shelf,
            quantity=Decimal("2"),
            user=world["warehouse_user"],
        )
        assert move.kind == "transfer" and move.document_type == "transfer"
        assert move.created_by == world["warehouse_user"]
        assert stock_of(carton, receiving) == 3 and stock_of(carton, shelf) == 2
        with pytest.raises(services.InsufficientStock) as refused:
            services.stock_transfer(
                product_id=carton.pk,
                from_location=shelf,
                to_location=receiving,
                quantity=Decimal("3"),
                user=None,
            )
        assert "CT-6040" in str(refused.value.message)
        with pytest.raises(services.SameLocation):
            services.stock_transfer(
                product_id=carton.pk, from_location=shelf, to_location=shelf, quantity=Decimal("1"), user=None
            )
        assert stock_of(carton, shelf) == 2


def test_negative_stock_allowed_when_the_company_allows_it(world, in_tenant, shelf):
    carton = world["carton"]
    world["tenant3"].allow_negative_stock = True
    world["tenant3"].save(update_fields=["allow_negative_stock"])
    with in_tenant(world["tenant3"]):
        services.stock_transfer(
            product_id=carton.pk,
            from_location=shelf,
            to_location=world["receiving"],
            quantity=Decimal("2"),
            user=None,
        )
        assert stock_of(carton, shelf) == -2


def test_count_posts_differences_as_adjustments(world, in_tenant, shelf):
    carton, box, receiving = world["carton"], world["box"], world["receiving"]
    with in_tenant(world["tenant3"]):
        receive(carton, receiving, "10")
        receive(box, shelf, "3")
        count = services.stock_count_post(
            lines=[
                services.CountLineInput(
                    product_id=carton.pk, location=receiving, counted_quantity=Decimal("8"), reason="Damaged"
                ),
                services.CountLineInput(product_id=box.pk, location=shelf, counted_quantity=Decimal("3")),
                services.CountLineInput(
                    product_id=carton.pk, location=shelf, counted_quantity=Decimal("4"), reason="Found"
                ),
            ],
            user=world["admin"],
        )
        assert count.number.startswith("SC")
        lines = {(line.product_id, line.location_id): line for line in count.lines.all()}
        assert lines[(carton.pk, receiving.pk)].difference == -2
        assert lines[(box.pk, shelf.pk)].stock_move is None
        assert stock_of(carton, receiving) == 8 and stock_of(carton, shelf) == 4
        moves = StockMove.objects.filter(document_type="count", document_id=count.pk)
        assert sorted((m.kind, m.quantity, m.reason) for m in moves) == [
            ("adjustment", Decimal("2"), "Damaged"),
            ("adjustment", Decimal("4"), "Found"),
        ]
        with pytest.raises(DomainError):
            services.stock_count_post(
                lines=[
                    services.CountLineInput(product_id=box.pk, location=shelf, counted_quantity=Decimal("1")),
                    services.CountLineInput(product_id=box.pk, location=shelf, counted_quantity=Decimal("2")),
                ],
                user=None,
            )
        assert StockCount.objects.count() == 1


def test_moves_are_append_only(world, in_tenant):
    with in_tenant(world["tenant3"]):
        (move,) = receive(world["carton"], world["receiving"], "1")
        move = StockMove.objects.get(pk=move.pk)
        move.quantity = Decimal("5")
        with pytest.raises(LedgerIsAppendOnly):
            move.save()
        with pytest.raises(LedgerIsAppendOnly):
            move.delete()
        if connection.vendor == "postgresql":
            with pytest.raises(DatabaseError), transaction.atomic():
                StockMove.objects.filter(pk=move.pk).update(quantity=Decimal("5"))
            with pytest.raises(DatabaseError), transaction.atomic():
                StockMove.objects.filter(pk=move.pk)._raw_delete(using="default")
        assert StockMove.objects.get(pk=move.pk).quantity == 1


def test_receipt_moves_name_their_receipt(world, in_tenant, make_order):
    from apps.purchaseorders.services import ReceiptLineInput, receipt_create

    order = make_order()
    with in_tenant(world["tenant3"]):
        line = order.lines.get()
        receipt = receipt_create(
            purchase_order=order,
            lines=[ReceiptLineInput(order_line_id=line.pk, quantity=Decimal("5"))],
            user=world["admin"],
        )
        move = StockMove.objects.get(document_type="receipt")
        assert move.document_id == receipt.pk and move.created_by == world["admin"]
