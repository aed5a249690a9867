"""A paragraph in a Chinese-font style prints text without Chinese in Helvetica (apps/common/pdf.py)."""

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont

from apps.common.pdf import paragraph


def _cjk_style() -> ParagraphStyle:
    if "STSong-Light" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return ParagraphStyle("body", fontName="STSong-Light", fontSize=9, leading=12)


def test_latin_text_with_accents_prints_in_helvetica_at_the_same_size():
    style = _cjk_style()
    latin = paragraph("12 rue de la République · Calle de Alcalá — EuroTrade", style)
    assert latin.style.fontName == "Helvetica"
    assert (latin.style.fontSize, latin.style.leading) == (9, 12)
    # one Helvetica style per style, not one per paragraph
    assert paragraph("Maison & Table", style).style is latin.style


def test_chinese_text_keeps_the_chinese_font_and_other_styles_are_untouched():
    style = _cjk_style()
    assert paragraph("宁波蓝波纸箱 Ningbo", style).style is style
    helvetica = ParagraphStyle("plain", fontName="Helvetica-Bold")
    assert paragraph("Invoice", helvetica).style is helvetica
