"""`manage.py check_einvoice`: our own e-invoices (UBL, Factur-X XML and PDF) are valid; a broken one exits
1 naming the rule; a schema-invalid one names the XSD rule (docs/sales.md, "Checking an e-invoice file")."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from lxml import etree

from apps.salesorders import cii, einvoice_check, en16931, services, ubl, xsd
from apps.salesorders.tests import test_ubl
from apps.salesorders.tests.test_ubl import _posted

pytestmark = pytest.mark.django_db
einvoice_world = test_ubl.einvoice_world
NS = en16931.NS


def _run(*paths: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("check_einvoice", *paths, stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def files(einvoice_world, in_tenant, tmp_path):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=invoice, post=True)
        note.refresh_from_db()
        written = {
            "ubl": ubl.invoice_ubl(invoice),
            "credit_note": ubl.invoice_ubl(note),
            "cii": cii.invoice_facturx_xml(invoice),
            "cii_credit_note": cii.invoice_facturx_xml(note),
            "pdf": cii.invoice_facturx_pdf(invoice),
        }
    paths = {}
    for name, content in written.items():
        path = tmp_path / f"{name}.{'pdf' if name == 'pdf' else 'xml'}"
        path.write_bytes(content)
        paths[name] = str(path)
    return paths


def _rewrite(path: str, change) -> str:
    root = etree.parse(path).getroot()
    change(root)
    broken = path.replace(".xml", "-broken.xml")
    with open(broken, "wb") as handle:
        handle.write(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return broken


def test_our_e_invoices_are_valid(files):
    code, out = _run(*files.values())
    assert code == 0, out
    assert out.count(": valid") == len(files)
    assert f"{files['ubl']} (UBL): valid" in out
    assert f"{files['cii']} (CII): valid" in out
    assert f"{files['pdf']} (Factur-X PDF): valid" in out


def test_a_ubl_invoice_breaking_a_rule_exits_1_naming_it(files):
    def drop_seller_country(root):
        country = root.find(
            "cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country", namespaces=NS
        )
        country.getparent().remove(country)

    broken = _rewrite(files["ubl"], drop_seller_country)
    code, out = _run(files["credit_note"], broken)
    assert code == 1
    assert f"{files['credit_note']} (UBL): valid" in out
    assert "  BR-09: The Seller postal address (BG-5) shall contain a Seller country code (BT-40)." in out


def test_a_cii_invoice_breaking_a_rule_exits_1_naming_it(files):
    def wrong_grand_total(root):
        total = root.xpath("//ram:GrandTotalAmount", namespaces=cii.NSMAP)[0]
        total.text = "1.00"

    code, out = _run(_rewrite(files["cii"], wrong_grand_total))
    assert code == 1
    assert "  BR-CO-15: " in out and "XSD" not in out


def test_a_schema_invalid_file_names_the_xsd_rule(files):
    def misplace_id(root):
        identifier = root.find("cbc:ID", namespaces=NS)
        root.remove(identifier)
        root.append(identifier)  # after the lines: not where the schema has it

    code, out = _run(_rewrite(files["ubl"], misplace_id))
    assert code == 1
    assert f"  {xsd.UBL_XSD_RULE}: " in out and "ID" in out

    def drop_type_code(root):
        document = root.find("rsm:ExchangedDocument", namespaces=cii.NSMAP)
        document.remove(document.find("ram:TypeCode", namespaces=cii.NSMAP))

    code, out = _run(_rewrite(files["cii"], drop_type_code))
    assert code == 1
    assert f"  {xsd.FACTURX_XSD_RULE}: " in out and "TypeCode" in out


def test_a_file_that_is_no_e_invoice_or_missing_exits_1(tmp_path):
    other = tmp_path / "order.xml"
    other.write_bytes(b"<Order xmlns='urn:example'/>")
    text = tmp_path / "notes.txt"
    text.write_bytes(b"hello")
    code, out = _run(str(other), str(text), str(tmp_path / "missing.xml"))
    assert code == 1
    assert "order.xml: not an e-invoice: expected a UBL Invoice or CreditNote" in out
    assert "notes.txt: not an e-invoice: not well-formed XML" in out
    assert "missing.xml: cannot be read" in out


def test_a_doctype_is_refused_without_expanding_it(tmp_path):
    evil = tmp_path / "evil.xml"
    evil.write_bytes(
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
        b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&e;</Invoice>'
    )
    code, out = _run(str(evil))
    assert code == 1 and "DOCTYPE" in out and "root:" not in out


def test_the_cii_content_is_carried_over_for_the_rules(files):
    """Every business term the rules read is carried from the CII document to the UBL the rules judge:
    ours passes every EN 16931 rule, and each part it needs is there."""
    root = etree.parse(files["cii"]).getroot()
    converted = einvoice_check.cii_to_ubl(root)
    assert en16931.validate(converted, profile=en16931.EN16931) == []
    ours = etree.parse(files["ubl"]).getroot()
    for path in (
        "cbc:ID",
        "cbc:DocumentCurrencyCode",
        "cac:TaxTotal/cbc:TaxAmount",
        "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID",
        "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode",
        "cac:LegalMonetaryTotal/cbc:PayableAmount",
        "cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID",
        "cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode",
        "cac:InvoiceLine/cbc:LineExtensionAmount",
        "cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent",
    ):
        mine = converted.xpath(f"{path}/text()", namespaces=NS)
        assert mine and mine == ours.xpath(f"{path}/text()", namespaces=NS), path
    assert converted.xpath("cbc:CustomizationID/text()", namespaces=NS) == [cii.GUIDELINE_ID]
    assert converted.xpath("cac:InvoiceLine/cac:Price/cbc:PriceAmount/text()", namespaces=NS)
    note = einvoice_check.cii_to_ubl(etree.parse(files["cii_credit_note"]).getroot())
    assert etree.QName(note).localname == "CreditNote"
    assert en16931.validate(note, profile=en16931.EN16931) == []
