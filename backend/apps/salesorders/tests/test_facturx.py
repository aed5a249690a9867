"""The Factur-X e-invoice (CII D16B, EN 16931 profile, embedded in a PDF/A-3): valid against the Factur-X
XSD for each VAT case and for a credit note, judged by the same EN 16931 rules as the UBL e-invoice, and
refused with the rules named (docs/sales.md, "E-invoice (Factur-X)")."""

from __future__ import annotations

import copy
import io
from decimal import Decimal

import facturx
import pymupdf as fitz
import pytest
from lxml import etree
from pypdf import PdfReader

from apps.customers.models import Customer
from apps.salesorders import cii, en16931, pdfa, services
from apps.salesorders.tests import test_ubl
from apps.salesorders.tests.test_ubl import BREAKS, _posted

pytestmark = pytest.mark.django_db
einvoice_world = test_ubl.einvoice_world
D = Decimal
INVOICES = "/api/salesorders/invoices/"
NS = cii.NSMAP


def _text(root, path):
    found = root.xpath(path, namespaces=NS)
    return found[0].text if found else None


@pytest.fixture
def facturx_documents(einvoice_world, in_tenant):
    w = einvoice_world
    intra = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=intra, post=True)
        note.refresh_from_db()
    return {
        "domestic": _posted(w, in_tenant, w["customer"], discount=D("10")),
        "intra_eu": intra,
        "export": _posted(w, in_tenant, w["chinese_buyer"]),
        "reverse_charge": _posted(w, in_tenant, w["customer"], reverse_charge=True),
        "credit_note": note,
    }


def test_every_case_validates_against_the_facturx_xsd(einvoice_world, in_tenant, facturx_documents):
    w = einvoice_world
    with in_tenant(w["tenant3"]):
        for name, invoice in facturx_documents.items():
            xml = cii.invoice_facturx_xml(invoice)
            assert facturx.xml_check_xsd(xml, flavor="factur-x", level="en16931"), name
            root = etree.fromstring(xml)
            assert facturx.get_level(root, "factur-x") == "en16931"
            assert _text(root, "rsm:ExchangedDocument/ram:ID") == invoice.number


def test_the_content_matches_the_invoice(einvoice_world, in_tenant, facturx_documents):
    w = einvoice_world
    domestic = facturx_documents["domestic"]
    with in_tenant(w["tenant3"]):
        root = etree.fromstring(cii.invoice_facturx_xml(domestic))
    settlement = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement"
    totals = f"{settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation"
    assert _text(root, "rsm:ExchangedDocument/ram:TypeCode") == "380"
    assert _text(root, f"{totals}/ram:GrandTotalAmount") == str(domestic.total_gross)
    assert _text(root, f"{totals}/ram:TaxBasisTotalAmount") == str(domestic.total_net)
    assert _text(root, f"{settlement}/ram:ApplicableTradeTax/ram:CategoryCode") == "S"
    assert (
        _text(
            root,
            f"{settlement}/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID",
        )
        == "NL91ABNA0417164300"
    )
    assert _text(root, f"{settlement}/ram:PaymentReference") == domestic.payment_reference
    line = "rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[1]"
    assert (
        _text(
            root,
            f"{line}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:ActualAmount",
        )
        == "10.00"
    )
    intra = facturx_documents["intra_eu"]
    with in_tenant(w["tenant3"]):
        root = etree.fromstring(cii.invoice_facturx_xml(intra))
    assert _text(root, f"{settlement}/ram:ApplicableTradeTax/ram:CategoryCode") == "K"
    assert _text(root, f"{settlement}/ram:ApplicableTradeTax/ram:ExemptionReasonCode") == "VATEX-EU-IC"


def test_a_credit_note_is_381_and_references_its_invoice(einvoice_world, in_tenant, facturx_documents):
    w = einvoice_world
    note = facturx_documents["credit_note"]
    with in_tenant(w["tenant3"]):
        root = etree.fromstring(cii.invoice_facturx_xml(note))
    assert _text(root, "rsm:ExchangedDocument/ram:TypeCode") == "381"
    reference = (
        "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument"
    )
    assert _text(root, f"{reference}/ram:IssuerAssignedID") == facturx_documents["intra_eu"].number
    assert _text(root, f"{reference}/ram:FormattedIssueDateTime/qdt:DateTimeString") == "20260402"


def test_the_pdf_is_pdfa3_with_the_xml_attached(einvoice_world, in_tenant, facturx_documents, api):
    w = einvoice_world
    invoice = facturx_documents["domestic"]
    response = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{invoice.pk}/facturx/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/pdf"
    assert f'filename="{invoice.number}-factur-x.pdf"' in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    assert list(reader.attachments) == ["factur-x.xml"]
    embedded = reader.attachments["factur-x.xml"][0]
    assert (
        etree.fromstring(embedded).xpath("rsm:ExchangedDocument/ram:ID", namespaces=NS)[0].text
        == invoice.number
    )
    raw = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert "<pdfaid:part>3</pdfaid:part>" in raw and "<pdfaid:conformance>B</pdfaid:conformance>" in raw
    assert "factur-x.xml" in raw and "EN 16931" in raw
    filespec = reader.trailer["/Root"]["/AF"][0].get_object()
    assert filespec["/AFRelationship"] == "/Data"
    assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFA1"
    # PDF/A: every font the document uses is embedded (none left for the reader to substitute)
    with fitz.open(stream=response.content, filetype="pdf") as document:
        fonts = [font for page in range(document.page_count) for font in document.get_page_fonts(page)]
    assert fonts and [font[3] for font in fonts if font[1] == "n/a"] == []
    assert pdfa.problems(response.content) == []


def test_a_file_that_is_not_pdfa_is_not_issued(
    einvoice_world, in_tenant, api, facturx_documents, monkeypatch
):
    """The file itself is checked before it leaves: a visual PDF in a standard font (as the documents were
    made before they embedded their font) is refused, naming the PDF/A rule, and nothing is issued."""
    from apps.salesorders import pdf
    from apps.salesorders.tests.test_pdfa import standard_font_pdf

    w = einvoice_world
    monkeypatch.setattr(pdf, "invoice_pdf", lambda invoice: standard_font_pdf())
    refused = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{facturx_documents['domestic'].pk}/facturx/")
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"] == "facturx_invalid"
    [finding] = refused.json()["data"]
    assert finding["rule"] == "PDFA-FONT" and "Helvetica" in finding["message"]


def test_the_download_is_for_its_tenant_and_readers_of_invoices_only(
    einvoice_world, in_tenant, api, facturx_documents
):
    w = einvoice_world
    invoice = facturx_documents["domestic"]
    for path in ("facturx/", "facturx-xml/"):
        assert api(w["other_admin"], w["tenant2"]).get(f"{INVOICES}{invoice.pk}/{path}").status_code == 404
        assert (
            api(w["supplier_user_a"], w["tenant3"]).get(f"{INVOICES}{invoice.pk}/{path}").status_code == 403
        )
    xml = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{invoice.pk}/facturx-xml/")
    assert xml.status_code == 200 and xml["Content-Type"] == "application/xml"
    assert 'filename="factur-x.xml"' in xml["Content-Disposition"]


def test_a_broken_invoice_is_refused_with_its_rules(einvoice_world, in_tenant, api):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["chinese_buyer"])
    client = api(w["sales"], w["tenant3"])
    # no electronic address: a Peppol rule, which Factur-X does not have
    with in_tenant(w["tenant3"]):
        Customer.objects.filter(pk=w["chinese_buyer"].pk).update(email="")
    assert client.get(f"{INVOICES}{invoice.pk}/ubl/").status_code == 409
    assert client.get(f"{INVOICES}{invoice.pk}/facturx-xml/").status_code == 200
    # a seller without a country breaks EN 16931 itself (BR-09): both syntaxes refuse it, naming the rule
    with in_tenant(w["tenant3"]):
        type(invoice).objects.filter(pk=invoice.pk).update(seller_country="", seller_vat_number="")
    for path in ("facturx/", "facturx-xml/"):
        refused = client.get(f"{INVOICES}{invoice.pk}/{path}")
        assert refused.status_code == 409, refused.content
        body = refused.json()
        assert body["error"] == "facturx_invalid"
        rules = [p["rule"] for p in body["data"]]
        assert "BR-09" in rules and not [r for r in rules if r.startswith(("PEPPOL", "UBL"))], rules
    ubl_rules = [p["rule"] for p in client.get(f"{INVOICES}{invoice.pk}/ubl/").json()["data"]]
    assert "BR-09" in ubl_rules


def test_a_draft_has_no_facturx(einvoice_world, in_tenant, api):
    w = einvoice_world
    with in_tenant(w["tenant3"]):
        from datetime import date

        order = services.sales_order_create(
            customer=w["customer"],
            order_date=date(2026, 3, 1),
            lines=[services.LineInput(product=w["carton"], quantity=D("1"), unit_price=D("1"))],
            confirm=True,
        )
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=D("1"))],
        )
        services.shipment_ship(shipment=shipment)
        draft = services.invoice_create(sales_order=order)
    refused = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{draft.pk}/facturx/")
    assert refused.status_code == 409 and refused.json()["error"] == "ubl_not_posted"


def test_an_xsd_failure_is_named(einvoice_world, in_tenant, facturx_documents):
    w = einvoice_world
    with in_tenant(w["tenant3"]):
        root = cii.build(facturx_documents["domestic"])
    assert cii.xsd_problems(root) == []
    broken = copy.deepcopy(root)
    document = broken.find(f"{{{cii.NS_RSM}}}ExchangedDocument")
    document.remove(document.find(f"{{{cii.NS_RAM}}}TypeCode"))
    problems = cii.xsd_problems(broken)
    assert [p.rule for p in problems] == [cii.XSD_RULE] and "TypeCode" in problems[0].message


def test_factur_x_is_judged_by_the_en16931_rules_only():
    """Each EN 16931 rule applies to both syntaxes; the UBL structure and Peppol rules to UBL only, so the
    rule tests of test_ubl.py (every rule broken once) cover the rules Factur-X is judged by."""
    en = {r.identifier for r in en16931.RULES if r.scope == en16931.EN16931}
    peppol = {r.identifier for r in en16931.RULES if r.scope == en16931.PEPPOL}
    assert en and peppol and not en & peppol
    assert all(r.startswith("BR-") for r in en)
    assert all(r.startswith(("UBL-", "PEPPOL-")) for r in peppol)
    assert {rule for rule, _doc, _change in BREAKS} >= en


def test_every_en16931_rule_broken_in_the_content_is_found_in_the_factur_x_profile(einvoice_world, in_tenant):
    """The rule tests of test_ubl.py break the UBL rendering; here the same breaks, judged with the
    Factur-X profile, still name their EN 16931 rule."""
    from apps.salesorders import ubl

    w = einvoice_world
    invoice = _posted(w, in_tenant, w["customer"])
    intra = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        docs = {
            "domestic": ubl.build(invoice),
            "intra_eu": ubl.build(intra),
            "export": ubl.build(_posted(w, in_tenant, w["chinese_buyer"])),
            "reverse_charge": ubl.build(_posted(w, in_tenant, w["customer"], reverse_charge=True)),
        }
        note = services.credit_note_create(invoice=intra, post=True)
        docs["credit_note"] = ubl.build(note)
    missed = []
    for rule, name, change in BREAKS:
        if not rule.startswith("BR-"):
            continue
        root = copy.deepcopy(docs[name])
        change(root)
        if rule not in [p.rule for p in en16931.validate(root, profile=en16931.EN16931)]:
            missed.append(rule)
    assert missed == []
