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
