"""The purchase order as a PDF (reportlab, A4) in the supplier's language, en or zh.

The building blocks are those of the sales documents (apps/common/document_pdf.py): the company's details and the
footer printed on every page, the grid, the number formats and the embedded font (Noto Sans SC, for Latin
and Chinese text alike).

Language: the supplier record has no language of its own, so it is the one its e-mails go out in
(notifications' `country_language`: zh for a supplier in CN, TW or HK, else en), unless the caller asks
for one (`?language=` of the PDF endpoint)."""

from __future__ import annotations

import io

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from apps.common.dates import day_text
from apps.common.document_pdf import (
    WIDTH,
    CompanyDetails,
    _django_language,
    _doc,
    _facts_grid,
    _footer,
    _grid,
    _num,
    _qty,
    _Styles,
)
from apps.notifications.events import country_language
from apps.purchaseorders.models import PurchaseOrder
from apps.tenancy.models import Tenant

LANGUAGES = ("en", "zh")


def order_language(order: PurchaseOrder) -> str:
    """The language the order's supplier reads (docs/purchasing.md, "The order as a PDF")."""
    return country_language(order.supplier.country)


def purchase_order_pdf(order: PurchaseOrder, language: str | None = None) -> bytes:
    """The purchase order as a PDF in `language` (default: the supplier's)."""
    language = language if language in LANGUAGES else order_language(order)
    with translation.override(_django_language(language)):
        return _purchase_order_pdf(order, language)


def _purchase_order_pdf(order: PurchaseOrder, language: str) -> bytes:
    s = _Styles()
    tenant = Tenant.objects.get(pk=order.tenant_id)
    buyer = CompanyDetails.of_tenant(tenant)
    supplier = order.supplier
    vendor = supplier.parent_vendor
    title = _("Purchase order")
    buffer = io.BytesIO()
    doc = _doc(buffer, f"{title} {order.order_number}")
    story = [s.p(title, "title")]

    supplier_name = supplier.name
    if language == "zh" and vendor is not None and vendor.cname:
        supplier_name = f"{supplier_name}\n{vendor.cname}"
    parties = [
        [s.p(_("Buyer")), s.p(_("Supplier"))],
        [
            s.p("\n".join(x for x in [buyer.name, buyer.address, buyer.country] if x)),
            s.p("\n".join(x for x in [supplier_name, supplier.address, supplier.country] if x)),
        ],
        [
            s.p(
                f"{_('VAT number')}: {buyer.vat_number or '-'}\n"
                f"{_('Registration number')}: {buyer.registration_number or '-'}"
            ),
            s.p(f"{_('Supplier number')}: {supplier.number}"),
        ],
    ]
    story += [_grid(parties, [WIDTH / 2, WIDTH / 2]), Spacer(1, 4 * mm)]

    facts = [
        (_("Order number"), order.order_number),
        (_("Order date"), day_text(order.order_date)),
        (_("Delivery date"), day_text(order.promise_date)),
        (_("Currency"), order.currency),
        (_("Payment terms"), supplier.payment_terms),
        (_("Description"), order.description),
    ]
    story += [
        _facts_grid(s, facts),
        Spacer(1, 4 * mm),
    ]

    rows = [
        [
            s.p(_("Line")),
            s.p(_("Article")),
            s.p(_("Description")),
            s.p(_("Quantity")),
            s.p(_("Unit cost")),
            s.p(_("Amount")),
            s.p(_("Delivery date")),
        ]
    ]
    for line in order.lines.select_related("product").order_by("line_number"):
        name = line.line_description or line.product.name
        if language == "zh" and line.product.name_zh:
            name = f"{name}\n{line.product.name_zh}"
        rows.append(
            [
                s.p(str(line.line_number)),
                s.p(line.product_number),
                s.p(name),
                s.p(_qty(line.order_qty)),
                s.p(_num(line.unit_cost, 4)),
                s.p(_num(line.amount)),
                # the line's own delivery date, else the order's promise date
                s.p(day_text(line.delivery_date or order.promise_date)),
            ]
        )
    widths = [0.06, 0.15, 0.27, 0.11, 0.13, 0.14, 0.14]
    story += [_grid(rows, [WIDTH * w for w in widths]), Spacer(1, 4 * mm)]
    totals = [(_("Total"), f"{_num(order.total_amount)} {order.currency}")]
    story.append(_grid([[s.p(k), s.p(v)] for k, v in totals], [WIDTH * 0.3, WIDTH * 0.3], header=False))
    footer = _footer(buyer)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
