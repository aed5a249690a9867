"""Invoices and credit notes: built from what shipped, gapless numbers, immutable once posted, credit
note arithmetic, payment status and the PDF's Article 226 fields."""

import io
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from pypdf import PdfReader

from apps.common.dates import day_text
from apps.salesorders import errors as sales_errors
from apps.salesorders import selectors, services
from apps.salesorders.models import SalesOrderLine

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def shipped_order(sales_world, put_stock, make_sales_order, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    put_stock(w["box"], "500")
    with in_tenant(w["tenant3"]):
        w["tenant3"].legal_name = "EuroTrade Goods B.V."
        w["tenant3"].address = "Keizersgracht 1, 1015 AA Amsterdam"
        w["tenant3"].country = "NL"
        w["tenant3"].vat_number = "NL862345678B01"
        w["tenant3"].save()
    order = make_sales_order(lines=[(w["carton"], "100", "2.50"), (w["box"], "10", "12.00")])
    with in_tenant(w["tenant3"]):
        lines = list(order.lines.order_by("line_number"))
        shipment = services.shipment_create(
            sales_order=order,
            lines=[
                services.ShipmentLineInput(order_line=lines[0], quantity=D("40")),
                services.ShipmentLineInput(order_line=lines[1], quantity=D("10")),
            ],
        )
        services.shipment_ship(shipment=shipment)
    return order, shipment


def test_invoice_of_what_shipped(sales_world, shipped_order, in_tenant):
    order, shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        assert invoice.status == "draft" and invoice.number == ""
        assert sorted(line.quantity for line in invoice.lines.all()) == [D("10"), D("40")]
        # 40 x 2.50 = 100.00 + 10 x 12 = 120.00; VAT 21 %
        assert (invoice.total_net, invoice.total_vat, invoice.total_gross) == (
            D("220.00"),
            D("46.20"),
            D("266.20"),
        )
        with pytest.raises(sales_errors.NothingToInvoice):
            services.invoice_create(sales_order=order)  # all on the draft already
        services.invoice_post(invoice=invoice)
        invoice.refresh_from_db()
        year = date.today().year
        assert invoice.number == f"INV-{year}-00001"
        assert invoice.seller_vat_number == "NL862345678B01"
        assert invoice.buyer_vat_number == "NL001234567B01"
        assert invoice.due_date == invoice.issue_date + timedelta(days=invoice.payment_terms_days)
        assert SalesOrderLine.objects.get(order=order, line_number=1).quantity_invoiced == D("40")
        with pytest.raises(sales_errors.NothingToInvoice):
            services.invoice_create(shipments=[shipment])


def test_numbers_are_sequential_per_series(sales_world, shipped_order, make_sales_order, in_tenant):
    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=invoice)
        credit = services.credit_note_create(invoice=invoice, post=True)
        assert credit.number.startswith("CN-") and credit.number.endswith("-00001")
        assert credit.sequence_number == 1
        # the credit note gave the quantity back: it can be invoiced again, and gets number 2
        again = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=again)
        assert again.sequence_number == 2


def test_posted_invoice_is_immutable(sales_world, shipped_order, in_tenant):
    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=invoice)
        with pytest.raises(sales_errors.InvoicePosted) as exc:
            services.invoice_update(invoice=invoice, fields={"note": "changed"})
        assert exc.value.error == "invoice_posted"
        with pytest.raises(sales_errors.InvoicePosted):
            services.invoice_delete(invoice=invoice)
        with pytest.raises(sales_errors.InvoicePosted) as exc:
            services.invoice_post(invoice=invoice)
        assert exc.value.error == "invoice_already_posted"


def test_credit_note_arithmetic(sales_world, shipped_order, in_tenant):
    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=invoice)
        carton_line = invoice.lines.get(quantity=D("40"))
        partial = services.credit_note_create(
            invoice=invoice,
            lines=[services.CreditLineInput(invoice_line_id=carton_line.pk, quantity=D("3"))],
            post=True,
        )
        # 3 x 2.50 = 7.50, VAT 1.58 (1.575 rounded half up)
        assert (partial.total_net, partial.total_vat, partial.total_gross) == (
            D("7.50"),
            D("1.58"),
            D("9.08"),
        )
        assert partial.credited_invoice_id == invoice.pk
        assert SalesOrderLine.objects.get(pk=carton_line.order_line_id).quantity_invoiced == D("37")
        order.refresh_from_db()
        assert order.status == "partially_invoiced"
        with pytest.raises(sales_errors.OverCredit):
            services.credit_note_create(
                invoice=invoice,
                lines=[services.CreditLineInput(invoice_line_id=carton_line.pk, quantity=D("37.001"))],
            )
        rest = services.credit_note_create(invoice=invoice, post=True)
        assert sorted(line.quantity for line in rest.lines.all()) == [D("10"), D("37")]
        assert partial.total_net + rest.total_net == invoice.total_net
        with pytest.raises(sales_errors.OverCredit):
            services.credit_note_create(invoice=invoice)
        fresh = selectors.invoice_list_queryset().get(pk=invoice.pk)
        assert selectors.payment_status(fresh) == "credited"  # credit notes cover all of it: nothing to pay


def test_payment_status(sales_world, shipped_order, in_tenant):
    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        assert selectors.payment_status(invoice) == "draft"
        services.invoice_post(invoice=invoice)
        invoice.refresh_from_db()
        assert selectors.payment_status(invoice) == "open"
        services.invoice_payment_record(invoice=invoice, amount=D("100"))
        invoice.refresh_from_db()
        assert selectors.payment_status(invoice) == "partially_paid"
        assert selectors.payment_status(invoice, today=invoice.due_date + timedelta(days=1)) == "overdue"
        with pytest.raises(sales_errors.OverPayment):
            services.invoice_payment_record(invoice=invoice, amount=D("166.21"))
        services.invoice_payment_record(invoice=invoice, amount=D("166.20"))
        invoice.refresh_from_db()
        assert selectors.payment_status(invoice) == "paid"
        qs = selectors.invoice_list_queryset()
        assert list(selectors.invoices_filter_payment_status(qs, "paid")) == [invoice]
        assert not selectors.invoices_filter_payment_status(qs, "open").exists()


def _pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_invoice_pdf_holds_article_226_fields(sales_world, shipped_order, in_tenant):
    from apps.salesorders.pdf import invoice_pdf

    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        order.customer_reference = "PO-CUST-77"
        order.save()
        invoice = services.invoice_create(sales_order=order)
        services.invoice_post(invoice=invoice, issue_date=date(2026, 4, 2))
        invoice.refresh_from_db()
        content = invoice_pdf(invoice)
    assert content.startswith(b"%PDF")
    text = _pdf_text(content)

    for expected in [
        "Invoice",
        invoice.number,  # sequential number
        "2 Apr 2026",  # issue date, as the web app prints it
        "EuroTrade Goods B.V.",  # seller's name and address
        "Keizersgracht 1",
        "NL862345678B01",  # seller's VAT number
        "Bakkerij de Vries BV",  # buyer
        "Dorpsstraat 1",
        "NL001234567B01",  # buyer's VAT number
        "CT-6040",  # nature of the goods
        "Carton 600x400",
        "40",  # quantity
        "2.5000",  # unit price net
        "Discount",
        "Date of supply",  # differs from the issue date
        "Taxable amount",
        "21.00",  # VAT rate
        "46.20",  # VAT amount
        "266.20",
        "NL862345678",  # EORI (operator data)
        "PO-CUST-77",
    ]:
        assert expected in text, expected
    assert "2026-04-02" not in text  # days for people, never ISO text


def test_invoice_pdf_in_chinese(sales_world, shipped_order, in_tenant):
    from apps.salesorders.pdf import invoice_pdf

    order, _shipment = shipped_order
    with in_tenant(sales_world["tenant3"]):
        invoice = services.invoice_create(sales_order=order)
        services.invoice_update(invoice=invoice, fields={"language": "zh"})
        services.invoice_post(invoice=invoice, issue_date=date(2026, 4, 2))
        invoice.refresh_from_db()
        text = _pdf_text(invoice_pdf(invoice))
    assert invoice.number in text
    assert "发票" in text
    assert "2026年4月2日" in text  # the issue date as the Chinese web app prints it
    assert "2026-04-02" not in text


def test_delivery_note_lists_cartons_and_dds(
    sales_world, put_stock, make_sales_order, carton_codes, in_tenant
):
    from apps.eudr.models import CartonLabel, RawMaterialDelivery
    from apps.salesorders.pdf import delivery_note_pdf
    from apps.tenancy.models import Tenant

    w = sales_world
    # two cartons picked of 20: the company ships the rest as unlabelled stock, and the note says so
    Tenant.objects.filter(pk=w["tenant3"].pk).update(allow_unlabelled_shipping=True)
    put_stock(w["carton"], "100")
    codes = carton_codes(w["carton"], 2)
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        RawMaterialDelivery.objects.filter(
            pk__in=CartonLabel.objects.filter(code__in=codes).values("raw_material")
        ).update(dds_reference_number="26NLABCDEF1234", dds_verification_number="VERIFY01")
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=D("20"))],
        )
        services.shipment_cartons_add(shipment=shipment, codes=codes)
        services.shipment_ship(shipment=shipment)
        shipment.refresh_from_db()
        text = _pdf_text(delivery_note_pdf(shipment))
    assert shipment.shipment_number in text
    assert day_text(timezone.localtime(shipment.shipped_at), "en") in text  # "Shipped at" as people read it
    assert timezone.localtime(shipment.shipped_at).date().isoformat() not in text
    assert codes[0] in text and codes[1] in text
    assert "18 shipped without a carton label" in text
    assert "26NLABCDEF1234" in text


def test_delivery_note_labels_an_upstream_statement_and_never_prints_its_verification_number(
    sales_world, put_stock, make_sales_order, carton_codes, in_tenant
):
    from apps.eudr.models import CartonLabel, RawMaterialDelivery
    from apps.salesorders.pdf import delivery_note_pdf
    from apps.salesorders.selectors import dds_references
    from apps.tenancy.models import Tenant

    w = sales_world
    # two cartons picked of 20: the rest ships as unlabelled stock
    Tenant.objects.filter(pk=w["tenant3"].pk).update(allow_unlabelled_shipping=True)
    put_stock(w["carton"], "100")
    codes = carton_codes(w["carton"], 2)
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        RawMaterialDelivery.objects.filter(
            pk__in=CartonLabel.objects.filter(code__in=codes).values("raw_material")
        ).update(
            dds_reference_number="",
            dds_verification_number="",
            upstream_dds_reference="25FIUPSTREAM01",
            upstream_dds_verification="UPVERIF99",
        )
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=D("20"))],
        )
        services.shipment_cartons_add(shipment=shipment, codes=codes)
        services.shipment_ship(shipment=shipment)
        [reference] = dds_references([shipment.pk])
        text = _pdf_text(delivery_note_pdf(shipment))
    assert reference["kind"] == "upstream" and reference["verification"] == ""
    assert "25FIUPSTREAM01" in text
    assert "Upstream statement (another operator)" in " ".join(text.split())
    assert "UPVERIF99" not in text
    assert "Our statement" not in text
