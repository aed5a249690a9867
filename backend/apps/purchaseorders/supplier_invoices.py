"""Supplier invoices read from e-invoices, and their 3-way match (docs/purchasing.md, "Supplier invoices").

- `supplier_invoice_import` reads the file (apps/purchaseorders/einvoice_in.py), finds the supplier (by
  the seller's name: a supplier's name, else its parent vendor's name, case-insensitive; else the
  purchase order's supplier) and the purchase order (the buyer's order reference BT-13 = the order
  number), matches each line to an order line (the order line reference BT-132 = the line number, else
  the seller's article number = the line's product number or article number, else the description), and
  stores a draft with the original file and what the file breaks (`einvoice_findings`: the XSD of its
  syntax and the EN 16931 rules; kept and shown, never a refusal). The same invoice number of the same
  supplier again: 409.
- `supplier_invoice_match` compares, per order line, ordered, received (the receipt lines) and invoiced
  (this and every other not rejected supplier invoice of that line, credit notes counted negative), and
  the invoiced net price with the order's unit cost (`PRICE_TOLERANCE`).
- Approving while the match is not `matched` needs a reason, which is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Case, DecimalField, F, Sum, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.purchaseorders import einvoice_in
from apps.purchaseorders.errors import (
    EInvoiceInvalid,
    SupplierInvoiceDuplicate,
    SupplierInvoiceMismatch,
    SupplierInvoiceNotDraft,
)
from apps.purchaseorders.models import (
    MatchStatus,
    PurchaseOrder,
    PurchaseOrderLine,
    ReceiptLine,
    SupplierInvoice,
    SupplierInvoiceLine,
)
from apps.suppliers.models import Supplier

# An invoiced net price within this much of the order's unit cost (either way, in the order's currency)
# is the same price: the e-invoice rounds prices the order may hold to four decimals.
PRICE_TOLERANCE = Decimal("0.01")

# the order of badness: the invoice's match is its worst line's
MATCH_PRIORITY = [
    MatchStatus.UNMATCHED,
    MatchStatus.NOT_RECEIVED,
    MatchStatus.QUANTITY_MISMATCH,
    MatchStatus.PRICE_MISMATCH,
    MatchStatus.MATCHED,
]

QTY = Decimal("0.001")
PRICE = Decimal("0.0001")
CENT = Decimal("0.01")


@dataclass
class LineMatch:
    line: SupplierInvoiceLine
    ordered: Decimal | None
    received: Decimal | None
    invoiced: Decimal | None
    order_price: Decimal | None
    price_difference: Decimal | None
    status: str


@dataclass
class InvoiceMatch:
    status: str
    lines: list[LineMatch]


# ------------------------------------------------------------------------------------------- the match


def _invoiced_by_line(order_line_ids: list[int]) -> dict[int, Decimal]:
    """Per order line, the quantity invoiced by every not rejected supplier invoice (credit notes
    negative)."""
    signed = Case(
        When(invoice__kind=SupplierInvoice.Kind.CREDIT_NOTE, then=-F("quantity")),
        default=F("quantity"),
        output_field=DecimalField(max_digits=18, decimal_places=3),
    )
    rows = (
        SupplierInvoiceLine.objects.filter(order_line_id__in=order_line_ids)
        .exclude(invoice__status=SupplierInvoice.Status.REJECTED)
        .values("order_line_id")
        .annotate(total=Sum(signed))
    )
    return {row["order_line_id"]: row["total"] or Decimal("0") for row in rows}


def _received_by_line(order_line_ids: list[int]) -> dict[int, Decimal]:
    rows = (
        ReceiptLine.objects.filter(order_line_id__in=order_line_ids)
        .values("order_line_id")
        .annotate(total=Sum("quantity"))
    )
    return {row["order_line_id"]: row["total"] or Decimal("0") for row in rows}


def supplier_invoice_match(invoice: SupplierInvoice) -> InvoiceMatch:
    """The 3-way match of the invoice's lines against its order (read only: nothing is stored)."""
    lines = list(invoice.lines.select_related("order_line").order_by("id"))
    ids = sorted({line.order_line_id for line in lines if line.order_line_id is not None})
    invoiced = _invoiced_by_line(ids)
    if invoice.status == SupplierInvoice.Status.REJECTED:  # a rejected invoice is still shown with its own
        for line in lines:
            if line.order_line_id is not None:
                sign = -1 if invoice.kind == SupplierInvoice.Kind.CREDIT_NOTE else 1
                invoiced[line.order_line_id] = (
                    invoiced.get(line.order_line_id, Decimal("0")) + sign * line.quantity
                )
    received = _received_by_line(ids)
    order_currency = ""
    if invoice.purchase_order_id is not None:
        order_currency = (
            PurchaseOrder.objects.filter(pk=invoice.purchase_order_id)
            .values_list("currency", flat=True)
            .first()
            or ""
        )
    results = []
    for line in lines:
        order_line = line.order_line
        if order_line is None:
            results.append(LineMatch(line, None, None, None, None, None, MatchStatus.UNMATCHED))
            continue
        ordered = order_line.order_qty
        got = received.get(order_line.pk, Decimal("0"))
        billed = invoiced.get(order_line.pk, Decimal("0"))
        difference = (line.net_price - order_line.unit_cost).quantize(PRICE)
        if got <= 0 and billed > 0:
            status = MatchStatus.NOT_RECEIVED
        elif billed > got or got > ordered:
            status = MatchStatus.QUANTITY_MISMATCH
        elif abs(difference) > PRICE_TOLERANCE or (order_currency and order_currency != invoice.currency):
            status = MatchStatus.PRICE_MISMATCH
        else:
            status = MatchStatus.MATCHED
        results.append(LineMatch(line, ordered, got, billed, order_line.unit_cost, difference, status))
    if invoice.purchase_order_id is None or not results:
        overall = MatchStatus.UNMATCHED
    else:
        overall = min((r.status for r in results), key=MATCH_PRIORITY.index)
    return InvoiceMatch(status=overall, lines=results)


def supplier_invoices_refresh(*, purchase_order_id: int | None) -> None:
    """Stores the match of the order's draft supplier invoices again (after a receipt, or when another
    invoice of the order came, went or was rejected: the figures they are matched with changed)."""
    if purchase_order_id is None:
        return
    for invoice in SupplierInvoice.objects.filter(
        purchase_order_id=purchase_order_id, status=SupplierInvoice.Status.DRAFT
    ):
        status = supplier_invoice_match(invoice).status
        if status != invoice.match_status:
            SupplierInvoice.objects.filter(pk=invoice.pk).update(match_status=status)


# ------------------------------------------------------------------------------------------ the import


def _find_supplier(parsed: einvoice_in.ParsedInvoice) -> Supplier | None:
    name = parsed.seller_name.strip()
    by_name = Supplier.objects.filter(name__iexact=name).order_by("pk")
    if by_name.count() == 1:
        return by_name.first()
    by_vendor = Supplier.objects.filter(parent_vendor__name__iexact=name).order_by("pk")
    if by_vendor.count() == 1:
        return by_vendor.first()
    return None


def _find_order(parsed: einvoice_in.ParsedInvoice, supplier: Supplier | None) -> PurchaseOrder | None:
    for reference in (parsed.order_reference, parsed.buyer_reference):
        if not reference:
            continue
        order = (
            PurchaseOrder.objects.select_related("supplier").filter(order_number__iexact=reference).first()
        )
        if order is None:
            continue
        if supplier is not None and order.supplier.parent_vendor_id != supplier.parent_vendor_id:
            return None  # another vendor's order: never matched to this seller's invoice
        return order
    return None


def _find_order_line(
    parsed: einvoice_in.ParsedLine, order_lines: list[PurchaseOrderLine]
) -> PurchaseOrderLine | None:
    reference = parsed.order_line_reference.strip()
    if reference and re.fullmatch(r"\d{1,9}", reference):
        for line in order_lines:
            if line.line_number == int(reference):
                return line
    item = parsed.seller_item_id.strip().casefold()
    if item:
        for line in order_lines:
            if item in (line.product_number.casefold(), line.product.article_number.casefold()):
                return line
    description = parsed.description.strip().casefold()
    if description:
        for line in order_lines:
            if description in (
                line.line_description.strip().casefold(),
                line.product.name.strip().casefold(),
                line.product_number.casefold(),
            ):
                return line
    return None


def _read(file) -> bytes:
    size = getattr(file, "size", None)
    if size is not None and size > einvoice_in.MAX_FILE_SIZE:
        raise EInvoiceInvalid(
            _("The file is larger than %(size)s MB.") % {"size": einvoice_in.MAX_FILE_SIZE // (1024 * 1024)}
        )
    content = file.read(einvoice_in.MAX_FILE_SIZE + 1)
    return content if isinstance(content, bytes) else content.encode()


def _duplicate(supplier: Supplier | None, parsed: einvoice_in.ParsedInvoice) -> bool:
    invoices = SupplierInvoice.objects.filter(invoice_number=parsed.number)
    if supplier is not None:
        return invoices.filter(supplier=supplier).exists()
    return invoices.filter(supplier__isnull=True, seller_name=parsed.seller_name).exists()


@transaction.atomic
def supplier_invoice_import(*, tenant, file, user) -> SupplierInvoice:
    """A draft supplier invoice from an uploaded e-invoice (XML or Factur-X PDF), matched to its supplier,
    order and order lines; `EInvoiceInvalid` for a file that is not one, `SupplierInvoiceDuplicate` for
    an invoice number the supplier already sent."""
    content = _read(file)
    parsed, root = einvoice_in.parse(content)
    # a reading, not a refusal: what the file breaks is kept and shown, the invoice is still read
    findings = einvoice_in.findings(root)
    supplier = _find_supplier(parsed)
    order = _find_order(parsed, supplier)
    if supplier is None and order is not None:
        supplier = order.supplier
    if _duplicate(supplier, parsed):
        raise SupplierInvoiceDuplicate(
            _("Invoice %(number)s of %(seller)s was already uploaded.")
            % {"number": parsed.number, "seller": supplier.name if supplier else parsed.seller_name}
        )
    filename = (getattr(file, "name", "") or "").rsplit("/", 1)[-1][:255] or f"{parsed.number}.xml"
    invoice = SupplierInvoice(
        tenant=tenant,
        supplier=supplier,
        purchase_order=order,
        invoice_number=parsed.number,
        kind=SupplierInvoice.Kind.CREDIT_NOTE if parsed.is_credit_note else SupplierInvoice.Kind.INVOICE,
        issue_date=parsed.issue_date,
        due_date=parsed.due_date,
        currency=parsed.currency,
        total_net=parsed.total_net.quantize(CENT, rounding=ROUND_HALF_UP),
        total_vat=parsed.total_vat.quantize(CENT, rounding=ROUND_HALF_UP),
        total_gross=parsed.total_gross.quantize(CENT, rounding=ROUND_HALF_UP),
        seller_name=parsed.seller_name,
        seller_vat_id=parsed.seller_vat_id,
        order_reference=parsed.order_reference,
        syntax=parsed.syntax,
        original_filename=filename,
        einvoice_findings=findings,
        created_by=user,
    )
    suffix = ".pdf" if parsed.syntax == einvoice_in.SYNTAX_FACTURX_PDF else ".xml"
    invoice.original_file.save(f"invoice{suffix}", ContentFile(content), save=False)
    try:
        with transaction.atomic():
            invoice.save()
    except IntegrityError:  # the same invoice uploaded at the same moment
        invoice.original_file.delete(save=False)
        raise SupplierInvoiceDuplicate() from None
    order_lines = (
        list(PurchaseOrderLine.objects.filter(order=order).select_related("product").order_by("line_number"))
        if order is not None
        else []
    )
    SupplierInvoiceLine.objects.bulk_create(
        [
            SupplierInvoiceLine(
                tenant_id=invoice.tenant_id,
                invoice=invoice,
                line_id=line.line_id,
                description=line.description,
                seller_item_id=line.seller_item_id,
                order_line_reference=line.order_line_reference,
                quantity=line.quantity.quantize(QTY, rounding=ROUND_HALF_UP),
                unit_code=line.unit_code,
                net_price=line.net_price.quantize(PRICE, rounding=ROUND_HALF_UP),
                line_net=line.line_net.quantize(CENT, rounding=ROUND_HALF_UP),
                vat_category=line.vat_category,
                vat_rate=line.vat_rate.quantize(CENT)
                if line.vat_rate is not None and abs(line.vat_rate) < 1000
                else None,
                order_line=_find_order_line(line, order_lines),
            )
            for line in parsed.lines
        ]
    )
    invoice.match_status = supplier_invoice_match(invoice).status
    invoice.save(update_fields=["match_status"])
    supplier_invoices_refresh(purchase_order_id=invoice.purchase_order_id)
    return invoice


# ---------------------------------------------------------------------------------------- the decisions


def _lock_draft(invoice: SupplierInvoice) -> SupplierInvoice:
    locked = SupplierInvoice.objects.select_for_update(of=("self",)).get(pk=invoice.pk)
    if locked.status != SupplierInvoice.Status.DRAFT:
        raise SupplierInvoiceNotDraft()
    return locked


@transaction.atomic
def supplier_invoice_approve(*, invoice: SupplierInvoice, user, reason: str = "") -> SupplierInvoice:
    """draft -> approved. While the 3-way match is not `matched`, only with a reason (kept)."""
    invoice = _lock_draft(invoice)
    match = supplier_invoice_match(invoice)
    reason = (reason or "").strip()
    if match.status != MatchStatus.MATCHED and not reason:
        raise SupplierInvoiceMismatch(data={"match_status": match.status})
    invoice.status = SupplierInvoice.Status.APPROVED
    invoice.match_status = match.status
    invoice.decision_reason = reason[:500]
    invoice.decided_by = user
    invoice.decided_at = timezone.now()
    invoice.save(update_fields=["status", "match_status", "decision_reason", "decided_by", "decided_at"])
    return invoice


@transaction.atomic
def supplier_invoice_reject(*, invoice: SupplierInvoice, user, reason: str = "") -> SupplierInvoice:
    """draft -> rejected: its quantities no longer count as invoiced."""
    invoice = _lock_draft(invoice)
    invoice.status = SupplierInvoice.Status.REJECTED
    invoice.decision_reason = (reason or "").strip()[:500]
    invoice.decided_by = user
    invoice.decided_at = timezone.now()
    invoice.save(update_fields=["status", "decision_reason", "decided_by", "decided_at"])
    supplier_invoices_refresh(purchase_order_id=invoice.purchase_order_id)
    return invoice


@transaction.atomic
def supplier_invoice_delete(*, invoice: SupplierInvoice) -> None:
    """Deletes a draft and its stored file (once the transaction commits)."""
    invoice = _lock_draft(invoice)
    order_id = invoice.purchase_order_id
    file = invoice.original_file
    invoice.delete()
    supplier_invoices_refresh(purchase_order_id=order_id)
    if file.name:
        storage, name = file.storage, file.name
        transaction.on_commit(lambda: storage.delete(name))


__all__ = [
    "PRICE_TOLERANCE",
    "InvoiceMatch",
    "LineMatch",
    "supplier_invoice_approve",
    "supplier_invoice_delete",
    "supplier_invoice_import",
    "supplier_invoice_match",
    "supplier_invoice_reject",
    "supplier_invoices_refresh",
]
