# ruff: noqa: F811  (the sales fixtures are imported by name and used as arguments)
"""The sales events end to end: the invoice posted reaches the customer's invoice contact in the
invoice's language with the invoice PDF; the shipment carries its delivery note; an invoice N days
overdue is mailed once by the daily run; a scenario's delay is the Celery countdown."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from email import message_from_bytes
from unittest import mock

import pytest
from django.utils import timezone

from apps.customers.models import CustomerContact
from apps.notifications.daily import daily_events_all_tenants
from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate
from apps.salesorders import services
from apps.salesorders.tests.conftest import make_sales_order, put_stock, sales_world  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def invoice_template(sales_world, in_tenant):
    with in_tenant(sales_world["tenant3"]):
        return EmailTemplate.objects.create(
            name="Invoice",
            event="invoice.posted",
            subject_en="Invoice {{ invoice.number }}",
            subject_zh="发票 {{ invoice.number }}",
            body_text_en="Due {{ invoice.due_date }}: {{ invoice.amount_open }} {{ invoice.currency }}",
            body_text_zh="应付 {{ invoice.amount_open }} {{ invoice.currency }}",
            body_html_en="<p>{{ customer.name }}</p>",
        )


def _shipped_order(sales_world, put_stock, make_sales_order, in_tenant):
    put_stock(sales_world["carton"], "500")
    order = make_sales_order(lines=[(sales_world["carton"], "10", "2.50")])
    with in_tenant(sales_world["tenant3"]):
        line = order.lines.get()
        shipment = services.shipment_create(
            sales_order=order, lines=[services.ShipmentLineInput(order_line=line, quantity=Decimal("10"))]
        )
        services.shipment_ship(shipment=shipment)
    return order, shipment


def test_the_posted_invoice_goes_to_the_invoice_contact_in_its_language_with_the_pdf(
    sales_world, put_stock, make_sales_order, in_tenant, invoice_template, django_capture_on_commit_callbacks
):
    w = sales_world
    with in_tenant(w["tenant3"]):
        w["customer"].email = "info@devries.example"
        w["customer"].save(update_fields=["email"])
        CustomerContact.objects.create(
            customer=w["customer"], name="Anna", role="Invoice", email="ap@devries.example"
        )
        CustomerContact.objects.create(
            customer=w["customer"], name="Piet", role="Buyer", email="piet@devries.example"
        )
        EmailScenario.objects.create(
            name="Invoice to the customer",
            event="invoice.posted",
            template=invoice_template,
            recipients=[{"type": "contact", "role": "customer", "match": "invoice"}],
            attachments=["invoice_pdf"],
            language="recipient",
        )
    order, _shipment = _shipped_order(w, put_stock, make_sales_order, in_tenant)
    with in_tenant(w["tenant3"]):
        draft = services.invoice_create(sales_order=order)
        draft.language = "zh"
        draft.save(update_fields=["language"])
        with django_capture_on_commit_callbacks(execute=True):
            invoice = services.invoice_post(invoice=draft)
        (message,) = EmailMessage.objects.prefetch_related("attachments")
        (attachment,) = message.attachments.all()
        pdf = attachment.file.read()
    assert message.status == "sent" and message.to == ["Anna <ap@devries.example>"]
    assert (message.language, message.subject) == ("zh", f"发票 {invoice.number}")
    assert message.body_text == f"应付 {invoice.total_gross} EUR"
    assert attachment.file_name == f"{invoice.number}.pdf" and pdf.startswith(b"%PDF")
    sent = message_from_bytes(message.raw.read())
    parts = {p.get_filename(): p.get_payload(decode=True) for p in sent.walk() if p.get_filename()}
    assert parts == {f"{invoice.number}.pdf": pdf}
    assert message.record_url == f"/sales/invoices/{invoice.pk}"


def test_the_shipment_carries_its_delivery_note(
    sales_world, put_stock, make_sales_order, in_tenant, django_capture_on_commit_callbacks
):
    w = sales_world
    with in_tenant(w["tenant3"]):
        w["customer"].email = "info@devries.example"
        w["customer"].save(update_fields=["email"])
        template = EmailTemplate.objects.create(
            name="Shipped", event="sales_shipment.shipped", subject_en="Shipped {{ shipment.number }}"
        )
        EmailScenario.objects.create(
            name="Shipped",
            event="sales_shipment.shipped",
            template=template,
            recipients=[{"type": "contact", "role": "customer", "match": ""}],
            attachments=["delivery_note"],
            language="en",
        )
    with django_capture_on_commit_callbacks(execute=True):
        _order, shipment = _shipped_order(w, put_stock, make_sales_order, in_tenant)
    with in_tenant(w["tenant3"]):
        (message,) = EmailMessage.objects.all()
        (attachment,) = message.attachments.all()
        assert attachment.file.read().startswith(b"%PDF")
    assert message.status == "sent" and message.to == ["Bakkerij de Vries BV <info@devries.example>"]
    assert attachment.file_name == f"delivery-note-{shipment.shipment_number}.pdf"


def test_an_invoice_n_days_overdue_is_mailed_once_by_the_daily_run(
    sales_world, put_stock, make_sales_order, in_tenant, django_capture_on_commit_callbacks
):
    w = sales_world
    with in_tenant(w["tenant3"]):
        template = EmailTemplate.objects.create(
            name="Overdue",
            event="invoice.overdue",
            subject_en="{{ invoice.number }} is {{ invoice.days_overdue }} days overdue",
        )
        EmailScenario.objects.create(
            name="Overdue",
            event="invoice.overdue",
            template=template,
            recipients=[{"type": "address", "address": "credit@eurotrade.example"}],
            days=10,
            language="en",
        )
    order, _shipment = _shipped_order(w, put_stock, make_sales_order, in_tenant)
    today = timezone.localdate()
    with in_tenant(w["tenant3"]):
        invoice = services.invoice_post(invoice=services.invoice_create(sales_order=order))
        type(invoice).objects.filter(pk=invoice.pk).update(due_date=today - timedelta(days=10))
    with django_capture_on_commit_callbacks(execute=True):
        daily_events_all_tenants(today=today - timedelta(days=1))  # 9 days overdue: not yet
    with in_tenant(w["tenant3"]):
        assert not EmailMessage.objects.exists()
    for _run in range(2):  # a second run the same day mails no one again
        with django_capture_on_commit_callbacks(execute=True):
            daily_events_all_tenants(today=today)
    with in_tenant(w["tenant3"]):
        subjects = list(EmailMessage.objects.values_list("subject", "status"))
        services.invoice_payment_record(invoice=invoice, amount=services.invoice_open_amount(invoice))
        type(invoice).objects.filter(pk=invoice.pk).update(due_date=today - timedelta(days=10))
    assert subjects == [(f"{invoice.number} is 10 days overdue", "sent")]
    # paid: the next day's run (for a due date N days back) finds nothing
    with in_tenant(w["tenant3"]):
        type(invoice).objects.filter(pk=invoice.pk).update(due_date=today - timedelta(days=9))
    with django_capture_on_commit_callbacks(execute=True):
        daily_events_all_tenants(today=today + timedelta(days=1))
    with in_tenant(w["tenant3"]):
        assert EmailMessage.objects.count() == 1


def test_a_scenarios_delay_is_the_celery_countdown(
    world, in_tenant, make_scenario, make_order, settings, django_capture_on_commit_callbacks
):
    from apps.notifications.tasks import send_message

    make_scenario(delay_minutes=30)
    eager = send_message.app.conf.task_always_eager
    send_message.app.conf.task_always_eager = False  # a worker with Redis, as in production
    try:
        with (
            mock.patch.object(send_message, "apply_async") as apply_async,
            django_capture_on_commit_callbacks(execute=True),
        ):
            make_order()
    finally:
        send_message.app.conf.task_always_eager = eager
    with in_tenant(world["tenant3"]):
        message = EmailMessage.objects.get()
    assert message.status == "queued"
    ((_args, kwargs),) = apply_async.call_args_list
    assert kwargs["kwargs"] == {"tenant_id": world["tenant3"].pk, "message_id": message.pk}
    assert 29 * 60 <= kwargs["countdown"] <= 30 * 60
