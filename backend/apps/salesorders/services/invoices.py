"""Invoices built from shipped lines, their posting (gapless numbers), credit notes and payments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common import payment, tax
from apps.notifications.emit import emit
from apps.numbering import services as numbering
from apps.salesorders.errors import (
    InvalidAmount,
    InvalidQuantity,
    InvoiceAlreadyPosted,
    InvoiceChanged,
    InvoiceNotPosted,
    InvoicePosted,
    LineNotFound,
    NothingToInvoice,
    OrderCancelled,
    OverCredit,
    OverInvoice,
    OverPayment,
    PaymentInFuture,
    ShipmentNotShipped,
    ShipmentsOfSeveralOrders,
)
from apps.salesorders.models import (
    Invoice,
    InvoiceLine,
    InvoicePayment,
    SalesOrder,
    SalesOrderLine,
    Shipment,
    ShipmentLine,
)
from apps.salesorders.services._common import ZERO, Status, _lock_order, _refreshed, _totals, line_amounts
from apps.salesorders.services.orders import order_refresh, order_vat_treatment
from apps.tenancy.models import Tenant

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
    from apps.common.signals import invoice_posted

    # to the accounting system, after the commit (docs/accounting.md): accounting listens and queues it
    invoice_posted.send(sender=type(invoice), invoice=invoice)
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
def invoice_payment_record(
    *,
    invoice: Invoice,
    amount: Decimal,
    received_on: date | None = None,
    reference: str = "",
    user=None,
) -> InvoicePayment:
    """Records a payment received against a posted invoice (the open amount is gross minus paid minus
    posted credit notes): the payment row and the invoice's paid total, under the invoice's row lock."""
    invoice = _lock_invoice(invoice)
    if invoice.status != Invoice.Status.POSTED or invoice.kind != Invoice.Kind.INVOICE:
        raise InvoiceNotPosted()
    if amount <= 0:
        raise InvalidAmount()
    if amount > invoice_open_amount(invoice):
        raise OverPayment()
    today = timezone.localdate()
    received_on = received_on or today
    if received_on > today:
        raise PaymentInFuture()
    return _add_payment(
        invoice,
        amount=amount,
        received_on=received_on,
        reference=reference.strip(),
        source=InvoicePayment.Source.MANUAL,
        user=user,
    )


def invoice_paid_from_accounting(
    *, invoice: Invoice, paid: Decimal, reference: str = ""
) -> InvoicePayment | None:
    """What the accounting system says was paid in all, as one payment of the difference from what the
    invoice had (negative when a payment was reversed there); None when nothing changed. The caller holds
    the invoice's row lock (apps/accounting/outbox.py reads the system's open amount under it)."""
    difference = paid - invoice.amount_paid
    if difference == 0:
        return None
    return _add_payment(
        invoice,
        amount=difference,
        received_on=timezone.localdate(),
        reference=reference,
        source=InvoicePayment.Source.ACCOUNTING,
        user=None,
    )


def _add_payment(invoice: Invoice, *, amount, received_on, reference, source, user) -> InvoicePayment:
    payment_row = InvoicePayment.objects.create(
        invoice=invoice,
        amount=amount,
        received_on=received_on,
        reference=reference,
        source=source,
        created_by=user,
    )
    invoice.amount_paid += amount
    invoice.save(update_fields=["amount_paid", "updated_at"])
    return payment_row


def invoice_open_amount(invoice: Invoice) -> Decimal:
    credited = (
        Invoice.objects.filter(credited_invoice=invoice, status=Invoice.Status.POSTED).aggregate(
            s=Sum("total_gross")
        )["s"]
        or ZERO
    )
    return max(invoice.total_gross - credited - invoice.amount_paid, ZERO)
