"""Sales writes: orders, shipments (and their cartons), invoices and credit notes (docs/sales.md).

- Order status is derived from the line quantities by `order_status_derive` after every change:
  draft -> confirmed -> partially_shipped -> shipped -> partially_invoiced -> invoiced; only cancel
  (while nothing has shipped) and close (once something has shipped) are set by hand.
- Confirming reserves each line's quantity in the order's warehouse (apps.inventory.services,
  product rows locked); cancelling and closing release what is still reserved.
- Shipping posts the stock moves out of the warehouse, consumes the reservations and adds to the lines'
  `quantity_shipped`, all in one transaction: a failure anywhere posts nothing.
- Invoices are built from shipped shipment lines not yet invoiced (posted or in another draft). Posting
  takes the next number of the gapless invoice (or credit note) series of apps/numbering in the same
  transaction, so numbers are gapless; a posted invoice is never changed again: a correction is a credit note.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common import payment, tax
from apps.common.secrets import SecretUnreadable, readable
from apps.customers.models import Customer
from apps.inventory import services as inventory
from apps.inventory.models import Location, Stock, StockMove, Warehouse, WarehouseCarton
from apps.notifications.emit import emit
from apps.numbering import services as numbering
from apps.products.models import Product
from apps.salesorders.errors import (
    CartonNotFound,
    CartonOnOtherShipment,
    CartonsNotPicked,
    CartonVoided,
    CartonWrongProduct,
    CodesRequired,
    DuplicateLine,
    DuplicateNumber,
    EInvoiceNoRecipient,
    IllegalShipmentAction,
    InvalidAmount,
    InvalidQuantity,
    InvoiceAlreadyPosted,
    InvoiceChanged,
    InvoiceNotFound,
    InvoiceNotPosted,
    InvoicePosted,
    LineNotFound,
    LineShippedReadOnly,
    LinesRequired,
    NoOpenQuantity,
    NothingToInvoice,
    OrderCancelled,
    OrderChanged,
    OrderHasOpenShipments,
    OrderNotCancellable,
    OrderNotClosable,
    OrderNotConfirmable,
    OrderNotDeletable,
    OrderReadOnly,
    OverCredit,
    OverInvoice,
    OverPayment,
    OverShipment,
    PeppolAlreadySent,
    PeppolDeliveryFailed,
    PeppolDisabled,
    PeppolNoReceiver,
    PeppolNotConfigured,
    ShipmentAlreadyShipped,
    ShipmentLinesRequired,
    ShipmentNotShipped,
    ShipmentReadOnly,
    ShipmentsOfSeveralOrders,
    UblNotPosted,
)
from apps.salesorders.models import (
    EInvoiceDelivery,
    Invoice,
    InvoiceLine,
    Language,
    PeppolSettings,
    SalesOrder,
    SalesOrderLine,
    Shipment,
    ShipmentCarton,
    ShipmentLine,
)
from apps.tenancy.models import Tenant

Status = SalesOrder.Status
ZERO = Decimal("0")
CENT = Decimal("0.01")
HUNDRED = Decimal("100")


# -- amounts ---------------------------------------------------------------------------------------------


def line_amounts(
    *, quantity: Decimal, unit_price: Decimal, discount_percent: Decimal, vat_rate: Decimal
) -> tuple[Decimal, Decimal]:
    """(net, VAT) of one line, each rounded half up to cents: net = qty x price x (1 - discount/100)."""
    net = (quantity * unit_price * (HUNDRED - discount_percent) / HUNDRED).quantize(CENT, ROUND_HALF_UP)
    vat = (net * vat_rate / HUNDRED).quantize(CENT, ROUND_HALF_UP)
    return net, vat


def _totals(lines) -> tuple[Decimal, Decimal, Decimal]:
    net = sum((line.amount_net for line in lines), ZERO)
    vat = sum((line.amount_vat for line in lines), ZERO)
    return net, vat, net + vat


# -- order status ---------------------------------------------------------------------------------------


def order_status_explain(*, order: SalesOrder, lines=None) -> dict[str, Any]:
    """Why the order has the status it has: the totals the derivation looked at (the order page shows it)."""
    lines = list(order.lines.all()) if lines is None else lines
    ordered = sum((line.quantity for line in lines), ZERO)
    shipped = sum((line.quantity_shipped for line in lines), ZERO)
    invoiced = sum((line.quantity_invoiced for line in lines), ZERO)
    reserved = sum((line.quantity_reserved for line in lines), ZERO)
    return {
        "ordered": ordered,
        "reserved": reserved,
        "shipped": shipped,
        "invoiced": invoiced,
        "confirmed": order.confirmed_at is not None,
    }


def order_status_derive(*, order: SalesOrder, lines=None) -> str:
    """The status the line quantities give. Cancelled and closed are kept (set by hand); before
    confirmation an order is a draft; then the invoiced quantity decides if any, else the shipped."""
    if order.status in (Status.CANCELLED, Status.CLOSED):
        return order.status
    facts = order_status_explain(order=order, lines=lines)
    if not facts["confirmed"]:
        return Status.DRAFT
    ordered, shipped, invoiced = facts["ordered"], facts["shipped"], facts["invoiced"]
    if invoiced > 0:
        return Status.INVOICED if invoiced >= ordered else Status.PARTIALLY_INVOICED
    if shipped > 0:
        return Status.SHIPPED if shipped >= ordered else Status.PARTIALLY_SHIPPED
    return Status.CONFIRMED


def order_refresh(*, order: SalesOrder) -> SalesOrder:
    """Recomputes the totals and the derived status from the lines as stored and saves them."""
    lines = list(SalesOrderLine.objects.filter(order=order))
    order.total_net, order.total_vat, order.total_gross = _totals(lines)
    order.status = order_status_derive(order=order, lines=lines)
    order.save(update_fields=["total_net", "total_vat", "total_gross", "status", "updated_at"])
    return order


def _lock_order(order: SalesOrder) -> SalesOrder:
    return SalesOrder.objects.select_for_update(of=("self",)).get(pk=order.pk)


def _refreshed(given, current):
    """The services work on a freshly locked copy; the caller's object is brought up to date too."""
    if given is not current:
        given.refresh_from_db()
        if hasattr(given, "_prefetched_objects_cache"):
            given._prefetched_objects_cache = {}
    return current


def allowed_actions(order: SalesOrder) -> list[str]:
    """The hand-set actions the order's status allows (buttons on the order page)."""
    actions = []
    if order.status == Status.DRAFT:
        actions += ["confirm", "cancel"]
    elif order.status == Status.CONFIRMED:
        actions += ["cancel"]
    if order.status in (
        Status.PARTIALLY_SHIPPED,
        Status.SHIPPED,
        Status.PARTIALLY_INVOICED,
        Status.INVOICED,
    ):
        actions.append("close")
    return actions


# -- orders ------------------------------------------------------------------------------------------------


@dataclass
class LineInput:
    product: Product
    quantity: Decimal
    unit_price: Decimal
    discount_percent: Decimal = ZERO
    # None: the rate of the VAT determination (`order_vat_treatment`), or the line's own when it exists
    vat_rate: Decimal | None = None
    requested_date: date | None = None
    confirmed_date: date | None = None
    description: str | None = None
    id: int | None = None


def _order_number_taken(number: str) -> bool:
    return SalesOrder.objects.filter(order_number=number).exists()


def _apply_line(line: SalesOrderLine, data: LineInput) -> SalesOrderLine:
    if line.product_id is not None and line.product_id != data.product.pk and data.description is None:
        line.description = ""  # the old product's text does not describe the new one
    line.product = data.product
    line.quantity = data.quantity
    line.unit_price = data.unit_price
    line.discount_percent = data.discount_percent or ZERO
    line.vat_rate = data.vat_rate or ZERO
    line.requested_date = data.requested_date
    line.confirmed_date = data.confirmed_date
    line.description = (
        data.description if data.description is not None else (line.description or data.product.name)
    )
    line.amount_net, line.amount_vat = line_amounts(
        quantity=line.quantity,
        unit_price=line.unit_price,
        discount_percent=line.discount_percent,
        vat_rate=line.vat_rate,
    )
    return line


def _line_unchanged(line: SalesOrderLine, data: LineInput) -> bool:
    return (
        line.product_id == data.product.pk
        and line.quantity == data.quantity
        and line.unit_price == data.unit_price
        and line.discount_percent == (data.discount_percent or ZERO)
        and line.vat_rate == (data.vat_rate or ZERO)
    )


def _order_warehouse(order: SalesOrder) -> Warehouse:
    return order.warehouse or inventory.warehouse_default()


def _tenant_flags() -> Tenant:
    from apps.tenancy.context import get_current_tenant_id

    return Tenant.objects.only("allow_backorders", "allow_negative_stock").get(
        pk=get_current_tenant_id() or 0
    )


def _reserve_lines(order: SalesOrder, lines: list[SalesOrderLine]) -> None:
    warehouse = _order_warehouse(order)
    allow = _tenant_flags().allow_backorders
    for line in sorted(lines, key=lambda item: item.product_id):
        to_reserve = line.quantity - line.quantity_shipped - line.quantity_reserved
        if to_reserve > 0:
            inventory.reservations_reserve(
                order_line=line, warehouse=warehouse, quantity=to_reserve, allow_backorder=allow
            )


def customer_vat_treatment(*, customer: Customer, destination_country: str = "") -> tax.VatTreatment:
    """The VAT treatment of goods sold to the customer: the company's country, the customer's billing
    country and VAT number, the country the goods go to (default: the customer's delivery country, then
    billing country). The rules are in apps/common/tax.py."""
    tenant = Tenant.objects.get(pk=customer.tenant_id)
    return tax.determine_vat(
        seller_country=tenant.country,
        buyer_country=customer.billing_country,
        buyer_vat_number=customer.vat_id,
        destination_country=destination_country or customer.delivery_country or customer.billing_country,
    )


def order_vat_treatment(*, order: SalesOrder) -> tax.VatTreatment:
    """The VAT treatment of the order's goods, to its ship-to country."""
    return customer_vat_treatment(customer=order.customer, destination_country=order.ship_to_country)


def _propose_vat_rates(
    order: SalesOrder, lines: list[LineInput], existing: dict[int, SalesOrderLine]
) -> None:
    """Fills in the VAT rate a line does not give: an existing line keeps its own, a new one gets the
    determination's (0 % when the seller's country has no rate in the table)."""
    proposal = None
    for data in lines:
        if data.vat_rate is not None:
            continue
        if data.id is not None and data.id in existing:
            data.vat_rate = existing[data.id].vat_rate
            continue
        if proposal is None:
            proposal = order_vat_treatment(order=order).rate or ZERO
        data.vat_rate = proposal


def _save_lines(*, order: SalesOrder, lines: list[LineInput]) -> None:
    if not lines:
        raise LinesRequired()
    existing = {line.pk: line for line in SalesOrderLine.objects.filter(order=order).select_for_update()}
    _propose_vat_rates(order, lines, existing)
    seen: set[int] = set()
    next_number = max((line.line_number for line in existing.values()), default=0) + 1
    reserved_again: list[SalesOrderLine] = []
    for data in lines:
        if data.id is not None:
            line = existing.get(data.id)
            if line is None:
                raise LineNotFound(_("Line %(id)s is not a line of this order.") % {"id": data.id})
            seen.add(line.pk)
            if line.quantity_shipped > 0 and not _line_unchanged(line, data):
                raise LineShippedReadOnly()
            if line.quantity_shipped > 0:
                # only the dates and the description may change on a shipped line
                line.requested_date, line.confirmed_date = data.requested_date, data.confirmed_date
                if data.description is not None:
                    line.description = data.description
                line.save()
                continue
            changed = not _line_unchanged(line, data)
            _apply_line(line, data)
            line.save()
            if changed and order.confirmed_at is not None:
                inventory.reservations_release(order_lines=[line])
                reserved_again.append(line)
        else:
            line = _apply_line(SalesOrderLine(order=order, line_number=next_number), data)
            next_number += 1
            line.save()
            if order.confirmed_at is not None:
                reserved_again.append(line)
    for pk, line in existing.items():
        if pk in seen:
            continue
        if line.quantity_shipped > 0 or line.shipment_lines.exists():
            raise LineShippedReadOnly(
                _("Line %(number)s is on a shipment and cannot be removed.") % {"number": line.line_number}
            )
        inventory.reservations_release(order_lines=[line])
        line.reservations.all().delete()
        line.delete()
    if reserved_again:
        _reserve_lines(order, reserved_again)


def _ship_to_from_customer(customer: Customer) -> dict[str, str]:
    street = customer.delivery_street or customer.billing_street
    use_delivery = bool(customer.delivery_street or customer.delivery_city)
    return {
        "ship_to_name": customer.name,
        "ship_to_street": street,
        "ship_to_post_code": customer.delivery_post_code if use_delivery else customer.billing_post_code,
        "ship_to_city": customer.delivery_city if use_delivery else customer.billing_city,
        "ship_to_country": (customer.delivery_country if use_delivery else customer.billing_country) or "",
    }


def _customer_defaults(customer: Customer) -> dict[str, Any]:
    """What an order takes from its customer unless given: ship-to address, currency, terms, language."""
    return {
        **_ship_to_from_customer(customer),
        "currency": customer.currency or "EUR",
        "payment_terms_days": customer.payment_terms_days if customer.payment_terms_days is not None else 30,
        "language": Language.ZH
        if (customer.billing_country or "").upper() in ("CN", "TW", "HK")
        else Language.EN,
    }


@transaction.atomic
def sales_order_create(
    *,
    customer: Customer,
    order_date: date,
    lines: list[LineInput],
    order_number: str = "",
    user=None,
    confirm: bool = False,
    **fields: Any,
) -> SalesOrder:
    """Creates a draft order (confirmed at once with `confirm`). The number is the next of the tenant's
    "sales_order" counter unless a free one is given. The ship-to address defaults to the customer's
    delivery address, currency and payment terms to the customer's."""
    if not lines:
        raise LinesRequired()
    if order_number:
        if _order_number_taken(order_number):
            raise DuplicateNumber()
    else:
        order_number = numbering.number_next(
            numbering.SALES_ORDER, year=order_date.year, taken=_order_number_taken
        ).text
    values = _customer_defaults(customer)
    values.update({key: value for key, value in fields.items() if value is not None})
    if "owner" not in fields or fields.get("owner") is None:
        values["owner"] = user
    order = SalesOrder(
        order_number=order_number, customer=customer, order_date=order_date, created_by=user, **values
    )
    try:
        with transaction.atomic():
            order.save()
    except IntegrityError as exc:
        raise DuplicateNumber() from exc
    _save_lines(order=order, lines=lines)
    order_refresh(order=order)
    if confirm:
        sales_order_confirm(order=order)
    return order


@transaction.atomic
def sales_order_update(
    *,
    order: SalesOrder,
    fields: dict[str, Any],
    lines: list[LineInput] | None,
    unchanged_since: datetime | None = None,
) -> SalesOrder:
    """Changes the header and, when `lines` is given, replaces the lines (kept by id). Shipped lines are
    read-only; a changed line of a confirmed order is reserved again. With `unchanged_since` (the
    `updated_at` the editor read) a change made meanwhile (another save, a confirmation) refuses the
    update: the editor would otherwise overwrite what it has not seen."""
    given = order
    order = _lock_order(order)
    if unchanged_since is not None and order.updated_at > unchanged_since:
        raise OrderChanged(OrderChanged.default_message % {"status": Status(order.status).label.lower()})
    if order.status in (Status.CANCELLED, Status.CLOSED, Status.INVOICED):
        raise OrderReadOnly()
    customer_changes = "customer" in fields and fields["customer"].pk != order.customer_id
    if customer_changes and (order.shipments.exists() or order.invoices.exists()):
        raise OrderReadOnly(_("The customer cannot change once the order has shipments or invoices."))
    if customer_changes:
        # the new customer's address and terms, as on creation, unless the request sets them
        for name, value in _customer_defaults(fields["customer"]).items():
            fields.setdefault(name, value)
    for name, value in fields.items():
        setattr(order, name, value)
    order.save()
    if lines is not None:
        _save_lines(order=order, lines=lines)
    return _refreshed(given, order_refresh(order=order))


@transaction.atomic
def sales_order_delete(*, order: SalesOrder) -> None:
    order = _lock_order(order)
    if order.status != Status.DRAFT:
        raise OrderNotDeletable()
    SalesOrderLine.objects.filter(order=order).delete()
    order.delete()


@transaction.atomic
def sales_order_confirm(*, order: SalesOrder) -> SalesOrder:
    """draft -> confirmed: reserves every line's quantity (InsufficientAvailableStock: nothing happens)."""
    given = order
    order = _lock_order(order)
    if order.status != Status.DRAFT:
        raise OrderNotConfirmable()
    lines = list(SalesOrderLine.objects.filter(order=order).select_related("product"))
    if not lines:
        raise LinesRequired()
    if order.warehouse_id is None:
        order.warehouse = inventory.warehouse_default()
    order.confirmed_at = timezone.now()
    order.save(update_fields=["warehouse", "confirmed_at", "updated_at"])
    _reserve_lines(order, lines)
    emit("sales_order.confirmed", record=order)
    return _refreshed(given, order_refresh(order=order))


@transaction.atomic
def sales_order_cancel(*, order: SalesOrder) -> SalesOrder:
    """draft/confirmed -> cancelled, only while nothing has shipped; releases the reservations."""
    given = order
    order = _lock_order(order)
    lines = list(SalesOrderLine.objects.filter(order=order))
    if order.status not in (Status.DRAFT, Status.CONFIRMED) or any(
        line.quantity_shipped > 0 for line in lines
    ):
        raise OrderNotCancellable()
    if order.shipments.exclude(status__in=[Shipment.Status.SHIPPED, Shipment.Status.DELIVERED]).exists():
        raise OrderHasOpenShipments()
    inventory.reservations_release(order_lines=lines)
    order.status = Status.CANCELLED
    order.cancelled_at = timezone.now()
    order.save(update_fields=["status", "cancelled_at", "updated_at"])
    return _refreshed(given, order)


@transaction.atomic
def sales_order_close(*, order: SalesOrder) -> SalesOrder:
    """Closes an order of which something has shipped (the rest will not ship): releases what is still
    reserved. Refused while shipments are open."""
    given = order
    order = _lock_order(order)
    if "close" not in allowed_actions(order):
        raise OrderNotClosable()
    if order.shipments.exclude(status__in=[Shipment.Status.SHIPPED, Shipment.Status.DELIVERED]).exists():
        raise OrderHasOpenShipments()
    inventory.reservations_release(order_lines=list(SalesOrderLine.objects.filter(order=order)))
    order.status = Status.CLOSED
    order.closed_at = timezone.now()
    order.save(update_fields=["status", "closed_at", "updated_at"])
    return _refreshed(given, order)


# -- shipments ----------------------------------------------------------------------------------------------


@dataclass
class ShipmentLineInput:
    order_line: SalesOrderLine
    quantity: Decimal


SHIPPABLE = (Status.CONFIRMED, Status.PARTIALLY_SHIPPED, Status.PARTIALLY_INVOICED)


def _pending_quantities(order_line_ids, exclude_shipment: int | None = None) -> dict[int, Decimal]:
    """Quantity per order line on shipments that have not shipped yet."""
    qs = ShipmentLine.objects.filter(
        order_line_id__in=list(order_line_ids),
        shipment__status__in=[Shipment.Status.DRAFT, Shipment.Status.PICKED],
    )
    if exclude_shipment is not None:
        qs = qs.exclude(shipment_id=exclude_shipment)
    return dict(qs.values("order_line_id").annotate(q=Sum("quantity")).values_list("order_line_id", "q"))


def _check_shipment_lines(order: SalesOrder, lines: list[ShipmentLineInput], exclude_shipment=None) -> None:
    if not lines:
        raise ShipmentLinesRequired()
    ids = [item.order_line.pk for item in lines]
    if len(set(ids)) != len(ids):
        raise DuplicateLine()
    pending = _pending_quantities(ids, exclude_shipment)
    fresh = {line.pk: line for line in SalesOrderLine.objects.select_for_update().filter(pk__in=ids)}
    for item in lines:
        line = fresh.get(item.order_line.pk)
        if line is None or line.order_id != order.pk:
            raise LineNotFound()
        if item.quantity <= 0:
            raise InvalidQuantity()
        open_qty = line.quantity - line.quantity_shipped - (pending.get(line.pk) or ZERO)
        if item.quantity > open_qty:
            raise OverShipment(
                _("Line %(number)s has %(open)s open; %(quantity)s cannot ship.")
                % {"number": line.line_number, "open": max(open_qty, ZERO), "quantity": item.quantity},
                data={"order_line": line.pk, "open": str(max(open_qty, ZERO))},
            )


def _shipment_number_taken(number: str) -> bool:
    return Shipment.objects.filter(shipment_number=number).exists()


@transaction.atomic
def shipment_create(
    *,
    sales_order: SalesOrder,
    lines: list[ShipmentLineInput],
    user=None,
    warehouse: Warehouse | None = None,
    **fields: Any,
) -> Shipment:
    """A draft shipment of open quantities of one confirmed order (each line at most what is open,
    minus what other unshipped shipments already hold)."""
    order = _lock_order(sales_order)
    if order.status not in SHIPPABLE:
        raise NoOpenQuantity()
    _check_shipment_lines(order, lines)
    today = timezone.localdate()
    shipment = Shipment.objects.create(
        shipment_number=numbering.number_next(
            numbering.SALES_SHIPMENT, year=today.year, taken=_shipment_number_taken
        ).text,
        sales_order=order,
        warehouse=warehouse or _order_warehouse(order),
        created_by=user,
        **{key: value for key, value in fields.items() if value is not None},
    )
    ShipmentLine.objects.bulk_create(
        [
            ShipmentLine(shipment=shipment, order_line=item.order_line, quantity=item.quantity)
            for item in lines
        ]
    )
    return shipment


def _lock_shipment(shipment: Shipment) -> Shipment:
    return Shipment.objects.select_for_update(of=("self",)).select_related("sales_order").get(pk=shipment.pk)


@transaction.atomic
def shipment_update(
    *, shipment: Shipment, fields: dict[str, Any], lines: list[ShipmentLineInput] | None
) -> Shipment:
    """Changes a shipment that has not shipped: its dates, carrier, note and (draft only) its lines."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status in (Shipment.Status.SHIPPED, Shipment.Status.DELIVERED):
        raise ShipmentReadOnly()
    for name, value in fields.items():
        setattr(shipment, name, value)
    shipment.save()
    if lines is not None:
        _check_shipment_lines(shipment.sales_order, lines, exclude_shipment=shipment.pk)
        keep = {item.order_line.pk: item for item in lines}
        for line in list(shipment.lines.all()):
            if line.order_line_id not in keep:
                # its cartons come off the shipment and are in stock again (the carton's state machine)
                label_ids = list(line.cartons.values_list("carton_id", flat=True))
                line.delete()
                inventory.cartons_unpicked(label_ids=label_ids, reference=shipment.shipment_number)
            else:
                line.quantity = keep.pop(line.order_line_id).quantity
                line.save(update_fields=["quantity"])
        ShipmentLine.objects.bulk_create(
            [
                ShipmentLine(shipment=shipment, order_line=item.order_line, quantity=item.quantity)
                for item in keep.values()
            ]
        )
    return _refreshed(given, shipment)


@transaction.atomic
def shipment_delete(*, shipment: Shipment) -> None:
    shipment = _lock_shipment(shipment)
    if shipment.status in (Shipment.Status.SHIPPED, Shipment.Status.DELIVERED):
        raise ShipmentReadOnly()
    label_ids = list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True))
    number = shipment.shipment_number
    shipment.delete()
    # its picked cartons are in stock again where they are
    inventory.cartons_unpicked(label_ids=label_ids, reference=number)


@transaction.atomic
def shipment_pick(*, shipment: Shipment) -> Shipment:
    """draft -> picked."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status != Shipment.Status.DRAFT:
        raise IllegalShipmentAction()
    shipment.status = Shipment.Status.PICKED
    shipment.save(update_fields=["status", "updated_at"])
    return _refreshed(given, shipment)


def _issue_moves(
    shipment: Shipment, lines: list[ShipmentLine], cartons_at: dict[tuple[int, int], int] | None = None
) -> list[inventory.MoveSpec]:
    """Where each line's goods leave from, so that the stock of a shelf follows its cartons (one carton is
    one unit): first the cartons picked for the shipment, from where they are (`cartons_at`: cartons per
    product and location); then goods without a carton in stock; then, only if that is not enough, any
    stock. Within each, shipping locations first, then storage, then receiving, the fullest first. What
    no location holds is taken from the first location (the move service then refuses it unless negative
    stock is allowed)."""
    product_ids = {line.order_line.product_id for line in lines}
    rank = {Location.Kind.SHIPPING: 0, Location.Kind.STORAGE: 1, Location.Kind.RECEIVING: 2}
    stock_rows = list(
        Stock.objects.filter(
            product_id__in=product_ids, location__warehouse_id=shipment.warehouse_id, quantity__gt=0
        ).select_related("location")
    )
    stock_rows.sort(key=lambda row: (rank.get(row.location.kind, 3), -row.quantity, row.location.code))
    left = {row.pk: row.quantity for row in stock_rows}
    picked = dict(cartons_at or {})
    # cartons in stock that stay on their shelf: their units are not taken while others are there
    shelved: dict[tuple[int, int], int] = {}
    for key in (
        WarehouseCarton.objects.filter(
            product_id__in=product_ids,
            location__warehouse_id=shipment.warehouse_id,
            status=WarehouseCarton.Status.IN_STOCK,
        )
        .order_by()
        .values_list("product_id", "location_id")
    ):
        shelved[key] = shelved.get(key, 0) + 1
    taken: dict[tuple[int, int], Decimal] = {}
    for line in lines:
        need = line.quantity
        product_id = line.order_line.product_id
        for step in ("picked", "loose", "any"):
            for row in stock_rows:
                if need <= 0:
                    break
                key = (product_id, row.location_id)
                if row.product_id != product_id or left[row.pk] <= 0:
                    continue
                take = min(need, left[row.pk])
                if step == "picked":
                    take = min(take, Decimal(picked.get(key, 0)))
                elif step == "loose":
                    take = min(
                        take, left[row.pk] - Decimal(shelved.get(key, 0)) - Decimal(picked.get(key, 0))
                    )
                if take <= 0:
                    continue
                if step == "picked":
                    picked[key] -= int(take)
                left[row.pk] -= take
                need -= take
                taken[key] = taken.get(key, Decimal("0")) + take
        if need > 0:
            raise inventory.InsufficientStock(
                _("The warehouse holds too little of %(product)s to ship this shipment.")
                % {"product": line.order_line.product}
            )
    locations = {row.location_id: row.location for row in stock_rows}
    return [
        inventory.MoveSpec(product_id=product_id, quantity=quantity, from_location=locations[location_id])
        for (product_id, location_id), quantity in taken.items()
    ]


def labelled_product_ids(product_ids) -> set[int]:
    """The products among `product_ids` that carry EUDR carton labels (an active label exists): their
    goods ship as picked cartons."""
    from apps.eudr.models import CartonLabel

    return set(
        CartonLabel.objects.filter(product_id__in=list(product_ids), status=CartonLabel.Status.ACTIVE)
        .order_by()
        .values_list("product_id", flat=True)
        .distinct()
    )


def _check_picked_cartons(lines: list[ShipmentLine]) -> None:
    """Labelled goods ship as their picked cartons: a line of a labelled product may not ship more than
    its picked cartons, unless the company allows shipping unlabelled stock; then what ships without a
    carton is kept on the line (`unlabelled_quantity`, printed on the delivery note)."""
    labelled = labelled_product_ids({line.order_line.product_id for line in lines})
    if not labelled:
        return
    picked = dict(
        ShipmentCarton.objects.filter(shipment_line__in=[line.pk for line in lines])
        .values("shipment_line_id")
        .annotate(n=Count("pk"))
        .values_list("shipment_line_id", "n")
    )
    short = []
    for line in lines:
        if line.order_line.product_id not in labelled:
            continue
        missing = line.quantity - Decimal(picked.get(line.pk, 0))
        if missing > 0:
            short.append((line, missing))
    if not short:
        return
    from apps.tenancy.context import get_current_tenant_id

    allowed = (
        Tenant.objects.filter(pk=get_current_tenant_id() or 0)
        .values_list("allow_unlabelled_shipping", flat=True)
        .first()
    )
    if not allowed:
        line, missing = short[0]
        raise CartonsNotPicked(
            _(
                "%(article)s: %(picked)s of %(quantity)s cartons are picked; pick the %(missing)s missing "
                "or ship only what is picked."
            )
            % {
                "article": line.order_line.product.article_number,
                "picked": picked.get(line.pk, 0),
                "quantity": f"{line.quantity.normalize():f}",
                "missing": f"{missing.normalize():f}",
            },
            data={
                "lines": [
                    {
                        "shipment_line": row.pk,
                        "order_line": row.order_line_id,
                        "quantity": str(row.quantity),
                        "picked": picked.get(row.pk, 0),
                        "missing": str(gap),
                    }
                    for row, gap in short
                ]
            },
        )
    for line, missing in short:
        line.unlabelled_quantity = missing
        ShipmentLine.objects.filter(pk=line.pk).update(unlabelled_quantity=missing)


@transaction.atomic
def shipment_ship(*, shipment: Shipment, user=None) -> Shipment:
    """draft/picked -> shipped, all or nothing: re-checks the open quantities under the order lines' row
    locks, posts the issue moves out of the warehouse (`stock_moves_post`), consumes the reservations,
    adds to `quantity_shipped` and derives the order's status."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise IllegalShipmentAction()
    order = _lock_order(shipment.sales_order)
    if order.status not in SHIPPABLE:
        raise NoOpenQuantity()
    lines = list(shipment.lines.select_related("order_line__product").order_by("order_line_id"))
    if not lines:
        raise ShipmentLinesRequired()
    locked = {
        line.pk: line
        for line in SalesOrderLine.objects.select_for_update(of=("self",))
        .filter(pk__in=[line.order_line_id for line in lines])
        .order_by("pk")
    }
    carton_ids = list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True))
    for line in lines:
        order_line = locked[line.order_line_id]
        if line.quantity > order_line.quantity - order_line.quantity_shipped:
            raise OverShipment(data={"order_line": order_line.pk})
        line.order_line = order_line
    _check_picked_cartons(lines)
    cartons_at: dict[tuple[int, int], int] = {}
    for product_id, location_id in WarehouseCarton.objects.filter(
        label_id__in=carton_ids, location__isnull=False
    ).values_list("product_id", "location_id"):
        cartons_at[(product_id, location_id)] = cartons_at.get((product_id, location_id), 0) + 1
    inventory.stock_moves_post(
        moves=_issue_moves(shipment, lines, cartons_at),
        kind=StockMove.Kind.ISSUE,
        reference=shipment.shipment_number,
        user=user,
        note=order.order_number,
        document_type=StockMove.Document.SHIPMENT,
        document_id=shipment.pk,
    )
    if carton_ids:
        # The cartons' warehouse history: shipped, to this order's customer.
        inventory.cartons_shipped(
            label_ids=carton_ids, reference=shipment.shipment_number, customer_id=order.customer_id, user=user
        )
    for line in lines:
        inventory.reservations_consume(order_line=line.order_line, quantity=line.quantity)
        SalesOrderLine.objects.filter(pk=line.order_line_id).update(
            quantity_shipped=F("quantity_shipped") + line.quantity
        )
    shipment.status = Shipment.Status.SHIPPED
    shipment.shipped_at = timezone.now()
    shipment.save(update_fields=["status", "shipped_at", "updated_at"])
    order_refresh(order=order)
    emit("sales_shipment.shipped", record=shipment)
    return _refreshed(given, shipment)


@transaction.atomic
def shipment_deliver(*, shipment: Shipment) -> Shipment:
    """shipped -> delivered."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status != Shipment.Status.SHIPPED:
        raise IllegalShipmentAction()
    shipment.status = Shipment.Status.DELIVERED
    shipment.delivered_at = timezone.now()
    shipment.save(update_fields=["status", "delivered_at", "updated_at"])
    inventory.cartons_delivered(
        label_ids=list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True)),
        reference=shipment.shipment_number,
    )
    return _refreshed(given, shipment)


def _normalise_codes(codes) -> list[str]:
    seen: list[str] = []
    for code in codes:
        code = "".join(str(code).split())
        if code and code not in seen:
            seen.append(code)
    return seen


def _carton_checks(
    *, shipment: Shipment, cartons: dict[str, Any], codes: list[str], lines_by_product
) -> None:
    """Each refusal has its own error key and names the code. Extend here (one place) with further
    checks on a carton before it may go on a shipment."""
    for code in codes:
        carton = cartons.get(code)
        if carton is None:
            # unknown, or another tenant's (row-level security hides it): the same answer
            raise CartonNotFound(CartonNotFound.default_message % {"code": code}, data={"code": code})
        if carton.status != carton.Status.ACTIVE:
            raise CartonVoided(CartonVoided.default_message % {"code": code}, data={"code": code})
        if carton.product_id not in lines_by_product:
            raise CartonWrongProduct(CartonWrongProduct.default_message % {"code": code}, data={"code": code})
        current = getattr(carton, "sales_shipment_carton", None)
        if current is not None and current.shipment_id != shipment.pk:
            raise CartonOnOtherShipment(
                CartonOnOtherShipment.default_message
                % {"code": code, "shipment": current.shipment.shipment_number},
                data={"code": code, "shipment": current.shipment_id},
            )


@transaction.atomic
def shipment_cartons_add(*, shipment: Shipment, codes: list[str], user=None) -> list[ShipmentCarton]:
    """Puts cartons (by their public code) on a shipment that has not shipped, each on the shipment line
    of its product. All or nothing: the first refused code refuses the request (`data.code` names it).
    A code already on this shipment is accepted again (a second scan). A carton is on one shipment only:
    checked here and guaranteed by the one-to-one key (a concurrent add of the same carton loses)."""
    from apps.eudr.models import CartonLabel

    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise ShipmentAlreadyShipped()
    codes = _normalise_codes(codes)
    if not codes:
        raise CodesRequired()
    cartons = {
        carton.code: carton
        for carton in CartonLabel.objects.filter(code__in=codes).select_related(
            "sales_shipment_carton__shipment"
        )
    }
    lines_by_product: dict[int, ShipmentLine] = {}
    for line in shipment.lines.select_related("order_line").order_by("id"):
        lines_by_product.setdefault(line.order_line.product_id, line)
    _carton_checks(shipment=shipment, cartons=cartons, codes=codes, lines_by_product=lines_by_product)
    new_labels = [
        cartons[code] for code in codes if getattr(cartons[code], "sales_shipment_carton", None) is None
    ]
    if new_labels:
        # The warehouse's rules: received into stock and still there; no more cartons than the line's quantity.
        room: dict[int, Decimal] = {}
        for line in shipment.lines.select_related("order_line"):
            room[line.order_line.product_id] = (
                room.get(line.order_line.product_id, Decimal("0")) + line.quantity
            )
        on_shipment = dict(
            ShipmentCarton.objects.filter(shipment=shipment)
            .values("carton__product_id")
            .annotate(n=Count("pk"))
            .values_list("carton__product_id", "n")
        )
        inventory.cartons_pick_check(labels=new_labels, picked_per_product=on_shipment, room_per_product=room)
    new = [
        ShipmentCarton(
            shipment=shipment,
            shipment_line=lines_by_product[cartons[code].product_id],
            carton=cartons[code],
            added_by=user,
        )
        for code in codes
        if getattr(cartons[code], "sales_shipment_carton", None) is None
    ]
    try:
        with transaction.atomic():
            ShipmentCarton.objects.bulk_create(new)
    except IntegrityError as exc:
        raise CartonOnOtherShipment(
            _("One of the cartons was put on another shipment meanwhile."), error=CartonOnOtherShipment.error
        ) from exc
    if new_labels:
        inventory.cartons_picked(
            labels=new_labels,
            reference=shipment.shipment_number,
            customer_id=shipment.sales_order.customer_id,
            user=user,
        )
    return list(ShipmentCarton.objects.filter(shipment=shipment, carton__code__in=codes))


@transaction.atomic
def shipment_cartons_remove(*, shipment: Shipment, codes: list[str]) -> int:
    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise ShipmentAlreadyShipped()
    removing = ShipmentCarton.objects.filter(shipment=shipment, carton__code__in=_normalise_codes(codes))
    label_ids = list(removing.values_list("carton_id", flat=True))
    deleted, _detail = removing.delete()
    inventory.cartons_unpicked(label_ids=label_ids, reference=shipment.shipment_number)
    return deleted


# -- invoices -------------------------------------------------------------------------------------------------


def _drafted_quantities(shipment_line_ids, exclude_invoice: int | None = None) -> dict[int, Decimal]:
    qs = InvoiceLine.objects.filter(
        shipment_line_id__in=list(shipment_line_ids),
        invoice__status=Invoice.Status.DRAFT,
        invoice__kind=Invoice.Kind.INVOICE,
    )
    if exclude_invoice is not None:
        qs = qs.exclude(invoice_id=exclude_invoice)
    return dict(
        qs.values("shipment_line_id").annotate(q=Sum("quantity")).values_list("shipment_line_id", "q")
    )


def _invoice_lines_for(shipment_lines: list[ShipmentLine]) -> list[InvoiceLine]:
    drafted = _drafted_quantities([line.pk for line in shipment_lines])
    result = []
    for sline in shipment_lines:
        quantity = sline.quantity - sline.quantity_invoiced - (drafted.get(sline.pk) or ZERO)
        if quantity <= 0:
            continue
        oline = sline.order_line
        net, vat = line_amounts(
            quantity=quantity,
            unit_price=oline.unit_price,
            discount_percent=oline.discount_percent,
            vat_rate=oline.vat_rate,
        )
        result.append(
            InvoiceLine(
                order_line=oline,
                shipment_line=sline,
                product_id=oline.product_id,
                description=oline.description,
                quantity=quantity,
                unit_price=oline.unit_price,
                discount_percent=oline.discount_percent,
                vat_rate=oline.vat_rate,
                amount_net=net,
                amount_vat=vat,
            )
        )
    return result


def _set_totals(invoice: Invoice, lines) -> None:
    invoice.total_net, invoice.total_vat, invoice.total_gross = _totals(lines)


def _apply_vat_treatment(invoice: Invoice, lines: list[InvoiceLine], treatment: tax.VatTreatment) -> None:
    """Sets the invoice's VAT case, category, exemption code and reverse charge from the determination.
    A zero-rated treatment (intra-EU supply, export, reverse charge) puts every line at 0 %; otherwise a
    line carries its order line's rate (a product may have a reduced rate)."""
    invoice.vat_case = treatment.case
    invoice.vat_category = treatment.category
    invoice.vat_exemption_code = treatment.exemption_code
    invoice.reverse_charge = treatment.reverse_charge
    for line in lines:
        line.vat_rate = ZERO if treatment.zero_rated else line.order_line.vat_rate
        line.amount_net, line.amount_vat = line_amounts(
            quantity=line.quantity,
            unit_price=line.unit_price,
            discount_percent=line.discount_percent,
            vat_rate=line.vat_rate,
        )


@transaction.atomic
def invoice_create(
    *,
    sales_order: SalesOrder | None = None,
    shipments: list[Shipment] | None = None,
    user=None,
    note: str = "",
) -> Invoice:
    """A draft invoice of what was shipped and not yet invoiced (nor on another draft): of all the
    order's shipped shipments, or of the given shipments (all of one order)."""
    shipments = list(shipments or [])
    if shipments:
        order_ids = {shipment.sales_order_id for shipment in shipments}
        if len(order_ids) != 1 or (sales_order is not None and sales_order.pk not in order_ids):
            raise ShipmentsOfSeveralOrders()
        sales_order = SalesOrder.objects.get(pk=order_ids.pop())
    if sales_order is None:
        raise NothingToInvoice(_("Give an order or shipments to invoice."))
    order = _lock_order(sales_order)
    if order.status == Status.CANCELLED:
        raise OrderCancelled()
    shipped = [Shipment.Status.SHIPPED, Shipment.Status.DELIVERED]
    if shipments:
        if any(s.status not in shipped for s in shipments):
            raise ShipmentNotShipped()
        chosen = [s.pk for s in shipments]
    else:
        chosen = list(order.shipments.filter(status__in=shipped).values_list("pk", flat=True))
    shipment_lines = list(
        ShipmentLine.objects.select_for_update(of=("self",))
        .filter(shipment_id__in=chosen)
        .select_related("order_line")
        .order_by("order_line__line_number", "id")
    )
    lines = _invoice_lines_for(shipment_lines)
    if not lines:
        raise NothingToInvoice()
    customer = order.customer
    invoice = Invoice(
        kind=Invoice.Kind.INVOICE,
        sales_order=order,
        customer=customer,
        currency=order.currency,
        language=order.language,
        payment_terms_days=order.payment_terms_days,
        note=note,
        created_by=user,
    )
    _apply_vat_treatment(invoice, lines, order_vat_treatment(order=order))
    _set_totals(invoice, lines)
    invoice.save()
    invoice.shipments.set(sorted({line.shipment_line.shipment_id for line in lines if line.shipment_line}))
    for line in lines:
        line.invoice = invoice
    InvoiceLine.objects.bulk_create(lines)
    return invoice


def _lock_invoice(invoice: Invoice) -> Invoice:
    return Invoice.objects.select_for_update(of=("self",)).get(pk=invoice.pk)


@transaction.atomic
def invoice_update(
    *, invoice: Invoice, fields: dict[str, Any], unchanged_since: datetime | None = None
) -> Invoice:
    """Changes a draft's note, language, reverse charge and payment terms, under the invoice's row lock:
    a draft posted meanwhile is refused (409 `invoice_posted`), and with `unchanged_since` (the
    `updated_at` the editor read) so is a draft someone else changed since (409 `invoice_changed`)."""
    given = invoice
    invoice = _lock_invoice(invoice)
    if invoice.status != Invoice.Status.DRAFT:
        raise InvoicePosted()
    if unchanged_since is not None and invoice.updated_at > unchanged_since:
        raise InvoiceChanged()
    reverse_charge = fields.pop("reverse_charge", None)
    for name, value in fields.items():
        setattr(invoice, name, value)
    if reverse_charge is not None and reverse_charge != invoice.reverse_charge:
        _set_reverse_charge(invoice, reverse_charge)
    invoice.save()
    return _refreshed(given, invoice)


def _set_reverse_charge(invoice: Invoice, reverse_charge: bool) -> None:
    """A draft marked as reverse charge (or no longer) by hand: its lines go to 0 % (or back to the order
    lines' rates) and the VAT category follows: an intra-EU supply (K) when the determination says the
    customer is a business in another member state, the general reverse charge (AE) otherwise; taken
    off, the determination's own treatment unless that is zero-rated, then standard."""
    determined = order_vat_treatment(order=invoice.sales_order)
    if reverse_charge:
        treatment = tax.reverse_charge_treatment(intra_eu=determined.case == tax.VatCase.INTRA_EU_B2B)
    elif determined.reverse_charge:
        treatment = tax.VatTreatment(case=tax.VatCase.DOMESTIC, category=tax.VatCategory.STANDARD, rate=None)
    else:
        treatment = determined
    lines = list(invoice.lines.select_related("order_line"))
    _apply_vat_treatment(invoice, lines, treatment)
    InvoiceLine.objects.bulk_update(lines, ["vat_rate", "amount_net", "amount_vat"])
    _set_totals(invoice, lines)


@transaction.atomic
def invoice_delete(*, invoice: Invoice) -> None:
    invoice = _lock_invoice(invoice)
    if invoice.status != Invoice.Status.DRAFT:
        raise InvoicePosted()
    invoice.lines.all().delete()
    invoice.delete()


def _address(*parts: str) -> str:
    return ", ".join(part for part in parts if part)


@transaction.atomic
def invoice_post(*, invoice: Invoice, user=None, issue_date: date | None = None) -> Invoice:
    """Posts a draft: checks nothing was invoiced twice meanwhile (shipment lines locked), takes the
    next gapless number, copies the seller's and buyer's data, sets the dates, adds to (a credit note:
    takes from) the invoiced quantities and derives the order's status."""
    given = invoice
    invoice = _lock_invoice(invoice)
    if invoice.status != Invoice.Status.DRAFT:
        raise InvoiceAlreadyPosted()
    lines = list(invoice.lines.select_related("order_line").order_by("id"))
    is_credit = invoice.kind == Invoice.Kind.CREDIT_NOTE
    sign = Decimal("-1") if is_credit else Decimal("1")
    shipment_line_ids = sorted({line.shipment_line_id for line in lines if line.shipment_line_id})
    slines = {
        sl.pk: sl
        for sl in ShipmentLine.objects.select_for_update(of=("self",))
        .filter(pk__in=shipment_line_ids)
        .order_by("pk")
    }
    if not is_credit:
        for line in lines:
            sline = slines.get(line.shipment_line_id)
            if sline is not None and sline.quantity_invoiced + line.quantity > sline.quantity:
                raise OverInvoice()
    else:
        credited = _credited_quantities([line.credited_line_id for line in lines], exclude_invoice=invoice.pk)
        originals = {
            ln.pk: ln for ln in InvoiceLine.objects.filter(pk__in=[line.credited_line_id for line in lines])
        }
        for line in lines:
            original = originals[line.credited_line_id]
            if line.quantity > original.quantity - (credited.get(original.pk) or ZERO):
                raise OverCredit()
    today = issue_date or timezone.localdate()
    number = numbering.number_next(numbering.CREDIT_NOTE if is_credit else numbering.INVOICE, year=today.year)
    invoice.sequence_number, invoice.number = number.value, number.text
    invoice.series, invoice.year = number.series.prefix, today.year
    if not is_credit:
        invoice.payment_reference = payment.rf_creditor_reference(invoice.number)
    invoice.issue_date = today
    invoice.due_date = today + timedelta(days=invoice.payment_terms_days)
    shipped_dates = [s.shipped_at.date() for s in invoice.shipments.all() if s.shipped_at is not None] or (
        [invoice.credited_invoice.supply_date]
        if is_credit and invoice.credited_invoice and invoice.credited_invoice.supply_date
        else []
    )
    invoice.supply_date = max([d for d in shipped_dates if d], default=None)
    tenant = Tenant.objects.get(pk=invoice.tenant_id)
    customer = invoice.customer
    invoice.seller_name = tenant.legal_name or tenant.name
    invoice.seller_address = tenant.address
    invoice.seller_country = tenant.country
    invoice.seller_vat_number = tenant.vat_number
    invoice.seller_eori_number = tenant.eori_number
    invoice.seller_registration_number = tenant.registration_number
    invoice.seller_iban = tenant.iban
    invoice.seller_bic = tenant.bic
    invoice.buyer_name = customer.name
    invoice.buyer_address = _address(
        customer.billing_street, " ".join(p for p in [customer.billing_post_code, customer.billing_city] if p)
    )
    invoice.buyer_country = customer.billing_country or ""
    invoice.buyer_vat_number = customer.vat_id
    invoice.customer_accounting_code = customer.visma_code
    owner = invoice.sales_order.owner
    invoice.owner_visma_id = getattr(owner, "visma_owner_id", "") or "" if owner else ""
    invoice.status = Invoice.Status.POSTED
    invoice.posted_at = timezone.now()
    invoice.posted_by = user
    invoice.save()
    for line in lines:
        if line.shipment_line_id:
            ShipmentLine.objects.filter(pk=line.shipment_line_id).update(
                quantity_invoiced=F("quantity_invoiced") + sign * line.quantity
            )
        SalesOrderLine.objects.filter(pk=line.order_line_id).update(
            quantity_invoiced=F("quantity_invoiced") + sign * line.quantity
        )
    order = _lock_order(invoice.sales_order)
    order_refresh(order=order)
    emit("invoice.posted", record=invoice, key=invoice.number)
    from apps.accounting.outbox import enqueue_document

    enqueue_document(invoice)  # to the accounting system, after the commit (docs/accounting.md)
    if given is not invoice:
        given.refresh_from_db()
    return invoice


def _credited_quantities(line_ids, exclude_invoice: int | None = None) -> dict[int, Decimal]:
    """Quantity already credited (posted or drafted credit notes) per original invoice line."""
    qs = InvoiceLine.objects.filter(credited_line_id__in=[pk for pk in line_ids if pk])
    if exclude_invoice is not None:
        qs = qs.exclude(invoice_id=exclude_invoice)
    return dict(
        qs.values("credited_line_id").annotate(q=Sum("quantity")).values_list("credited_line_id", "q")
    )


@dataclass
class CreditLineInput:
    invoice_line_id: int
    quantity: Decimal


@transaction.atomic
def credit_note_create(
    *,
    invoice: Invoice,
    lines: list[CreditLineInput] | None = None,
    user=None,
    note: str = "",
    post: bool = False,
) -> Invoice:
    """A credit note of a posted invoice: every line's remaining quantity (full) or the given quantities
    (partial), at the original's prices. Its amounts are positive; it reduces the invoiced quantities
    when posted. Posted at once with `post`."""
    original = _lock_invoice(invoice)
    if original.status != Invoice.Status.POSTED or original.kind != Invoice.Kind.INVOICE:
        raise InvoiceNotPosted(_("Only a posted invoice can be credited."))
    originals = {line.pk: line for line in original.lines.order_by("id")}
    credited = _credited_quantities(list(originals))
    wanted: dict[int, Decimal] = {}
    if lines:
        for item in lines:
            if item.invoice_line_id not in originals:
                raise LineNotFound(_("The line is not a line of this invoice."))
            if item.quantity <= 0:
                raise InvalidQuantity(_("A credited quantity must be positive."))
            wanted[item.invoice_line_id] = wanted.get(item.invoice_line_id, ZERO) + item.quantity
    else:
        wanted = {pk: line.quantity - (credited.get(pk) or ZERO) for pk, line in originals.items()}
        wanted = {pk: qty for pk, qty in wanted.items() if qty > 0}
    if not wanted:
        raise OverCredit(_("Everything on this invoice has been credited already."))
    new_lines = []
    for pk, quantity in wanted.items():
        source = originals[pk]
        if quantity > source.quantity - (credited.get(pk) or ZERO):
            raise OverCredit(data={"invoice_line": pk})
        if quantity == source.quantity:
            net, vat = source.amount_net, source.amount_vat
        else:
            net, vat = line_amounts(
                quantity=quantity,
                unit_price=source.unit_price,
                discount_percent=source.discount_percent,
                vat_rate=source.vat_rate,
            )
        new_lines.append(
            InvoiceLine(
                order_line_id=source.order_line_id,
                shipment_line_id=source.shipment_line_id,
                credited_line=source,
                product_id=source.product_id,
                description=source.description,
                quantity=quantity,
                unit_price=source.unit_price,
                discount_percent=source.discount_percent,
                vat_rate=source.vat_rate,
                amount_net=net,
                amount_vat=vat,
            )
        )
    credit = Invoice(
        kind=Invoice.Kind.CREDIT_NOTE,
        sales_order_id=original.sales_order_id,
        customer_id=original.customer_id,
        credited_invoice=original,
        currency=original.currency,
        language=original.language,
        payment_terms_days=0,
        reverse_charge=original.reverse_charge,
        vat_case=original.vat_case,
        vat_category=original.vat_category,
        vat_exemption_code=original.vat_exemption_code,
        note=note,
        created_by=user,
    )
    _set_totals(credit, new_lines)
    credit.save()
    credit.shipments.set(list(original.shipments.values_list("pk", flat=True)))
    for line in new_lines:
        line.invoice = credit
    InvoiceLine.objects.bulk_create(new_lines)
    if post:
        invoice_post(invoice=credit, user=user)
        credit.refresh_from_db()
    return credit


@transaction.atomic
def invoice_payment_record(*, invoice: Invoice, amount: Decimal) -> Invoice:
    """Adds a payment received (the open amount is gross minus paid minus posted credit notes)."""
    invoice = _lock_invoice(invoice)
    if invoice.status != Invoice.Status.POSTED or invoice.kind != Invoice.Kind.INVOICE:
        raise InvoiceNotPosted()
    if amount <= 0:
        raise InvalidAmount()
    if amount > invoice_open_amount(invoice):
        raise OverPayment()
    invoice.amount_paid += amount
    invoice.save(update_fields=["amount_paid", "updated_at"])
    return invoice


def invoice_open_amount(invoice: Invoice) -> Decimal:
    credited = (
        Invoice.objects.filter(credited_invoice=invoice, status=Invoice.Status.POSTED).aggregate(
            s=Sum("total_gross")
        )["s"]
        or ZERO
    )
    return max(invoice.total_gross - credited - invoice.amount_paid, ZERO)


# -- e-invoice delivery (docs/sales.md, "Delivering e-invoices") ---------------------------------------

PEPPOL_SETTINGS_FIELDS = ("enabled", "endpoint_url", "sender_id", "timeout")


@transaction.atomic
def peppol_settings_save(*, data: dict[str, Any]) -> PeppolSettings:
    """Creates or changes the company's Peppol access point. An API key left out keeps the stored one;
    `clear_api_key` removes it."""
    config = PeppolSettings.objects.select_for_update().first() or PeppolSettings()
    for name in PEPPOL_SETTINGS_FIELDS:
        if name in data:
            setattr(config, name, data[name])
    if data.get("api_key"):
        config.api_key = data["api_key"]
    elif data.get("clear_api_key"):
        config.api_key = ""
    config.save()
    return config


@transaction.atomic
def peppol_settings_delete() -> None:
    PeppolSettings.objects.all().delete()


def _peppol_key(config: PeppolSettings) -> str:
    from django.utils.translation import gettext

    try:
        return readable(config.api_key)
    except SecretUnreadable as exc:
        raise PeppolNotConfigured(
            gettext("The stored API key cannot be read (the keys were changed): enter it again.")
        ) from exc


def einvoice_peppol_send(*, tenant_id: int, invoice_id: int, user) -> EInvoiceDelivery:
    """Sends a posted invoice's UBL e-invoice through the company's Peppol access point and records the
    delivery. Runs outside a request transaction, as the e-mail delivery does: the delivery is committed
    as `sending` first (a second send of the document is refused while one is sending or sent), the
    access point is called with no transaction open, and its outcome is committed after it, so a failed
    delivery stays recorded when the refusal `PeppolDeliveryFailed` (502) is answered."""
    from apps.salesorders import peppol, ubl
    from apps.tenancy.context import entered_tenant, tenant_context

    with transaction.atomic(), tenant_context(tenant_id):
        invoice = Invoice.objects.select_for_update().filter(pk=invoice_id).first()
        if invoice is None:
            raise InvoiceNotFound()
        config = PeppolSettings.objects.first()
        if config is None:
            raise PeppolNotConfigured()
        if not config.enabled:
            raise PeppolDisabled()
        document = ubl.invoice_ubl(invoice)
        receiver = peppol.participant_id(invoice.buyer_vat_number)
        if not receiver:
            raise PeppolNoReceiver()
        busy = EInvoiceDelivery.objects.filter(
            invoice=invoice,
            channel=EInvoiceDelivery.Channel.PEPPOL,
            status__in=[EInvoiceDelivery.Status.SENDING, EInvoiceDelivery.Status.SENT],
        )
        if busy.exists():
            raise PeppolAlreadySent()
        delivery = EInvoiceDelivery.objects.create(
            invoice=invoice,
            channel=EInvoiceDelivery.Channel.PEPPOL,
            status=EInvoiceDelivery.Status.SENDING,
            formats=["ubl"],
            recipient=receiver,
            requested_by=user,
        )
        call = {
            "endpoint_url": config.endpoint_url,
            "api_key": _peppol_key(config),
            "sender": config.sender_id,
            "receiver": receiver,
            "document": document,
            "document_number": invoice.number,
            "credit_note": invoice.kind == Invoice.Kind.CREDIT_NOTE,
            "timeout": float(config.timeout),
        }
    with entered_tenant(tenant_id):  # the outbound rate counts per company; no transaction is open
        outcome = peppol.send_document(**call)
    with transaction.atomic(), tenant_context(tenant_id):
        delivery = EInvoiceDelivery.objects.select_for_update().get(pk=delivery.pk)
        delivery.finished_at = timezone.now()
        if outcome.ok:
            delivery.status = EInvoiceDelivery.Status.SENT
            delivery.message_id = outcome.message_id
        else:
            delivery.status = EInvoiceDelivery.Status.FAILED
            delivery.error = outcome.error
            delivery.error_message = peppol.error_message(outcome.error, outcome.status)[:500]
        delivery.save(update_fields=["status", "message_id", "error", "error_message", "finished_at"])
    if not outcome.ok:
        raise PeppolDeliveryFailed(
            delivery.error_message, data={"delivery": delivery.pk, "reason": delivery.error}
        )
    return delivery


def _einvoice_mail_text(invoice: Invoice, formats: list[str]) -> tuple[str, str]:
    from django.utils import translation
    from django.utils.translation import gettext

    from apps.tenancy.models import Tenant

    tenant = Tenant.objects.get(pk=invoice.tenant_id)
    company = invoice.seller_name or tenant.legal_name or tenant.name
    names = {"ubl": "UBL (Peppol BIS 3.0)", "facturx": "Factur-X", "pdf": "PDF"}
    with translation.override("zh-hans" if invoice.language == "zh" else "en"):
        kind = gettext("Credit note") if invoice.kind == Invoice.Kind.CREDIT_NOTE else gettext("Invoice")
        values = {
            "kind": kind,
            "number": invoice.number,
            "company": company,
            "date": invoice.issue_date.isoformat() if invoice.issue_date else "",
            "amount": f"{invoice.total_gross:.2f}",
            "currency": invoice.currency,
            "files": ", ".join(names[f] for f in formats),
        }
        subject = gettext("%(kind)s %(number)s from %(company)s") % values
        body = (
            gettext(
                "Hello,\n\nattached is %(kind)s %(number)s of %(date)s over %(amount)s %(currency)s "
                "(%(files)s).\n\nKind regards,\n%(company)s"
            )
            % values
        )
    return subject, body


def einvoice_email_send(
    *, invoice: Invoice, formats: list[str], recipients: list[str] | None = None, user=None
) -> EInvoiceDelivery:
    """E-mails a posted invoice's e-invoice files (UBL, Factur-X, the PDF) to the given addresses, else
    to the customer's invoice contacts, else its e-mail address, through the e-mail machinery (queued
    after commit, delivered, logged and retried as every message is). Every file is checked before
    anything is queued: a draft or a broken document is refused as its download is."""
    from apps.notifications import events as registry
    from apps.notifications.emit import compose
    from apps.salesorders import einvoice

    if invoice.status != Invoice.Status.POSTED:
        raise UblNotPosted()
    chosen = [f for f in einvoice.FORMATS if f in set(formats)]
    files = [einvoice.file(invoice, f) for f in chosen]
    language = invoice.language if invoice.language in ("en", "zh") else "en"
    if recipients:
        people = [registry.Recipient(address, "", language) for address in dict.fromkeys(recipients)]
    else:
        people = registry.customer_contacts(invoice.customer, "invoice", language)
    if not people:
        raise EInvoiceNoRecipient()
    subject, body = _einvoice_mail_text(invoice, chosen)
    messages = compose(
        event_name="invoice.sent",
        record=invoice,
        recipients=people,
        subject=subject,
        body_text=body,
        attachments=[registry.Attachment(name, content, kind) for name, content, kind in files],
        user=user,
    )
    return EInvoiceDelivery.objects.create(
        invoice=invoice,
        channel=EInvoiceDelivery.Channel.EMAIL,
        status=EInvoiceDelivery.Status.QUEUED,
        formats=chosen,
        recipient=", ".join(m.to[0] for m in messages)[:500],
        email_message=messages[0] if messages else None,
        requested_by=user,
        finished_at=timezone.now(),
    )
