"""Invoice, credit note, delivery note and quotation PDFs (reportlab, A4), in the document's language (en or zh).

The font is the one every company document embeds (apps/common/document_pdf.py): Noto Sans SC, for Latin
and Chinese text alike.

The invoice carries what Article 226 of Directive 2006/112/EC asks: issue date, sequential number,
seller's and buyer's VAT numbers, names and addresses, quantity and nature of the goods, the date of
supply where it differs from the issue date, the taxable amount per VAT rate, the unit price net of tax,
discounts, the VAT rate and amount, and "Reverse charge" where it applies; plus the company's operator
data (EORI) and the reference numbers of the due diligence statements of the cartons' raw materials.
"""

from __future__ import annotations

import io

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from apps.common import payment, tax
from apps.common.dates import day_text
from apps.common.document_pdf import (
    WIDTH,
    _django_language,
    _doc,
    _facts_grid,
    _footer,
    _grid,
    _num,
    _qty,
    _Styles,
)
from apps.common.document_pdf import CompanyDetails as _CompanyDetails
from apps.salesorders import selectors
from apps.salesorders.models import Invoice, SalesQuotation, Shipment
from apps.tenancy.models import Tenant


def _dds_block(s: _Styles, shipment_ids) -> list:
    refs = selectors.dds_references(shipment_ids)
    story = [
        Spacer(1, 4 * mm),
        s.p(_("EUDR due diligence statements (Regulation (EU) 2023/1115, Article 4(7))"), "h2"),
    ]
    if not refs:
        story.append(s.p(_("No carton on this document refers to a due diligence statement.")))
        return story
    rows = [
        [
            s.p(_("Statement")),
            s.p(_("DDS reference number")),
            s.p(_("Verification number")),
            s.p(_("Cartons")),
        ]
    ]
    whose = {
        "own": _("Our statement"),
        "pending": _("Our statement, filed: its numbers are not given yet"),
        "upstream": _("Upstream statement (another operator)"),
        "none": _("Not covered by a statement of ours yet (shipped as the company's settings allow)"),
    }
    for ref in refs:
        rows.append(
            [
                s.p(str(whose[ref["kind"]])),
                s.p(ref["reference"] or "-"),
                s.p(ref["verification"] or "-"),
                s.p(", ".join(ref["codes"])),
            ]
        )
    story.append(_grid(rows, [WIDTH * 0.26, WIDTH * 0.2, WIDTH * 0.18, WIDTH * 0.36]))
    return story


class CompanyDetails(_CompanyDetails):
    """Who issues the document (apps/common/document_pdf.py), and what a posted invoice was posted with."""

    @classmethod
    def of_invoice(cls, invoice: Invoice, tenant: Tenant) -> CompanyDetails:
        """A posted invoice prints what it was posted with; a draft what the settings say now."""
        if invoice.status != Invoice.Status.POSTED:
            return cls.of_tenant(tenant)
        return cls(
            name=invoice.seller_name,
            address=invoice.seller_address,
            country=invoice.seller_country,
            vat_number=invoice.seller_vat_number,
            registration_number=invoice.seller_registration_number,
            eori_number=invoice.seller_eori_number,
            iban=invoice.seller_iban,
            bic=invoice.seller_bic,
        )


def invoice_pdf(invoice: Invoice) -> bytes:
    """The invoice or credit note as a PDF, in its language."""
    with translation.override(_django_language(invoice.language)):
        return _invoice_pdf(invoice)


def _invoice_pdf(invoice: Invoice) -> bytes:
    s = _Styles()
    tenant = Tenant.objects.get(pk=invoice.tenant_id)
    customer = invoice.customer
    posted = invoice.status == Invoice.Status.POSTED
    seller = CompanyDetails.of_invoice(invoice, tenant)
    buyer_name = invoice.buyer_name if posted else customer.name
    buyer_address = (
        invoice.buyer_address
        if posted
        else ", ".join(
            p
            for p in [
                customer.billing_street,
                f"{customer.billing_post_code} {customer.billing_city}".strip(),
            ]
            if p
        )
    )
    buyer_country = invoice.buyer_country if posted else customer.billing_country
    buyer_vat = invoice.buyer_vat_number if posted else customer.vat_id
    is_credit = invoice.kind == Invoice.Kind.CREDIT_NOTE
    title = _("Credit note") if is_credit else _("Invoice")
    if not posted:
        title = f"{title} ({_('draft, not valid for tax purposes')})"
    buffer = io.BytesIO()
    doc = _doc(buffer, f"{title} {invoice.number}")
    story = [s.p(title, "title")]

    parties = [
        [s.p(_("Seller")), s.p(_("Buyer"))],
        [
            s.p("\n".join(x for x in [seller.name, seller.address, seller.country] if x)),
            s.p("\n".join(x for x in [buyer_name, buyer_address, buyer_country] if x)),
        ],
        [
            s.p(
                f"{_('VAT number')}: {seller.vat_number or '-'}\n"
                f"{_('Registration number')}: {seller.registration_number or '-'}\n"
                f"{_('EORI number')}: {seller.eori_number or '-'}"
            ),
            s.p(f"{_('VAT number')}: {buyer_vat or '-'}\n{_('Customer number')}: {customer.number}"),
        ],
    ]
    story += [_grid(parties, [WIDTH / 2, WIDTH / 2]), Spacer(1, 4 * mm)]

    facts = [
        (
            _("Credit note number") if is_credit else _("Invoice number"),
            invoice.number or _("(given when posted)"),
        ),
        (_("Issue date"), day_text(invoice.issue_date)),
        (_("Order number"), invoice.sales_order.order_number),
        (_("Customer reference"), invoice.sales_order.customer_reference),
        (_("Currency"), invoice.currency),
    ]
    if invoice.supply_date and invoice.supply_date != invoice.issue_date:
        facts.append((_("Date of supply"), day_text(invoice.supply_date)))
    if invoice.due_date and not is_credit:
        facts.append((_("Due date"), day_text(invoice.due_date)))
    if is_credit and invoice.credited_invoice:
        facts.append((_("Corrects invoice"), invoice.credited_invoice.number))
    story += [
        _facts_grid(s, facts),
        Spacer(1, 4 * mm),
    ]

    lines = list(invoice.lines.select_related("product").order_by("id"))
    rows = [
        [
            s.p(_("Article")),
            s.p(_("Description")),
            s.p(_("Quantity")),
            s.p(_("Unit price (net)")),
            s.p(_("Discount %")),
            s.p(_("VAT %")),
            s.p(_("Net amount")),
            s.p(_("VAT amount")),
        ]
    ]
    for line in lines:
        name = line.description or line.product.name
        if invoice.language == "zh" and line.product.name_zh:
            name = f"{name}\n{line.product.name_zh}"
        rows.append(
            [
                s.p(line.product.article_number),
                s.p(name),
                s.p(_qty(line.quantity)),
                s.p(_num(line.unit_price, 4)),
                s.p(_num(line.discount_percent)),
                s.p(_num(line.vat_rate)),
                s.p(_num(line.amount_net)),
                s.p(_num(line.amount_vat)),
            ]
        )
    # The article number (e.g. CT-DW-6040) and each heading fit their columns on one line.
    widths = [0.14, 0.18, 0.1, 0.12, 0.12, 0.08, 0.13, 0.13]
    story += [_grid(rows, [WIDTH * w for w in widths]), Spacer(1, 4 * mm)]

    from apps.salesorders.selectors import vat_breakdown

    vat_rows = [[s.p(_("VAT rate %")), s.p(_("Taxable amount")), s.p(_("VAT amount"))]]
    for row in vat_breakdown(lines):
        vat_rows.append([s.p(_num(row["vat_rate"])), s.p(_num(row["taxable"])), s.p(_num(row["vat"]))])
    story.append(_grid(vat_rows, [WIDTH * 0.2, WIDTH * 0.2, WIDTH * 0.2]))
    totals = [
        (_("Total net"), _num(invoice.total_net)),
        (_("Total VAT"), _num(invoice.total_vat)),
        (_("Total gross"), f"{_num(invoice.total_gross)} {invoice.currency}"),
    ]
    story += [
        Spacer(1, 2 * mm),
        _grid([[s.p(k), s.p(v)] for k, v in totals], [WIDTH * 0.3, WIDTH * 0.3], header=False),
    ]
    mention = tax.EXEMPTION_REASONS.get(invoice.vat_exemption_code)
    if mention is None and invoice.reverse_charge:
        mention = tax.EXEMPTION_REASONS["VATEX-EU-AE"]
    if mention is not None:
        heading = _("Reverse charge") if invoice.reverse_charge else _("VAT exemption")
        story += [Spacer(1, 3 * mm), s.p(heading, "h2"), s.p(str(mention))]
    if invoice.note:
        story += [Spacer(1, 3 * mm), s.p(invoice.note)]
    if not is_credit:
        story += _payment_block(s, invoice, seller)
    story += _dds_block(s, list(invoice.shipments.values_list("pk", flat=True)))
    footer = _footer(seller)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def _payment_block(s: _Styles, invoice: Invoice, seller: CompanyDetails) -> list:
    """How to pay: the terms, the due date, the account and the structured reference to quote."""
    if invoice.payment_terms_days:
        terms = _("Payment terms: %(days)s days net.") % {"days": invoice.payment_terms_days}
    else:
        terms = _("Payment terms: due on receipt.")
    rows = [
        (_("Payment terms"), terms),
        (_("Amount to pay"), f"{_num(invoice.total_gross)} {invoice.currency}"),
        (_("Account holder"), seller.name if seller.iban else ""),
        ("IBAN", payment.iban_printed(seller.iban)),
        ("BIC", seller.bic),
        (_("Payment reference"), payment.rf_printed(invoice.payment_reference)),
    ]
    story = [
        Spacer(1, 3 * mm),
        s.p(_("Payment"), "h2"),
        _grid([[s.p(k), s.p(v)] for k, v in rows if v], [WIDTH * 0.3, WIDTH * 0.7], header=False),
    ]
    if invoice.payment_reference:
        story.append(s.p(_("Please quote the payment reference with your payment.")))
    return story


def delivery_note_pdf(shipment: Shipment) -> bytes:
    """The delivery note of a shipment in its order's language: lines, cartons per line, DDS references."""
    with translation.override(_django_language(shipment.sales_order.language)):
        return _delivery_note_pdf(shipment)


def _delivery_note_pdf(shipment: Shipment) -> bytes:
    s = _Styles()
    order = shipment.sales_order
    tenant = Tenant.objects.get(pk=shipment.tenant_id)
    shipper = CompanyDetails.of_tenant(tenant)
    buffer = io.BytesIO()
    doc = _doc(buffer, f"{_('Delivery note')} {shipment.shipment_number}")
    story = [s.p(_("Delivery note"), "title")]
    ship_to = "\n".join(
        x
        for x in [
            order.ship_to_name or order.customer.name,
            order.ship_to_street,
            f"{order.ship_to_post_code} {order.ship_to_city}".strip(),
            order.ship_to_country,
        ]
        if x
    )
    parties = [
        [s.p(_("Shipper")), s.p(_("Ship to"))],
        [
            s.p("\n".join(x for x in [shipper.name, shipper.address, shipper.country] if x)),
            s.p(ship_to),
        ],
        [
            s.p(
                f"{_('VAT number')}: {shipper.vat_number or '-'}\n"
                f"{_('Registration number')}: {shipper.registration_number or '-'}"
            ),
            s.p(""),
        ],
    ]
    story += [_grid(parties, [WIDTH / 2, WIDTH / 2]), Spacer(1, 4 * mm)]
    facts = [
        (_("Shipment number"), shipment.shipment_number),
        (_("Order number"), order.order_number),
        (_("Customer reference"), order.customer_reference),
        (_("Shipped at"), day_text(timezone.localtime(shipment.shipped_at)) if shipment.shipped_at else ""),
        (_("Carrier"), shipment.carrier),
        (_("Tracking number"), shipment.tracking_number),
    ]
    story += [
        _facts_grid(s, facts),
        Spacer(1, 4 * mm),
    ]
    cartons = selectors.shipment_cartons_by_line(shipment)
    rows = [[s.p(_("Line")), s.p(_("Article")), s.p(_("Description")), s.p(_("Quantity")), s.p(_("Cartons"))]]
    for line in shipment.lines.select_related("order_line__product").order_by("order_line__line_number"):
        codes = ", ".join(item.carton.code for item in cartons.get(line.pk, []))
        if line.unlabelled_quantity > 0:
            unlabelled = _("%(quantity)s shipped without a carton label (unlabelled stock)") % {
                "quantity": _qty(line.unlabelled_quantity)
            }
            codes = f"{codes}\n{unlabelled}" if codes else unlabelled
        rows.append(
            [
                s.p(str(line.order_line.line_number)),
                s.p(line.order_line.product.article_number),
                s.p(line.order_line.description or line.order_line.product.name),
                s.p(_qty(line.quantity)),
                s.p(codes or "-"),
            ]
        )
    story.append(_grid(rows, [WIDTH * w for w in (0.07, 0.15, 0.3, 0.1, 0.38)]))
    story += _dds_block(s, [shipment.pk])
    footer = _footer(shipper)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def quotation_pdf(quotation: SalesQuotation) -> bytes:
    """The quotation in its language: the company and the customer as the invoice prints them, the
    number, dates and validity, the lines, the VAT per rate and the totals, the terms."""
    with translation.override(_django_language(quotation.language)):
        return _quotation_pdf(quotation)


def _quotation_pdf(quotation: SalesQuotation) -> bytes:
    s = _Styles()
    tenant = Tenant.objects.get(pk=quotation.tenant_id)
    seller = CompanyDetails.of_tenant(tenant)
    customer = quotation.customer
    customer_address = ", ".join(
        p
        for p in [customer.billing_street, f"{customer.billing_post_code} {customer.billing_city}".strip()]
        if p
    )
    title = _("Quotation")
    buffer = io.BytesIO()
    doc = _doc(buffer, f"{title} {quotation.quotation_number}")
    story = [s.p(title, "title")]
    parties = [
        [s.p(_("Seller")), s.p(_("Customer"))],
        [
            s.p("\n".join(x for x in [seller.name, seller.address, seller.country] if x)),
            s.p("\n".join(x for x in [customer.name, customer_address, customer.billing_country] if x)),
        ],
        [
            s.p(
                f"{_('VAT number')}: {seller.vat_number or '-'}\n"
                f"{_('Registration number')}: {seller.registration_number or '-'}"
            ),
            s.p(f"{_('VAT number')}: {customer.vat_id or '-'}\n{_('Customer number')}: {customer.number}"),
        ],
    ]
    story += [_grid(parties, [WIDTH / 2, WIDTH / 2]), Spacer(1, 4 * mm)]
    facts = [
        (_("Quotation number"), quotation.quotation_number),
        (_("Quotation date"), day_text(quotation.quotation_date)),
        (_("Valid until"), day_text(quotation.valid_until)),
        (_("Customer reference"), quotation.customer_reference),
        (_("Currency"), quotation.currency),
    ]
    story += [_facts_grid(s, facts), Spacer(1, 4 * mm)]

    lines = list(quotation.lines.select_related("product").order_by("line_number"))
    rows = [
        [
            s.p(_("Article")),
            s.p(_("Description")),
            s.p(_("Quantity")),
            s.p(_("Unit price (net)")),
            s.p(_("Discount %")),
            s.p(_("VAT %")),
            s.p(_("Net amount")),
            s.p(_("VAT amount")),
        ]
    ]
    for line in lines:
        name = line.description or line.product.name
        if quotation.language == "zh" and line.product.name_zh:
            name = f"{name}\n{line.product.name_zh}"
        rows.append(
            [
                s.p(line.product.article_number),
                s.p(name),
                s.p(_qty(line.quantity)),
                s.p(_num(line.unit_price, 4)),
                s.p(_num(line.discount_percent)),
                s.p(_num(line.vat_rate)),
                s.p(_num(line.amount_net)),
                s.p(_num(line.amount_vat)),
            ]
        )
    widths = [0.14, 0.18, 0.1, 0.12, 0.12, 0.08, 0.13, 0.13]  # as the invoice's
    story += [_grid(rows, [WIDTH * w for w in widths]), Spacer(1, 4 * mm)]
    vat_rows = [[s.p(_("VAT rate %")), s.p(_("Taxable amount")), s.p(_("VAT amount"))]]
    for row in selectors.vat_breakdown(lines):
        vat_rows.append([s.p(_num(row["vat_rate"])), s.p(_num(row["taxable"])), s.p(_num(row["vat"]))])
    story.append(_grid(vat_rows, [WIDTH * 0.2, WIDTH * 0.2, WIDTH * 0.2]))
    totals = [
        (_("Total net"), _num(quotation.total_net)),
        (_("Total VAT"), _num(quotation.total_vat)),
        (_("Total gross"), f"{_num(quotation.total_gross)} {quotation.currency}"),
    ]
    story += [
        Spacer(1, 2 * mm),
        _grid([[s.p(k), s.p(v)] for k, v in totals], [WIDTH * 0.3, WIDTH * 0.3], header=False),
    ]
    if quotation.payment_terms_days:
        payment_terms = _("Payment terms: %(days)s days net.") % {"days": quotation.payment_terms_days}
    else:
        payment_terms = _("Payment terms: due on receipt.")
    story += [Spacer(1, 3 * mm), s.p(_("Terms"), "h2"), s.p(payment_terms)]
    if quotation.terms:
        story.append(s.p(quotation.terms))
    story.append(
        s.p(_("This quotation is valid until %(date)s.") % {"date": day_text(quotation.valid_until)})
    )
    footer = _footer(seller)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
