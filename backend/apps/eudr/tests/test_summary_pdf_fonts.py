"""The DDS summary PDF prints its dashes, bullets and middle dots in Helvetica, and Chinese in STSong-Light."""

from __future__ import annotations

from io import BytesIO

from pypdf import PdfReader
from reportlab.platypus import SimpleDocTemplate

from apps.eudr.dds.summary_pdf import _register_fonts, _Styles


def _fonts_and_text(flowables) -> tuple[set[str], str]:
    buffer = BytesIO()
    SimpleDocTemplate(buffer).build(flowables)
    page = PdfReader(BytesIO(buffer.getvalue())).pages[0]
    fonts = {str(font["/BaseFont"]) for font in page["/Resources"]["/Font"].values()}
    return fonts, page.extract_text()


def test_punctuation_of_the_summary_stays_in_helvetica():
    styles = _Styles()
    for text in ("—", "2026-01 – 2026-03", "• invoice.pdf", "Delivery D-1 · generated 1 Jan"):
        assert styles.p(text).style.fontName == "Helvetica", text
    fonts, text = _fonts_and_text([styles.p("—"), styles.p("• invoice.pdf"), styles.p("2026-01 – 2026-03")])
    assert fonts == {"/Helvetica"}
    # (pypdf reads the WinAnsi bullet back as another code; the dashes come back as they are)
    for expected in ("—", "invoice.pdf", "2026-01 – 2026-03"):
        assert expected in text, (expected, text)


def test_chinese_text_uses_the_cjk_font():
    _register_fonts()
    styles = _Styles()
    paragraph = styles.p("上海常青包装 · 尽职调查")
    assert paragraph.style.fontName == "STSong-Light"
    fonts, _ = _fonts_and_text([paragraph])
    assert any("STSong-Light" in font for font in fonts)
