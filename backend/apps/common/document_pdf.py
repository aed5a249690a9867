"""The building blocks of the company's documents (reportlab, A4): the sales documents
(apps/salesorders/pdf.py), the purchase order (apps/purchaseorders/pdf.py) and the due diligence summary
(apps/eudr/dds/summary_pdf.py).

Latin text uses Helvetica; text with characters outside its encoding, WinAnsi (Chinese names, the zh
interface), uses the built-in CID font STSong-Light, which needs no font file. The company's details are
printed at the foot of every page.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from apps.common import payment
from apps.common.pdf import paragraph

CJK_FONT = "STSong-Light"
_registered = False


def _register_fonts() -> None:
    global _registered
    if not _registered:
        pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
        _registered = True


def _needs_cjk(text: str) -> bool:
    """Helvetica is a standard font in WinAnsiEncoding (cp1252): it has the dashes, the bullet and the middle
    dot the summary uses ("—", "–", "•", "·"). Sending those to STSong-Light, as a test on code points
    above 0xFF did, printed boxes where the reader's substitute CJK font has no such glyph."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return True
    return False


class _Styles:
    def __init__(self) -> None:
        base = getSampleStyleSheet()
        self.body = ParagraphStyle(
            "body", parent=base["BodyText"], fontName="Helvetica", fontSize=9, leading=12
        )
        self.body_cjk = ParagraphStyle("body_cjk", parent=self.body, fontName=CJK_FONT)
        self.title = ParagraphStyle("title", parent=base["Title"], fontName="Helvetica-Bold", fontSize=16)
        self.title_cjk = ParagraphStyle("title_cjk", parent=self.title, fontName=CJK_FONT)
        self.h2 = ParagraphStyle("h2", parent=base["Heading2"], fontName="Helvetica-Bold", fontSize=11)
        self.h2_cjk = ParagraphStyle("h2_cjk", parent=self.h2, fontName=CJK_FONT)

    def p(self, text: Any, kind: str = "body") -> Paragraph:
        text = "" if text is None else str(text)
        style = getattr(self, f"{kind}_cjk" if _needs_cjk(text) else kind)
        return paragraph(text, style)


WIDTH = A4[0] - 30 * mm


def _num(value: Decimal | None, places: int = 2) -> str:
    if value is None:
        return ""
    quantum = Decimal(1).scaleb(-places)
    return f"{Decimal(value).quantize(quantum):,.{places}f}"


def _qty(value: Decimal) -> str:
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _grid(rows, widths, header=True, right_from: int | None = None) -> Table:
    table = Table(rows, colWidths=widths, hAlign="LEFT", repeatRows=1 if header else 0)
    style = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#d0d7de")),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f4")))
    if right_from is not None:
        style.append(("ALIGN", (right_from, 0), (-1, -1), "RIGHT"))
    table.setStyle(TableStyle(style))
    return table


def _facts_grid(s, facts) -> Table:
    """A document's facts, label beside value, the empty ones left out (orders, invoices, notes)."""
    return _grid([[s.p(k), s.p(v)] for k, v in facts if v], [WIDTH * 0.3, WIDTH * 0.7], header=False)


def _doc(buffer, title: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=20 * mm,  # room for the company's footer
        title=title,
    )


@dataclass
class CompanyDetails:
    """Who issues the document, as printed in its footer on every page (and the invoice's seller block)."""

    name: str = ""
    address: str = ""
    country: str = ""
    vat_number: str = ""
    registration_number: str = ""
    eori_number: str = ""
    iban: str = ""
    bic: str = ""

    @classmethod
    def of_tenant(cls, tenant) -> CompanyDetails:
        return cls(
            name=tenant.legal_name or tenant.name,
            address=tenant.address,
            country=tenant.country,
            vat_number=tenant.vat_number,
            registration_number=tenant.registration_number,
            eori_number=tenant.eori_number,
            iban=tenant.iban,
            bic=tenant.bic,
        )

    def footer_lines(self) -> list[str]:
        first = " · ".join(x for x in [self.name, " ".join(self.address.split()), self.country] if x)
        second = " · ".join(
            f"{label}: {value}"
            for label, value in [
                (_("VAT number"), self.vat_number),
                (_("Registration number"), self.registration_number),
                ("IBAN", payment.iban_printed(self.iban)),
                ("BIC", self.bic),
            ]
            if value
        )
        return [line for line in (first, second) if line]


def _footer(details: CompanyDetails):
    """A page callback drawing the company's details at the foot of every page."""
    lines = details.footer_lines()

    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setStrokeColor(colors.HexColor("#d0d7de"))
        canvas.line(doc.leftMargin, 13 * mm, A4[0] - doc.rightMargin, 13 * mm)
        y = 10 * mm
        for line in lines:
            canvas.setFont(CJK_FONT if _needs_cjk(line) else "Helvetica", 7)
            canvas.drawCentredString(A4[0] / 2, y, line)
            y -= 3.2 * mm
        canvas.restoreState()

    return draw


def _django_language(code: str) -> str:
    return "zh-hans" if code == "zh" else "en"
