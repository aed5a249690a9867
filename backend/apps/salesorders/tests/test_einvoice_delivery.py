"""Delivering e-invoices (docs/sales.md, "Delivering e-invoices"): the company's Peppol access point (its
settings, the API key stored encrypted, every call through the outbound policy) against a local fake
access point on a free port, each failure a recorded delivery and a clear refusal; and e-mail with the
chosen e-invoice files to a real SMTP server on loopback."""

from __future__ import annotations

import base64
import email
import io
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection
from lxml import etree
from pypdf import PdfReader

from apps.common.dates import day_text
from apps.notifications.models import EmailMessage
from apps.notifications.tests.conftest import ScriptedHandler, _free_port
from apps.salesorders.models import EInvoiceDelivery, PeppolSettings
from apps.salesorders.tests import test_ubl
from apps.salesorders.tests.test_ubl import _posted

pytestmark = pytest.mark.django_db
einvoice_world = test_ubl.einvoice_world
INVOICES = "/api/salesorders/invoices/"
SETTINGS = "/api/salesorders/peppol-settings/"


class FakeAccessPoint:
    """An access point's API on 127.0.0.1 (a free port): takes the document, answers a message id, or
    the scripted answer (status, JSON body) of the next call."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answers: list[tuple[int, object]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status, payload = (
                    fake.answers.pop(0)
                    if fake.answers
                    else (201, {"message_id": f"msg-{len(fake.requests)}"})
                )
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/api/v1/documents"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def access_point(settings):
    # The endpoint is a tenant address: the outbound policy refuses loopback and plain http unless the
    # operator allows them (apps/common/outbound.py); this fake on 127.0.0.1 is reached so.
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = FakeAccessPoint()
    yield server
    server.close()


@pytest.fixture
def configured(einvoice_world, access_point, api):
    w = einvoice_world
    response = api(w["admin"], w["tenant3"]).put(
        SETTINGS,
        {"endpoint_url": access_point.url, "api_key": "ap-secret-key", "sender_id": "9944:NL004495445B01"},
        format="json",
    )
    assert response.status_code == 200, response.content
    return access_point


def _deliveries(w, in_tenant, invoice):
    with in_tenant(w["tenant3"]):
        return list(EInvoiceDelivery.objects.filter(invoice=invoice).order_by("pk").values())


def test_settings_are_for_the_administrator_with_the_key_encrypted(
    einvoice_world, access_point, api, in_tenant
):
    w = einvoice_world
    admin = api(w["admin"], w["tenant3"])
    assert admin.get(SETTINGS).status_code == 404
    saved = admin.put(
        SETTINGS,
        {"endpoint_url": access_point.url, "api_key": "ap-secret-key", "sender_id": "9944:NL004495445B01"},
        format="json",
    )
    assert saved.status_code == 200, saved.content
    body = saved.json()["data"]
    assert body["has_api_key"] is True and "api_key" not in body and body["enabled"] is True
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('app.tenant_id', %s, false)", [str(w["tenant3"].pk)])
        cursor.execute("SELECT api_key FROM salesorders_peppolsettings")
        stored = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('app.tenant_id', '', false)")
    assert stored and "ap-secret-key" not in stored
    # a PUT without the key keeps it; clear_api_key removes it
    kept = admin.put(SETTINGS, {"sender_id": "0106:12345678"}, format="json").json()["data"]
    assert kept["has_api_key"] is True and kept["sender_id"] == "0106:12345678"
    with in_tenant(w["tenant3"]):
        assert PeppolSettings.objects.get().api_key == "ap-secret-key"
    assert admin.put(SETTINGS, {"clear_api_key": True}, format="json").json()["data"]["has_api_key"] is False
    # the Sales role sends invoices but does not see or set the access point; nor do others
    assert api(w["sales"], w["tenant3"]).get(SETTINGS).status_code == 403
    assert (
        api(w["sales"], w["tenant3"]).put(SETTINGS, {"sender_id": "0106:1"}, format="json").status_code == 403
    )
    assert api(w["warehouse_user"], w["tenant3"]).get(SETTINGS).status_code == 403
    assert api(w["supplier_user_a"], w["tenant3"]).get(SETTINGS).status_code == 403
    assert api(w["other_admin"], w["tenant2"]).get(SETTINGS).status_code == 404
    assert admin.delete(SETTINGS).status_code == 200  # the envelope answers 200
    assert admin.get(SETTINGS).status_code == 404


def test_settings_are_validated(einvoice_world, settings, api):
    w = einvoice_world
    admin = api(w["admin"], w["tenant3"])
    good = {"endpoint_url": "https://ap.example.com/send", "sender_id": "9944:NL004495445B01"}
    bad_bodies = [
        {**good, "endpoint_url": "http://ap.example.com/send"},  # plain http is not allowed
        {**good, "endpoint_url": "https://10.0.0.5/send"},  # the operator's network
        {**good, "endpoint_url": "https://127.0.0.1/send"},
        {**good, "endpoint_url": "https://169.254.169.254/latest"},
        {**good, "endpoint_url": "not a url"},
        {**good, "sender_id": "NL004495445B01"},  # no scheme
        {**good, "sender_id": ""},
        {**good, "timeout": 0},
        {**good, "timeout": 500},
        {"sender_id": good["sender_id"]},  # a new one needs its URL
    ]
    for body in bad_bodies:
        response = admin.put(SETTINGS, body, format="json")
        assert response.status_code == 400, (body, response.content)
    assert admin.get(SETTINGS).status_code == 404
    assert admin.put(SETTINGS, good, format="json").status_code == 200


def test_a_posted_invoice_is_sent_through_the_access_point(einvoice_world, configured, in_tenant, api):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    client = api(w["sales"], w["tenant3"])
    response = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert response.status_code == 200, response.content
    body = response.json()["data"]
    assert body["status"] == "sent" and body["message_id"] == "msg-1" and body["channel"] == "peppol"
    assert body["recipient"] == "9920:ESA12345674"
    (call,) = configured.requests
    assert call["path"] == "/api/v1/documents"
    assert call["headers"]["Authorization"] == "Bearer ap-secret-key"
    assert call["body"]["sender"] == "9944:NL004495445B01"
    assert call["body"]["receiver"] == "9920:ESA12345674"
    assert call["body"]["document_type"].startswith(
        "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::"
    )
    document = etree.fromstring(base64.b64decode(call["body"]["document"]))
    assert document.xpath("cbc:ID", namespaces=test_ubl.NS)[0].text == invoice.number
    # shown on the invoice
    listed = client.get(f"{INVOICES}{invoice.pk}/deliveries/").json()["data"]
    assert [(d["channel"], d["status"], d["message_id"]) for d in listed] == [("peppol", "sent", "msg-1")]
    # a second send is refused: the document has been delivered
    again = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert again.status_code == 409 and again.json()["error"] == "peppol_already_sent"
    assert len(configured.requests) == 1


def test_a_credit_note_goes_as_a_ubl_credit_note(einvoice_world, configured, in_tenant, api):
    from apps.salesorders import services

    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=invoice, post=True)
    response = api(w["sales"], w["tenant3"]).post(f"{INVOICES}{note.pk}/peppol/")
    assert response.status_code == 200, response.content
    sent = configured.requests[0]["body"]
    assert "CreditNote-2::CreditNote" in sent["document_type"]
    document = etree.fromstring(base64.b64decode(sent["document"]))
    reference = "cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID"
    assert document.xpath(reference, namespaces=test_ubl.NS)[0].text == invoice.number


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ((500, {"error": "internal"}), "unavailable"),
        ((503, "down"), "unavailable"),
        ((401, {"error": "bad key"}), "unauthorized"),
        ((422, {"error": "unknown receiver 9920:ESA12345674"}), "rejected"),
        ((202, {"status": "ok"}), "bad_answer"),
        ((200, "not json"), "bad_answer"),
    ],
)
def test_an_access_point_failure_is_a_clear_refusal_and_stays_recorded(
    einvoice_world, configured, in_tenant, api, answer, reason
):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    configured.answers.append(answer)
    client = api(w["sales"], w["tenant3"])
    response = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert response.status_code == 502, response.content
    body = response.json()
    assert body["error"] == "peppol_delivery_failed" and body["data"]["reason"] == reason
    assert "unknown receiver" not in body["message"] and "internal" not in body["message"]  # no remote text
    (row,) = _deliveries(w, in_tenant, invoice)
    assert row["status"] == "failed" and row["error"] == reason and row["error_message"] == body["message"]
    assert row["finished_at"] is not None
    # a failed delivery may be tried again, and then succeeds
    retried = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert retried.status_code == 200 and retried.json()["data"]["status"] == "sent"
    listed = client.get(f"{INVOICES}{invoice.pk}/deliveries/").json()["data"]
    assert [d["status"] for d in listed] == ["sent", "failed"]


def test_the_outbound_policy_keeps_the_access_point_off_the_operators_network(
    einvoice_world, access_point, settings, in_tenant, api
):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        PeppolSettings.objects.create(endpoint_url=access_point.url, sender_id="9944:NL004495445B01")
    settings.OUTBOUND_ALLOWED_NETWORKS = []  # as in production: loopback is the operator's
    response = api(w["sales"], w["tenant3"]).post(f"{INVOICES}{invoice.pk}/peppol/")
    assert response.status_code == 502, response.content
    assert response.json()["data"]["reason"] == "address_refused"
    assert access_point.requests == []
    assert [r["status"] for r in _deliveries(w, in_tenant, invoice)] == ["failed"]


def test_an_unreachable_access_point_is_recorded(einvoice_world, settings, in_tenant, api):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        PeppolSettings.objects.create(
            endpoint_url=f"http://127.0.0.1:{_free_port()}/send", sender_id="9944:NL004495445B01"
        )
    response = api(w["sales"], w["tenant3"]).post(f"{INVOICES}{invoice.pk}/peppol/")
    assert response.status_code == 502 and response.json()["data"]["reason"] == "unreachable"


def test_what_is_refused_before_anything_is_sent(einvoice_world, configured, in_tenant, api):
    w = einvoice_world
    client = api(w["sales"], w["tenant3"])
    export = _posted(w, in_tenant, w["chinese_buyer"])  # no VAT number: no Peppol participant
    refused = client.post(f"{INVOICES}{export.pk}/peppol/")
    assert refused.status_code == 409 and refused.json()["error"] == "peppol_no_receiver"
    invoice = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        PeppolSettings.objects.update(enabled=False)
    off = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert off.status_code == 409 and off.json()["error"] == "peppol_disabled"
    with in_tenant(w["tenant3"]):
        PeppolSettings.objects.all().delete()
    missing = client.post(f"{INVOICES}{invoice.pk}/peppol/")
    assert missing.status_code == 409 and missing.json()["error"] == "peppol_not_configured"
    assert configured.requests == []
    with in_tenant(w["tenant3"]):
        assert not EInvoiceDelivery.objects.exists()


def test_sending_is_for_its_tenant_and_who_may_change_invoices(einvoice_world, configured, in_tenant, api):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    path = f"{INVOICES}{invoice.pk}/peppol/"
    assert api(w["other_admin"], w["tenant2"]).post(path).status_code == 404
    assert api(w["supplier_user_a"], w["tenant3"]).post(path).status_code == 403
    assert api(w["warehouse_user"], w["tenant3"]).post(path).status_code == 403
    assert api(w["purchasing"], w["tenant3"]).post(path).status_code == 403
    assert api(w["sales"], w["tenant3"]).post(f"{INVOICES}999999/peppol/").status_code == 404
    deliveries = f"{INVOICES}{invoice.pk}/deliveries/"
    assert api(w["other_admin"], w["tenant2"]).get(deliveries).status_code == 404
    assert api(w["supplier_user_a"], w["tenant3"]).get(deliveries).status_code == 403
    assert configured.requests == []


# -- e-mail ------------------------------------------------------------------------------------------------


@pytest.fixture
def smtp(settings, einvoice_world, in_tenant):
    from aiosmtpd.controller import Controller

    from apps.notifications.models import SmtpSettings

    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    handler = ScriptedHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    with in_tenant(einvoice_world["tenant3"]):
        SmtpSettings.objects.create(
            host="127.0.0.1",
            port=controller.port,
            security="none",
            from_email="billing@eurotrade.example",
            timeout=5,
        )
    try:
        yield handler
    finally:
        controller.stop()


def test_the_chosen_e_invoice_files_are_mailed(
    einvoice_world, smtp, in_tenant, api, django_capture_on_commit_callbacks
):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    client = api(w["sales"], w["tenant3"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{INVOICES}{invoice.pk}/send-email/", {"formats": ["ubl", "facturx"]}, format="json"
        )
    assert response.status_code == 201, response.content
    body = response.json()["data"]
    assert body["channel"] == "email" and body["formats"] == ["ubl", "facturx"]
    assert body["recipient"] == "Envases Ibéricos SA <facturas@envases.example>"
    (envelope,) = smtp.received
    assert envelope.rcpt_tos == ["facturas@envases.example"]
    message = email.message_from_bytes(envelope.content)
    assert invoice.number in message["Subject"]
    files = {part.get_filename(): part for part in message.walk() if part.get_filename()}
    assert set(files) == {f"{invoice.number}.xml", f"{invoice.number}-factur-x.pdf"}
    assert etree.fromstring(files[f"{invoice.number}.xml"].get_payload(decode=True)) is not None
    assert files[f"{invoice.number}-factur-x.pdf"].get_payload(decode=True).startswith(b"%PDF")
    with in_tenant(w["tenant3"]):
        logged = EmailMessage.objects.get()
        assert logged.event == "invoice.sent" and logged.status == "sent"
        assert sorted(a.file_name for a in logged.attachments.all()) == sorted(files)
        # the issue date as people read days, in the invoice's language
        invoice.refresh_from_db()
        assert day_text(invoice.issue_date, invoice.language) in logged.body_text
        assert invoice.issue_date.isoformat() not in logged.body_text
    listed = client.get(f"{INVOICES}{invoice.pk}/deliveries/").json()["data"]
    assert [(d["channel"], d["email_status"]) for d in listed] == [("email", "sent")]


def test_mailing_to_given_addresses_and_what_is_refused(
    einvoice_world, smtp, in_tenant, api, django_capture_on_commit_callbacks
):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["chinese_buyer"])
    client = api(w["sales"], w["tenant3"])
    path = f"{INVOICES}{invoice.pk}/send-email/"
    for bad in (
        {},
        {"formats": []},
        {"formats": ["docx"]},
        {"formats": ["ubl", "ubl"]},
        {"formats": ["ubl"], "to": ["not-an-address"]},
        {"formats": ["ubl"], "to": "a@b.example"},
    ):
        assert client.post(path, bad, format="json").status_code == 400, bad
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(
            path, {"formats": ["pdf"], "to": ["ap@foods.example", "cfo@foods.example"]}, format="json"
        )
    assert sent.status_code == 201, sent.content
    assert sorted(e.rcpt_tos[0] for e in smtp.received) == ["ap@foods.example", "cfo@foods.example"]
    # a document that breaks a rule is not mailed: nothing is queued
    with in_tenant(w["tenant3"]):
        type(invoice).objects.filter(pk=invoice.pk).update(seller_country="")
    broken = client.post(path, {"formats": ["facturx"]}, format="json")
    assert broken.status_code == 409 and broken.json()["error"] == "facturx_invalid"
    assert len(smtp.received) == 2
    # permissions and tenancy
    assert (
        api(w["other_admin"], w["tenant2"]).post(path, {"formats": ["pdf"]}, format="json").status_code == 404
    )
    assert (
        api(w["supplier_user_a"], w["tenant3"]).post(path, {"formats": ["pdf"]}, format="json").status_code
        == 403
    )
    assert (
        api(w["warehouse_user"], w["tenant3"]).post(path, {"formats": ["pdf"]}, format="json").status_code
        == 403
    )


def test_scenarios_may_attach_the_e_invoices(einvoice_world, in_tenant):
    from apps.notifications import events as registry

    w = einvoice_world
    invoice = _posted(w, in_tenant, w["spanish_business"])
    event = registry.get_event("invoice.posted")
    assert {"invoice_pdf", "invoice_ubl", "invoice_facturx"} <= set(event.attachments)
    with in_tenant(w["tenant3"]):
        xml = registry.attachment(event, invoice, "invoice_ubl")
        pdf = registry.attachment(event, invoice, "invoice_facturx")
    assert xml.file_name == f"{invoice.number}.xml" and xml.content_type == "application/xml"
    assert pdf.file_name == f"{invoice.number}-factur-x.pdf"
    assert list(PdfReader(io.BytesIO(pdf.content)).attachments) == ["factur-x.xml"]
