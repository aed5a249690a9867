"""The company documents' font (apps/common/document_pdf.py): one embedded font for Latin and Chinese text,
and a clear refusal when its files are missing. That every document embeds all its fonts is tested on every
PDF the product makes (test_pdf_pictures.py)."""

from __future__ import annotations

from io import BytesIO

import pymupdf as fitz
import pytest
from django.core.exceptions import ImproperlyConfigured
from reportlab.platypus import SimpleDocTemplate

from apps.common import document_pdf
from apps.common.document_pdf import FONT, _Styles


def _pdf(flowables) -> bytes:
    buffer = BytesIO()
    SimpleDocTemplate(buffer, initialFontName=FONT).build(flowables)
    return buffer.getvalue()


def test_latin_punctuation_and_chinese_share_the_embedded_font():
    styles = _Styles()
    texts = [
        "12 rue de la République — Calle de Alcalá",
        "• invoice.pdf · 2026-01 – 2026-03",
        "上海常青包装 · 尽职调查",
    ]
    paragraphs = [styles.p(text) for text in texts] + [styles.p("发票 Invoice", "title")]
    assert {p.style.fontName for p in paragraphs} == {"NotoSansSC", "NotoSansSC-Bold"}
    with fitz.open(stream=_pdf(paragraphs), filetype="pdf") as document:
        fonts = document.get_page_fonts(0)
        text = document[0].get_text()
    assert {font[1] for font in fonts} == {"ttf"}  # every font program embedded, none left to the reader
    for expected in [*texts, "发票 Invoice"]:
        assert expected in text, (expected, text)


def test_a_missing_font_file_is_refused_with_what_to_do(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(document_pdf, "_registered", False)
    settings.DOCUMENT_FONT_DIR = tmp_path
    with pytest.raises(ImproperlyConfigured, match="make install"):
        _Styles()
