"""The building blocks of the company's documents (reportlab, A4): the sales documents
(apps/salesorders/pdf.py), the purchase order (apps/purchaseorders/pdf.py) and the due diligence summary
(apps/eudr/dds/summary_pdf.py).

Every document embeds its font: Noto Sans SC (SIL Open Font License), which sets Latin, Greek, Cyrillic
and Chinese text alike, regular and bold, subset to the glyphs the document uses (a few tens of KB). A
document therefore looks the same in every reader, prints Chinese names without a font the reader must
supply, and meets PDF/A's rule that every font is embedded (the Factur-X invoice is PDF/A-3:
apps/salesorders/cii.py). The font files come from the npm package pinned in frontend/package-lock.json
and are copied to settings.DOCUMENT_FONT_DIR by `make install` (docs/decisions.md, "Documents embed their
font"). The company's details are printed at the foot of every page.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from apps.common import payment
from apps.common.pdf import paragraph

FONT = "NotoSansSC"
FONT_BOLD = "NotoSansSC-Bold"
FONT_FILES = {FONT: "NotoSansSC-Regular.ttf", FONT_BOLD: "NotoSansSC-Bold.ttf"}
# A table cell's own font (an empty cell still sets one): reportlab's default is the unembedded Helvetica.
CELL_FONT = ("FONTNAME", (0, 0), (-1, -1), FONT)
_registered = False


def missing_font_files() -> list[str]:
    """The document font files that are not where settings.DOCUMENT_FONT_DIR says (the system check)."""
    return [
        str(settings.DOCUMENT_FONT_DIR / name)
        for name in FONT_FILES.values()
        if not (settings.DOCUMENT_FONT_DIR / name).is_file()
    ]


def _register_fonts() -> None:
    """Registers the font with reportlab once per process. reportlab reads a TrueType file lazily (the
    10 MB file costs a few milliseconds) and writes only the glyphs a document uses into it."""
    global _registered
    if _registered:
        return
    missing = missing_font_files()
    if missing:
        raise ImproperlyConfigured(
            "The document font is missing: {}. Run `make install` (or `make fonts`), or point "
            "DOCUMENT_FONT_DIR at the directory holding it.".format(", ".join(missing))
        )
    for name, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(settings.DOCUMENT_FONT_DIR / filename)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    _registered = True


class _Styles:
    def __init__(self) -> None:
        _register_fonts()
        base = getSampleStyleSheet()
        self.body = ParagraphStyle("body", parent=base["BodyText"], fontName=FONT, fontSize=9, leading=12)
        self.title = ParagraphStyle("title", parent=base["Title"], fontName=FONT_BOLD, fontSize=16)
        self.h2 = ParagraphStyle("h2", parent=base["Heading2"], fontName=FONT_BOLD, fontSize=11)

    def p(self, text: Any, kind: str = "body") -> Paragraph:
        return paragraph("" if text is None else str(text), getattr(self, kind))


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
        CELL_FONT,
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
        # reportlab opens every page with a font operator; naming ours keeps the unembedded Helvetica,
        # its default, out of the file
        initialFontName=FONT,
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
            canvas.setFont(FONT, 7)
            canvas.drawCentredString(A4[0] / 2, y, line)
            y -= 3.2 * mm
        canvas.restoreState()

    return draw


def _django_language(code: str) -> str:
    return "zh-hans" if code == "zh" else "en"
