"""Sending a purchase order (apps/purchaseorders/services.py purchase_order_send) e-mails the supplier the
order's PDF through the real SMTP path: composed to the supplier's addresses when no scenario of
`purchase_order.sent` is enabled, or made by the enabled scenarios (which attach `purchase_order_pdf`).
Creating or confirming an order e-mails nobody."""

from __future__ import annotations

import email
from email import policy

import pymupdf as fitz
import pytest

from apps.notifications.models import EmailMessage
from apps.suppliers.models import Supplier

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"


def _parsed(envelope):
    return email.message_from_bytes(envelope.content, policy=policy.default)


def _pdf_attachment(mail) -> tuple[str, str]:
    (part,) = [p for p in mail.iter_attachments() if p.get_content_type() == "application/pdf"]
    with fitz.open(stream=part.get_content(), filetype="pdf") as document:
        return part.get_filename(), "\n".join(page.get_text() for page in document)


def test_send_without_a_scenario_mails_the_supplier_the_pdf(
    world, in_tenant, api, tenant_smtp, smtp_server, confirmed_order, django_capture_on_commit_callbacks
):
    with in_tenant(world["tenant3"]):
        Supplier.objects.filter(pk=world["supplier_a"].pk).update(
            email="orders@evergreen.example", country="CN"
        )
    client = api(world["purchasing"], world["tenant3"])
    with django_capture_on_commit_callbacks(execute=True):
        draft = client.post(
            URL,
            {
                "order_date": "2026-03-01",
                "supplier": world["supplier_a"].pk,
                "lines": [{"product": world["carton"].pk, "order_qty": "100", "unit_cost": "1.25"}],
            },
            format="json",
        ).json()["data"]
        assert client.post(f"{URL}{draft['id']}/confirm/").status_code == 200
    assert smtp_server.received == []  # a draft, and confirming, e-mail nobody

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"{URL}{draft['id']}/send/")
    assert response.status_code == 200 and response.json()["data"]["status"] == "sent"
    (envelope,) = smtp_server.received
    assert envelope.rcpt_tos == ["orders@evergreen.example"]
    mail = _parsed(envelope)
    assert draft["order_number"] in mail["Subject"] and "采购订单" in mail["Subject"]
    body = mail.get_body(preferencelist=("plain",)).get_content()
    assert "2026年3月1日" in body and "2026-03-01" not in body  # the order date as the supplier reads days
    name, text = _pdf_attachment(mail)
    assert name == f"{draft['order_number']}.pdf"
    assert "采购订单" in text and draft["order_number"] in text and "125.00 EUR" in text
    with in_tenant(world["tenant3"]):
        (logged,) = EmailMessage.objects.all()
        assert logged.event == "purchase_order.sent" and logged.status == "sent"


def test_send_with_a_scenario_attaches_the_pdf(
    world,
    in_tenant,
    api,
    tenant_smtp,
    smtp_server,
    confirmed_order,
    make_scenario,
    django_capture_on_commit_callbacks,
):
    make_scenario(attachments=["purchase_order_pdf"])
    order = confirmed_order()
    with django_capture_on_commit_callbacks(execute=True):
        response = api(world["purchasing"], world["tenant3"]).post(f"{URL}{order.pk}/send/")
    assert response.status_code == 200
    (envelope,) = smtp_server.received
    assert envelope.rcpt_tos == ["buyer@eurotrade.example"]
    mail = _parsed(envelope)
    assert mail["Subject"] == f"Purchase order {order.order_number} for Evergreen No.1"
    name, text = _pdf_attachment(mail)
    assert name == f"{order.order_number}.pdf" and "Purchase order" in text and order.order_number in text


def test_a_refused_send_mails_nothing(
    world,
    in_tenant,
    api,
    tenant_smtp,
    smtp_server,
    confirmed_order,
    make_scenario,
    django_capture_on_commit_callbacks,
):
    make_scenario()
    draft = confirmed_order(confirm=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = api(world["purchasing"], world["tenant3"]).post(f"{URL}{draft.pk}/send/")
    assert response.status_code == 409 and response.json()["error"] == "order_not_confirmed"
    assert smtp_server.received == []
