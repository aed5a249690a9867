"""Company and payment details on the documents: the invoice PDF's seller block and payment block (terms,
IBAN/BIC, the RF creditor reference), the footer of every page of the invoice and the delivery note,
the snapshot a posted invoice keeps, and the company's default payment terms for new orders."""

import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader

from apps.common import payment
from apps.customers.models import Customer
from apps.salesorders import services
from apps.salesorders.pdf import delivery_note_pdf, invoice_pdf
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db
D = Decimal
INVOICES = "/api/salesorders/invoices/"
SHIPMENTS = "/api/salesorders/shipments/"


def _text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def posted(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    Tenant.objects.filter(pk=w["tenant3"].pk).update(
        legal_name="EuroTrade Goods B.V.",
        address="Keizersgracht 1, 1015 AA Amsterdam",
        country="NL",
        vat_number="NL862345678B01",
        registration_number="KvK 24123456",
        iban="NL91ABNA0417164300",
        bic="ABNANL2A",
    )
    order = make_sales_order(lines=[(w["carton"], "100", "2.50")])
    with in_tenant(w["tenant3"]):
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=D("40"))],
        )
        services.shipment_ship(shipment=shipment)
        invoice = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=invoice, issue_date=date(2026, 4, 2))
        invoice.refresh_from_db()
    w["invoice"], w["shipment"] = invoice, shipment
    return w


def test_the_invoice_pdf_says_who_issues_it_and_how_to_pay(posted, in_tenant):
    w = posted
    invoice = w["invoice"]
    assert (invoice.seller_registration_number, invoice.seller_iban, invoice.seller_bic) == (
        "KvK 24123456",
        "NL91ABNA0417164300",
        "ABNANL2A",
    )
    with in_tenant(w["tenant3"]):
        text = _text(invoice_pdf(invoice))
    for expected in (
        "EuroTrade Goods B.V.",
        "Keizersgracht 1, 1015 AA Amsterdam",
        "NL862345678B01",
        "Registration number",
        "KvK 24123456",
        "NL91 ABNA 0417 1643 00",
        "ABNANL2A",
        "Payment terms: 30 days net.",
        "Payment reference",
        payment.rf_printed(invoice.payment_reference),
        "Please quote the payment reference",
    ):
        assert expected in text, expected
    # the footer repeats the company's details, IBAN included
    assert text.count("NL91 ABNA 0417 1643 00") >= 2


def test_a_posted_invoice_keeps_the_details_it_was_posted_with(posted, in_tenant):
    w = posted
    Tenant.objects.filter(pk=w["tenant3"].pk).update(
        iban="DE89370400440532013000", registration_number="HRB 1"
    )
    with in_tenant(w["tenant3"]):
        text = _text(invoice_pdf(w["invoice"]))
    assert "NL91 ABNA 0417 1643 00" in text and "DE89" not in text and "HRB 1" not in text


def test_a_credit_note_has_no_payment_block_but_the_company_footer(posted, in_tenant):
    w = posted
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=w["invoice"], post=True)
        note.refresh_from_db()
        text = _text(invoice_pdf(note))
    assert "Credit note number" in text
    assert "Payment reference" not in text and "Please quote" not in text
    assert "KvK 24123456" in text and "NL91 ABNA 0417 1643 00" in text


def test_without_bank_details_the_invoice_prints_no_empty_rows(posted, in_tenant):
    w = posted
    Tenant.objects.filter(pk=w["tenant3"].pk).update(iban="", bic="", registration_number="")
    # a draft prints the settings as they are now
    with in_tenant(w["tenant3"]):
        order = w["invoice"].sales_order
        line = order.lines.get()
        shipment = services.shipment_create(
            sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=D("10"))]
        )
        services.shipment_ship(shipment=shipment)
        invoice = services.invoice_create(sales_order=order)
        text = _text(invoice_pdf(invoice))
    assert "IBAN" not in text and "BIC" not in text and "Account holder" not in text
    assert "Registration number: -" in text


def test_the_delivery_note_shows_the_shipper_vat_and_registration_numbers(posted, in_tenant):
    w = posted
    with in_tenant(w["tenant3"]):
        text = _text(delivery_note_pdf(w["shipment"]))
    for expected in (
        "EuroTrade Goods B.V.",
        "NL862345678B01",
        "KvK 24123456",
        "NL91 ABNA 0417 1643 00",
        "ABNANL2A",
    ):
        assert expected in text, expected
    assert "Payment reference" not in text


def test_the_invoice_api_answers_the_sellers_details_to_its_tenant_only(posted, api):
    w = posted
    data = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{w['invoice'].pk}/").json()["data"]
    assert (data["seller_registration_number"], data["seller_iban"], data["seller_bic"]) == (
        "KvK 24123456",
        "NL91ABNA0417164300",
        "ABNANL2A",
    )
    assert api(w["other_admin"], w["tenant2"]).get(f"{INVOICES}{w['invoice'].pk}/").status_code == 404
    assert api(w["supplier_user_a"], w["tenant3"]).get(f"{INVOICES}{w['invoice'].pk}/").status_code == 403
    assert api(w["supplier_user_a"], w["tenant3"]).get(f"{INVOICES}{w['invoice'].pk}/pdf/").status_code == 403


def test_a_new_customer_takes_the_company_terms_and_its_orders_the_customers(sales_world, api, in_tenant):
    w = sales_world
    Tenant.objects.filter(pk=w["tenant3"].pk).update(payment_terms_days=14)
    client = api(w["admin"], w["tenant3"])
    plain = client.post("/api/customers/", {"number": "C-T0", "name": "No terms given"}, format="json")
    assert plain.status_code == 201, plain.content
    own = client.post(
        "/api/customers/", {"number": "C-T1", "name": "Own terms", "payment_terms_days": 45}, format="json"
    )
    assert own.status_code == 201, own.content
    assert (plain.json()["data"]["payment_terms_days"], own.json()["data"]["payment_terms_days"]) == (14, 45)
    with in_tenant(w["tenant3"]):
        order = services.sales_order_create(
            customer=Customer.objects.get(number="C-T0"),
            order_date=date(2026, 3, 1),
            lines=[services.LineInput(product=w["carton"], quantity=D("1"), unit_price=D("1"))],
        )
    assert order.payment_terms_days == 14
