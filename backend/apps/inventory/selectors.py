"""Stock reads."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.db.models import Sum

from apps.inventory.models import Reservation, Stock, Warehouse

ZERO = Decimal("0")


def stock_available(*, product_ids: Iterable[int], warehouse: Warehouse | None = None) -> dict[int, Decimal]:
    """Available stock per product: on hand (the sum of its `Stock` rows, in `warehouse`'s locations or
    everywhere) minus its active reservations (in `warehouse` or everywhere). Two queries for any number
    of products; every asked product has an entry.

    Reservations are made under a row lock on the products (services.reservations_reserve), so two
    concurrent confirmations never take this below zero; it can only be negative where the company
    allows backorders (reserving more than is there) or negative stock.
    """
    ids = sorted({int(pk) for pk in product_ids})
    if not ids:
        return {}
    stock = Stock.objects.filter(product_id__in=ids)
    reserved = Reservation.objects.filter(product_id__in=ids, status=Reservation.Status.ACTIVE)
    if warehouse is not None:
        stock = stock.filter(location__warehouse=warehouse)
        reserved = reserved.filter(warehouse=warehouse)
    on_hand = dict(stock.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    held = dict(reserved.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    return {pk: (on_hand.get(pk) or ZERO) - (held.get(pk) or ZERO) for pk in ids}


def stock_reserved(*, product_ids: Iterable[int], warehouse: Warehouse | None = None) -> dict[int, Decimal]:
    """Active reserved quantity per product (in `warehouse` or everywhere); one query."""
    ids = sorted({int(pk) for pk in product_ids})
    qs = Reservation.objects.filter(product_id__in=ids, status=Reservation.Status.ACTIVE)
    if warehouse is not None:
        qs = qs.filter(warehouse=warehouse)
    held = dict(qs.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    return {pk: held.get(pk) or ZERO for pk in ids}
