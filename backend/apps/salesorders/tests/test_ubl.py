"""The e-invoice (UBL 2.1, Peppol BIS Billing 3.0, EN 16931): built for each VAT case and for a credit
note, checked before it leaves, and every rule we check broken once by a test (docs/sales.md,
"E-invoice (UBL)")."""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal

import pytest
from lxml import etree

from apps.customers.models import Customer
from apps.salesorders import en16931, services, ubl
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db
D = Decimal
INVOICES = "/api/salesorders/invoices/"
NS = en16931.NS


@pytest.fixture
def einvoice_world(sales_world, put_stock, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    Tenant.objects.filter(pk=w["tenant3"].pk).update(
        legal_name="EuroTrade Goods B.V.",
        address="Keizersgracht 1, 1015 AA Amsterdam",
        country="NL",
        vat_number="NL004495445B01",
        registration_number="KvK 24123456",
        iban="NL91ABNA0417164300",
        bic="ABNANL2A",
        email="billing@eurotrade.example",
    )
    with in_tenant(w["tenant3"]):
        w["spanish_business"] = Customer.objects.create(
            number="C-ES",
            name="Envases Ibéricos SA",
            vat_id="ESA12345674",
            billing_street="Calle Mayor 5",
            billing_post_code="28013",
            billing_city="Madrid",
            billing_country="ES",
            email="facturas@envases.example",
        )
        w["chinese_buyer"] = Customer.objects.create(
            number="C-CN",
            name="Shanghai Foods",
            billing_street="88 Century Avenue",
            billing_city="Shanghai",
            billing_country="CN",
            email="ap@shanghaifoods.example",
        )
    return w


def _posted(w, in_tenant, customer, discount=D("0"), reverse_charge=None):
    with in_tenant(w["tenant3"]):
        order = services.sales_order_create(
            customer=customer,
            order_date=date(2026, 3, 1),
            lines=[
                services.LineInput(
                    product=w["carton"], quantity=D("40"), unit_price=D("2.5"), discount_percent=discount
                ),
                services.LineInput(product=w["carton"], quantity=D("3"), unit_price=D("1.3333")),
            ],
            confirm=True,
        )
        shipment = services.shipment_create(
            sales_order=order,
            lines=[
                services.ShipmentLineInput(order_line=line, quantity=line.quantity)
                for line in order.lines.order_by("line_number")
            ],
        )
        services.shipment_ship(shipment=shipment)
        invoice = services.invoice_create(sales_order=order)
        if reverse_charge is not None:
            invoice = services.invoice_update(invoice=invoice, fields={"reverse_charge": reverse_charge})
        services.invoice_post(invoice=invoice, issue_date=date(2026, 4, 2))
        invoice.refresh_from_db()
    return invoice


def _root(w, in_tenant, invoice):
    with in_tenant(w["tenant3"]):
        root = ubl.build(invoice)
        assert en16931.validate(root) == []
        return etree.fromstring(ubl.invoice_ubl(invoice))


def _text(root, path):
    return root.xpath(path, namespaces=NS)[0].text


def test_a_domestic_invoice_is_standard_rated_with_the_account_and_reference(einvoice_world, in_tenant):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["customer"], discount=D("10"))
    root = _root(w, in_tenant, invoice)
    assert etree.QName(root).localname == "Invoice"
    assert _text(root, "cbc:CustomizationID") == ubl.CUSTOMIZATION_ID
    assert _text(root, "cbc:ID") == invoice.number
    assert _text(root, "cbc:InvoiceTypeCode") == "380"
    assert _text(root, "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID") == "S"
    assert _text(root, "cac:TaxTotal/cbc:TaxAmount") == f"{invoice.total_vat:.2f}"
    assert _text(root, "cac:LegalMonetaryTotal/cbc:PayableAmount") == f"{invoice.total_gross:.2f}"
    assert _text(root, "cac:PaymentMeans/cbc:PaymentID") == invoice.payment_reference
    assert _text(root, "cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID") == "NL91ABNA0417164300"
    assert _text(root, "cac:AccountingSupplierParty/cac:Party/cbc:EndpointID") == "NL004495445B01"
    assert root.xpath("cac:AccountingSupplierParty/cac:Party/cbc:EndpointID/@schemeID", namespaces=NS) == [
        "9944"
    ]
    assert (
        _text(root, "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID")
        == "KvK 24123456"
    )
    # the 10 % discount is a line allowance: 40 x 2.50 = 100.00, less 10.00, net 90.00
    assert _text(root, "cac:InvoiceLine/cac:AllowanceCharge/cbc:Amount") == "10.00"
    assert _text(root, "cac:InvoiceLine/cbc:LineExtensionAmount") == "90.00"
    assert en16931.validate(root) == []


def test_an_intra_eu_supply_to_a_business_is_k_with_article_138(einvoice_world, in_tenant):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    root = _root(w, in_tenant, invoice)
    category = root.xpath("cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory", namespaces=NS)
    assert len(category) == 1
    assert _text(category[0], "cbc:ID") == "K"
    assert _text(category[0], "cbc:Percent") == "0"
    assert _text(category[0], "cbc:TaxExemptionReasonCode") == "VATEX-EU-IC"
    assert "Article 138" in _text(category[0], "cbc:TaxExemptionReason")
    assert _text(root, "cac:TaxTotal/cbc:TaxAmount") == "0.00"
    assert (
        _text(root, "cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode")
        == "ES"
    )
    assert root.xpath("cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID", namespaces=NS) == [
        "9920"
    ]


def test_an_export_is_g_with_article_146(einvoice_world, in_tenant):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["chinese_buyer"])
    root = _root(w, in_tenant, invoice)
    assert _text(root, "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID") == "G"
    assert (
        _text(root, "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode") == "VATEX-EU-G"
    )
    # no VAT number: the buyer's electronic address is its e-mail
    assert root.xpath("cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID", namespaces=NS) == [
        "EM"
    ]


def test_a_reverse_charge_by_hand_is_ae(einvoice_world, in_tenant):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["customer"], reverse_charge=True)
    root = _root(w, in_tenant, invoice)
    assert _text(root, "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID") in ("AE", "K")
    assert en16931.validate(root) == []


def test_a_credit_note_is_a_ubl_credit_note_referring_to_its_invoice(einvoice_world, in_tenant):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=invoice, post=True)
        note.refresh_from_db()
    root = _root(w, in_tenant, note)
    assert etree.QName(root).localname == "CreditNote"
    assert _text(root, "cbc:CreditNoteTypeCode") == "381"
    assert _text(root, "cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID") == invoice.number
    assert root.xpath("cac:CreditNoteLine/cbc:CreditedQuantity", namespaces=NS)
    assert not root.xpath("cac:PaymentMeans", namespaces=NS)
    assert en16931.validate(root) == []


def test_the_download_answers_xml_to_its_tenant_only(einvoice_world, in_tenant, api):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    client = api(w["sales"], w["tenant3"])
    response = client.get(f"{INVOICES}{invoice.pk}/ubl/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/xml"
    assert f'filename="{invoice.number}.xml"' in response["Content-Disposition"]
    assert etree.fromstring(response.content).xpath("cbc:ID", namespaces=NS)[0].text == invoice.number
    assert api(w["other_admin"], w["tenant2"]).get(f"{INVOICES}{invoice.pk}/ubl/").status_code == 404
    assert api(w["supplier_user_a"], w["tenant3"]).get(f"{INVOICES}{invoice.pk}/ubl/").status_code == 403


def test_a_draft_has_no_e_invoice_and_a_broken_one_is_refused_with_its_rules(einvoice_world, in_tenant, api):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["chinese_buyer"])
    with in_tenant(w["tenant3"]):
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
        # the buyer has neither a VAT number nor an e-mail: no electronic address (PEPPOL-EN16931-R010)
        Customer.objects.filter(pk=w["chinese_buyer"].pk).update(email="")
    client = api(w["sales"], w["tenant3"])
    refused = client.get(f"{INVOICES}{draft.pk}/ubl/")
    assert refused.status_code == 409 and refused.json()["error"] == "ubl_not_posted"
    broken = client.get(f"{INVOICES}{invoice.pk}/ubl/")
    assert broken.status_code == 409, broken.content
    body = broken.json()
    assert body["error"] == "ubl_invalid"
    assert [p["rule"] for p in body["data"]] == ["PEPPOL-EN16931-R010"]
    zh = client.get(f"{INVOICES}{invoice.pk}/ubl/", HTTP_ACCEPT_LANGUAGE="zh")
    assert zh.json()["message"] != body["message"]
    assert zh.json()["data"] == [{"rule": "PEPPOL-EN16931-R010", "message": "必须提供买方电子地址。"}]
    assert body["data"][0]["message"] == "Buyer electronic address MUST be provided."


# -- every rule broken once ----------------------------------------------------------------------------


def _remove(path):
    def change(root):
        for element in root.xpath(path, namespaces=NS):
            element.getparent().remove(element)

    return change


def _set(path, value):
    def change(root):
        for element in root.xpath(path, namespaces=NS):
            element.text = value

    return change


def _remove_attr(path, name):
    def change(root):
        for element in root.xpath(path, namespaces=NS):
            element.attrib.pop(name, None)

    return change


def _set_attr(path, name, value):
    def change(root):
        root.xpath(path, namespaces=NS)[0].set(name, value)

    return change


def _move_to_end(path):
    def change(root):
        element = root.xpath(path, namespaces=NS)[0]
        root.remove(element)
        root.append(element)

    return change


def _rename_root(root):
    root.tag = "{urn:example:not-ubl}Invoice"


def _duplicate(path):
    def change(root):
        element = root.xpath(path, namespaces=NS)[0]
        element.addnext(copy.deepcopy(element))

    return change


def _add_payment_means_without_account(root):
    means = root.xpath("cac:PaymentMeans", namespaces=NS)[0]
    means.remove(means.xpath("cac:PayeeFinancialAccount", namespaces=NS)[0])


def _add_unknown(root):
    etree.SubElement(root, f"{{{ubl.NS_CBC}}}Colour").text = "blue"


def _set_category(category, rate=None, reason=None):
    """Every line and subtotal in another category (and rate), as a wrong document would say it."""

    def change(root):
        for element in root.xpath(
            "cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory | cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory",
            namespaces=NS,
        ):
            element.xpath("cbc:ID", namespaces=NS)[0].text = category
            if rate is not None:
                element.xpath("cbc:Percent", namespaces=NS)[0].text = rate
            if reason is False:
                for code in element.xpath(
                    "cbc:TaxExemptionReasonCode | cbc:TaxExemptionReason", namespaces=NS
                ):
                    element.remove(code)

    return change


def _add_exemption(root):
    category = root.xpath("cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory", namespaces=NS)[0]
    reason = etree.Element(f"{{{ubl.NS_CBC}}}TaxExemptionReason")
    reason.text = "Exempt"
    category.xpath("cbc:Percent", namespaces=NS)[0].addnext(reason)


def _split_subtotal(root):
    subtotal = root.xpath("cac:TaxTotal/cac:TaxSubtotal", namespaces=NS)[0]
    subtotal.addnext(copy.deepcopy(subtotal))


SUB = "cac:TaxTotal/cac:TaxSubtotal"
TOTALS = "cac:LegalMonetaryTotal"
SELLER = "cac:AccountingSupplierParty/cac:Party"
BUYER = "cac:AccountingCustomerParty/cac:Party"

# (rule, which document, what breaks it)
BREAKS = [
    ("UBL-SR-ROOT", "domestic", _rename_root),
    ("UBL-SR-ORDER", "domestic", _move_to_end("cbc:IssueDate")),
    ("UBL-SR-ORDER", "domestic", _add_unknown),
    ("UBL-SR-SINGLE", "domestic", _duplicate("cbc:DocumentCurrencyCode")),
    ("UBL-DT-01", "domestic", _set(f"{TOTALS}/cbc:PayableAmount", "121.001")),
    ("BR-01", "domestic", _remove("cbc:CustomizationID")),
    ("BR-02", "domestic", _remove("cbc:ID")),
    ("BR-03", "domestic", _remove("cbc:IssueDate")),
    ("BR-04", "domestic", _remove("cbc:InvoiceTypeCode")),
    ("BR-04", "credit_note", _remove("cbc:CreditNoteTypeCode")),
    ("BR-05", "domestic", _remove("cbc:DocumentCurrencyCode")),
    ("BR-06", "domestic", _remove(f"{SELLER}/cac:PartyLegalEntity/cbc:RegistrationName")),
    ("BR-07", "domestic", _remove(f"{BUYER}/cac:PartyLegalEntity/cbc:RegistrationName")),
    ("BR-08", "domestic", _remove(f"{SELLER}/cac:PostalAddress")),
    ("BR-09", "domestic", _remove(f"{SELLER}/cac:PostalAddress/cac:Country")),
    ("BR-10", "domestic", _remove(f"{BUYER}/cac:PostalAddress")),
    ("BR-11", "domestic", _remove(f"{BUYER}/cac:PostalAddress/cac:Country")),
    ("BR-12", "domestic", _remove(f"{TOTALS}/cbc:LineExtensionAmount")),
    ("BR-13", "domestic", _remove(f"{TOTALS}/cbc:TaxExclusiveAmount")),
    ("BR-14", "domestic", _remove(f"{TOTALS}/cbc:TaxInclusiveAmount")),
    ("BR-15", "domestic", _remove(f"{TOTALS}/cbc:PayableAmount")),
    ("BR-16", "domestic", _remove("cac:InvoiceLine")),
    ("BR-21", "domestic", _remove("cac:InvoiceLine/cbc:ID")),
    ("BR-22", "domestic", _remove("cac:InvoiceLine/cbc:InvoicedQuantity")),
    ("BR-22", "credit_note", _remove("cac:CreditNoteLine/cbc:CreditedQuantity")),
    (
        "BR-23",
        "domestic",
        lambda root: [q.attrib.pop("unitCode") for q in root.xpath("//cbc:InvoicedQuantity", namespaces=NS)],
    ),
    ("BR-24", "domestic", _remove("cac:InvoiceLine/cbc:LineExtensionAmount")),
    ("BR-25", "domestic", _remove("cac:InvoiceLine/cac:Item/cbc:Name")),
    ("BR-26", "domestic", _remove("cac:InvoiceLine/cac:Price/cbc:PriceAmount")),
    ("BR-27", "domestic", _set("cac:InvoiceLine/cac:Price/cbc:PriceAmount", "-2.5")),
    ("BR-49", "domestic", _remove("cac:PaymentMeans/cbc:PaymentMeansCode")),
    ("BR-50", "domestic", _remove("cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID")),
    ("BR-55", "credit_note", _remove("cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID")),
    ("BR-57", "intra_eu", _remove("cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country")),
    ("BR-61", "domestic", _add_payment_means_without_account),
    ("BR-62", "domestic", _remove_attr(f"{SELLER}/cbc:EndpointID", "schemeID")),
    ("BR-63", "domestic", _remove_attr(f"{BUYER}/cbc:EndpointID", "schemeID")),
    ("BR-CO-04", "domestic", _remove("cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:ID")),
    ("BR-CO-09", "domestic", _set(f"{SELLER}/cac:PartyTaxScheme/cbc:CompanyID", "XX004495445B01")),
    ("BR-CO-10", "domestic", _set(f"{TOTALS}/cbc:LineExtensionAmount", "1.00")),
    ("BR-CO-13", "domestic", _set(f"{TOTALS}/cbc:TaxExclusiveAmount", "1.00")),
    ("BR-CO-14", "domestic", _set("cac:TaxTotal/cbc:TaxAmount", "1.00")),
    ("BR-CO-15", "domestic", _set(f"{TOTALS}/cbc:TaxInclusiveAmount", "1.00")),
    ("BR-CO-16", "domestic", _set(f"{TOTALS}/cbc:PayableAmount", "1.00")),
    ("BR-CO-17", "domestic", _set(f"{SUB}/cbc:TaxAmount", "99.00")),
    ("BR-CO-18", "domestic", _remove(SUB)),
    ("BR-CO-25", "domestic", lambda root: (_remove("cbc:DueDate")(root), _remove("cac:PaymentTerms")(root))),
    ("BR-CO-25", "credit_note", _remove("cac:PaymentTerms")),
    (
        "BR-CO-26",
        "domestic",
        lambda root: [
            _remove(f"{SELLER}/{path}")(root)
            for path in (
                "cac:PartyIdentification",
                "cac:PartyTaxScheme",
                "cac:PartyLegalEntity/cbc:CompanyID",
            )
        ],
    ),
    ("BR-S-01", "domestic", _remove(SUB)),
    ("BR-S-02", "domestic", _remove(f"{SELLER}/cac:PartyTaxScheme")),
    ("BR-S-05", "domestic", _set("cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", "0")),
    ("BR-S-08", "domestic", _set(f"{SUB}/cbc:TaxableAmount", "1.00")),
    ("BR-S-09", "domestic", _set(f"{SUB}/cbc:TaxAmount", "99.00")),
    ("BR-S-10", "domestic", _add_exemption),
    ("BR-AE-01", "reverse_charge", _split_subtotal),
    ("BR-AE-02", "reverse_charge", _remove(f"{BUYER}/cac:PartyTaxScheme")),
    (
        "BR-AE-05",
        "reverse_charge",
        _set("cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", "21"),
    ),
    ("BR-AE-08", "reverse_charge", _set(f"{SUB}/cbc:TaxableAmount", "1.00")),
    ("BR-AE-09", "reverse_charge", _set(f"{SUB}/cbc:TaxAmount", "0.50")),
    ("BR-AE-10", "reverse_charge", _set_category("AE", reason=False)),
    ("BR-IC-01", "intra_eu", _split_subtotal),
    ("BR-IC-02", "intra_eu", _remove(f"{BUYER}/cac:PartyTaxScheme")),
    ("BR-IC-05", "intra_eu", _set("cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", "21")),
    ("BR-IC-08", "intra_eu", _set(f"{SUB}/cbc:TaxableAmount", "1.00")),
    ("BR-IC-09", "intra_eu", _set(f"{SUB}/cbc:TaxAmount", "0.50")),
    ("BR-IC-10", "intra_eu", _set_category("K", reason=False)),
    ("BR-IC-11", "intra_eu", _remove("cac:Delivery/cbc:ActualDeliveryDate")),
    ("BR-IC-12", "intra_eu", _remove("cac:Delivery/cac:DeliveryLocation")),
    ("BR-G-01", "export", _split_subtotal),
    ("BR-G-02", "export", _remove(f"{SELLER}/cac:PartyTaxScheme")),
    ("BR-G-05", "export", _set("cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", "21")),
    ("BR-G-08", "export", _set(f"{SUB}/cbc:TaxableAmount", "1.00")),
    ("BR-G-09", "export", _set(f"{SUB}/cbc:TaxAmount", "0.50")),
    ("BR-G-10", "export", _set_category("G", reason=False)),
    ("PEPPOL-EN16931-R001", "domestic", _remove("cbc:ProfileID")),
    ("PEPPOL-EN16931-R003", "domestic", _remove("cbc:BuyerReference")),
    ("PEPPOL-EN16931-R004", "domestic", _set("cbc:CustomizationID", "urn:cen.eu:en16931:2017")),
    ("PEPPOL-EN16931-R008", "domestic", _set("cac:InvoiceLine/cac:Item/cbc:Name", "  ")),
    ("PEPPOL-EN16931-R010", "domestic", _remove(f"{BUYER}/cbc:EndpointID")),
    ("PEPPOL-EN16931-R020", "domestic", _remove(f"{SELLER}/cbc:EndpointID")),
    ("PEPPOL-EN16931-R051", "domestic", _set_attr("cac:TaxTotal/cbc:TaxAmount", "currencyID", "USD")),
]


@pytest.fixture
def documents(einvoice_world, in_tenant):
    """One valid document per VAT case and a credit note, built once for the rule tests."""
    w = einvoice_world
    domestic = _posted(w, in_tenant, w["customer"])
    intra = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=intra, post=True)
        note.refresh_from_db()
    built = {
        "domestic": domestic,
        "intra_eu": intra,
        "export": _posted(w, in_tenant, w["chinese_buyer"]),
        "reverse_charge": _posted(w, in_tenant, w["customer"], reverse_charge=True),
        "credit_note": note,
    }
    with in_tenant(w["tenant3"]):
        return {name: ubl.build(invoice) for name, invoice in built.items()}


def test_every_rule_text_is_translated():
    from django.utils import translation

    for item in en16931.RULES:
        with translation.override("en"):
            english = item.text()
        with translation.override("zh-hans"):
            chinese = item.text()
        assert english and chinese != english, item.identifier
        assert "%(" not in english and "%(" not in chinese, item.identifier


def test_every_rule_is_broken_by_one_test(documents):
    for name, root in documents.items():
        assert en16931.validate(root) == [], name
    broken = {rule for rule, _doc, _change in BREAKS}
    assert broken == set(en16931.RULE_IDS), set(en16931.RULE_IDS) ^ broken
    failures = []
    for rule, name, change in BREAKS:
        root = copy.deepcopy(documents[name])
        change(root)
        found = [p.rule for p in en16931.validate(root)]
        if rule not in found:
            failures.append((rule, name, found))
    assert failures == []
