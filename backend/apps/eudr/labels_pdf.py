"""Carton label PDFs, one label per page at label size, streamed page by page.

Why not reportlab's canvas here: it keeps every page of a document in memory until `save()`, so 10,000
labels would grow the process by hundreds of megabytes and send nothing until the end. Labels are a
tiny, fixed vocabulary of PDF (text in the standard Helvetica fonts, filled rectangles for the QR
modules), so this module writes the PDF objects itself as they are produced: the header and fonts first,
then for each label its compressed content stream and page object, and finally the page tree, the
catalogue and the cross-reference table (whose offsets it has counted along the way), both streamed as
well. Memory holds one chunk of pages plus 8 bytes per PDF object (its offset). reportlab supplies the
font metrics (text fitting); `label_qr` the QR codes (error correction M or better, each encoding the
label's public trace URL), drawn as a 1-bit image mask of one sample per module.

Speed (docs/performance.md, "Label PDF"): the labels arrive as plain rows (`selectors.label_prints`),
the QR layout of the export's URL length is worked out once, and a label's texts that are the same on
every page are laid out once (`_text_op`).

Text that Helvetica's WinAnsi encoding cannot show (Chinese product names) uses the standard Adobe CJK
font STSong-Light (not embedded; PDF readers supply it), as reportlab's UnicodeCIDFont does.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from reportlab.pdfbase.pdfmetrics import stringWidth

from apps.eudr import label_qr

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


@lru_cache(maxsize=256)
def _text_op(x: float, y: float, text: str, size: float, bold: bool, max_width, whole: bool) -> bytes:
    """One run of text as PDF operators. Remembered: most of a label's texts (the headings, the
    product, the order, the origin, the supplier) are the same on every label of an export; those are
    used on every page and stay in the cache, a label's own code and URL soon leave it."""
    font = "F2" if bold else "F1"
    if max_width is not None and whole:
        size = _shrunk(text, font, size, max_width)
    elif max_width is not None:
        text = _fit(text, font, size, max_width)
    resource, operand = _pdf_text(text)
    if resource == "F1" and bold:
        resource = "F2"
    return f"BT /{resource} {_fmt(size)} Tf {_fmt(x)} {_fmt(y)} Td ".encode("ascii") + operand + b" Tj ET"


@lru_cache(maxsize=256)
def _centred_op(
    x_mid: float, y: float, text: str, size: float, bold: bool, max_width: float, whole: bool
) -> bytes:
    font = "F2" if bold else "F1"
    if whole:
        size = _shrunk(text, font, size, max_width)
    else:
        text = _fit(text, font, size, max_width)
    return _text_op(x_mid - _width(text, font, size) / 2, y, text, size, bold, None, False)


@lru_cache(maxsize=64)
def _line_op(x1: float, y1: float, x2: float, y2: float, width: float) -> bytes:
    return f"{_fmt(width)} w {_fmt(x1)} {_fmt(y1)} m {_fmt(x2)} {_fmt(y2)} l S".encode("ascii")


def _qr_payload(data: str) -> bytes:
    try:
        return data.encode("latin-1")
    except UnicodeEncodeError:
        return data.encode("utf-8")


@lru_cache(maxsize=64)
def _qr_frame(x: float, y: float, size: float, side: int) -> bytes:
    x_, y_, size_ = _fmt(x), _fmt(y), _fmt(size)
    return (
        f"q 1 g {x_} {y_} {size_} {size_} re f 0 g {size_} 0 0 {size_} {x_} {y_} cm\n"
        f"BI /W {side} /H {side} /IM true /D [1 0] /F /AHx ID\n"
    ).encode("ascii")


def _qr_ops(data: str, x: float, y: float, size: float) -> bytes:
    side, image = label_qr.symbol_image(_qr_payload(data))
    return _qr_frame(x, y, size, side) + image.hex().encode("ascii") + b">\nEI Q"


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
        if text:
            self.ops.append(_text_op(x, y, text, size, bold, max_width, whole))

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
        if text:
            self.ops.append(_centred_op(x_mid, y, text, size, bold, max_width, whole))

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5) -> None:
        self.ops.append(_line_op(x1, y1, x2, y2, width))

    def qr(self, data: str, x: float, y: float, size: float) -> None:
        """The QR code of `data`, its quiet zone included, as a square of `size` points at (x, y): a 1-bit
        image mask, one sample per module, painted black on a white square (`label_qr`). The samples are
        written in hex (`/AHx`), so no byte of them can be taken for the inline image's end (`EI`)."""
        self.ops.append(_qr_ops(data, x, y, size))

    def content(self) -> bytes:
        return b"\n".join(self.ops)


class LabelPrint(NamedTuple):
    """What a printed label shows of one carton label, read as one row (`selectors.label_prints`): no
    model instances per label."""

    code: str
    article_number: str
    production_batch_code: str
    batch_sequence: int
    purchase_order: str
    container: str | None
    net_weight_kg: Decimal | None
    product_name: str | None
    country_name: str
    country_code: str
    supplier_name: str | None


def _label_fields(label: LabelPrint) -> dict[str, str]:
    weight = label.net_weight_kg
    return {
        "code": label.code,
        "product": label.product_name or "",
        "article": label.article_number,
        "batch": f"{label.production_batch_code} #{label.batch_sequence}",
        "po": label.purchase_order,
        "container": label.container or "",
        "origin": label.country_name or label.country_code or "",
        "weight": f"{weight.normalize():f} kg" if weight is not None else "",
        "supplier": label.supplier_name or "",
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
    # the byte offset of each object, by number (1 and 2 are written last); 8 bytes a page object
    offsets = array("Q", bytes(8 * (FIXED_OBJECTS + 1)))
    position = 0
    out: list[bytes] = []

    def emit(data: bytes) -> None:
        nonlocal position
        out.append(data)
        position += len(data)

    def obj(number: int, body: bytes) -> None:
        if number < len(offsets):
            offsets[number] = position
        else:
            offsets.append(position)
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
    number = FIXED_OBJECTS
    for index, label in enumerate(labels, start=1):
        url = f"{base_url}/eudrtrace/{label.code}"
        content = zlib.compress(render(label, url, width, height), 1)
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
        if index % pages_per_chunk == 0:
            yield b"".join(out)
            out.clear()

    # The page tree and the cross-reference table, streamed too: their size grows with the pages.
    pages = (number - FIXED_OBJECTS) // 2
    offsets[2] = position
    emit(b"2 0 obj\n<< /Type /Pages /Kids [")
    for page in range(pages):
        emit(b"%d 0 R " % (FIXED_OBJECTS + 2 + 2 * page))
        if len(out) >= 1000:
            yield b"".join(out)
            out.clear()
    emit(b"] /Count %d >>\nendobj\n" % pages)
    obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    xref_at = position
    total = number + 1
    emit(f"xref\n0 {total}\n".encode("ascii") + b"0000000000 65535 f \n")
    for n in range(1, total):
        emit(b"%010d 00000 n \n" % offsets[n])
        if len(out) >= 1000:
            yield b"".join(out)
            out.clear()
    emit(f"trailer\n<< /Size {total} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode("ascii"))
    yield b"".join(out)
