"""Carton label PDFs, one label per page at label size, streamed page by page.

Why not reportlab's canvas here: it keeps every page of a document in memory until `save()`, so 10,000
labels would grow the process by hundreds of megabytes and send nothing until the end. Labels are a
tiny, fixed vocabulary of PDF (text in the standard Helvetica fonts, filled rectangles for the QR
modules), so this module writes the PDF objects itself as they are produced: the header and fonts first,
then for each label its compressed content stream and page object, and finally the page tree, the
catalogue and the cross-reference table (whose offsets it has counted along the way). Memory holds one
page at a time plus two integers per page. reportlab still supplies the font metrics (text fitting) and
segno the QR codes (error correction M, each encoding the label's public trace URL).

Text that Helvetica's WinAnsi encoding cannot show (Chinese product names) uses the standard Adobe CJK
font STSong-Light (not embedded; PDF readers supply it), as reportlab's UnicodeCIDFont does.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import segno
from reportlab.pdfbase.pdfmetrics import stringWidth

MM = 72 / 25.4


@dataclass(frozen=True)
class LabelTemplate:
    width_mm: float
    height_mm: float


LABEL_TEMPLATES = {
    "default": LabelTemplate(100, 150),
    "compact": LabelTemplate(100, 50),
}

# Objects written before the pages: 1 catalogue, 2 page tree, 3-4 Helvetica, 5-7 the CJK font.
FIXED_OBJECTS = 7


def _fmt(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _is_winansi(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _pdf_text(text: str) -> tuple[str, bytes]:
    """(font resource name, the PDF string operand) for one run of text."""
    if _is_winansi(text):
        raw = text.encode("cp1252")
        escaped = raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        return "F1", b"(" + escaped + b")"
    ucs2 = "".join(ch if ord(ch) <= 0xFFFF else "?" for ch in text).encode("utf-16-be")
    return "F3", b"<" + ucs2.hex().upper().encode("ascii") + b">"


def _width(text: str, font: str, size: float) -> float:
    if _is_winansi(text):
        return stringWidth(text, "Helvetica-Bold" if font == "F2" else "Helvetica", size)
    return sum(size * (0.5 if ord(ch) < 128 else 1.0) for ch in text)


def _shrunk(text: str, font: str, size: float, max_width: float) -> float:
    """The font size at which `text` fits `max_width`: for what must be printed whole (the code)."""
    width = _width(text, font, size)
    return size if width <= max_width else size * max_width / width


def _fit(text: str, font: str, size: float, max_width: float) -> str:
    text = " ".join((text or "").split())
    if _width(text, font, size) <= max_width:
        return text
    while text and _width(text + "...", font, size) > max_width:
        text = text[:-1]
    return text + "..."


class _Page:
    def __init__(self) -> None:
        self.ops: list[bytes] = []

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 8,
        bold: bool = False,
        max_width=None,
        whole: bool = False,
    ) -> None:
        """`max_width` cuts a long text with "..."; with `whole` the text is made smaller instead."""
        if not text:
            return
        font = "F2" if bold else "F1"
        if max_width is not None and whole:
            size = _shrunk(text, font, size, max_width)
        elif max_width is not None:
            text = _fit(text, font, size, max_width)
        resource, operand = _pdf_text(text)
        if resource == "F1" and bold:
            resource = "F2"
        self.ops.append(
            f"BT /{resource} {_fmt(size)} Tf {_fmt(x)} {_fmt(y)} Td ".encode("ascii") + operand + b" Tj ET"
        )

    def centred(
        self,
        x_mid: float,
        y: float,
        text: str,
        *,
        size: float,
        bold: bool = False,
        max_width: float,
        whole: bool = False,
    ):
        font = "F2" if bold else "F1"
        if whole:
            size = _shrunk(text, font, size, max_width)
        else:
            text = _fit(text, font, size, max_width)
        self.text(x_mid - _width(text, font, size) / 2, y, text, size=size, bold=bold)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5) -> None:
        self.ops.append(f"{_fmt(width)} w {_fmt(x1)} {_fmt(y1)} m {_fmt(x2)} {_fmt(y2)} l S".encode("ascii"))

    def qr(self, data: str, x: float, y: float, size: float) -> None:
        """The QR code of `data`, its quiet zone included, as a square of `size` points at (x, y)."""
        code = segno.make(data, error="m", micro=False)
        matrix = code.matrix
        border = 4
        modules = len(matrix) + 2 * border
        unit = size / modules
        parts = [b"q 1 g", f"{_fmt(x)} {_fmt(y)} {_fmt(size)} {_fmt(size)} re f".encode("ascii"), b"0 g"]
        for row_index, row in enumerate(matrix):
            top = y + size - (row_index + border + 1) * unit
            col = 0
            length = len(row)
            while col < length:
                if row[col]:
                    start = col
                    while col < length and row[col]:
                        col += 1
                    left = x + (start + border) * unit
                    parts.append(
                        f"{_fmt(left)} {_fmt(top)} {_fmt((col - start) * unit)} {_fmt(unit)} re".encode(
                            "ascii"
                        )
                    )
                else:
                    col += 1
        parts.append(b"f Q")
        self.ops.append(b"\n".join(parts))

    def content(self) -> bytes:
        return b"\n".join(self.ops)


def _label_fields(label) -> dict[str, str]:
    delivery = label.raw_material
    product = label.product
    origin = delivery.country_name or delivery.country_code or ""
    return {
        "code": label.code,
        "product": getattr(product, "name", "") or "",
        "article": label.article_number,
        "batch": f"{label.production_batch_code} #{label.batch_sequence}",
        "po": label.purchase_order,
        "container": label.container or "",
        "origin": origin,
        "weight": f"{label.net_weight_kg.normalize():f} kg" if label.net_weight_kg is not None else "",
        "supplier": getattr(getattr(delivery, "parent_vendor", None), "name", "") or "",
    }


def render_default(label, url: str, width: float, height: float) -> bytes:
    """100 x 150 mm: QR on top, the code under it, then product, batch, article, order and origin."""
    page = _Page()
    margin = 6 * MM
    inner = width - 2 * margin
    fields = _label_fields(label)
    page.text(margin, height - margin - 8, "EUDR TRACE", size=9, bold=True)
    page.text(
        width - margin - stringWidth("Scan for origin", "Helvetica", 7),
        height - margin - 8,
        "Scan for origin",
        size=7,
    )
    qr_size = 72 * MM
    qr_top = height - margin - 14
    page.qr(url, (width - qr_size) / 2, qr_top - qr_size, qr_size)
    y = qr_top - qr_size - 14
    page.centred(width / 2, y, fields["code"], size=12, bold=True, max_width=inner, whole=True)
    y -= 10
    page.centred(width / 2, y, url, size=6.5, max_width=inner)
    y -= 8
    page.line(margin, y, width - margin, y)
    rows = [
        ("Product", fields["product"]),
        ("Article", fields["article"]),
        ("Batch", fields["batch"]),
        ("Purchase order", fields["po"]),
        ("Container", fields["container"] or "-"),
        ("Origin", fields["origin"] or "-"),
        ("Net weight", fields["weight"]),
        ("Supplier", fields["supplier"] or "-"),
    ]
    label_width = 24 * MM
    for name, value in rows:
        y -= 13
        page.text(margin, y, name, size=8)
        page.text(margin + label_width, y, value, size=9, bold=True, max_width=inner - label_width)
    return page.content()


def render_compact(label, url: str, width: float, height: float) -> bytes:
    """100 x 50 mm: QR on the left, code, article, batch, order and origin on the right."""
    page = _Page()
    margin = 3 * MM
    qr_size = height - 2 * margin
    page.qr(url, margin, margin, qr_size)
    fields = _label_fields(label)
    x = margin + qr_size + 2 * MM
    inner = width - x - margin
    y = height - margin - 10
    # The code is printed whole, whatever its letters: it is what a person types when a QR code fails.
    page.text(x, y, fields["code"], size=9.5, bold=True, max_width=inner, whole=True)
    for value in (
        f"{fields['article']}  {fields['product']}",
        f"Batch {fields['batch']}",
        f"PO {fields['po']}" + (f"  Ctr {fields['container']}" if fields["container"] else ""),
        f"Origin {fields['origin'] or '-'}   {fields['weight']}",
    ):
        y -= 11
        page.text(x, y, value, size=7.5, max_width=inner)
    return page.content()


RENDERERS = {"default": render_default, "compact": render_compact}


def labels_pdf_stream(
    labels: Iterable, *, template: str, base_url: str, pages_per_chunk: int = 50
) -> Iterator[bytes]:
    """Yields the PDF of `labels` (one page each) in chunks of a few dozen pages."""
    spec = LABEL_TEMPLATES[template]
    width, height = spec.width_mm * MM, spec.height_mm * MM
    render = RENDERERS[template]
    offsets: dict[int, int] = {}
    position = 0
    out: list[bytes] = []

    def emit(data: bytes) -> None:
        nonlocal position
        out.append(data)
        position += len(data)

    def obj(number: int, body: bytes) -> None:
        offsets[number] = position
        emit(f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n")

    emit(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    obj(4, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    obj(
        5,
        b"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H "
        b"/DescendantFonts [6 0 R] >>",
    )
    obj(
        6,
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> "
        b"/FontDescriptor 7 0 R /DW 1000 /W [1 95 500] >>",
    )
    obj(
        7,
        b"<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] "
        b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>",
    )
    resources = b"<< /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >>"
    media_box = f"[0 0 {_fmt(width)} {_fmt(height)}]".encode("ascii")
    kids: list[int] = []
    number = FIXED_OBJECTS
    for index, label in enumerate(labels, start=1):
        url = f"{base_url}/eudrtrace/{label.code}"
        content = zlib.compress(render(label, url, width, height), 6)
        number += 1
        obj(
            number,
            f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode("ascii")
            + content
            + b"\nendstream",
        )
        number += 1
        obj(
            number,
            b"<< /Type /Page /Parent 2 0 R /MediaBox "
            + media_box
            + b" /Resources "
            + resources
            + f" /Contents {number - 1} 0 R >>".encode("ascii"),
        )
        kids.append(number)
        if index % pages_per_chunk == 0:
            yield b"".join(out)
            out.clear()

    kids_text = " ".join(f"{kid} 0 R" for kid in kids).encode("ascii")
    obj(2, b"<< /Type /Pages /Kids [" + kids_text + f"] /Count {len(kids)} >>".encode("ascii"))
    obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    xref_at = position
    total = number + 1
    xref = [f"xref\n0 {total}\n".encode("ascii"), b"0000000000 65535 f \n"]
    for n in range(1, total):
        xref.append(f"{offsets[n]:010d} 00000 n \n".encode("ascii"))
    emit(b"".join(xref))
    emit(f"trailer\n<< /Size {total} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode("ascii"))
    yield b"".join(out)
