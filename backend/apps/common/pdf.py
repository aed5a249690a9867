"""The one way text goes into a reportlab paragraph.

reportlab's `Paragraph` reads its text as markup (`<b>`, `<font>`, `<a href>`, `<img src>`, entities): a
name with `<`, `&` or a tag in it either breaks the parse (a 500 for everybody: a carrier renamed
`Evil <b>carrier` took down the loading list) or is obeyed (a link, another font, an image read from a
path). Every PDF builds its paragraphs with `paragraph()`, which escapes the text (`&`, `<`, `>`) and keeps
line breaks; markup the code itself means is passed as `markup=` and only ever holds literal tags of the
code, never data. `apps/common/tests/test_pdf_markup.py` renders every PDF with `<b>&<` in its text
fields and checks that no module builds a `Paragraph` itself.

The font is the one every company document embeds (apps/common/document_pdf.py), which sets Latin and
Chinese text alike, so a paragraph needs no font chosen by its text.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Paragraph

__all__ = ["escape_text", "paragraph"]


def escape_text(value: Any) -> str:
    """Text as paragraph markup that shows exactly that text (line breaks kept)."""
    text = "" if value is None else str(value)
    return escape(text).replace("\r\n", "\n").replace("\n", "<br/>")


def paragraph(value: Any, style, *, markup: str | None = None) -> Paragraph:
    """A paragraph showing `value` as plain text; `markup`, when given, is a format string of the code's own
    markup with one `%s` where the escaped value goes (e.g. "<b>%s</b>")."""
    text = escape_text(value)
    return Paragraph(markup % text if markup else text, style)
