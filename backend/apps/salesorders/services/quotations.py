"""Sales quotations: the offer before the order (docs/sales.md, "Quotations").

draft -> sent -> accepted / declined; a draft or sent quotation may be cancelled; `expired` is derived from
`valid_until` and never stored. Lines are computed as order lines are (`line_amounts`, `_totals`), and
accepting makes the sales order through `sales_order_create`, so every rule of an order applies to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.common.dates import day_text
from apps.customers.models import Customer
from apps.numbering import services as numbering
from apps.products.models import Product
from apps.salesorders.errors import (
    IllegalQuotationAction,
    LineNotFound,
    QuotationAlreadyAccepted,
    QuotationExpired,
    QuotationLinesRequired,
    QuotationNotDeletable,
    QuotationReadOnly,
)
from apps.salesorders.models import SalesOrder, SalesQuotation, SalesQuotationLine
from apps.salesorders.services._common import ZERO, _refreshed, _totals, line_amounts
from apps.salesorders.services.orders import (
    LineInput,
    _customer_defaults,
    customer_vat_treatment,
    sales_order_create,
)

QStatus = SalesQuotation.Status
EDITABLE = (QStatus.DRAFT, QStatus.SENT)
# the header fields a quotation takes from its customer unless given (as an order does)
CUSTOMER_DEFAULTS = ("currency", "payment_terms_days", "language")


@dataclass
class QuotationLineInput:
    product: Product
    quantity: Decimal
    unit_price: Decimal
    discount_percent: Decimal = ZERO
    # None: the rate of the VAT determination for the customer, or the line's own when it exists
    vat_rate: Decimal | None = None
    description: str | None = None
    id: int | None = None


def quotation_status(quotation: SalesQuotation, today: date | None = None) -> str:
    """The status to show: the stored one, except that a draft or sent quotation past its `valid_until`
    is `expired`."""
    today = today or timezone.localdate()
    if quotation.status in EDITABLE and quotation.valid_until < today:
        return QStatus.EXPIRED
    return quotation.status


def quotation_allowed_actions(quotation: SalesQuotation, today: date | None = None) -> list[str]:
    """The actions the quotation's status allows (buttons on the quotation page)."""
    shown = quotation_status(quotation, today)
    actions: list[str] = []
    if quotation.status in EDITABLE:
        actions.append("edit")
    if quotation.status == QStatus.DRAFT:
        actions.append("send")
    if shown == QStatus.SENT or (shown == QStatus.DRAFT and quotation.status == QStatus.DRAFT):
        actions.append("accept")
    if quotation.status in EDITABLE:
        actions += ["decline", "cancel"]
    if quotation.status == QStatus.DRAFT:
        actions.append("delete")
    return actions


def _lock(quotation: SalesQuotation) -> SalesQuotation:
    return SalesQuotation.objects.select_for_update(of=("self",)).get(pk=quotation.pk)


def _number_taken(number: str) -> bool:
    return SalesQuotation.objects.filter(quotation_number=number).exists()


def _save_lines(*, quotation: SalesQuotation, lines: list[QuotationLineInput]) -> None:
    """Replaces the lines: those with `id` are kept (and changed), others added, missing ones removed."""
    if not lines:
        raise QuotationLinesRequired()
    existing = {line.pk: line for line in SalesQuotationLine.objects.filter(quotation=quotation)}
    proposal: Decimal | None = None
    seen: set[int] = set()
    next_number = max((line.line_number for line in existing.values()), default=0) + 1
    for data in lines:
        if data.id is not None:
            found = existing.get(data.id)
            if found is None:
                raise LineNotFound()
            seen.add(found.pk)
            line = found
        else:
            line = SalesQuotationLine(quotation=quotation, line_number=next_number)
            next_number += 1
        if data.vat_rate is None:
            if line.pk is not None:
                data.vat_rate = line.vat_rate
            else:
                if proposal is None:
                    proposal = customer_vat_treatment(customer=quotation.customer).rate or ZERO
                data.vat_rate = proposal
        if line.product_id is not None and line.product_id != data.product.pk and data.description is None:
            line.description = ""  # the old product's text does not describe the new one
        line.product = data.product
        line.quantity = data.quantity
        line.unit_price = data.unit_price
        line.discount_percent = data.discount_percent or ZERO
        line.vat_rate = data.vat_rate or ZERO
        line.description = (
            data.description if data.description is not None else (line.description or data.product.name)
        )
        line.amount_net, line.amount_vat = line_amounts(
            quantity=line.quantity,
            unit_price=line.unit_price,
            discount_percent=line.discount_percent,
            vat_rate=line.vat_rate,
        )
        line.save()
    removed = [pk for pk in existing if pk not in seen]
    if removed:
        SalesQuotationLine.objects.filter(quotation=quotation, pk__in=removed).delete()
    totals = _totals(list(SalesQuotationLine.objects.filter(quotation=quotation)))
    quotation.total_net, quotation.total_vat, quotation.total_gross = totals
    quotation.save(update_fields=["total_net", "total_vat", "total_gross", "updated_at"])


@transaction.atomic
def quotation_create(
    *,
    customer: Customer,
    quotation_date: date,
    valid_until: date,
    lines: list[QuotationLineInput],
    user=None,
    **fields: Any,
) -> SalesQuotation:
    """A draft quotation numbered from the `sales_quotation` series (Q-<year>-<00001>). Currency, terms and
    language default to the customer's, as an order's do; the owner to its creator."""
    if not lines:
        raise QuotationLinesRequired()
    number = numbering.number_next(
        numbering.SALES_QUOTATION, year=quotation_date.year, taken=_number_taken
    ).text
    defaults = _customer_defaults(customer)
    values = {name: defaults[name] for name in CUSTOMER_DEFAULTS}
    values.update({key: value for key, value in fields.items() if value is not None})
    values.setdefault("owner", user)
    quotation = SalesQuotation.objects.create(
        quotation_number=number,
        customer=customer,
        quotation_date=quotation_date,
        valid_until=valid_until,
        created_by=user,
        **values,
    )
    _save_lines(quotation=quotation, lines=lines)
    return quotation


@transaction.atomic
def quotation_update(
    *, quotation: SalesQuotation, fields: dict[str, Any], lines: list[QuotationLineInput] | None
) -> SalesQuotation:
    """Changes a draft or sent quotation (header, and the complete lines when given). Accepted, declined
    and cancelled ones are read-only; an expired one may be changed (e.g. its validity extended)."""
    given = quotation
    quotation = _lock(quotation)
    if quotation.status not in EDITABLE:
        raise QuotationReadOnly()
    if "customer" in fields and fields["customer"].pk != quotation.customer_id:
        defaults = _customer_defaults(fields["customer"])
        for name in CUSTOMER_DEFAULTS:
            fields.setdefault(name, defaults[name])
    for name, value in fields.items():
        setattr(quotation, name, value)
    quotation.save()
    if lines is not None:
        _save_lines(quotation=quotation, lines=lines)
    return _refreshed(given, quotation)


@transaction.atomic
def quotation_delete(*, quotation: SalesQuotation) -> None:
    quotation = _lock(quotation)
    if quotation.status != QStatus.DRAFT:
        raise QuotationNotDeletable()
    SalesQuotationLine.objects.filter(quotation=quotation).delete()
    quotation.delete()


def _set_status(quotation: SalesQuotation, status: str, stamp: str) -> SalesQuotation:
    quotation.status = status
    setattr(quotation, stamp, timezone.now())
    quotation.save(update_fields=["status", stamp, "updated_at"])
    return quotation


@transaction.atomic
def quotation_send(*, quotation: SalesQuotation) -> SalesQuotation:
    """draft -> sent (the quotation went to the customer; the PDF is what it received)."""
    given = quotation
    quotation = _lock(quotation)
    if quotation.status != QStatus.DRAFT:
        raise IllegalQuotationAction()
    return _refreshed(given, _set_status(quotation, QStatus.SENT, "sent_at"))


@transaction.atomic
def quotation_decline(*, quotation: SalesQuotation) -> SalesQuotation:
    """draft/sent (also expired) -> declined: the customer said no."""
    given = quotation
    quotation = _lock(quotation)
    if quotation.status not in EDITABLE:
        raise IllegalQuotationAction()
    return _refreshed(given, _set_status(quotation, QStatus.DECLINED, "declined_at"))


@transaction.atomic
def quotation_cancel(*, quotation: SalesQuotation) -> SalesQuotation:
    """draft/sent (also expired) -> cancelled: withdrawn by the company."""
    given = quotation
    quotation = _lock(quotation)
    if quotation.status not in EDITABLE:
        raise IllegalQuotationAction()
    return _refreshed(given, _set_status(quotation, QStatus.CANCELLED, "cancelled_at"))


@transaction.atomic
def quotation_accept(*, quotation: SalesQuotation, user=None, order_date: date | None = None) -> SalesOrder:
    """The customer accepted: makes a draft sales order with the quotation's lines through
    `sales_order_create` (its numbering, customer defaults and rules), links it and sets `accepted`, in
    one transaction.

    Exactly once: the quotation row is locked (SELECT ... FOR UPDATE) before its status is read, so a
    second accept waits for the first and then finds it accepted (409 `quotation_already_accepted`,
    naming the order); the one-to-one key on `sales_order` backs this up. An expired quotation is refused
    (409 `quotation_expired`) until its validity is extended."""
    quotation = _lock(quotation)
    if quotation.status == QStatus.ACCEPTED:
        order_number = quotation.sales_order.order_number if quotation.sales_order else "-"
        raise QuotationAlreadyAccepted(QuotationAlreadyAccepted.default_message % {"order": order_number})
    if quotation.status not in EDITABLE:
        raise IllegalQuotationAction()
    today = timezone.localdate()
    if quotation_status(quotation, today) == QStatus.EXPIRED:
        raise QuotationExpired(QuotationExpired.default_message % {"date": day_text(quotation.valid_until)})
    lines = list(SalesQuotationLine.objects.filter(quotation=quotation).select_related("product"))
    order = sales_order_create(
        customer=quotation.customer,
        order_date=order_date or today,
        lines=[
            LineInput(
                product=line.product,
                quantity=line.quantity,
                unit_price=line.unit_price,
                discount_percent=line.discount_percent,
                vat_rate=line.vat_rate,
                description=line.description,
            )
            for line in lines
        ],
        user=user,
        customer_reference=quotation.customer_reference,
        currency=quotation.currency,
        payment_terms_days=quotation.payment_terms_days,
        language=quotation.language,
        owner=quotation.owner,
    )
    quotation.sales_order = order
    quotation.status = QStatus.ACCEPTED
    quotation.accepted_at = timezone.now()
    quotation.save(update_fields=["sales_order", "status", "accepted_at", "updated_at"])
    return order
