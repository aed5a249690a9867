"""Stock writes. Stock changes only by posting moves here; `Stock` rows stay equal to the sum of the moves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import FieldErrors
from apps.inventory import carton_life as life
from apps.inventory import receiving
from apps.inventory.errors import (  # the carton refusals are re-exported for the areas that catch them
    CartonAlreadyReceived,  # noqa: F401
    CartonAlreadyShipped,  # noqa: F401
    CartonLineFull,
    CartonNotInStock,  # noqa: F401
    CartonNotOnShipment,
    CartonOtherCompany,
    CartonOverReceipt,
    CartonPicked,  # noqa: F401
    CartonUnknown,
    CartonVoided,
    InsufficientAvailableStock,
    InsufficientStock,
    InvalidQuantity,
    LocationInactive,
    NoReceivingLocation,
    NothingToPost,
    NoWarehouse,
    OrderNotOpen,
    SameLocation,
)
from apps.inventory.models import (
    CartonEvent,
    Location,
    ReorderPoint,
    Stock,
    StockCount,
    StockCountLine,
    StockMove,
    Warehouse,
    WarehouseCarton,
)
from apps.numbering import services as numbering
from apps.tenancy.context import require_tenant_id


@dataclass(frozen=True)
class MoveSpec:
    """What to post: a quantity of a product into and/or out of a location."""

    product_id: int
    quantity: Decimal
    to_location: Location | None = None
    from_location: Location | None = None


def negative_stock_allowed() -> bool:
    """The company setting: may a move take a location's stock below zero?"""
    from apps.tenancy.models import Tenant

    return bool(
        Tenant.objects.filter(pk=require_tenant_id()).values_list("allow_negative_stock", flat=True).first()
    )


def _article(product_id: int) -> str:
    from apps.products.models import Product

    return Product.objects.filter(pk=product_id).values_list("article_number", flat=True).first() or ""


def _location_code(location_id: int) -> str:
    row = Location.objects.filter(pk=location_id).values_list("warehouse__code", "code").first()
    return f"{row[0]}/{row[1]}" if row else ""


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
    document_type: str = StockMove.Document.MANUAL,
    document_id: int | None = None,
    reason: str = "",
    allow_negative: bool | None = None,
) -> list[StockMove]:
    """Posts the moves and updates the stock rows they touch, all or nothing.

    Locking: the `Stock` rows of every (location, product) pair involved are created if missing and then
    locked with SELECT ... FOR UPDATE in (location id, product id) order, so two postings touching the
    same rows serialize instead of deadlocking; a move out of a location refuses to take its stock below
    zero (InsufficientStock, nothing posted) unless the company allows negative stock
    (`allow_negative` None reads the company setting).
    """
    moved_at = moved_at or timezone.now()
    if allow_negative is None:
        allow_negative = negative_stock_allowed()
    deltas: dict[tuple[int, int], Decimal] = {}
    for move in moves:
        if move.quantity <= 0:
            raise InvalidQuantity()
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
        if row.quantity < 0 and deltas[key] < 0 and not allow_negative:
            raise InsufficientStock(
                _("Not enough stock of %(article)s in %(location)s: %(missing)s missing.")
                % {
                    "article": _article(key[1]),
                    "location": _location_code(key[0]),
                    "missing": (-row.quantity).normalize(),
                },
                data={"quantity": [InsufficientStock.default_message]},
            )
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
                reference=reference[:100],
                note=note[:500],
                document_type=document_type,
                document_id=document_id,
                reason=reason[:200],
                moved_at=moved_at,
                created_by=user,
            )
            for move in moves
        ]
    )
    return created


# --------------------------------------------------------------------------------------- transfers, counts


def _check_active(*locations: Location) -> None:
    for location in locations:
        if not location.is_active:
            raise LocationInactive(
                _("Location %(code)s is not active.") % {"code": location.code},
            )


@transaction.atomic
def stock_transfer(
    *,
    product_id: int,
    from_location: Location,
    to_location: Location,
    quantity: Decimal,
    user,
    note: str = "",
) -> StockMove:
    """Moves a quantity of a product from one location to another (one transfer move, stock rows locked
    by `stock_moves_post`); leaving the source below zero is refused unless the company allows it."""
    if from_location.pk == to_location.pk:
        raise SameLocation(data={"to_location": [SameLocation.default_message]})
    _check_active(from_location, to_location)
    (move,) = stock_moves_post(
        moves=[
            MoveSpec(
                product_id=product_id, quantity=quantity, from_location=from_location, to_location=to_location
            )
        ],
        kind=StockMove.Kind.TRANSFER,
        reference=f"{from_location.code} > {to_location.code}",
        user=user,
        note=note,
        document_type=StockMove.Document.TRANSFER,
    )
    return move


@transaction.atomic
def reorder_point_set(*, product_id: int, reorder_point: Decimal) -> ReorderPoint:
    """Sets a product's reorder point (one per product: below it, available over all locations, the
    product is listed as "below reorder point"). Creates it or changes the existing one; two requests at
    once for the same product end as one row (the unique key; the loser updates the winner's row)."""
    from django.db import IntegrityError

    point = ReorderPoint.objects.select_for_update().filter(product_id=product_id).first()
    if point is None:
        try:
            with transaction.atomic():
                return ReorderPoint.objects.create(product_id=product_id, reorder_point=reorder_point)
        except IntegrityError:
            point = ReorderPoint.objects.select_for_update().get(product_id=product_id)
    point.reorder_point = reorder_point
    point.save(update_fields=["reorder_point"])
    return point


@dataclass(frozen=True)
class CountLineInput:
    product_id: int
    location: Location
    counted_quantity: Decimal
    reason: str = ""


def _next_count_number(year: int) -> str:
    return numbering.number_next(
        numbering.STOCK_COUNT,
        year=year,
        taken=lambda number: StockCount.objects.filter(number=number).exists(),
    ).text


@transaction.atomic
def stock_count_post(
    *, lines: list[CountLineInput], user, note: str = "", counted_at: datetime | None = None
) -> StockCount:
    """Records a stock count and posts each difference (counted - on hand) as an adjustment move.

    Locking: the stock rows of every counted (location, product) are created if missing and locked in
    (location id, product id) order before the on-hand quantity is read, so a receipt or shipment posted
    meanwhile is either fully before the count or waits for it; the adjustments then go through
    `stock_moves_post` in the same transaction. A count sets the stock to the counted quantity, which is
    never negative.
    """
    if not lines:
        raise FieldErrors({"lines": [_("Count at least one line.")]}, _("Count at least one line."))
    keys = [(line.location.pk, line.product_id) for line in lines]
    if len(set(keys)) != len(keys):
        message = _("Each product and location can appear only once in a count.")
        raise FieldErrors({"lines": [message]}, message)
    for line in lines:
        if line.counted_quantity < 0:
            message = _("A counted quantity cannot be negative.")
            raise FieldErrors({"lines": [message]}, message)
    _check_active(*{line.location for line in lines})

    counted_at = counted_at or timezone.now()
    existing = set(
        Stock.objects.filter(
            location_id__in={k[0] for k in keys}, product_id__in={k[1] for k in keys}
        ).values_list("location_id", "product_id")
    )
    missing = [Stock(location_id=loc, product_id=prod) for loc, prod in sorted(set(keys) - existing)]
    if missing:
        Stock.objects.bulk_create(missing, ignore_conflicts=True)
    on_hand = {
        (row.location_id, row.product_id): row.quantity
        for row in Stock.objects.select_for_update(of=("self",))
        .filter(location_id__in={k[0] for k in keys}, product_id__in={k[1] for k in keys})
        .order_by("location_id", "product_id")
    }
    count = StockCount.objects.create(
        number=_next_count_number(timezone.localdate(counted_at).year),
        counted_at=counted_at,
        note=note,
        created_by=user,
    )
    count_lines = []
    for line in lines:
        expected = on_hand[(line.location.pk, line.product_id)]
        difference = line.counted_quantity - expected
        count_line = StockCountLine(
            count=count,
            product_id=line.product_id,
            location=line.location,
            expected_quantity=expected,
            counted_quantity=line.counted_quantity,
            difference=difference,
            reason=line.reason,
        )
        if difference:
            (count_line.stock_move,) = stock_moves_post(
                moves=[
                    MoveSpec(
                        product_id=line.product_id,
                        quantity=abs(difference),
                        to_location=line.location if difference > 0 else None,
                        from_location=line.location if difference < 0 else None,
                    )
                ],
                kind=StockMove.Kind.ADJUSTMENT,
                reference=count.number,
                user=user,
                moved_at=counted_at,
                document_type=StockMove.Document.COUNT,
                document_id=count.pk,
                reason=line.reason,
                # The count's own result is never below zero; an adjustment down to it is always allowed.
                allow_negative=True,
            )
        count_lines.append(count_line)
    StockCountLine.objects.bulk_create(count_lines)
    return count


# ------------------------------------------------------------------------------------- cartons (scanning)


def normalise_code(code: str) -> str:
    """A scanned code as the label prints it: the QR code holds the public code, or a trace URL ending
    in it (…/eudrtrace/<code>); spaces and case do not matter."""
    text = (code or "").strip()
    if "/" in text:
        text = text.rstrip("/").rsplit("/", 1)[-1]
    return text.upper()[:64]


def carton_label_locked(code: str):
    """The active carton label of this tenant with this code, locked; or the reason it cannot be used."""
    from apps.eudr.models import CartonLabel
    from apps.eudr.selectors import carton_tenant_for_public_code

    normalised = normalise_code(code)
    label = (
        CartonLabel.objects.select_for_update(of=("self",))
        .select_related("purchase_order_line__order", "product")
        .filter(code=normalised)
        .first()
    )
    if label is None:
        if normalised and carton_tenant_for_public_code(normalised) is not None:
            raise CartonOtherCompany()
        raise CartonUnknown(_("No carton has the code %(code)s.") % {"code": normalised or "-"})
    if label.status != CartonLabel.Status.ACTIVE:
        raise CartonVoided()
    return label


def _replayed(scan_id: str) -> WarehouseCarton | None:
    """The carton of an already recorded scan with this client id (a queued scan sent again)."""
    if not scan_id:
        return None
    event = CartonEvent.objects.select_related("carton").filter(scan_id=scan_id).first()
    return event.carton if event else None


@dataclass
class ScanResult:
    carton: WarehouseCarton
    duplicate: bool = False


def cartons_stock(*, receipt, cartons: list[WarehouseCarton], user) -> None:
    """received -> in stock for cartons whose units `receipt` posted into its warehouse's receiving
    location: cartons that stand elsewhere take their unit there (transfer moves of the receipt), then
    each carton is tied to the receipt with a `stocked` event (through the carton's state machine)."""
    if not cartons:
        return
    receiving = warehouse_receiving_location(warehouse=receipt.warehouse)
    away: dict[tuple[int, int | None], Decimal] = {}
    locations = {}
    for carton in cartons:
        if carton.location_id != receiving.pk:
            key = (carton.product_id, carton.location_id)
            away[key] = away.get(key, Decimal("0")) + 1
            locations[carton.location_id] = carton.location
    if away:
        stock_moves_post(
            moves=[
                MoveSpec(
                    product_id=product_id,
                    quantity=qty,
                    from_location=receiving,
                    to_location=locations[loc],
                )
                for (product_id, loc), qty in sorted(away.items())
            ],
            kind=StockMove.Kind.TRANSFER,
            reference=receipt.receipt_number,
            user=user,
            document_type=StockMove.Document.RECEIPT,
            document_id=receipt.pk,
            allow_negative=True,
        )
    life.cartons_transition(
        label_ids=[c.label_id for c in cartons],
        action=life.Action.STOCK,
        user=user,
        receipt=receipt,
        reference=receipt.receipt_number,
    )


def cartons_pending_for_receipt(*, receipt, order_line, quantity: Decimal) -> list[WarehouseCarton]:
    """Cartons of the order line scanned into the receipt's warehouse but not yet posted (oldest first,
    at most `quantity`, locked): a quantity receipt of the line takes them as its own."""
    return list(
        WarehouseCarton.objects.select_for_update(of=("self",))
        .select_related("location")
        .filter(
            label__purchase_order_line=order_line,
            status=WarehouseCarton.Status.RECEIVED,
            receipt__isnull=True,
            location__warehouse_id=receipt.warehouse_id,
        )
        .order_by("pk")[: int(quantity)]
    )


@transaction.atomic
def carton_receive(
    *, code: str, shipment, user, location: Location | None = None, scan_id: str = ""
) -> ScanResult:
    """Scans a carton of an inbound shipment in.

    One receipt: if its order line was already received by quantity (a purchase receipt whose units no
    scanned carton stands for yet), the carton completes that receipt: it is in stock at once, tied to
    the receipt, and no second receipt is made (its unit moves from the receiving location to `location`
    if it was scanned elsewhere). Otherwise it becomes `received` at `location` (the default warehouse's
    receiving location if none is given) and its quantity is posted later, per order line, by
    `cartons_receiving_post`; so the open quantity of its order line counts the cartons already scanned
    but not yet posted.

    Locking: the carton label row (SELECT ... FOR UPDATE), so two phones scanning the same carton record it
    once, then the order line; a scan id already recorded returns the first result (an offline scan sent
    twice).
    """
    replay = _replayed(scan_id)
    if replay is not None:
        return ScanResult(carton=replay, duplicate=True)
    label = carton_label_locked(code)
    line = label.purchase_order_line
    carried = set(shipment.order_links.values_list("purchase_order_id", flat=True))
    if label.container != shipment.container_number and line.order_id not in carried:
        raise CartonNotOnShipment()
    life.carton_check(
        label=label, carton=WarehouseCarton.objects.filter(label=label).first(), action=life.Action.RECEIVE
    )
    purchasing = receiving.purchasing()
    line = purchasing.order_line_locked(line.pk)
    receipt = purchasing.receipt_with_room(line)
    if receipt is None:
        if line.order.status not in ("confirmed", "sent", "partly_received"):
            raise OrderNotOpen()
        pending = WarehouseCarton.objects.filter(
            label__purchase_order_line=line, receipt__isnull=True, status=WarehouseCarton.Status.RECEIVED
        ).count()
        if line.received_qty + pending + 1 > line.order_qty:
            raise CartonOverReceipt()
    if location is None:
        warehouse = receipt.warehouse if receipt is not None else warehouse_default()
        location = warehouse_receiving_location(warehouse=warehouse)
    _check_active(location)
    carton = life.carton_received(
        label=label, shipment=shipment, location=location, user=user, scan_id=scan_id
    )
    if receipt is not None:
        cartons_stock(receipt=receipt, cartons=[carton], user=user)
        carton.refresh_from_db()
    return ScanResult(carton=carton)


@transaction.atomic
def cartons_receiving_post(*, shipment, user) -> list:
    """Posts the cartons of a shipment that were scanned in but not yet posted: one purchase receipt per
    purchase order and warehouse, with one line per order line (the number of cartons: one carton is one
    unit of its product), through the purchase receipt service, which takes exactly these cartons into
    stock (`cartons_stock`: cartons scanned into a location other than the receiving one move there by
    transfer moves of the same receipt). Returns the receipts.

    Locking, in the order a quantity receipt of the same orders takes too: the purchase orders the
    pending cartons belong to (pk order), then the pending carton rows (pk order), then what
    `receipt_create` locks (lines, stock rows). Locking the cartons first deadlocked against a quantity
    receipt, which holds its order while it takes the scanned cartons. The receipts come from purchasing's
    receipt service (apps/inventory/receiving.py): this module imports nothing of purchasing.
    """
    purchasing = receiving.purchasing()
    pending = WarehouseCarton.objects.filter(
        inbound_shipment=shipment, status=WarehouseCarton.Status.RECEIVED, receipt__isnull=True
    )
    order_ids = set(pending.values_list("label__purchase_order_line__order_id", flat=True))
    purchasing.orders_locked(order_ids)
    cartons = list(
        WarehouseCarton.objects.select_for_update(of=("self",))
        .select_related("label__purchase_order_line__order", "location__warehouse")
        .filter(inbound_shipment=shipment, status=WarehouseCarton.Status.RECEIVED, receipt__isnull=True)
        # a carton of another order scanned meanwhile waits for the next posting
        .filter(label__purchase_order_line__order_id__in=order_ids)
        .order_by("pk")
    )
    if not cartons:
        raise NothingToPost()
    groups: dict[tuple[int, int], list[WarehouseCarton]] = {}
    for carton in cartons:
        assert carton.location is not None  # a received carton stands somewhere
        key = (carton.label.purchase_order_line.order_id, carton.location.warehouse_id)
        groups.setdefault(key, []).append(carton)

    receipts = []
    for (_order_id, _warehouse_id), group in sorted(groups.items()):
        order = group[0].label.purchase_order_line.order
        warehouse = group[0].location.warehouse  # type: ignore[union-attr]  # checked above
        per_line: dict[int, int] = {}
        for carton in group:
            per_line[carton.label.purchase_order_line_id] = (
                per_line.get(carton.label.purchase_order_line_id, 0) + 1
            )
        receipt = purchasing.receipt_create(
            purchase_order=order,
            quantities={pk: Decimal(n) for pk, n in sorted(per_line.items())},
            user=user,
            warehouse=warehouse,
            note=_("Cartons of container %(container)s") % {"container": shipment.container_number},
            cartons=group,
        )
        receipts.append(receipt)
    return receipts


@transaction.atomic
def carton_move(*, code: str, location: Location, user, scan_id: str = "") -> ScanResult:
    """Puts a carton away into (or moves it to) `location`. A carton in stock takes its quantity along
    (one transfer move); a carton scanned in but not yet posted only changes place (posting moves its
    quantity there). Picked and shipped cartons are refused; moving a carton to where it is is a no-op.
    """
    replay = _replayed(scan_id)
    if replay is not None:
        return ScanResult(carton=replay, duplicate=True)
    label = carton_label_locked(code)
    carton = WarehouseCarton.objects.select_for_update(of=("self",)).filter(label=label).first()
    life.carton_check(label=label, carton=carton, action=life.Action.MOVE)
    _check_active(location)
    if carton.location_id == location.pk:
        return ScanResult(carton=carton)
    source = carton.location
    if carton.status == WarehouseCarton.Status.IN_STOCK:
        stock_moves_post(
            moves=[
                MoveSpec(
                    product_id=carton.product_id,
                    quantity=Decimal("1"),
                    from_location=source,
                    to_location=location,
                )
            ],
            kind=StockMove.Kind.TRANSFER,
            reference=f"{label.code}: {source.code} > {location.code}",
            user=user,
            document_type=StockMove.Document.TRANSFER,
        )
    (carton,) = life.cartons_transition(
        label_ids=[label.pk],
        action=life.Action.MOVE,
        user=user,
        location=location,
        reference=source.code if source else "",
        scan_id=scan_id,
    )
    return ScanResult(carton=carton)


# -- reservations ------------------------------------------------------------------------------------


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


def _sales_line_model():
    """The sales order line model, reached through the reservation's relation: sales sits above inventory
    (it reserves, consumes and releases through the services here), so inventory imports nothing of it."""
    from apps.inventory.models import Reservation

    return Reservation._meta.get_field("order_line").related_model


def _line_counter_add(order_line, delta: Decimal) -> None:
    from django.db.models import F

    _sales_line_model().objects.filter(pk=order_line.pk).update(
        quantity_reserved=F("quantity_reserved") + delta
    )
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
        raise InvalidQuantity(_("A reservation needs a positive quantity."))
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
    _sales_line_model().objects.filter(pk__in=line_ids).update(quantity_reserved=Decimal("0"))
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


# ------------------------------------------------------------------------------ cartons on sales shipments


def cartons_pick_check(
    *, labels: list, picked_per_product: dict[int, int], room_per_product: dict[int, Decimal]
):
    """The warehouse's rules for cartons about to go on a sales shipment (called by the sales shipment
    service under its shipment lock): each carton must be in stock (the state machine's `pick` step: not
    only scanned in, not picked for another shipment, not shipped), and a line takes no more cartons
    than its quantity. Locks the cartons' warehouse rows. Raises a CartonRefused naming the code."""
    states = {
        state.label_id: state
        for state in WarehouseCarton.objects.select_for_update(of=("self",))
        .filter(label_id__in=[label.pk for label in labels])
        .order_by("pk")
    }
    counts = dict(picked_per_product)
    for label in labels:
        life.carton_check(label=label, carton=states.get(label.pk), action=life.Action.PICK)
        counts[label.product_id] = counts.get(label.product_id, 0) + 1
        if counts[label.product_id] > room_per_product.get(label.product_id, Decimal("0")):
            raise CartonLineFull(
                _("The line of carton %(code)s is already fully picked.") % {"code": label.code},
                data={"code": label.code},
            )
    return states


def cartons_picked(*, labels: list, reference: str, customer_id: int | None, user) -> None:
    """in stock -> picked for a sales shipment (a `picked` event naming the customer)."""
    life.cartons_transition(
        label_ids=[label.pk for label in labels],
        action=life.Action.PICK,
        user=user,
        reference=reference,
        customer_id=customer_id,
    )


def cartons_unpicked(*, label_ids: list[int], reference: str, user=None) -> None:
    """picked -> in stock: cartons taken off a shipment before it shipped are in stock again where they
    were."""
    life.cartons_transition(label_ids=label_ids, action=life.Action.UNPICK, user=user, reference=reference)


def cartons_shipped(*, label_ids: list[int], reference: str, customer_id: int | None, user) -> None:
    """picked -> shipped: the cartons left the warehouse with a sales shipment: no location, a `shipped`
    event naming the customer (internal; the public trace shows only that and when it shipped)."""
    life.cartons_transition(
        label_ids=label_ids, action=life.Action.SHIP, user=user, reference=reference, customer_id=customer_id
    )


def cartons_delivered(*, label_ids: list[int], reference: str, user=None) -> None:
    """shipped -> delivered: the sales shipment reached its customer."""
    life.cartons_transition(label_ids=label_ids, action=life.Action.DELIVER, user=user, reference=reference)
