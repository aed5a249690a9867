"""Purchase order and receipt writes (docs/purchasing.md describes the rules).

- Order numbers and receipt numbers come from the numbering module (apps/numbering/services.py); a
  number typed in by the user is kept if it is free.
- `total_amount` is stored and recomputed here whenever lines change: sum of order_qty x unit_cost,
  each line rounded to cents.
- Lifecycle (docs/purchasing.md): draft -> confirmed -> sent -> partly_received -> received -> closed,
  and cancelled. Confirm, send, close and cancel are acts of the user; partly_received and received are
  derived from the receipts here, under the order's row lock. Header and lines change in draft,
  confirmed, sent and partly_received; an order keeps at least one line.
- What refers to an order fixes it: a line with received goods or carton labels keeps its product, a
  line with active carton labels its weight per carton; the supplier is fixed once receipts, shipments
  or carton labels refer to the order.
- A receipt adds quantities to the lines of one confirmed (or sent, or partly received) order and posts
  stock moves into the warehouse's receiving location in the same transaction; the order becomes
  partly_received, or received when every line is fully received.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.inventory import services as inventory
from apps.inventory.models import StockMove, Warehouse
from apps.notifications.emit import emit
from apps.numbering import services as numbering
from apps.products.models import Product
from apps.purchaseorders import selectors
from apps.purchaseorders.errors import (
    BelowReceived,
    DuplicateNumber,
    IllegalTransition,
    InvalidInput,
    LineHasCartons,
    LineProductLocked,
    LineReceived,
    LineWeightLocked,
    OrderHasReceipts,
    OrderInUse,
    OrderNotConfirmed,
    OrderNotReceivable,
    OrderReadOnly,
    OverReceipt,
    OverReceiptNotAllowed,
    SupplierLocked,
    SupplierNoEmail,
    WarehouseInactive,
)
from apps.purchaseorders.models import (
    RECEIVABLE_STATUSES,
    PurchaseOrder,
    PurchaseOrderLine,
    Receipt,
    ReceiptLine,
)
from apps.purchaseorders.supplier_invoices import (  # the supplier invoice services, reachable as services.x
    PRICE_TOLERANCE as PRICE_TOLERANCE,
)
from apps.purchaseorders.supplier_invoices import (
    supplier_invoice_approve as supplier_invoice_approve,
)
from apps.purchaseorders.supplier_invoices import (
    supplier_invoice_delete as supplier_invoice_delete,
)
from apps.purchaseorders.supplier_invoices import (
    supplier_invoice_import as supplier_invoice_import,
)
from apps.purchaseorders.supplier_invoices import (
    supplier_invoice_match as supplier_invoice_match,
)
from apps.purchaseorders.supplier_invoices import (
    supplier_invoice_reject as supplier_invoice_reject,
)
from apps.purchaseorders.supplier_invoices import supplier_invoices_refresh
from apps.suppliers.models import Supplier

Status = PurchaseOrder.Status
RECEIVABLE = RECEIVABLE_STATUSES
CENT = Decimal("0.01")

# The acts of the user: from-status -> the statuses the user may move it to. partly_received and
# received come from the receipts (receipt_create), never from a user; closed and cancelled are final.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.CONFIRMED, Status.CANCELLED),
    Status.CONFIRMED: (Status.SENT, Status.CANCELLED),
    Status.SENT: (Status.SENT, Status.CANCELLED),  # sending again e-mails the order again
    Status.PARTLY_RECEIVED: (Status.CLOSED,),  # closing short: the rest will not come
    Status.RECEIVED: (Status.CLOSED,),
    Status.CLOSED: (),
    Status.CANCELLED: (),
}


def _lines_required() -> InvalidInput:
    return InvalidInput.on("lines", _("Add at least one line."))


# ---------------------------------------------------------------------------------------------- numbers


def _order_number_taken(number: str) -> bool:
    return PurchaseOrder.objects.filter(order_number=number).exists()


def _receipt_number_taken(number: str) -> bool:
    return Receipt.objects.filter(receipt_number=number).exists()


# ---------------------------------------------------------------------------------------------- orders


@dataclass
class LineInput:
    """A line as the user gives it; `id` set means "change this existing line"."""

    product: Product
    order_qty: Decimal
    unit_cost: Decimal
    id: int | None = None
    line_number: int | None = None
    product_number: str = ""
    line_description: str | None = None
    weight_per_carton: Decimal | None = None
    weight_given: bool = False
    # the line's own delivery date (None: the order's promise date applies); not given: an existing
    # line keeps its date
    delivery_date: date | None = None
    delivery_date_given: bool = False


def _line_amount(qty: Decimal, unit_cost: Decimal) -> Decimal:
    return (qty * unit_cost).quantize(CENT, rounding=ROUND_HALF_UP)


def purchase_order_recompute_total(*, order: PurchaseOrder) -> Decimal:
    """Stores the order's total (sum of its lines' amounts, each rounded to cents) and returns it."""
    total = sum(
        (_line_amount(qty, cost) for qty, cost in order.lines.values_list("order_qty", "unit_cost")),
        Decimal("0"),
    )
    order.total_amount = total
    PurchaseOrder.objects.filter(pk=order.pk).update(total_amount=total, updated_at=timezone.now())
    return total


def _apply_line(line: PurchaseOrderLine, data: LineInput) -> PurchaseOrderLine:
    new_product = line.pk is None or line.product_id != data.product.pk
    line.product = data.product
    if data.product_number:
        line.product_number = data.product_number
    elif new_product or not line.product_number:
        # a new product takes its article number; an unchanged product keeps the line's snapshot
        line.product_number = data.product.article_number
    line.line_description = (
        data.line_description if data.line_description is not None else data.product.name
    )[:500]
    line.order_qty = data.order_qty
    line.unit_cost = data.unit_cost
    if data.weight_given:
        line.weight_per_carton = data.weight_per_carton
    elif line.pk is None or line.weight_per_carton is None:
        line.weight_per_carton = data.product.weight_per_carton_kg
    if data.delivery_date_given or line.pk is None:
        line.delivery_date = data.delivery_date
    return line


def _check_locked_line(line: PurchaseOrderLine, data: LineInput, *, labelled: bool) -> None:
    """A line with received goods or active carton labels keeps its product (and article number); a
    line with active carton labels keeps its weight per carton (the labels consumed it)."""
    product_changed = data.product.pk != line.product_id or bool(
        data.product_number and data.product_number != line.product_number
    )
    if product_changed and line.received_qty > 0:
        raise LineProductLocked(
            _("Line %(number)s has received goods: its product cannot be changed.")
            % {"number": line.line_number}
        )
    if product_changed and labelled:
        raise LineProductLocked(
            _("Line %(number)s has carton labels: its product cannot be changed.")
            % {"number": line.line_number}
        )
    if labelled and data.weight_given and data.weight_per_carton != line.weight_per_carton:
        raise LineWeightLocked(
            _("Line %(number)s has carton labels: its weight per carton cannot be changed.")
            % {"number": line.line_number}
        )


def _save_lines(*, order: PurchaseOrder, lines: list[LineInput]) -> None:
    """Replaces the order's lines with `lines`: given ids are updated, new ones created, missing ones
    deleted. An order keeps at least one line. A line with received goods or carton labels cannot be
    deleted, nor change its product; one with received goods cannot be cut below what was received;
    one with active carton labels keeps its weight per carton."""
    if not lines:
        raise _lines_required()
    existing = {line.pk: line for line in order.lines.select_for_update().order_by("pk")}
    keep_ids = {data.id for data in lines if data.id is not None}
    unknown = keep_ids - set(existing)
    if unknown:
        raise InvalidInput.on("lines", _("A line does not belong to this purchase order."))
    to_delete = [pk for pk in existing if pk not in keep_ids]
    for pk in to_delete:
        line = existing[pk]
        if line.received_qty > 0:
            raise LineReceived(
                _("Line %(number)s has received goods and cannot be removed.") % {"number": line.line_number}
            )
    with_cartons = selectors.lines_with_cartons(to_delete, active_only=False)
    for pk in to_delete:
        if pk in with_cartons:
            raise LineHasCartons(
                _("Line %(number)s has carton labels and cannot be removed.")
                % {"number": existing[pk].line_number}
            )
    if to_delete:
        PurchaseOrderLine.objects.filter(pk__in=to_delete).delete()

    labelled = selectors.lines_with_cartons(keep_ids, active_only=True)
    used_numbers = {existing[pk].line_number for pk in keep_ids}
    # A removed line's number is not given to a new line (numbers stay unambiguous in history).
    next_number = max(
        [0, *(line.line_number for line in existing.values()), *(d.line_number or 0 for d in lines)]
    )
    to_create, to_update = [], []
    for data in lines:
        if data.id is not None:
            current = existing[data.id]
            _check_locked_line(current, data, labelled=data.id in labelled)
            line = _apply_line(current, data)
            if line.order_qty < line.received_qty:
                raise BelowReceived(
                    _("Line %(number)s cannot be ordered below its received quantity %(received)s.")
                    % {"number": line.line_number, "received": line.received_qty.normalize()}
                )
            to_update.append(line)
        else:
            if data.line_number is None or data.line_number in used_numbers:
                next_number += 1
                number = next_number
            else:
                number = data.line_number
            used_numbers.add(number)
            to_create.append(_apply_line(PurchaseOrderLine(order=order, line_number=number), data))
    if to_update:
        PurchaseOrderLine.objects.bulk_update(
            to_update,
            [
                "product",
                "product_number",
                "line_description",
                "order_qty",
                "unit_cost",
                "weight_per_carton",
                "delivery_date",
            ],
        )
    if to_create:
        PurchaseOrderLine.objects.bulk_create(to_create)


@transaction.atomic
def purchase_order_create(
    *,
    supplier: Supplier,
    order_date: date,
    lines: list[LineInput],
    order_number: str = "",
    currency: str = "EUR",
    description: str = "",
    type: str = PurchaseOrder.Type.STANDARD,
    promise_date: date | None = None,
    owner=None,
) -> PurchaseOrder:
    """Creates a draft order with its lines and its total (nothing is e-mailed: docs/purchasing.md). Without a number it gets the next one of the
    tenant's sequence for the order year (PO-2026-00001)."""
    order_number = (order_number or "").strip()
    if order_number:
        if _order_number_taken(order_number):
            raise DuplicateNumber(
                _("A purchase order with this number already exists."),
                data={"order_number": [_("A purchase order with this number already exists.")]},
            )
    else:
        order_number = numbering.number_next(
            numbering.PURCHASE_ORDER, year=order_date.year, taken=_order_number_taken
        ).text
    try:
        with transaction.atomic():
            order = PurchaseOrder.objects.create(
                order_number=order_number,
                order_date=order_date,
                supplier=supplier,
                currency=currency,
                description=description,
                type=type,
                promise_date=promise_date,
                owner=owner,
            )
    except IntegrityError as exc:  # a concurrent create took the typed number
        raise DuplicateNumber(
            _("A purchase order with this number already exists."),
            data={"order_number": [_("A purchase order with this number already exists.")]},
        ) from exc
    _save_lines(order=order, lines=lines)
    purchase_order_recompute_total(order=order)
    return order


def _lock_order(order: PurchaseOrder) -> PurchaseOrder:
    return PurchaseOrder.objects.select_for_update(of=("self",)).get(pk=order.pk)


@transaction.atomic
def purchase_order_update(
    *, order: PurchaseOrder, fields: dict[str, Any], lines: list[LineInput] | None = None
) -> PurchaseOrder:
    """Changes header fields and (if given) replaces the lines. The order row is locked first, then its
    lines in pk order. Received, closed and cancelled orders are read-only (409). The supplier cannot change
    once receipts, shipments or carton labels refer to the order (409 supplier_locked)."""
    locked = _lock_order(order)
    if not locked.lines_editable:
        raise OrderReadOnly()
    allowed = {"supplier", "order_date", "currency", "description", "type", "promise_date", "owner"}
    for name in fields:
        if name not in allowed:
            raise InvalidInput(_("This field cannot be changed."), data={name: []})
    if lines is not None and not lines:
        raise _lines_required()
    supplier = fields.get("supplier")
    if supplier is not None and supplier.pk != locked.supplier_id and selectors.order_is_referenced(locked):
        # receipts, shipments and labels would move into another vendor's portal with the order
        raise SupplierLocked()
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save()
    if lines is not None:
        _save_lines(order=locked, lines=lines)
        purchase_order_recompute_total(order=locked)
    return locked


def _refuse(locked: PurchaseOrder, to_status: str) -> None:
    if to_status in TRANSITIONS[locked.status]:
        return
    if to_status == Status.CANCELLED and locked.status in (Status.PARTLY_RECEIVED, Status.RECEIVED):
        raise OrderHasReceipts()
    if to_status == Status.SENT and locked.status == Status.DRAFT:
        raise OrderNotConfirmed()
    raise IllegalTransition(
        _("A purchase order cannot go from %(from)s to %(to)s.")
        % {"from": Status(locked.status).label, "to": Status(to_status).label}
    )


def _set_status(locked: PurchaseOrder, to_status: str) -> None:
    """Stores a new status of the locked order and tells the e-mail scenarios (status_changed)."""
    if locked.status == to_status:
        return
    emit(
        "purchase_order.status_changed",
        record=locked,
        key=f"{to_status}@{timezone.now().isoformat()}",
        extra={"previous_status": locked.status},
    )
    locked.status = to_status
    locked.save(update_fields=["status", "updated_at"])


@transaction.atomic
def purchase_order_confirm(*, order: PurchaseOrder) -> PurchaseOrder:
    """draft -> confirmed: the order is released (receivable, labelled, in the supplier portal). Nothing is
    e-mailed: sending is its own act (purchase_order_send)."""
    locked = _lock_order(order)
    _refuse(locked, Status.CONFIRMED)
    _set_status(locked, Status.CONFIRMED)
    return locked


@transaction.atomic
def purchase_order_send(*, order: PurchaseOrder, user=None) -> PurchaseOrder:
    """confirmed (or sent: again) -> sent, e-mailing the supplier the order's PDF: through the enabled
    e-mail scenarios of `purchase_order.sent` (which attach `purchase_order_pdf`), or, when none is
    enabled, one message composed to the supplier's address and contacts (notifications'
    emit.compose). A draft is refused (409 order_not_confirmed); a supplier without any e-mail
    address too (409 supplier_no_email) when no scenario would send it."""
    from apps.notifications.emit import scenarios_enabled
    from apps.purchaseorders import mail

    locked = _lock_order(order)
    _refuse(locked, Status.SENT)
    key = f"sent@{timezone.now().isoformat()}"
    if scenarios_enabled("purchase_order.sent"):
        emit("purchase_order.sent", record=locked, key=key)
    else:
        made = mail.order_compose(locked, user=user)
        if not made:
            raise SupplierNoEmail()
    _set_status(locked, Status.SENT)
    return locked


@transaction.atomic
def purchase_order_close(*, order: PurchaseOrder) -> PurchaseOrder:
    """received -> closed, or partly_received -> closed (short: what is still open will not come)."""
    locked = _lock_order(order)
    _refuse(locked, Status.CLOSED)
    _set_status(locked, Status.CLOSED)
    return locked


@transaction.atomic
def purchase_order_cancel(*, order: PurchaseOrder) -> PurchaseOrder:
    """draft, confirmed or sent -> cancelled; once anything was received 409 order_has_receipts."""
    locked = _lock_order(order)
    cancellable = Status.CANCELLED in TRANSITIONS.get(locked.status, ())
    if cancellable and PurchaseOrderLine.objects.filter(order=locked, received_qty__gt=0).exists():
        raise OrderHasReceipts()
    _refuse(locked, Status.CANCELLED)
    _set_status(locked, Status.CANCELLED)
    return locked


ACTIONS = {
    Status.CONFIRMED: purchase_order_confirm,
    Status.SENT: purchase_order_send,
    Status.CLOSED: purchase_order_close,
    Status.CANCELLED: purchase_order_cancel,
}


def allowed_actions(order: PurchaseOrder) -> list[str]:
    """The statuses the user may move the order to now (the buttons of the web app)."""
    return [status for status in TRANSITIONS.get(order.status, ()) if status in ACTIONS]


def purchase_order_derive_status(*, order: PurchaseOrder) -> None:
    """Sets partly_received or received from the lines' received quantities. The caller holds the order's
    row lock (receipt_create). A closed or cancelled order keeps its status."""
    if order.status not in (*RECEIVABLE, Status.RECEIVED):
        return
    lines = PurchaseOrderLine.objects.filter(order=order)
    if not lines.filter(received_qty__gt=0).exists():
        return
    still_open = lines.filter(received_qty__lt=F("order_qty")).exists()
    _set_status(order, Status.PARTLY_RECEIVED if still_open else Status.RECEIVED)


@transaction.atomic
def purchase_order_delete(*, order: PurchaseOrder) -> None:
    """Deletes an order that nothing refers to yet (no receipts, not on a shipment, no carton labels)."""
    locked = _lock_order(order)
    if locked.receipts.exists() or locked.shipment_links.exists():
        raise OrderInUse()
    if PurchaseOrderLine.objects.filter(order=locked, received_qty__gt=0).exists():
        raise OrderInUse()
    from django.db.models import ProtectedError

    try:
        with transaction.atomic():
            locked.delete()
    except ProtectedError as exc:
        raise OrderInUse() from exc


# ---------------------------------------------------------------------------------------------- receipts


@dataclass
class ReceiptLineInput:
    order_line_id: int
    quantity: Decimal


@transaction.atomic
def receipt_create(
    *,
    purchase_order: PurchaseOrder,
    lines: list[ReceiptLineInput],
    user,
    warehouse: Warehouse | None = None,
    receipt_date: date | None = None,
    note: str = "",
    allow_over_receipt: bool = False,
    may_over_receive: bool = False,
    cartons: list | None = None,
) -> Receipt:
    """Receives quantities against the lines of one open purchase order, all or nothing.

    Locking: the order row first, then its lines with SELECT ... FOR UPDATE in pk order (the same order
    as every other writer of these rows), then the stock rows (inventory.stock_moves_post). A quantity
    above what is still open on a line is refused (400 over_receipt) unless `allow_over_receipt` is
    asked for by a user who may (`may_over_receive`: permission purchaseorders.allow_over_receipt).
    Stock moves go into the warehouse's receiving location in this same transaction; any failure
    (validation, stock, database) leaves nothing posted. When every line is fully received the order
    becomes partly_received, or received when every line is fully received (purchase_order_derive_status).

    One receipt for labelled goods: the receipt takes into stock the cartons its units stand for.
    `cartons` (the warehouse's posting of scanned cartons) names them; a quantity receipt takes, per line,
    the cartons of that line already scanned into this warehouse but not yet posted (oldest first, up to
    the quantity). Cartons of the line scanned later complete this receipt (`inventory.carton_receive`)
    instead of making a second one.
    """
    if allow_over_receipt and not may_over_receive:
        raise OverReceiptNotAllowed()
    if not lines:
        raise InvalidInput.on("lines", _("Receive at least one line."))
    ids = [line.order_line_id for line in lines]
    if len(set(ids)) != len(ids):
        raise InvalidInput.on("lines", _("Each order line can appear only once in a receipt."))

    if warehouse is not None and not warehouse.is_active:
        raise WarehouseInactive(data={"warehouse": [WarehouseInactive.default_message]})

    order = _lock_order(purchase_order)
    if order.status == Status.DRAFT:
        raise OrderNotConfirmed()
    if order.status not in RECEIVABLE:
        raise OrderNotReceivable()
    order_lines = {
        line.pk: line
        for line in PurchaseOrderLine.objects.select_for_update(of=("self",))
        .filter(order=order)
        .order_by("pk")
    }
    warehouse = warehouse or inventory.warehouse_default()
    location = inventory.warehouse_receiving_location(warehouse=warehouse)

    receipt_date = receipt_date or timezone.localdate()
    receipt = Receipt.objects.create(
        receipt_number=numbering.number_next(
            numbering.RECEIPT, year=receipt_date.year, taken=_receipt_number_taken
        ).text,
        purchase_order=order,
        warehouse=warehouse,
        receipt_date=receipt_date,
        note=note,
        over_receipt=allow_over_receipt,
        created_by=user,
    )

    receipt_lines = []
    for data in lines:
        line = order_lines.get(data.order_line_id)
        if line is None:
            raise InvalidInput.on("lines", _("A line does not belong to this purchase order."))
        if data.quantity <= 0:
            raise InvalidInput.on("lines", _("Received quantities must be greater than zero."))
        if line.received_qty + data.quantity > line.order_qty and not allow_over_receipt:
            raise OverReceipt(
                _("Line %(number)s: receiving %(qty)s is more than the %(open)s still open.")
                % {
                    "number": line.line_number,
                    "qty": data.quantity.normalize(),
                    "open": line.open_qty.normalize(),
                },
                data={"lines": {str(line.pk): [_("More than is still open on this line.")]}},
            )
        line.received_qty = F("received_qty") + data.quantity
        line.save(update_fields=["received_qty"])
        receipt_lines.append(ReceiptLine(receipt=receipt, order_line=line, quantity=data.quantity))

    moves = inventory.stock_moves_post(
        moves=[
            inventory.MoveSpec(
                product_id=order_lines[data.order_line_id].product_id,
                quantity=data.quantity,
                to_location=location,
            )
            for data in lines
        ],
        kind=StockMove.Kind.RECEIPT,
        reference=f"{receipt.receipt_number} / {order.order_number}",
        user=user,
        document_type=StockMove.Document.RECEIPT,
        document_id=receipt.pk,
    )
    for receipt_line, move in zip(receipt_lines, moves, strict=True):
        receipt_line.stock_move = move
    ReceiptLine.objects.bulk_create(receipt_lines)

    if cartons is None:
        cartons = []
        for data in lines:
            cartons += inventory.cartons_pending_for_receipt(
                receipt=receipt, order_line=order_lines[data.order_line_id], quantity=data.quantity
            )
    inventory.cartons_stock(receipt=receipt, cartons=cartons, user=user)

    purchase_order_derive_status(order=order)
    supplier_invoices_refresh(purchase_order_id=order.pk)  # their received figures changed
    return receipt


def receipt_for_cartons(
    *,
    purchase_order: PurchaseOrder,
    quantities: dict[int, Decimal],
    user,
    warehouse: Warehouse,
    note: str,
    cartons: list,
) -> Receipt:
    """The receipt the warehouse's posting of scanned cartons makes (inventory.cartons_receiving_post asks
    for it through apps/inventory/receiving.py, registered by PurchaseordersConfig.ready): per order line
    id the number of cartons, taking exactly these cartons into stock."""
    return receipt_create(
        purchase_order=purchase_order,
        lines=[
            ReceiptLineInput(order_line_id=pk, quantity=quantity)
            for pk, quantity in sorted(quantities.items())
        ],
        user=user,
        warehouse=warehouse,
        note=note,
        cartons=cartons,
    )


def order_line_locked(line_id: int) -> PurchaseOrderLine:
    """The order line a carton scan counts against, its row locked, with its order (the container scan
    asks for it through apps/inventory/receiving.py)."""
    return PurchaseOrderLine.objects.select_for_update(of=("self",)).select_related("order").get(pk=line_id)


def orders_locked(order_ids) -> None:
    """Locks the purchase orders' rows in primary-key order (the posting of scanned cartons takes this lock
    first, as a quantity receipt of the same orders does)."""
    list(PurchaseOrder.objects.select_for_update(of=("self",)).filter(pk__in=order_ids).order_by("pk"))
