"""The day's loading list as a PDF (reportlab): the dispatches picked up on one date, grouped by carrier,
with packages, weight and cartons per shipment, subtotals per carrier and lines to sign.

Text is set in the font every company document embeds (apps/common/document_pdf.py: Noto Sans SC, Latin
and Chinese alike), so a customer's Chinese name prints in any reader.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from apps.common.dates import day_text
from apps.common.document_pdf import CELL_FONT, FONT, FONT_BOLD, _register_fonts
from apps.common.pdf import paragraph


def loading_list_pdf(*, day: date, company: str, dispatches: list) -> bytes:
    _register_fonts()
    body = ParagraphStyle("body", fontName=FONT, fontSize=8.5, leading=10.5)
    title = ParagraphStyle("title", fontName=FONT_BOLD, fontSize=15, leading=19, spaceAfter=2 * mm)
    head = ParagraphStyle(
        "head", fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=4 * mm, spaceAfter=1.5 * mm
    )

    def p(text) -> Paragraph:
        return paragraph(text, body)

    story = [
        paragraph(_("Loading list %(date)s") % {"date": day_text(day)}, title),
        p(company),
        Spacer(0, 3 * mm),
    ]
    header = [
        _("Shipment"),
        _("Order"),
        _("Customer"),
        _("Ship to"),
        _("Vehicle"),
        _("Tracking number"),
        _("Packages"),
        _("Cartons"),
        _("Weight (kg)"),
    ]
    groups: dict[str, list] = {}
    for dispatch in dispatches:
        name = dispatch.carrier.name if dispatch.carrier else _("No carrier")
        groups.setdefault(name, []).append(dispatch)
    total_packages, total_weight = 0, Decimal("0")
    if not dispatches:
        story.append(p(_("No dispatches are planned for this day.")))
    for carrier, rows in sorted(groups.items()):
        story.append(paragraph(carrier, head))
        data = [[p(h) for h in header]]
        packages, weight = 0, Decimal("0")
        for d in rows:
            shipment = d.sales_shipment
            order = shipment.sales_order
            customer = order.customer
            ship_to = ", ".join(
                part
                for part in (
                    getattr(customer, "delivery_street", ""),
                    getattr(customer, "delivery_post_code", ""),
                    getattr(customer, "delivery_city", ""),
                    getattr(customer, "delivery_country", ""),
                )
                if part
            )
            data.append(
                [
                    p(shipment.shipment_number),
                    p(order.order_number),
                    p(customer.name),
                    p(ship_to),
                    p(d.vehicle),
                    p(d.tracking_number),
                    p(d.packages),
                    p(getattr(d, "cartons_count", "")),
                    p(f"{d.weight_kg:.1f}"),
                ]
            )
            packages += d.packages
            weight += d.weight_kg
        data.append([p(_("Subtotal")), "", "", "", "", "", p(packages), "", p(f"{weight:.1f}")])
        total_packages += packages
        total_weight += weight
        table = Table(
            data,
            colWidths=[26 * mm, 26 * mm, 45 * mm, 57 * mm, 24 * mm, 34 * mm, 20 * mm, 17 * mm, 22 * mm],
            repeatRows=1,
        )
        table.setStyle(
            TableStyle(
                [
                    CELL_FONT,
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.92, 0.92)),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("BACKGROUND", (0, -1), (-1, -1), colors.Color(0.97, 0.97, 0.97)),
                ]
            )
        )
        story.append(table)
    story += [
        Spacer(0, 5 * mm),
        p(
            _("Total: %(packages)s packages, %(weight)s kg")
            % {"packages": total_packages, "weight": f"{total_weight:.1f}"}
        ),
        Spacer(0, 12 * mm),
        p(_("Loaded by: ______________________    Driver: ______________________    Time: __________")),
    ]
    buffer = BytesIO()
    SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=_("Loading list %(date)s") % {"date": day_text(day)},
        initialFontName=FONT,
    ).build(story)
    return buffer.getvalue()
