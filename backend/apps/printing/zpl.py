"""ZPL carton labels: the templates `compact` and `default`, with the information of the PDF labels
(apps/eudr/labels_pdf.py), laid out once and written twice: as ZPL for the printer and as a preview
(the same elements, drawn as SVG by /printer/demo).

- Sizes are in printer dots: millimetres x dpi / 25.4, so one template fits 203, 300 and 600 dpi and
  any label size; font heights are points scaled the same way.
- `^CI28`: field data is UTF-8, so Chinese product names print (with a font that has the glyphs:
  text outside Latin-1 uses the printer's Andale font `E:ANMDJ.TTF`, see docs/printing.md).
- Every field's data goes through `^FH\\` with hex escapes for `^`, `~`, `\\` and control characters,
  so a carton value can never end the field or start a command.
- The QR code is `^BQN,2,<magnification>` of the label's public trace URL, error correction M (as the
  PDF), magnification chosen so the code fills the space the template gives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import segno

TEMPLATES = ("default", "compact")
CJK_FONT = "E:ANMDJ.TTF"
HEX_INDICATOR = "\\"


@dataclass
class Text:
    x: int
    y: int
    height: int
    text: str
    bold: bool = False
    max_width: int = 0

    @property
    def width(self) -> int:
        return text_width(self.text, self.height)


@dataclass
class Line:
    x: int
    y: int
    width: int
    thickness: int


@dataclass
class QR:
    x: int
    y: int
    data: str
    magnification: int
    modules: list[str] = field(default_factory=list)


@dataclass
class Layout:
    width: int
    height: int
    dpi: int
    elements: list = field(default_factory=list)


def dots(mm: float | Decimal, dpi: int) -> int:
    return round(float(mm) * dpi / 25.4)


def points(pt: float, dpi: int) -> int:
    """A font height in dots (at least 10, the smallest that prints legibly with font 0)."""
    return max(10, round(pt * dpi / 72))


def is_latin(text: str) -> bool:
    return all(ord(ch) < 256 for ch in text)


def text_width(text: str, height: int) -> int:
    """Estimated width of `text` in font 0 at `height` dots (wide glyphs count as a full em)."""
    return round(sum(height * (0.58 if ord(ch) < 256 else 1.0) for ch in text))


def fit(text: str, height: int, max_width: int) -> str:
    """`text` cut with "..." to fit `max_width` dots (on the label and in the preview alike)."""
    text = " ".join((text or "").split())
    if max_width <= 0 or text_width(text, height) <= max_width:
        return text
    while text and text_width(text + "...", height) > max_width:
        text = text[:-1]
    return text + "..."


def shrink(text: str, height: int, max_width: int) -> int:
    """The height at which `text` fits `max_width`: for what must be printed whole (the code)."""
    width = text_width(text, height)
    return height if width <= max_width else max(10, int(height * max_width / width))


def escape_field(value: str) -> str:
    """Field data safe inside `^FH\\^FD...^FS`: `^`, `~`, the hex indicator and control characters
    become `\\XX` escapes of their UTF-8 bytes; everything else stays as it is (UTF-8, ^CI28)."""
    out = []
    for ch in value:
        if ch in "^~" + HEX_INDICATOR or ord(ch) < 32 or ord(ch) == 127:
            out.append("".join(f"{HEX_INDICATOR}{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def unescape_field(value: str) -> str:
    """The inverse of `escape_field` (what the printer prints), for tests and the preview."""
    raw = bytearray()
    i = 0
    while i < len(value):
        if value[i] == HEX_INDICATOR and i + 3 <= len(value):
            raw += bytes.fromhex(value[i + 1 : i + 3])
            i += 3
        else:
            raw += value[i].encode("utf-8")
            i += 1
    return raw.decode("utf-8")


def qr_modules(data: str) -> list[str]:
    matrix = segno.make(data, error="m", micro=False).matrix
    return ["".join("1" if cell else "0" for cell in row) for row in matrix]


def qr_for(data: str, x: int, y: int, size: int) -> QR:
    """A QR code of `data` filling at most `size` dots (magnification 1-10, as ^BQ allows)."""
    modules = qr_modules(data)
    magnification = max(1, min(10, size // (len(modules) + 2)))
    return QR(x=x, y=y, data=data, magnification=magnification, modules=modules)


def label_fields(label) -> dict[str, str]:
    """The carton's printed values; the same as the PDF label's."""
    delivery = label.raw_material
    product = label.product
    return {
        "code": label.code,
        "product": getattr(product, "name", "") or "",
        "article": label.article_number,
        "batch": f"{label.production_batch_code} #{label.batch_sequence}",
        "po": label.purchase_order,
        "container": label.container or "",
        "origin": delivery.country_name or delivery.country_code or "",
        "weight": f"{label.net_weight_kg.normalize():f} kg" if label.net_weight_kg is not None else "",
        "supplier": getattr(getattr(delivery, "parent_vendor", None), "name", "") or "",
    }


def layout_default(fields: dict, url: str, *, dpi: int, width_mm, height_mm, copy_note: str = "") -> Layout:
    """QR on top, the code under it, then product, article, batch, order, container, origin, weight and
    supplier (the 100 x 150 mm PDF label)."""
    width, height = dots(width_mm, dpi), dots(height_mm, dpi)
    scale = min(1.0, float(width_mm) / 100, float(height_mm) / 150)
    margin = dots(5 * scale, dpi)
    inner = width - 2 * margin
    layout = Layout(width=width, height=height, dpi=dpi)
    small, body, big = points(8 * scale, dpi), points(9 * scale, dpi), points(13 * scale, dpi)
    layout.elements.append(Text(margin, margin, small, "EUDR TRACE", bold=True))
    scan = "Scan for origin"
    layout.elements.append(Text(width - margin - text_width(scan, small), margin, small, scan))
    y = margin + small + dots(1 * scale, dpi)
    rows = 8
    row_height = body + dots(1.8 * scale, dpi)
    reserved = big + small + dots(5 * scale, dpi) + rows * row_height + (small if copy_note else 0)
    qr_size = max(dots(12 * scale, dpi), min(inner, height - y - margin - reserved))
    qr = qr_for(url, 0, y, qr_size)
    qr_dots = (len(qr.modules) + 2) * qr.magnification
    qr.x = (width - qr_dots) // 2
    layout.elements.append(qr)
    y += qr_dots + dots(1, dpi)
    code_height = shrink(fields["code"], big, inner)
    layout.elements.append(
        Text(
            (width - text_width(fields["code"], code_height)) // 2, y, code_height, fields["code"], bold=True
        )
    )
    y += code_height + dots(1, dpi)
    url_text = fit(url, small, inner)
    layout.elements.append(Text((width - text_width(url_text, small)) // 2, y, small, url_text))
    y += small + dots(1.5, dpi)
    layout.elements.append(Line(margin, y, inner, max(2, dots(0.3, dpi))))
    y += dots(1.5, dpi)
    name_width = dots(24 * scale, dpi)
    for name, value in (
        ("Product", fields["product"]),
        ("Article", fields["article"]),
        ("Batch", fields["batch"]),
        ("Purchase order", fields["po"]),
        ("Container", fields["container"] or "-"),
        ("Origin", fields["origin"] or "-"),
        ("Net weight", fields["weight"]),
        ("Supplier", fields["supplier"] or "-"),
    ):
        layout.elements.append(Text(margin, y + (body - small), small, name))
        value_width = inner - name_width
        layout.elements.append(
            Text(
                margin + name_width, y, body, fit(value, body, value_width), bold=True, max_width=value_width
            )
        )
        y += row_height
    if copy_note:
        layout.elements.append(Text(margin, y, small, copy_note, bold=True))
    return layout


def layout_compact(fields: dict, url: str, *, dpi: int, width_mm, height_mm, copy_note: str = "") -> Layout:
    """QR on the left; code, article and product, batch, order and container, origin and weight on the
    right (the 100 x 50 mm PDF label)."""
    width, height = dots(width_mm, dpi), dots(height_mm, dpi)
    scale = min(1.0, float(width_mm) / 100, float(height_mm) / 50)
    margin = dots(3 * scale, dpi)
    layout = Layout(width=width, height=height, dpi=dpi)
    qr = qr_for(url, margin, margin, min(height - 2 * margin, width // 2))
    layout.elements.append(qr)
    x = margin + (len(qr.modules) + 2) * qr.magnification + dots(2, dpi)
    inner = width - x - margin
    y = margin + dots(1, dpi)
    code_height = shrink(fields["code"], points(10 * scale, dpi), inner)
    layout.elements.append(Text(x, y, code_height, fields["code"], bold=True))
    y += code_height + dots(1.5 * scale, dpi)
    line = points(7.5 * scale, dpi)
    lines = [
        f"{fields['article']}  {fields['product']}",
        f"Batch {fields['batch']}",
        f"PO {fields['po']}",
        *([f"Ctr {fields['container']}"] if fields["container"] else []),
        f"Origin {fields['origin'] or '-'}   {fields['weight']}",
    ]
    if copy_note:
        lines.append(copy_note)
    for value in lines:
        layout.elements.append(Text(x, y, line, fit(value, line, inner), max_width=inner))
        y += line + dots(1.2 * scale, dpi)
    return layout


def layout_test(*, dpi: int, width_mm, height_mm, printer_name: str, when: str) -> Layout:
    """The test label: the printer's name, size and resolution, a frame and a QR code."""
    width, height = dots(width_mm, dpi), dots(height_mm, dpi)
    margin = dots(3, dpi)
    layout = Layout(width=width, height=height, dpi=dpi)
    big, small = points(14, dpi), points(9, dpi)
    layout.elements.append(Text(margin, margin, big, "CartonTrace test label", bold=True))
    y = margin + big + dots(2, dpi)
    for value in (
        printer_name,
        f"{width_mm} x {height_mm} mm, {dpi} dpi",
        when,
    ):
        layout.elements.append(Text(margin, y, small, fit(value, small, width - 2 * margin)))
        y += small + dots(1.5, dpi)
    layout.elements.append(Line(margin, y, width - 2 * margin, max(2, dots(0.3, dpi))))
    y += dots(2, dpi)
    layout.elements.append(
        qr_for("CARTONTRACE TEST", margin, y, max(0, min(height - y - margin, width // 3)))
    )
    return layout


LAYOUTS = {"default": layout_default, "compact": layout_compact}


def carton_layout(label, url: str, *, template: str, dpi: int, width_mm, height_mm, copy_note: str = ""):
    return LAYOUTS[template](
        label_fields(label), url, dpi=dpi, width_mm=width_mm, height_mm=height_mm, copy_note=copy_note
    )


def to_zpl(layout: Layout, *, copies: int = 1) -> str:
    """One label format (`^XA ... ^XZ`) for the layout; `^PQ` prints `copies` of it."""
    parts = ["^XA", "^CI28", f"^PW{layout.width}", f"^LL{layout.height}", "^LH0,0"]
    for element in layout.elements:
        if isinstance(element, Text):
            font = (
                f"^A0N,{element.height},{element.height}"
                if is_latin(element.text)
                else f"^A@N,{element.height},{element.height},{CJK_FONT}"
            )
            parts.append(
                f"^FO{element.x},{element.y}{font}^FH{HEX_INDICATOR}^FD{escape_field(element.text)}^FS"
            )
        elif isinstance(element, Line):
            parts.append(
                f"^FO{element.x},{element.y}^GB{element.width},{element.thickness},{element.thickness}^FS"
            )
        elif isinstance(element, QR):
            parts.append(
                f"^FO{element.x},{element.y}^BQN,2,{element.magnification}"
                f"^FH{HEX_INDICATOR}^FDMA,{escape_field(element.data)}^FS"
            )
    if copies > 1:
        parts.append(f"^PQ{copies}")
    parts.append("^XZ")
    return "\n".join(parts) + "\n"


def to_preview(layout: Layout) -> dict:
    """The layout as data for the web app's SVG preview (the same elements the ZPL draws)."""
    elements = []
    for element in layout.elements:
        if isinstance(element, Text):
            elements.append(
                {
                    "kind": "text",
                    "x": element.x,
                    "y": element.y,
                    "height": element.height,
                    "text": element.text,
                    "bold": element.bold,
                }
            )
        elif isinstance(element, Line):
            elements.append(
                {
                    "kind": "line",
                    "x": element.x,
                    "y": element.y,
                    "width": element.width,
                    "thickness": element.thickness,
                }
            )
        elif isinstance(element, QR):
            elements.append(
                {
                    "kind": "qr",
                    "x": element.x,
                    "y": element.y,
                    "magnification": element.magnification,
                    "data": element.data,
                    "modules": element.modules,
                }
            )
    return {"width": layout.width, "height": layout.height, "dpi": layout.dpi, "elements": elements}
