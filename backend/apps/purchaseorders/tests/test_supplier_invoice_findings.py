"""A received e-invoice is checked against the XSD of its syntax and the EN 16931 rules when it is read: the
findings are kept on the supplier invoice and shown in its detail (a reading, not a refusal), in the
request's language for our rules; a file that is not an e-invoice is still refused; an invoice with
findings may be approved (docs/purchasing.md, "Supplier invoices")."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.purchaseorders import einvoice_in
from apps.purchaseorders.models import PurchaseOrderLine, SupplierInvoice
from apps.purchaseorders.services import ReceiptLineInput, receipt_create

from .einvoice_fixtures import cii, facturx_pdf, ubl

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/supplier-invoices/"


def complete_ubl(order_number: str, number: str = "SUP-7001") -> bytes:
    """A UBL invoice that keeps the UBL 2.1 XSD and every EN 16931 rule: 100 cartons at 1.25, 21 % VAT."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
<cbc:ID>{number}</cbc:ID>
<cbc:IssueDate>2026-03-10</cbc:IssueDate>
<cbc:DueDate>2026-04-09</cbc:DueDate>
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cbc:BuyerReference>{order_number}</cbc:BuyerReference>
<cac:OrderReference><cbc:ID>{order_number}</cbc:ID></cac:OrderReference>
<cac:AccountingSupplierParty><cac:Party>
<cbc:EndpointID schemeID="EM">billing@evergreen.example</cbc:EndpointID>
<cac:PostalAddress><cbc:CityName>Ningbo</cbc:CityName><cac:Country><cbc:IdentificationCode>CN</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
<cac:PartyTaxScheme><cbc:CompanyID>CN91310000MA1K</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
<cac:PartyLegalEntity><cbc:RegistrationName>Evergreen No.1</cbc:RegistrationName></cac:PartyLegalEntity>
</cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party>
<cbc:EndpointID schemeID="EM">ap@buyer.example</cbc:EndpointID>
<cac:PostalAddress><cbc:CityName>Amsterdam</cbc:CityName><cac:Country><cbc:IdentificationCode>NL</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
<cac:PartyLegalEntity><cbc:RegistrationName>Buyer BV</cbc:RegistrationName></cac:PartyLegalEntity>
</cac:Party></cac:AccountingCustomerParty>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">26.25</cbc:TaxAmount>
<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">125.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">26.25</cbc:TaxAmount>
<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
</cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal>
<cbc:LineExtensionAmount currencyID="EUR">125.00</cbc:LineExtensionAmount>
<cbc:TaxExclusiveAmount currencyID="EUR">125.00</cbc:TaxExclusiveAmount>
<cbc:TaxInclusiveAmount currencyID="EUR">151.25</cbc:TaxInclusiveAmount>
<cbc:PayableAmount currencyID="EUR">151.25</cbc:PayableAmount>
</cac:LegalMonetaryTotal>
<cac:InvoiceLine><cbc:ID>1</cbc:ID>
<cbc:InvoicedQuantity unitCode="C62">100</cbc:InvoicedQuantity>
<cbc:LineExtensionAmount currencyID="EUR">125.00</cbc:LineExtensionAmount>
<cac:OrderLineReference><cbc:LineID>1</cbc:LineID></cac:OrderLineReference>
<cac:Item><cbc:Name>Carton</cbc:Name>
<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
</cac:Item>
<cac:Price><cbc:PriceAmount currencyID="EUR">1.25</cbc:PriceAmount></cac:Price>
</cac:InvoiceLine>
</Invoice>""".encode()


@pytest.fixture
def order(world, make_order, in_tenant):
    """A purchase order of 100 cartons at 1.25, all received (an invoice of it matches three ways)."""
    made = make_order(lines=[(world["carton"], "100", "1.25")])
    with in_tenant(world["tenant3"]):
        line = PurchaseOrderLine.objects.get(order=made)
        receipt_create(
            purchase_order=made,
            lines=[ReceiptLineInput(order_line_id=line.pk, quantity=line.order_qty)],
            user=world["admin"],
        )
    return made


def upload(client, content: bytes, name: str = "invoice.xml"):
    return client.post(URL, {"file": SimpleUploadedFile(name, content)}, format="multipart")


def buyer(world, api):
    return api(world["purchasing"], world["tenant3"])


def created(response) -> dict:
    assert response.status_code == 201, response.content
    return response.json()["data"]


def rules(body) -> list[str]:
    return [finding["rule"] for finding in body["einvoice_findings"]]


def test_a_complete_ubl_cii_or_factur_x_file_has_no_findings(world, api, order):
    client = buyer(world, api)
    body = created(upload(client, complete_ubl(order.order_number)))
    assert body["einvoice_findings"] == []
    assert body["match_status"] == "matched"
    assert created(upload(client, cii(order_reference=order.order_number)))["einvoice_findings"] == []
    pdf = facturx_pdf(cii(number="FX-1", order_reference=order.order_number))
    assert created(upload(client, pdf, "fx.pdf"))["einvoice_findings"] == []


def test_a_schema_invalid_ubl_file_is_read_with_its_findings_kept(world, api, order, in_tenant):
    """The UBL fixture has no buyer party and no VAT breakdown: the XSD and the rules say so, the invoice
    is still read and matched."""
    client = buyer(world, api)
    body = created(upload(client, ubl(order_reference=order.order_number)))
    found = rules(body)
    assert found[0] == "UBL-XSD" and "AccountingCustomerParty" in body["einvoice_findings"][0]["message"]
    assert {"BR-07", "BR-10", "BR-CO-18", "BR-S-01"} <= set(found)
    assert not any(rule.startswith("PEPPOL-") for rule in found)  # a supplier need not use Peppol
    assert body["purchase_order"]["id"] == order.pk and body["lines"]
    with in_tenant(world["tenant3"]):
        stored = SupplierInvoice.objects.get(pk=body["id"]).einvoice_findings
    assert [f["rule"] for f in stored] == found
    assert stored[1] == {"rule": "BR-07", "message": "An Invoice shall contain the Buyer name (BT-44)."}
    detail = client.get(f"{URL}{body['id']}/").json()["data"]
    assert detail["einvoice_findings"] == body["einvoice_findings"]


def test_rule_texts_follow_the_request_language_and_schema_messages_stay(world, api, order):
    client = buyer(world, api)
    body = created(upload(client, ubl(order_reference=order.order_number)))
    english = client.get(f"{URL}{body['id']}/").json()["data"]["einvoice_findings"]
    chinese = client.get(f"{URL}{body['id']}/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["data"][
        "einvoice_findings"
    ]
    assert [f["rule"] for f in chinese] == [f["rule"] for f in english]
    assert chinese[0]["message"] == english[0]["message"]  # the schema's own message
    assert chinese[1]["rule"] == "BR-07" and chinese[1]["message"] != english[1]["message"]


def test_a_cii_file_breaking_a_rule_names_it(world, api, order):
    content = cii(number="SUP-BAD", order_reference=order.order_number).replace(
        b"<ram:GrandTotalAmount>151.25</ram:GrandTotalAmount>",
        b"<ram:GrandTotalAmount>150.00</ram:GrandTotalAmount>",
    )
    assert b"150.00" in content
    body = created(upload(buyer(world, api), content))
    # the total with VAT no longer adds up, nor (due = total with VAT) the amount due
    assert rules(body) == ["BR-CO-15", "BR-CO-16"]


def test_a_file_that_is_no_e_invoice_is_still_refused(world, api):
    response = upload(buyer(world, api), b"<Order xmlns='urn:example'/>")
    assert response.status_code == 400
    assert response.json()["error"] == "einvoice_invalid"
    assert "not an e-invoice" in response.json()["message"]


def test_an_invoice_with_findings_may_be_approved(world, api, order):
    client = buyer(world, api)
    body = created(upload(client, ubl(order_reference=order.order_number)))
    assert body["match_status"] == "matched" and body["einvoice_findings"]
    approved = client.post(f"{URL}{body['id']}/approve/", {}, format="json")
    assert approved.status_code == 200, approved.content
    assert approved.json()["data"]["status"] == "approved"
    assert approved.json()["data"]["einvoice_findings"] == body["einvoice_findings"]


def test_the_findings_are_for_the_tenants_purchasing_users_only(world, api, order):
    body = created(upload(buyer(world, api), ubl(order_reference=order.order_number)))
    path = f"{URL}{body['id']}/"
    assert api(world["other_admin"], world["tenant2"]).get(path).status_code == 404
    for user in ("supplier_user_a", "supplier_user_b", "warehouse_user", "sales"):
        assert api(world[user], world["tenant3"]).get(path).status_code == 403, user


def test_the_checks_are_registered_on_start():
    assert einvoice_in._checker is not None and einvoice_in._describer is not None
    assert einvoice_in.finding_text({"rule": "UBL-XSD", "message": "line 3: not expected"}) == (
        "line 3: not expected"
    )
