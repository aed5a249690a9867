"""The sync log's attempts of a customer (or article) that documents push: one count per call made for
that push, never more than MAX_ATTEMPTS however many documents need it, and a later push of the record
that succeeds settles its earlier failures (the log shows no failure for a record that is in Visma)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounting import outbox
from apps.accounting.models import SyncEntry

pytestmark = pytest.mark.django_db

UNAVAILABLE = (503, {"message": "Service Unavailable"})


def _customer_entries(in_tenant, w):
    with in_tenant(w["tenant3"]):
        return list(SyncEntry.objects.filter(kind="customer").order_by("pk"))


def _documents(in_tenant, w):
    with in_tenant(w["tenant3"]):
        return list(SyncEntry.objects.filter(kind="invoice").order_by("pk"))


def _time_passes(in_tenant, w):
    """Every backoff has run out (what the clock does between the periodic runs)."""
    with in_tenant(w["tenant3"]):
        SyncEntry.objects.filter(status="pending").update(
            next_attempt_at=timezone.now() - timedelta(seconds=1)
        )


def test_a_customer_that_documents_need_counts_each_call_once_up_to_the_maximum(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    for _n in range(3):
        post_invoice()
    fake.script("POST", "/v1/customer", *[UNAVAILABLE] * 40)
    for _run in range(12):
        outbox.process_outbox(w["tenant3"].pk)
        _time_passes(in_tenant, w)
        [customer] = _customer_entries(in_tenant, w)
        # every call made for the customer is one attempt on its entry, whichever row made it
        assert customer.attempts == len(fake.calls("POST", "/v1/customer"))
        assert customer.attempts <= outbox.MAX_ATTEMPTS
    assert (customer.status, customer.attempts) == ("failed", outbox.MAX_ATTEMPTS)
    assert len(fake.calls("POST", "/v1/customer")) == outbox.MAX_ATTEMPTS
    # the documents failed with the customer's reason, without calling Visma again for it
    documents = _documents(in_tenant, w)
    assert {d.status for d in documents} == {"failed"}
    assert all("Bakkerij de Vries BV" in d.error and "503" in d.error for d in documents)
    # a document counts only its runs that called Visma (for its customer here): never one without a call
    assert sum(d.attempts for d in documents) <= len(fake.calls("POST", "/v1/customer"))
    assert [d.attempts for d in documents][1:] == [0, 0]  # these only waited, then failed along
    assert not fake.net["customerinvoice"]


def test_a_later_push_that_works_settles_the_earlier_failure_of_the_record(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    first = post_invoice()
    fake.script("POST", "/v1/customer", *[UNAVAILABLE] * outbox.MAX_ATTEMPTS)
    for _run in range(outbox.MAX_ATTEMPTS + 2):
        outbox.process_outbox(w["tenant3"].pk)
        _time_passes(in_tenant, w)
    [failed] = _customer_entries(in_tenant, w)
    assert (failed.status, failed.attempts) == ("failed", outbox.MAX_ATTEMPTS)
    # The customer is changed (another payload: another key) and a new invoice needs it; Visma answers.
    with in_tenant(w["tenant3"]):
        w["customer"].email = "orders@devries.example"
        w["customer"].save()
    second = post_invoice(carton="10", box="0.5")
    outbox.process_outbox(w["tenant3"].pk)
    old, new = _customer_entries(in_tenant, w)
    assert old.pk == failed.pk and old.idempotency_key != new.idempotency_key
    assert (new.status, new.attempts, new.external_id) == ("sent", 1, "C-1001")
    # the earlier failure of the same record is settled by it, its attempts as they were
    assert (old.status, old.external_id, old.error, old.attempts) == ("sent", "C-1001", "", 8)
    assert second.number in fake.net["customerinvoice"]
    # the first invoice, failed along with the customer, goes through on a person's retry, once
    [first_entry, _second_entry] = _documents(in_tenant, w)
    assert first_entry.status == "failed" and first_entry.record_id == first.pk
    with in_tenant(w["tenant3"]):
        outbox.entry_retry(entry=first_entry)
    outbox.process_outbox(w["tenant3"].pk)
    [first_entry, _second_entry] = _documents(in_tenant, w)
    assert (first_entry.status, first_entry.attempts) == ("sent", 1)
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 2
    assert len(fake.calls("POST", "/v1/customer")) == outbox.MAX_ATTEMPTS + 1  # no push after the success


def test_a_document_retried_by_a_person_starts_its_failed_customer_again(
    fake, net_connection, sales_world, post_invoice, in_tenant
):
    w = sales_world
    post_invoice()
    fake.script("POST", "/v1/customer", (400, {"message": "Error: VAT registration id is not valid."}))
    assert outbox.process_outbox(w["tenant3"].pk)["failed"] == 1
    [customer] = _customer_entries(in_tenant, w)
    assert (customer.status, customer.attempts) == ("failed", 1)
    [document] = _documents(in_tenant, w)
    assert "VAT registration id" in document.error
    with in_tenant(w["tenant3"]):
        outbox.entry_retry(entry=document)
    assert outbox.process_outbox(w["tenant3"].pk)["sent"] == 1
    [customer] = _customer_entries(in_tenant, w)
    assert (customer.status, customer.attempts) == ("sent", 1)  # a new push: its own count
