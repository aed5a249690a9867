"""The one way text goes into a reportlab paragraph.

reportlab's `Paragraph` reads its text as markup (`<b>`, `<font>`, `<a href>`, `<img src>`, entities): a
name with `<`, `&` or a tag in it either breaks the parse (a 500 for everybody: a carrier renamed
`Evil <b>carrier` took down the loading list) or is obeyed (a link, another font, an image read from a
path). Every PDF builds its paragraphs with `paragraph()`, which escapes the text (`&`, `<`, `>`) and keeps
line breaks; markup the code itself means is passed as `markup=` and only ever holds literal tags of the
code, never data. `apps/common/tests/test_pdf_markup.py` renders every PDF with `<b>&<` in its text
fields and checks that no module builds a `Paragraph` itself.

A style in the Chinese font (STSong-Light, which no PDF embeds: the reader substitutes its own) prints a
text that has no Chinese in it in Helvetica instead: the substitute CJK fonts set Latin letters at odd
widths and leave gaps around accented ones ("12 rue de la Ré publique" on the loading list), and a
document in English read like one set in a Chinese font. A text Helvetica cannot print (WinAnsi, cp1252)
keeps the Chinese font.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

__all__ = ["escape_text", "latin_style", "paragraph"]

CJK_FONTS = frozenset({"STSong-Light"})
LATIN_FONT = "Helvetica"


def escape_text(value: Any) -> str:
    """Text as paragraph markup that shows exactly that text (line breaks kept)."""
    text = "" if value is None else str(value)
    return escape(text).replace("\r\n", "\n").replace("\n", "<br/>")


def paragraph(value: Any, style, *, markup: str | None = None) -> Paragraph:
    """A paragraph showing `value` as plain text; `markup`, when given, is a format string of the code's own
    markup with one `%s` where the escaped value goes (e.g. "<b>%s</b>")."""
    text = escape_text(value)
    return Paragraph(markup % text if markup else text, latin_style(text, style))


def latin_style(text: str, style):
    """`style`, or the same style in Helvetica when it is in the Chinese font and `text` needs none of it."""
    if getattr(style, "fontName", None) not in CJK_FONTS:
        return style
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return style
    # made once per style and kept on it (a PDF's styles live as long as the PDF is being built)
    latin = getattr(style, "_latin_variant", None)
    if latin is None:
        latin = ParagraphStyle(f"{style.name}-latin", parent=style, fontName=LATIN_FONT)
        style._latin_variant = latin
    return latin
