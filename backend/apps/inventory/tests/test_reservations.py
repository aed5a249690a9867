"""Reservations: reserve on confirm, release on cancel, consume on shipping; available = on hand -
active reservations, never below zero without backorders."""

from decimal import Decimal

import pytest

from apps.inventory import errors, selectors, services
from apps.inventory.models import Reservation

pytestmark = pytest.mark.django_db

D = Decimal


def test_reserve_lowers_available_and_counts_on_the_line(sales_world, put_stock, bare_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    order = bare_order([(w["carton"], "60")])
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        reservation = services.reservations_reserve(
            order_line=line, warehouse=w["warehouse"], quantity=D("60"), allow_backorder=False
        )
        assert reservation.status == Reservation.Status.ACTIVE
        assert reservation.product_id == w["carton"].pk
        line.refresh_from_db()
        assert line.quantity_reserved == D("60")
        assert selectors.stock_available(product_ids=[w["carton"].pk]) == {w["carton"].pk: D("40")}
        assert selectors.stock_available(product_ids=[w["carton"].pk], warehouse=w["warehouse"])[
            w["carton"].pk
        ] == D("40")


def test_reserving_more_than_available_is_refused(sales_world, put_stock, bare_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    first = bare_order([(w["carton"], "70")])
    second = bare_order([(w["carton"], "40")])
    with in_tenant(w["tenant3"]):
        services.reservations_reserve(
            order_line=first.lines.get(), warehouse=w["warehouse"], quantity=D("70"), allow_backorder=False
        )
        with pytest.raises(services.InsufficientAvailableStock) as exc:
            services.reservations_reserve(
                order_line=second.lines.get(),
                warehouse=w["warehouse"],
                quantity=D("40"),
                allow_backorder=False,
            )
        assert exc.value.error == "insufficient_available_stock"
        assert exc.value.status_code == 409
        assert "30" in str(exc.value.message)
        assert Reservation.objects.filter(order_line__order=second).count() == 0
        assert second.lines.get().quantity_reserved == 0


def test_backorder_reserves_everything(sales_world, put_stock, bare_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "10")
    order = bare_order([(w["carton"], "25")])
    with in_tenant(w["tenant3"]):
        services.reservations_reserve(
            order_line=order.lines.get(), warehouse=w["warehouse"], quantity=D("25"), allow_backorder=True
        )
        assert selectors.stock_available(product_ids=[w["carton"].pk])[w["carton"].pk] == D("-15")


def test_release_frees_the_stock(sales_world, put_stock, bare_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    put_stock(w["box"], "50")
    order = bare_order([(w["carton"], "30"), (w["box"], "20")])
    with in_tenant(w["tenant3"]):
        lines = list(order.lines.all())
        for line in lines:
            services.reservations_reserve(
                order_line=line, warehouse=w["warehouse"], quantity=line.quantity, allow_backorder=False
            )
        assert services.reservations_release(order_lines=lines) == 2
        assert services.reservations_release(order_lines=lines) == 0
        assert set(Reservation.objects.values_list("status", flat=True)) == {"released"}
        assert all(line.quantity_reserved == 0 for line in order.lines.all())
        assert selectors.stock_available(product_ids=[w["carton"].pk, w["box"].pk]) == {
            w["carton"].pk: D("100"),
            w["box"].pk: D("50"),
        }


def test_consume_splits_a_reservation(sales_world, put_stock, bare_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    order = bare_order([(w["carton"], "100")])
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        services.reservations_reserve(
            order_line=line, warehouse=w["warehouse"], quantity=D("100"), allow_backorder=False
        )
        services.reservations_consume(order_line=line, quantity=D("30"))
        line.refresh_from_db()
        assert line.quantity_reserved == D("70")
        rows = sorted(Reservation.objects.values_list("status", "quantity"))
        assert rows == [("active", D("70")), ("consumed", D("30"))]
        # shipping more than is left reserved consumes what there is, never below zero
        services.reservations_consume(order_line=line, quantity=D("80"))
        line.refresh_from_db()
        assert line.quantity_reserved == 0
        assert not Reservation.objects.filter(status="active").exists()


def test_invalid_quantity_refused(sales_world, bare_order, in_tenant):
    w = sales_world
    order = bare_order([(w["carton"], "5")])
    with in_tenant(w["tenant3"]), pytest.raises(errors.InvalidQuantity) as exc:
        services.reservations_reserve(
            order_line=order.lines.get(), warehouse=w["warehouse"], quantity=D("0"), allow_backorder=True
        )
    assert exc.value.error == "invalid_quantity"


def test_available_of_another_tenant_is_not_seen(sales_world, put_stock, in_tenant):
    w = sales_world
    put_stock(w["carton"], "100")
    with in_tenant(w["tenant2"]):
        assert selectors.stock_available(product_ids=[w["carton"].pk]) == {w["carton"].pk: D("0")}
