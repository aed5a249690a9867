"""VAT by the rules on sales documents: the rate proposed for new order lines, the treatment an invoice
takes from the determination (intra-EU supply, export, domestic), the legal mention on the PDF, reverse
charge by hand, credit notes, and the `vat-treatment/` endpoint (validation, tenancy, user types)."""

import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader

from apps.common import payment
from apps.customers.models import Customer
from apps.salesorders import services
from apps.salesorders.pdf import invoice_pdf

pytestmark = pytest.mark.django_db
D = Decimal
ORDERS = "/api/salesorders/orders/"
INVOICES = "/api/salesorders/invoices/"
TREATMENT = "/api/salesorders/orders/vat-treatment/"


@pytest.fixture
def vat_world(sales_world, put_stock, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    with in_tenant(w["tenant3"]):
        w["tenant3"].country = "NL"
        w["tenant3"].legal_name = "EuroTrade Goods B.V."
        w["tenant3"].vat_number = "NL004495445B01"
        w["tenant3"].save()
        w["spanish_business"] = Customer.objects.create(
            number="C-ES", name="Envases Ibéricos SA", vat_id="ESA12345674", billing_country="ES"
        )
        w["spanish_consumer"] = Customer.objects.create(
            number="C-ES2", name="María López", vat_id="ESA12345675", billing_country="ES"
        )
        w["chinese_buyer"] = Customer.objects.create(
            number="C-CN", name="Shanghai Foods", billing_country="CN"
        )
    return w


def _order(w, customer, in_tenant, vat_rate=None):
    with in_tenant(w["tenant3"]):
        return services.sales_order_create(
            customer=customer,
            order_date=date(2026, 3, 1),
            lines=[
                services.LineInput(
                    product=w["carton"], quantity=D("40"), unit_price=D("2.50"), vat_rate=vat_rate
                )
            ],
            confirm=True,
        )


def _invoice(w, order, in_tenant):
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        shipment = services.shipment_create(
            sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=D("40"))]
        )
        services.shipment_ship(shipment=shipment)
        return services.invoice_create(sales_order=order)


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_new_order_lines_get_the_determined_rate(vat_world, in_tenant):
    w = vat_world
    domestic = _order(w, w["customer"], in_tenant)
    intra = _order(w, w["spanish_business"], in_tenant)
    consumer = _order(w, w["spanish_consumer"], in_tenant)
    export = _order(w, w["chinese_buyer"], in_tenant)
    given = _order(w, w["customer"], in_tenant, vat_rate=D("9"))
    with in_tenant(w["tenant3"]):
        rates = [o.lines.get().vat_rate for o in (domestic, intra, consumer, export, given)]
    assert rates == [D("21"), D("0"), D("21"), D("0"), D("9")]


def test_an_existing_line_keeps_its_rate_when_the_update_gives_none(vat_world, in_tenant):
    w = vat_world
    order = _order(w, w["customer"], in_tenant, vat_rate=D("9"))
    with in_tenant(w["tenant3"]):
        line = order.lines.get()
        services.sales_order_update(
            order=order,
            fields={},
            lines=[
                services.LineInput(id=line.pk, product=w["carton"], quantity=D("50"), unit_price=D("2.50"))
            ],
        )
        assert order.lines.get().vat_rate == D("9")


def test_intra_eu_invoice_is_zero_rated_with_the_mention_and_its_credit_note_too(vat_world, in_tenant):
    w = vat_world
    # a rate typed by hand on the order does not survive: the invoice follows the determination
    order = _order(w, w["spanish_business"], in_tenant, vat_rate=D("21"))
    invoice = _invoice(w, order, in_tenant)
    with in_tenant(w["tenant3"]):
        assert (invoice.vat_case, invoice.vat_category, invoice.vat_exemption_code) == (
            "intra_eu_b2b",
            "K",
            "VATEX-EU-IC",
        )
        assert invoice.reverse_charge
        assert [line.vat_rate for line in invoice.lines.all()] == [D("0")]
        assert (invoice.total_net, invoice.total_vat, invoice.total_gross) == (
            D("100.00"),
            D("0"),
            D("100.00"),
        )
        services.invoice_post(invoice=invoice, issue_date=date(2026, 4, 2))
        invoice.refresh_from_db()
        text = _pdf_text(invoice_pdf(invoice))
        assert "Article 138" in text and "Reverse charge" in text and "ESA12345674" in text
        credit = services.credit_note_create(invoice=invoice, post=True)
        assert (credit.vat_category, credit.vat_exemption_code, credit.reverse_charge) == (
            "K",
            "VATEX-EU-IC",
            True,
        )
        credit_text = _pdf_text(invoice_pdf(credit))
    assert "Credit note number" in credit_text and "Invoice number" not in credit_text
    assert "Article 138" in credit_text


def test_export_invoice_is_zero_rated_with_the_export_mention(vat_world, in_tenant):
    w = vat_world
    invoice = _invoice(w, _order(w, w["chinese_buyer"], in_tenant, vat_rate=D("21")), in_tenant)
    with in_tenant(w["tenant3"]):
        assert (invoice.vat_case, invoice.vat_category, invoice.reverse_charge) == ("export", "G", False)
        assert invoice.total_vat == 0
        text = _pdf_text(invoice_pdf(invoice))
    # a Chinese customer's documents are in Chinese (the order's language)
    assert "第 146 条" in text and "增值税免税" in text


def test_domestic_invoice_keeps_the_order_lines_rate(vat_world, in_tenant):
    w = vat_world
    invoice = _invoice(w, _order(w, w["customer"], in_tenant, vat_rate=D("9")), in_tenant)
    with in_tenant(w["tenant3"]):
        assert (invoice.vat_case, invoice.vat_category, invoice.vat_exemption_code) == ("domestic", "S", "")
        assert invoice.total_vat == D("9.00")
        text = _pdf_text(invoice_pdf(invoice))
    assert (
        "Reverse charge" not in text
        and "Article" not in text.split("Total gross")[1].split("due diligence")[0]
    )


def test_reverse_charge_by_hand_zero_rates_the_draft_and_taking_it_off_restores_it(vat_world, in_tenant):
    w = vat_world
    invoice = _invoice(w, _order(w, w["customer"], in_tenant), in_tenant)
    with in_tenant(w["tenant3"]):
        services.invoice_update(invoice=invoice, fields={"reverse_charge": True})
        invoice.refresh_from_db()
        assert (invoice.vat_category, invoice.vat_exemption_code, invoice.total_vat) == (
            "AE",
            "VATEX-EU-AE",
            0,
        )
        assert [line.vat_rate for line in invoice.lines.all()] == [D("0")]
        services.invoice_update(invoice=invoice, fields={"reverse_charge": False})
        invoice.refresh_from_db()
        assert (invoice.vat_category, invoice.vat_exemption_code, invoice.total_vat) == ("S", "", D("21.00"))


def test_reverse_charge_taken_off_an_intra_eu_invoice_is_standard_rated(vat_world, in_tenant):
    w = vat_world
    invoice = _invoice(w, _order(w, w["spanish_business"], in_tenant, vat_rate=D("21")), in_tenant)
    with in_tenant(w["tenant3"]):
        services.invoice_update(invoice=invoice, fields={"reverse_charge": False})
        invoice.refresh_from_db()
        assert (invoice.vat_category, invoice.reverse_charge, invoice.total_vat) == ("S", False, D("21.00"))
        services.invoice_update(invoice=invoice, fields={"reverse_charge": True})
        invoice.refresh_from_db()
        assert (invoice.vat_category, invoice.vat_exemption_code) == ("K", "VATEX-EU-IC")


def test_the_invoice_api_answers_the_treatment_and_the_mention(vat_world, in_tenant, api):
    w = vat_world
    invoice = _invoice(w, _order(w, w["spanish_business"], in_tenant), in_tenant)
    client = api(w["sales"], w["tenant3"])
    data = client.get(f"{INVOICES}{invoice.pk}/").json()["data"]
    assert (data["vat_case"], data["vat_category"], data["vat_exemption_code"]) == (
        "intra_eu_b2b",
        "K",
        "VATEX-EU-IC",
    )
    assert "Article 138" in data["vat_mention"]
    zh = client.get(f"{INVOICES}{invoice.pk}/", HTTP_ACCEPT_LANGUAGE="zh").json()["data"]
    assert "138" in zh["vat_mention"] and zh["vat_mention"] != data["vat_mention"]


def test_vat_treatment_endpoint(vat_world, api):
    w = vat_world
    client = api(w["sales"], w["tenant3"])
    response = client.get(TREATMENT, {"customer": w["spanish_business"].pk})
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data == {
        "case": "intra_eu_b2b",
        "category": "K",
        "rate": "0.00",
        "reverse_charge": True,
        "exemption_code": "VATEX-EU-IC",
        "mention": data["mention"],
        "customer_vat_number_valid": True,
        "rates_as_of": "2026-01-01",
    }
    assert "Article 138" in data["mention"]
    # shipped to the seller's own country: domestic
    data = client.get(TREATMENT, {"customer": w["spanish_business"].pk, "ship_to_country": "nl"}).json()[
        "data"
    ]
    assert (data["case"], data["rate"]) == ("domestic", "21.00")
    data = client.get(TREATMENT, {"customer": w["spanish_consumer"].pk}).json()["data"]
    assert (data["case"], data["rate"], data["customer_vat_number_valid"]) == (
        "distance_sale",
        "21.00",
        False,
    )


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"customer": ""},
        {"customer": "abc"},
        {"customer": "99999999"},
        {"customer": "1", "ship_to_country": "NLD"},
        {"customer": "1", "ship_to_country": "1!"},
        {"customer": ["1", "2"]},
    ],
)
def test_vat_treatment_endpoint_refuses_bad_queries(vat_world, api, query):
    client = api(vat_world["sales"], vat_world["tenant3"])
    response = client.get(TREATMENT, query)
    assert response.status_code == 400, response.content


def test_vat_treatment_endpoint_keeps_to_the_tenant_and_internal_users(vat_world, api):
    w = vat_world
    other = api(w["other_admin"], w["tenant2"]).get(TREATMENT, {"customer": w["spanish_business"].pk})
    assert other.status_code == 400 and "customer" in other.json()["data"]
    cross = api(w["sales"], w["tenant3"]).get(TREATMENT, {"customer": w["customer_x"].pk})
    assert cross.status_code == 400
    supplier = api(w["supplier_user_a"], w["tenant3"]).get(TREATMENT, {"customer": w["spanish_business"].pk})
    assert supplier.status_code == 403
    anonymous = api(None, w["tenant3"]).get(TREATMENT, {"customer": w["spanish_business"].pk})
    assert anonymous.status_code == 401


def test_credited_payment_status_and_filter(vat_world, in_tenant, api):
    w = vat_world
    invoice = _invoice(w, _order(w, w["customer"], in_tenant), in_tenant)
    with in_tenant(w["tenant3"]):
        services.invoice_post(invoice=invoice)
        services.credit_note_create(invoice=invoice, post=True)
    client = api(w["sales"], w["tenant3"])
    assert client.get(f"{INVOICES}{invoice.pk}/").json()["data"]["payment_status"] == "credited"
    listed = client.get(INVOICES, {"payment_status": "credited"}).json()["data"]
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["id"] for row in rows] == [invoice.pk]
    paid = client.get(INVOICES, {"payment_status": "paid"}).json()["data"]
    assert (paid["results"] if isinstance(paid, dict) else paid) == []


def test_the_invoice_page_data_links_its_credit_notes_and_the_amount_due(vat_world, in_tenant, api):
    w = vat_world
    invoice = _invoice(w, _order(w, w["customer"], in_tenant), in_tenant)  # 100.00 + 21 % = 121.00
    with in_tenant(w["tenant3"]):
        services.invoice_post(invoice=invoice)
        line = invoice.lines.get()
        posted = services.credit_note_create(
            invoice=invoice,
            lines=[services.CreditLineInput(invoice_line_id=line.pk, quantity=D("4"))],
            post=True,
        )
        draft = services.credit_note_create(
            invoice=invoice, lines=[services.CreditLineInput(invoice_line_id=line.pk, quantity=D("1"))]
        )
        services.invoice_payment_record(invoice=invoice, amount=D("50"))
    client = api(w["sales"], w["tenant3"])
    data = client.get(f"{INVOICES}{invoice.pk}/").json()["data"]
    assert [(n["id"], n["status"], n["total_gross"]) for n in data["credit_notes"]] == [
        (posted.pk, "posted", "12.10"),
        (draft.pk, "draft", "3.03"),
    ]
    assert data["credit_notes"][0]["number"].startswith("CN-")
    # 121.00 - 12.10 credited (the draft does not count) - 50.00 paid
    assert (data["credited_amount"], data["amount_paid"], data["amount_due"]) == ("12.10", "50.00", "58.90")
    assert data["payment_status"] == "partially_paid"
    # the ISO 11649 creditor reference of the invoice number; a credit note has none
    assert data["payment_reference"] == payment.rf_creditor_reference(data["number"])
    assert payment.rf_valid(data["payment_reference"])
    with in_tenant(w["tenant3"]):
        invoice.refresh_from_db()
        text = _pdf_text(invoice_pdf(invoice))
    assert "Payment reference" in text and payment.rf_printed(data["payment_reference"]) in text
    note = client.get(f"{INVOICES}{posted.pk}/").json()["data"]
    assert (note["kind"], note["amount_due"], note["credit_notes"]) == ("credit_note", "0.00", [])
    assert note["payment_reference"] == ""
    # another tenant does not see the invoice at all
    assert api(w["other_admin"], w["tenant2"]).get(f"{INVOICES}{invoice.pk}/").status_code == 404
