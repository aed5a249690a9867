"""The push pipeline against the fake Visma.net / eAccounting server: customers and articles before the
document, nothing twice, retries with backoff, validation errors in words, 401/429/5xx handling, a credit
note after its invoice, payment status read back."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.accounting import outbox
from apps.accounting.models import AccountingConnection, Mapping, SyncEntry
from apps.salesorders import services as sales
from apps.salesorders.models import Invoice

pytestmark = pytest.mark.django_db


def _entries(in_tenant, w, **filters):
    with in_tenant(w["tenant3"]):
        return list(SyncEntry.objects.filter(**filters).order_by("pk"))


def _due_now(in_tenant, w):
    with in_tenant(w["tenant3"]):
        SyncEntry.objects.filter(status="pending").update(
            next_attempt_at=timezone.now() - timedelta(seconds=1)
        )


def test_posting_without_connection_queues_nothing(sales_world, post_invoice, in_tenant):
    post_invoice()
    assert _entries(in_tenant, sales_world) == []


def test_invoice_pushes_customer_and_articles_first(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    invoice = post_invoice()
    [entry] = _entries(in_tenant, w)
    assert (entry.idempotency_key, entry.status) == (f"invoice:{invoice.pk}", "pending")

    counts = outbox.process_outbox(w["tenant3"].pk)

    assert counts["sent"] == 1
    posts = [r["path"] for r in fake.requests if r["method"] == "POST" and r["path"] != "/token"]
    assert posts == ["/v1/customer", "/v1/inventory", "/v1/inventory", "/v1/customerinvoice"]
    doc = fake.net["customerinvoice"][invoice.number]
    assert doc["customerNumber"] == {"value": "C-1001"}
    assert doc["salesperson"] == {"value": "SP-42"} and "owner" not in doc  # no owner on invoices
    assert doc["overrideNumberSeries"] == {"value": True}
    assert {line["inventoryNumber"]["value"] for line in doc["invoiceLines"]} == {"CT-6040", "CT-3020"}
    assert fake.net["customer"]["C-1001"]["name"] == {"value": "Bakkerij de Vries BV"}
    with in_tenant(w["tenant3"]):
        entry.refresh_from_db()
        assert (entry.status, entry.external_id, entry.attempts) == ("sent", invoice.number, 1)
        kinds = sorted(Mapping.objects.values_list("kind", flat=True))
        assert kinds == ["article", "article", "customer", "invoice"]
        logged = sorted(SyncEntry.objects.exclude(pk=entry.pk).values_list("kind", "status"))
        assert logged == [("article", "sent"), ("article", "sent"), ("customer", "sent")]


def test_unchanged_records_are_not_pushed_again_changed_ones_are(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    post_invoice()
    outbox.process_outbox(w["tenant3"].pk)
    before = len(fake.requests)
    with in_tenant(w["tenant3"]):
        w["customer"].email = "orders@devries.example"
        w["customer"].save()
    second = post_invoice(carton="10", box="0.5")
    outbox.process_outbox(w["tenant3"].pk)
    new = [(r["method"], r["path"]) for r in fake.requests[before:] if r["path"] != "/token"]
    assert ("PUT", "/v1/customer/C-1001") in new
    assert not [c for c in new if "inventory" in c[1]]  # articles unchanged: not sent again
    assert ("POST", "/v1/customerinvoice") in new
    assert fake.net["customer"]["C-1001"]["mainContact"]["value"]["email"] == {
        "value": "orders@devries.example"
    }
    assert second.number in fake.net["customerinvoice"]


def test_validation_error_fails_with_the_message_in_words(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    post_invoice()
    fake.script(
        "POST",
        "/v1/customerinvoice",
        (400, {"message": "Error: VAT code 21 is not valid for customer C-1001."}),
    )
    counts = outbox.process_outbox(w["tenant3"].pk)
    assert counts["failed"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.status == "failed" and entry.http_status == 400
    assert entry.error == "Error: VAT code 21 is not valid for customer C-1001."
    # the retry action puts it back in the queue; the next run sends it
    with in_tenant(w["tenant3"]):
        outbox.entry_retry(entry=entry)
    outbox.process_outbox(w["tenant3"].pk)
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.status == "sent"


def test_server_error_retries_with_backoff_then_succeeds(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    invoice = post_invoice()
    fake.script("POST", "/v1/customerinvoice", (503, {"message": "Service Unavailable"}))
    counts = outbox.process_outbox(w["tenant3"].pk)
    assert counts["retry"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.status == "pending" and entry.attempts == 1 and entry.http_status == 503
    assert (
        timezone.now() + timedelta(seconds=50)
        < entry.next_attempt_at
        < timezone.now() + timedelta(seconds=70)
    )
    assert "503" in entry.error
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 0  # not due yet
    _due_now(in_tenant, w)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert invoice.number in fake.net["customerinvoice"]
    assert outbox.backoff(2) == timedelta(minutes=2) and outbox.backoff(20) == timedelta(hours=6)


def test_lost_answer_creates_nothing_twice(fake, net_connection, sales_world, post_invoice, in_tenant):
    """The invoice reached Visma but the answer was lost (502): the retry looks the number up first."""
    w = sales_world
    invoice = post_invoice()
    fake.lose_answer.add(("POST", "/v1/customerinvoice"))
    assert outbox.process_outbox(w["tenant3"].pk)["retry"] == 1
    assert invoice.number in fake.net["customerinvoice"]
    _due_now(in_tenant, w)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 1
    # looked up before each attempt: the first (nothing there) and the retry (found)
    assert len(fake.calls("GET", f"/v1/customerinvoice/{invoice.number}")) == 2
    # enqueueing the same document again finds the same entry: still one push
    with in_tenant(w["tenant3"]):
        outbox.enqueue_document(Invoice.objects.get(pk=invoice.pk))
        assert SyncEntry.objects.filter(kind="invoice").count() == 1
    outbox.process_outbox(w["tenant3"].pk)
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 1


def test_a_worker_that_died_after_visma_wrote_the_invoice_does_not_send_it_twice(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    """Visma writes the invoice, then the worker dies before the entry records anything (attempts still
    0, lease run out): the next run looks the number up (always, not only after a failure) and adopts it."""
    w = sales_world
    invoice = post_invoice()
    fake.lose_answer.add(("POST", "/v1/customerinvoice"))
    outbox.process_outbox(w["tenant3"].pk)
    assert invoice.number in fake.net["customerinvoice"]
    with in_tenant(w["tenant3"]):  # the row as a killed worker leaves it
        SyncEntry.objects.filter(kind="invoice").update(
            status="pending", attempts=0, error="", http_status=None, next_attempt_at=None, leased_until=None
        )
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 1
    assert len(fake.net["customerinvoice"]) == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert (entry.status, entry.external_id) == ("sent", invoice.number)


def test_visma_that_writes_the_invoice_then_drops_the_connection_holds_it_once(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    """Visma writes the invoice and the connection closes without an answer (no status line at all):
    the entry waits for its retry, which finds the number and adopts it."""
    w = sales_world
    invoice = post_invoice()
    fake.drop_connection.add(("POST", "/v1/customerinvoice"))
    assert outbox.process_outbox(w["tenant3"].pk)["retry"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.status == "pending" and entry.attempts == 1 and entry.external_id == ""
    assert list(fake.net["customerinvoice"]) == [invoice.number]  # Visma has it
    _due_now(in_tenant, w)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 1
    assert list(fake.net["customerinvoice"]) == [invoice.number]
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert (entry.status, entry.external_id, entry.attempts) == ("sent", invoice.number, 2)


def test_expired_token_is_renewed_once_and_the_call_repeated(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    post_invoice()
    fake.script("POST", "/v1/customer", (401, {"message": "Authorization has been denied for this request."}))
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert fake.token_calls == 2  # the first token, and one renewal after the 401
    assert len(fake.calls("POST", "/v1/customer")) == 2


def test_rejected_token_twice_is_an_auth_failure(fake, net_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    post_invoice()
    fake.script("POST", "/v1/customer", (401, {"message": "denied"}), (401, {"message": "denied"}))
    assert outbox.process_outbox(w["tenant3"].pk)["failed"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.status == "failed" and "refused the access token" in entry.error


def test_429_short_retry_after_is_waited_out(fake, net_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    post_invoice()
    fake.script("POST", "/v1/customerinvoice", (429, {"message": "Too many requests"}, {"Retry-After": "1"}))
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 2


def test_429_long_retry_after_is_respected_by_the_outbox(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    post_invoice()
    fake.script(
        "POST", "/v1/customerinvoice", (429, {"message": "Too many requests"}, {"Retry-After": "600"})
    )
    assert outbox.process_outbox(w["tenant3"].pk)["retry"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.http_status == 429 and entry.next_attempt_at > timezone.now() + timedelta(seconds=590)


def test_credit_note_waits_for_its_invoice(fake, net_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    invoice = post_invoice()
    with in_tenant(w["tenant3"]):
        credit = sales.credit_note_create(invoice=Invoice.objects.get(pk=invoice.pk), post=True)
    fake.script("POST", "/v1/customerinvoice", (500, {"message": "Internal error"}))
    counts = outbox.process_outbox(w["tenant3"].pk)
    assert counts == {"sent": 0, "failed": 0, "retry": 1, "waiting": 1}
    assert fake.calls("POST", "/v1/customerCreditNote") == []
    [credit_entry] = _entries(in_tenant, w, kind="credit_note")
    assert "Waits for invoice" in credit_entry.error and credit_entry.attempts == 0
    _due_now(in_tenant, w)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 2
    note = fake.net["customerCreditNote"][credit.number]
    assert note["applicationLines"][0]["refNbr"] == {"value": invoice.number}
    order = [
        r["path"]
        for r in fake.requests
        if r["method"] == "POST" and "customer" in r["path"].lower() and r["path"][1:] != "v1/customer"
    ]
    assert order.index("/v1/customerinvoice") < order.index("/v1/customerCreditNote")


def test_skipped_entry_is_not_sent(fake, net_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    post_invoice()
    [entry] = _entries(in_tenant, w)
    with in_tenant(w["tenant3"]):
        outbox.entry_skip(entry=entry)
    outbox.process_outbox(w["tenant3"].pk)
    assert fake.calls("POST", "/v1/customerinvoice") == []


def test_payment_status_is_read_back_onto_the_invoice(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    invoice = post_invoice()
    outbox.process_outbox(w["tenant3"].pk)
    fake.net["customerinvoice"][invoice.number].update(status={"value": "Closed"}, balance={"value": 0})
    counts = outbox.read_payment_status(w["tenant3"].pk)
    assert counts == {"read": 1, "changed": 1, "failed": 0}
    with in_tenant(w["tenant3"]):
        invoice.refresh_from_db()
        assert invoice.amount_paid == invoice.total_gross
        # the invoice's own record of it: one payment read from the accounting system
        [paid] = invoice.payments.all()
        assert (paid.amount, paid.source) == (invoice.total_gross, "accounting")
        assert paid.reference.endswith(invoice.number) and paid.created_by is None
        mapping = Mapping.objects.get(kind="invoice")
        assert (mapping.external_status, mapping.external_open_amount) == ("paid", Decimal("0.00"))
        assert SyncEntry.objects.filter(action="read_status").count() == 1
    # paid invoices are not read again
    assert outbox.read_payment_status(w["tenant3"].pk)["read"] == 0


def test_dry_run_lists_without_writing(fake, net_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    invoice = post_invoice()
    with in_tenant(w["tenant3"]):
        AccountingConnection.objects.update(supplier_level="parent_vendor")
        plan = outbox.sync_plan(AccountingConnection.objects.get())
    assert [d["label"] for d in plan["documents"]] == [invoice.number]
    kinds = sorted(m["kind"] for m in plan["masters"])
    assert kinds == ["article", "article", "customer", "parent_vendor", "parent_vendor"]
    assert all(m["action"] == "create" for m in plan["masters"])
    assert fake.requests == []


def test_sync_start_pushes_suppliers(fake, net_connection, sales_world, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        result = outbox.sync_start(AccountingConnection.objects.get())
    assert result == {"queued": 2}
    outbox.process_outbox(w["tenant3"].pk)
    assert set(fake.net["supplier"]) == {"S-1001", "S-2001"}
    with in_tenant(w["tenant3"]):
        assert outbox.sync_plan(AccountingConnection.objects.get()) == {"masters": [], "documents": []}


def test_eaccounting_push_and_refresh_token_rotation(
    fake, ea_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    invoice = post_invoice()
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    [doc] = fake.ea["customerinvoices"].values()
    [customer] = fake.ea["customers"].values()
    assert doc["CustomerId"] == customer["Id"] and doc["YourReference"] == invoice.number
    assert {r["ArticleId"] for r in doc["Rows"]} == set(fake.ea["articles"])
    with in_tenant(w["tenant3"]):
        connection = AccountingConnection.objects.get()
        assert connection.refresh_token == fake.refresh_token != "rt-1"  # the rotated token was stored
        entry = SyncEntry.objects.get(kind="invoice")
        assert entry.external_id == doc["Id"]
    # a second refresh uses the rotated token and works
    fake.expire_tokens()
    with in_tenant(w["tenant3"]):
        credit = sales.credit_note_create(invoice=Invoice.objects.get(pk=invoice.pk), post=True)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    credit_doc = next(d for d in fake.ea["customerinvoices"].values() if d["YourReference"] == credit.number)
    assert credit_doc["IsCreditInvoice"] is True and credit_doc["CreditedInvoiceId"] == doc["Id"]


def test_eaccounting_validation_error_in_words(fake, ea_connection, sales_world, post_invoice, in_tenant):
    w = sales_world
    post_invoice()
    fake.script(
        "POST",
        "/v2/customers",
        (400, {"ErrorCode": 4000, "DeveloperErrorMessage": "CountryCode is invalid", "ErrorId": "e1"}),
    )
    assert outbox.process_outbox(w["tenant3"].pk)["failed"] == 1
    [entry] = _entries(in_tenant, w, kind="invoice")
    assert entry.error == "C-1001 Bakkerij de Vries BV: CountryCode is invalid"
    [customer_entry] = _entries(in_tenant, w, kind="customer")
    assert customer_entry.status == "failed" and customer_entry.error == "CountryCode is invalid"


def test_invoice_api_shows_the_accounting_state(
    fake, net_connection, sales_world, post_invoice, in_tenant, api
):
    w = sales_world
    invoice = post_invoice()
    client = api(w["sales"], w["tenant3"])
    url = f"/api/salesorders/invoices/{invoice.pk}/"
    state = client.get(url).json()["data"]["accounting"]
    assert state["sync_status"] == "pending" and state["external_id"] == ""
    outbox.process_outbox(w["tenant3"].pk)
    fake.net["customerinvoice"][invoice.number].update(balance={"value": 10})
    outbox.read_payment_status(w["tenant3"].pk)
    state = client.get(url).json()["data"]["accounting"]
    assert state["sync_status"] == "sent" and state["external_id"] == invoice.number
    assert state["external_status"] == "partly_paid" and state["external_open_amount"] == "10.00"
    with in_tenant(w["tenant3"]):
        invoice.refresh_from_db()
        assert invoice.amount_paid == invoice.total_gross - Decimal("10")
    # a payment reversed in the accounting system: the balance is back up, a negative payment is recorded
    # and the paid total is again the sum of the invoice's payments
    fake.net["customerinvoice"][invoice.number].update(balance={"value": 25})
    outbox.read_payment_status(w["tenant3"].pk)
    with in_tenant(w["tenant3"]):
        invoice.refresh_from_db()
        assert invoice.amount_paid == invoice.total_gross - Decimal("25")
        amounts = [p.amount for p in invoice.payments.order_by("id")]
        assert amounts == [invoice.total_gross - Decimal("10"), Decimal("-15.00")]
        assert sum(amounts) == invoice.amount_paid
