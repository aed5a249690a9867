"""The PDF/A-3 checks of a Factur-X file (apps/salesorders/pdfa.py): each finding made by a file that
breaks it, and none on a file that keeps them (the product's own Factur-X: test_facturx.py)."""

from __future__ import annotations

import io

import facturx
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from apps.common.document_pdf import FONT, _register_fonts
from apps.salesorders import cii, pdfa
from apps.salesorders.einvoice_check import FACTURX_PDF, check_file

# what the `factur-x` package reads of the XML to write the XMP (not a valid invoice: the PDF is what is
# checked here)
MINIMAL_CII = b"""<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
  xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
  xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>
    <ram:ID>urn:cen.eu:en16931:2017</ram:ID>
  </ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>INV-1</ram:ID><ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20261128</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeAgreement>
    <ram:SellerTradeParty><ram:Name>Seller</ram:Name></ram:SellerTradeParty>
    <ram:BuyerTradeParty><ram:Name>Buyer</ram:Name></ram:BuyerTradeParty>
  </ram:ApplicableHeaderTradeAgreement></rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>"""


def _pdf(font: str, text: str = "Invoice INV-1") -> bytes:
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, initialFontName=FONT if font == FONT else None)
    page.setFont(font, 12)
    page.drawString(72, 720, text)
    page.save()
    return buffer.getvalue()


def standard_font_pdf() -> bytes:
    """A one-page PDF in Helvetica, a standard font no PDF embeds."""
    return _pdf("Helvetica")


def _facturx(visual: bytes) -> bytes:
    return facturx.generate_from_binary(
        visual, MINIMAL_CII, flavor="factur-x", level="en16931", check_xsd=False
    )


def _rules(content: bytes) -> list[str]:
    return [problem.rule for problem in pdfa.problems(content)]


def test_an_embedded_font_with_intent_xmp_and_xml_has_no_finding():
    _register_fonts()
    assert _rules(_facturx(cii._with_output_intent(_pdf(FONT)))) == []


def test_a_standard_font_is_named():
    [finding] = pdfa.problems(_facturx(cii._with_output_intent(standard_font_pdf())))
    assert finding.rule == "PDFA-FONT" and "Helvetica" in finding.message


def test_a_chinese_font_left_to_the_reader_is_named():
    if "STSong-Light" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    [finding] = pdfa.problems(_facturx(cii._with_output_intent(_pdf("STSong-Light", "发票"))))
    assert finding.rule == "PDFA-FONT" and "STSong-Light" in finding.message


def test_no_output_intent_is_named():
    _register_fonts()
    assert _rules(_facturx(_pdf(FONT))) == ["PDFA-OUTPUT-INTENT"]


def test_a_plain_pdf_breaks_every_rule():
    assert _rules(standard_font_pdf()) == ["PDFA-XMP", "PDFA-OUTPUT-INTENT", "PDFA-ATTACHMENT", "PDFA-FONT"]


def test_an_unreadable_pdf_is_a_finding_not_an_error():
    assert _rules(b"%PDF-1.7\nnot a pdf at all") == ["PDFA-READ"]


def test_check_einvoice_reports_the_pdf_findings_beside_the_rules():
    result = check_file(_facturx(cii._with_output_intent(standard_font_pdf())))
    assert result.syntax == FACTURX_PDF
    assert "PDFA-FONT" in [problem.rule for problem in result.problems]
