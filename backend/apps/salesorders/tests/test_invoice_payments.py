"""Payments received against an invoice, each a record: its amount, the day it was received, its reference
and who recorded it. The invoice's paid total is always the sum of its payments, whichever path wrote
them (the invoice page, the accounting system's payment status, the payments made before they were
itemised)."""

import importlib
from datetime import timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from apps.salesorders import services
from apps.salesorders.models import Invoice, InvoicePayment

pytestmark = pytest.mark.django_db
D = Decimal
INVOICES = "/api/salesorders/invoices/"


@pytest.fixture
def posted_invoice(sales_world, draft_invoice, in_tenant):
    """The draft invoice of five shipped cartons (conftest.py), posted (tenant 3)."""
    with in_tenant(sales_world["tenant3"]):
        services.invoice_post(invoice=draft_invoice)
        draft_invoice.refresh_from_db()
    return draft_invoice


def _paid_is_the_sum(invoice) -> None:
    invoice.refresh_from_db()
    total = InvoicePayment.objects.filter(invoice=invoice).aggregate(s=Sum("amount"))["s"] or D("0")
    assert invoice.amount_paid == total


def test_each_payment_is_listed_with_its_day_reference_and_who_recorded_it(
    sales_world, posted_invoice, api, in_tenant
):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    url = f"{INVOICES}{posted_invoice.pk}/"
    gross = D(client.get(url).json()["data"]["total_gross"])
    yesterday = timezone.localdate() - timedelta(days=1)
    answer = client.post(
        f"{url}payments/",
        {"amount": "5.00", "received_on": yesterday.isoformat(), "reference": "  Bank 2026-114 line 3 "},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    data = answer.json()["data"]
    assert data["amount_paid"] == "5.00" and D(data["amount_due"]) == gross - D("5")
    [first] = data["payments"]
    assert (first["amount"], first["received_on"], first["reference"], first["source"]) == (
        "5.00",
        yesterday.isoformat(),
        "Bank 2026-114 line 3",
        "manual",
    )
    assert first["created_by_name"]
    # without a day: received today; the rest of what is open
    rest = f"{gross - D('5'):.2f}"
    data = client.post(f"{url}payments/", {"amount": rest}, format="json").json()["data"]
    assert [p["amount"] for p in data["payments"]] == ["5.00", rest]
    assert data["payments"][1]["received_on"] == timezone.localdate().isoformat()
    assert data["payment_status"] == "paid" and data["amount_due"] == "0.00"
    with in_tenant(w["tenant3"]):
        _paid_is_the_sum(posted_invoice)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"amount": "0"}, 400, "amount"),
        ({"amount": "-3"}, 400, "amount"),
        ({"amount": "abc"}, 400, "amount"),
        ({}, 400, "amount"),
        ({"amount": "1.00", "received_on": "yesterday"}, 400, "received_on"),
        ({"amount": "1.00", "reference": "x" * 141}, 400, "reference"),
        ({"amount": "1.00", "reference": {"a": 1}}, 400, "reference"),
        ({"amount": "99999.00"}, 400, "over_payment"),
        ({"amount": "1.00", "received_on": "FUTURE"}, 400, "payment_in_future"),
    ],
)
def test_a_payment_that_cannot_be_is_refused_and_nothing_is_written(
    sales_world, posted_invoice, api, in_tenant, body, status, error
):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    if body.get("received_on") == "FUTURE":
        body = {**body, "received_on": (timezone.localdate() + timedelta(days=1)).isoformat()}
    answer = client.post(f"{INVOICES}{posted_invoice.pk}/payments/", body, format="json")
    assert answer.status_code == status, answer.content
    envelope = answer.json()
    if envelope["error"] == "validation_error":
        assert error in envelope["data"], envelope
    else:
        assert envelope["error"] == error, envelope
    with in_tenant(w["tenant3"]):
        assert not InvoicePayment.objects.filter(invoice=posted_invoice).exists()
        _paid_is_the_sum(posted_invoice)


def test_a_draft_or_a_credit_note_takes_no_payment(sales_world, posted_invoice, api, in_tenant):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    with in_tenant(w["tenant3"]):
        credit = services.credit_note_create(invoice=posted_invoice, post=True)
    answer = client.post(f"{INVOICES}{credit.pk}/payments/", {"amount": "1.00"}, format="json")
    assert answer.status_code == 409 and answer.json()["error"] == "invoice_not_posted"


def test_only_the_tenant_and_who_may_change_invoices_record_payments(
    sales_world, posted_invoice, api, in_tenant, make_user
):
    w = sales_world
    url = f"{INVOICES}{posted_invoice.pk}/"
    body = {"amount": "1.00", "reference": "taken over"}
    assert api(w["other_admin"], w["tenant2"]).post(f"{url}payments/", body, format="json").status_code == 404
    assert api(w["other_admin"], w["tenant2"]).get(url).status_code == 404
    for user in ("supplier_user_a", "supplier_user_b", "warehouse_user", "purchasing"):
        client = api(w[user], w["tenant3"])
        assert client.post(f"{url}payments/", body, format="json").status_code in (403, 404), user
    # an internal member who may read invoices (and their payments) but not change them
    reader = api(make_user(w["tenant3"], "Warehouse", username="reader"), w["tenant3"])
    assert reader.post(f"{url}payments/", body, format="json").status_code == 403
    with in_tenant(w["tenant3"]):
        assert not InvoicePayment.objects.exists()
    api(w["sales"], w["tenant3"]).post(f"{url}payments/", body, format="json")
    payments = reader.get(url).json()["data"]["payments"]
    assert [p["reference"] for p in payments] == ["taken over"]
    # another tenant's rows are not there for its queries either
    with in_tenant(w["tenant2"]):
        assert not InvoicePayment.objects.exists()


def test_the_detail_reads_its_payments_in_a_constant_number_of_queries(sales_world, posted_invoice, api):
    from django.test.utils import CaptureQueriesContext

    w = sales_world
    client = api(w["sales"], w["tenant3"])
    url = f"{INVOICES}{posted_invoice.pk}/"
    client.post(f"{url}payments/", {"amount": "1.00"}, format="json")
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for _ in range(4):
        client.post(f"{url}payments/", {"amount": "1.00"}, format="json")
    with CaptureQueriesContext(connection) as five:
        assert len(client.get(url).json()["data"]["payments"]) == 5
    assert len(five.captured_queries) == len(one.captured_queries) > 0


def test_the_accounting_systems_reading_is_a_payment_of_the_difference(
    sales_world, posted_invoice, in_tenant
):
    w = sales_world
    with in_tenant(w["tenant3"]):
        invoice = Invoice.objects.select_for_update().get(pk=posted_invoice.pk)
        services.invoice_payment_record(invoice=invoice, amount=D("2.00"), reference="counter")
        invoice.refresh_from_db()
        assert services.invoice_paid_from_accounting(invoice=invoice, paid=D("2.00")) is None
        more = services.invoice_paid_from_accounting(invoice=invoice, paid=D("10.00"), reference="Visma 7")
        assert (more.amount, more.source, more.reference) == (D("8.00"), "accounting", "Visma 7")
        # a payment reversed in the accounting system: a negative one
        back = services.invoice_paid_from_accounting(invoice=invoice, paid=D("6.00"))
        assert back.amount == D("-4.00")
        _paid_is_the_sum(invoice)
        assert invoice.amount_paid == D("6.00")


def test_a_negative_payment_is_only_ever_one_read_from_the_accounting_system(
    sales_world, posted_invoice, in_tenant
):
    from django.db import IntegrityError, transaction

    with in_tenant(sales_world["tenant3"]):
        for amount, source in ((D("-1"), "manual"), (D("0"), "accounting"), (D("-1"), "legacy")):
            with pytest.raises(IntegrityError), transaction.atomic():
                InvoicePayment.objects.create(
                    invoice=posted_invoice, amount=amount, received_on=timezone.localdate(), source=source
                )


def test_what_invoices_had_been_paid_becomes_one_legacy_payment_each(
    sales_world, posted_invoice, in_tenant, tenant2
):
    """The migration that itemised payments: each invoice's paid total (written before payments were
    records) becomes one payment, in every tenant, through row-level security."""
    migration = importlib.import_module("apps.salesorders.migrations.0016_invoice_payments")
    w = sales_world
    with in_tenant(w["tenant3"]):
        Invoice.objects.filter(pk=posted_invoice.pk).update(amount_paid=D("7.50"))
        untouched = Invoice.objects.get(pk=posted_invoice.pk)
    migration.itemise_paid_totals(django_apps, SimpleNamespace(connection=connection))
    with in_tenant(w["tenant3"]):
        [legacy] = InvoicePayment.objects.filter(invoice=posted_invoice)
        assert (legacy.amount, legacy.source, legacy.reference) == (D("7.50"), "legacy", "")
        assert legacy.received_on == timezone.localtime(untouched.updated_at).date()
        assert legacy.tenant_id == w["tenant3"].pk
        _paid_is_the_sum(posted_invoice)
    with in_tenant(tenant2):
        assert not InvoicePayment.objects.exists()
