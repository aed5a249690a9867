"""Stock writes. Stock changes only by posting moves here; `Stock` rows stay equal to the sum of the moves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError
from apps.inventory.models import Location, Stock, StockMove, Warehouse


class InsufficientStock(Conflict):
    error = "insufficient_stock"
    default_message = _("There is not enough stock in the location for this move.")


class NoReceivingLocation(Conflict):
    error = "no_receiving_location"
    default_message = _("The warehouse has no active receiving location.")


class NoWarehouse(DomainError):
    error = "no_warehouse"
    default_message = _("No warehouse is set up for this company.")


@dataclass(frozen=True)
class MoveSpec:
    """What to post: a quantity of a product into and/or out of a location."""

    product_id: int
    quantity: Decimal
    to_location: Location | None = None
    from_location: Location | None = None


def warehouse_default() -> Warehouse:
    """The tenant's default warehouse (the first active one if none is marked default)."""
    warehouse = Warehouse.objects.filter(is_active=True).order_by("-is_default", "code").first()
    if warehouse is None:
        raise NoWarehouse()
    return warehouse


def warehouse_receiving_location(*, warehouse: Warehouse) -> Location:
    location = (
        Location.objects.filter(warehouse=warehouse, kind=Location.Kind.RECEIVING, is_active=True)
        .order_by("code")
        .first()
    )
    if location is None:
        raise NoReceivingLocation()
    return location


@transaction.atomic
def stock_moves_post(
    *,
    moves: list[MoveSpec],
    kind: str,
    reference: str,
    user=None,
    note: str = "",
    moved_at: datetime | None = None,
) -> list[StockMove]:
    """Posts the moves and updates the stock rows they touch, all or nothing.

    Locking: the `Stock` rows of every (location, product) pair involved are created if missing and then
    locked with SELECT ... FOR UPDATE in (location id, product id) order, so two postings touching the
    same rows serialize instead of deadlocking; a move out of a location refuses to take its stock below
    zero (InsufficientStock, nothing posted).
    """
    moved_at = moved_at or timezone.now()
    deltas: dict[tuple[int, int], Decimal] = {}
    for move in moves:
        if move.quantity <= 0:
            raise DomainError(_("A stock move needs a positive quantity."), error="invalid_quantity")
        if move.to_location is not None:
            key = (move.to_location.pk, move.product_id)
            deltas[key] = deltas.get(key, Decimal("0")) + move.quantity
        if move.from_location is not None:
            key = (move.from_location.pk, move.product_id)
            deltas[key] = deltas.get(key, Decimal("0")) - move.quantity

    keys = sorted(deltas)
    existing = set(
        Stock.objects.filter(
            location_id__in={k[0] for k in keys}, product_id__in={k[1] for k in keys}
        ).values_list("location_id", "product_id")
    )
    missing = [Stock(location_id=loc, product_id=prod) for loc, prod in keys if (loc, prod) not in existing]
    if missing:
        Stock.objects.bulk_create(missing, ignore_conflicts=True)
    locked = {
        (row.location_id, row.product_id): row
        for row in Stock.objects.select_for_update(of=("self",))
        .filter(location_id__in={k[0] for k in keys}, product_id__in={k[1] for k in keys})
        .order_by("location_id", "product_id")
    }
    changed = []
    for key in keys:
        row = locked[key]
        row.quantity += deltas[key]
        if row.quantity < 0:
            raise InsufficientStock()
        row.updated_at = timezone.now()
        changed.append(row)
    Stock.objects.bulk_update(changed, ["quantity", "updated_at"])

    created = StockMove.objects.bulk_create(
        [
            StockMove(
                kind=kind,
                product_id=move.product_id,
                quantity=move.quantity,
                to_location=move.to_location,
                from_location=move.from_location,
                reference=reference,
                note=note,
                moved_at=moved_at,
                created_by=user,
            )
            for move in moves
        ]
    )
    return created


# -- reservations ------------------------------------------------------------------------------------


class InsufficientAvailableStock(Conflict):
    error = "insufficient_available_stock"
    default_message = _("There is not enough available stock to reserve for this order.")


def _lock_products(product_ids) -> None:
    """Locks the products' rows (SELECT ... FOR UPDATE OF the product table only, in primary-key order).

    Every reservation of a product takes this lock first, so two confirmations that reserve the same
    product serialize: the second one reads the available stock only after the first has committed its
    reservation, and the pk order means two orders with several products in common never deadlock.
    """
    from apps.products.models import Product

    list(
        Product.objects.select_for_update(of=("self",))
        .filter(pk__in=sorted(set(product_ids)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _line_counter_add(order_line, delta: Decimal) -> None:
    from django.db.models import F

    from apps.salesorders.models import SalesOrderLine

    SalesOrderLine.objects.filter(pk=order_line.pk).update(quantity_reserved=F("quantity_reserved") + delta)
    order_line.quantity_reserved = order_line.quantity_reserved + delta


@transaction.atomic
def reservations_reserve(*, order_line, warehouse: Warehouse, quantity: Decimal, allow_backorder: bool):
    """Reserves `quantity` of the line's product in `warehouse` for the sales order line and adds it to
    the line's `quantity_reserved`.

    Locking: the product's row is locked first (`_lock_products`), then the available stock is read
    (selectors.stock_available) and the reservation written in the same transaction; a concurrent
    reservation of the same product waits for this one to commit, so available stock never goes below
    zero. Without `allow_backorder`, asking for more than is available raises InsufficientAvailableStock
    (nothing is reserved); with it, the whole quantity is reserved and available stock may go negative
    (the shortfall is a backorder).
    """
    from apps.inventory.models import Reservation
    from apps.inventory.selectors import stock_available

    quantity = Decimal(quantity)
    if quantity <= 0:
        raise DomainError(_("A reservation needs a positive quantity."), error="invalid_quantity")
    _lock_products([order_line.product_id])
    available = stock_available(product_ids=[order_line.product_id], warehouse=warehouse)[
        order_line.product_id
    ]
    if quantity > available and not allow_backorder:
        raise InsufficientAvailableStock(
            _("Only %(available)s of %(product)s is available; %(quantity)s was asked for.")
            % {
                "available": max(available, Decimal("0")),
                "product": order_line.product,
                "quantity": quantity,
            },
            data={"product": order_line.product_id, "available": str(max(available, Decimal("0")))},
        )
    reservation = Reservation.objects.create(
        order_line=order_line,
        product_id=order_line.product_id,
        warehouse=warehouse,
        quantity=quantity,
        status=Reservation.Status.ACTIVE,
    )
    _line_counter_add(order_line, quantity)
    return reservation


@transaction.atomic
def reservations_release(*, order_lines) -> int:
    """Releases every active reservation of the lines (an order cancelled, or closed with goods unshipped)
    and sets their `quantity_reserved` to zero. Answers how many reservations were released. The
    reservations are locked (FOR UPDATE, pk order) so a release and a consumption of the same line do not
    both count the same quantity."""
    from apps.inventory.models import Reservation
    from apps.salesorders.models import SalesOrderLine

    line_ids = sorted({line.pk for line in order_lines})
    if not line_ids:
        return 0
    ids = list(
        Reservation.objects.select_for_update(of=("self",))
        .filter(order_line_id__in=line_ids, status=Reservation.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if ids:
        Reservation.objects.filter(pk__in=ids).update(
            status=Reservation.Status.RELEASED, updated_at=timezone.now()
        )
    SalesOrderLine.objects.filter(pk__in=line_ids).update(quantity_reserved=Decimal("0"))
    for line in order_lines:
        line.quantity_reserved = Decimal("0")
    return len(ids)


@transaction.atomic
def reservations_consume(*, order_line, quantity: Decimal) -> None:
    """Consumes up to `quantity` of the line's active reservations (the goods have shipped): oldest
    first; a reservation larger than what is left is split into a consumed part and an active rest.
    Shipping more than was reserved consumes all of it (the rest shipped from unreserved stock). The
    reservations are locked FOR UPDATE in pk order; `quantity_reserved` drops by what was consumed."""
    from apps.inventory.models import Reservation

    left = Decimal(quantity)
    if left <= 0:
        return
    consumed = Decimal("0")
    rows = list(
        Reservation.objects.select_for_update(of=("self",))
        .filter(order_line_id=order_line.pk, status=Reservation.Status.ACTIVE)
        .order_by("pk")
    )
    now = timezone.now()
    for row in rows:
        if left <= 0:
            break
        if row.quantity <= left:
            row.status = Reservation.Status.CONSUMED
            row.save(update_fields=["status", "updated_at"])
            left -= row.quantity
            consumed += row.quantity
        else:
            row.quantity -= left
            row.updated_at = now
            row.save(update_fields=["quantity", "updated_at"])
            Reservation.objects.create(
                order_line_id=row.order_line_id,
                product_id=row.product_id,
                warehouse_id=row.warehouse_id,
                location_id=row.location_id,
                quantity=left,
                status=Reservation.Status.CONSUMED,
            )
            consumed += left
            left = Decimal("0")
    if consumed:
        _line_counter_add(order_line, -consumed)
