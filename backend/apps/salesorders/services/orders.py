"""Sales orders: the derived order status, the lines and their VAT, confirm/cancel/close (docs/sales.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common import tax
from apps.customers.models import Customer
from apps.inventory import services as inventory
from apps.notifications.emit import emit
from apps.numbering import services as numbering
from apps.products.models import Product
from apps.salesorders.errors import (
    DuplicateNumber,
    LineNotFound,
    LineShippedReadOnly,
    LinesRequired,
    OrderChanged,
    OrderHasOpenShipments,
    OrderNotCancellable,
    OrderNotClosable,
    OrderNotConfirmable,
    OrderNotDeletable,
    OrderReadOnly,
)
from apps.salesorders.models import (
    Language,
    SalesOrder,
    SalesOrderLine,
    Shipment,
)
from apps.salesorders.services._common import (
    ZERO,
    Status,
    _lock_order,
    _order_warehouse,
    _refreshed,
    _totals,
    line_amounts,
)
from apps.tenancy.models import Tenant

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
