"""Real SMTP on loopback: the message arrives whole, 4xx is retried, 5xx fails once, dedupe holds."""

from __future__ import annotations

import email
import hashlib
import io
import zipfile
from email import policy

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from apps.eudr.tests.trace_data import make_delivery
from apps.notifications import emit as emit_module
from apps.notifications.emit import emit
from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate

pytestmark = pytest.mark.django_db


def _parsed(envelope):
    return email.message_from_bytes(envelope.content, policy=policy.default)


def _messages(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return list(EmailMessage.objects.order_by("pk"))


def test_a_scenarios_message_arrives_with_subject_both_bodies_and_message_id(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, django_capture_on_commit_callbacks
):
    make_scenario(
        recipients=[
            {"type": "contact", "role": "parent_vendor"},
            {"type": "address", "address": "a@x.example"},
        ]
    )
    with in_tenant(world["tenant3"]):
        world["vendor_a"].email = "sales@evergreen.example"
        world["vendor_a"].save()
    with django_capture_on_commit_callbacks(execute=True):
        order = make_order()

    assert len(smtp_server.received) == 2
    logged = _messages(world, in_tenant)
    assert [m.status for m in logged] == ["sent", "sent"]
    by_id = {m.message_id: m for m in logged}
    for envelope in smtp_server.received:
        mail = _parsed(envelope)
        row = by_id[mail["Message-ID"]]
        assert mail["Subject"] == f"Purchase order {order.order_number} for Evergreen No.1"
        assert mail["From"] == "EuroTrade Goods <orders@eurotrade.example>"
        assert mail.get_body(("plain",)).get_content().strip() == (
            f"Dear Shanghai Evergreen Packaging, order {order.order_number} totals 125.00."
        )
        assert "<p>Total 125.00 EUR</p>" in mail.get_body(("html",)).get_content()
        # the log keeps the exact bytes the server received
        assert row.raw_sha256 == hashlib.sha256(row.raw.read()).hexdigest()
        assert row.transport == "tenant_smtp" and row.attempts == 1
    assert {e.rcpt_tos[0] for e in smtp_server.received} == {"sales@evergreen.example", "a@x.example"}


def _package(in_tenant, world):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("summary.pdf", b"%PDF-1.4 summary of the statement")
        archive.writestr("dds.json", "{}")
    return default_storage.save("eudr/test/pkg.zip", ContentFile(buffer.getvalue()))


def test_the_attachment_arrives_and_is_kept_with_its_checksum(
    world, in_tenant, tenant_smtp, smtp_server, django_capture_on_commit_callbacks
):
    path = _package(in_tenant, world)
    with in_tenant(world["tenant3"]):
        delivery = make_delivery(delivery_number="DLV-DDS-1")
        template = EmailTemplate.objects.create(
            name="DDS",
            event="eudr.dds_package_ready",
            subject_en="DDS {{ delivery.number }}",
            body_text_en="Package {{ package.file_name }} is ready.",
        )
        EmailScenario.objects.create(
            name="DDS ready",
            event="eudr.dds_package_ready",
            template=template,
            language="en",
            recipients=[{"type": "address", "address": "eudr@x.example"}],
            attachments=["dds_summary"],
        )
        with django_capture_on_commit_callbacks(execute=True):
            emit(
                "eudr.dds_package_ready",
                record=delivery,
                key="job-1",
                extra={"package_path": path, "file_name": "DDS-DLV-DDS-1.zip"},
            )

    (envelope,) = smtp_server.received
    mail = _parsed(envelope)
    assert mail["Subject"] == "DDS DLV-DDS-1"
    (part,) = list(mail.iter_attachments())
    assert part.get_filename() == "DDS-summary-DLV-DDS-1.pdf"
    assert part.get_content() == b"%PDF-1.4 summary of the statement"
    (row,) = _messages(world, in_tenant)
    with in_tenant(world["tenant3"]):
        (kept,) = row.attachments.all()
        assert kept.sha256 == hashlib.sha256(b"%PDF-1.4 summary of the statement").hexdigest()
        assert kept.file.read() == b"%PDF-1.4 summary of the statement"


def test_a_temporary_failure_is_retried_and_then_succeeds(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, django_capture_on_commit_callbacks
):
    make_scenario()
    smtp_server.replies = ["451 4.3.0 Try again later"]
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    (row,) = _messages(world, in_tenant)
    assert row.status == "sent"
    assert row.attempts == 2
    assert smtp_server.data_commands == 2
    assert len(smtp_server.received) == 1
    assert _parsed(smtp_server.received[0])["Message-ID"] == row.message_id


def test_three_temporary_failures_fail_the_message(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, django_capture_on_commit_callbacks
):
    make_scenario()
    smtp_server.replies = ["451 busy"] * 5
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    (row,) = _messages(world, in_tenant)
    assert (row.status, row.attempts, smtp_server.data_commands) == ("failed", 3, 3)
    assert "451" in row.last_error


def test_a_permanent_failure_fails_once_and_is_logged(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, django_capture_on_commit_callbacks
):
    make_scenario()
    smtp_server.replies = ["554 5.7.1 Message rejected"]
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    (row,) = _messages(world, in_tenant)
    assert (row.status, row.attempts) == ("failed", 1)
    assert row.last_error.startswith("554")
    assert smtp_server.data_commands == 1 and smtp_server.received == []


def test_the_same_occurrence_never_mails_the_same_address_twice(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, django_capture_on_commit_callbacks
):
    make_scenario(
        recipients=[
            {"type": "address", "address": "a@x.example"},
            {"type": "address", "address": "A@X.example"},  # the same address twice in one scenario
        ]
    )
    order = make_order()
    with in_tenant(world["tenant3"]), django_capture_on_commit_callbacks(execute=True):
        emit("purchase_order.sent", record=order, key="once")
        emit("purchase_order.sent", record=order, key="once")
    assert len(smtp_server.received) == 1
    assert len(_messages(world, in_tenant)) == 1


def test_a_rolled_back_write_sends_nothing(
    world, in_tenant, make_scenario, make_order, django_capture_on_commit_callbacks
):
    from django.db import transaction

    make_scenario()
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                make_order()
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert _messages(world, in_tenant) == []


def test_a_detached_event_survives_the_rollback_of_its_request(world, in_tenant, make_scenario, make_order):
    """The over-cap refusal rolls its transaction back; the event is handed over when the request ends."""
    from django.db import transaction

    order = make_order()
    make_scenario()
    with in_tenant(world["tenant3"]):
        try:
            with transaction.atomic():
                emit("purchase_order.sent", record=order, key="refused", detached=True)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
    assert _messages(world, in_tenant) == []
    emit_module.flush_detached()
    (row,) = _messages(world, in_tenant)
    assert row.status == "sent" and row.transport in ("smtp", "outbox")


def test_without_an_enabled_scenario_an_event_costs_one_query(
    world, in_tenant, make_scenario, make_order, django_assert_num_queries
):
    order = make_order()
    make_scenario(enabled=False)
    with in_tenant(world["tenant3"]), django_assert_num_queries(1):
        emit("purchase_order.sent", record=order)


def test_the_embedded_default_writes_the_outbox(
    world, in_tenant, make_scenario, make_order, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "apps.notifications.outbox.OutboxBackend"
    settings.NOTIFICATIONS_OUTBOX_DIR = tmp_path / "outbox"
    make_scenario()
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    (row,) = _messages(world, in_tenant)
    assert (row.status, row.transport) == ("sent", "outbox")
    (eml,) = list((tmp_path / "outbox").rglob("*.eml"))
    assert eml.read_bytes() == row.raw.read()


def _queued_message(world, in_tenant, make_scenario, make_order):
    from apps.notifications.services import messages_for_event

    make_scenario()
    order = make_order()  # its on-commit queueing is not run: the message waits, queued
    with in_tenant(world["tenant3"]):
        (message,) = messages_for_event(event_name="purchase_order.sent", record_pk=order.pk)
    return message


def _reload(message, world, in_tenant):
    with in_tenant(world["tenant3"]):
        message.refresh_from_db()
    return message


def test_the_celery_task_leaves_a_temporary_failure_to_the_sweep_with_backoff(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order
):
    from datetime import timedelta

    from django.utils import timezone

    from apps.notifications.tasks import send_message, sweep_queued

    message = _queued_message(world, in_tenant, make_scenario, make_order)
    smtp_server.replies = ["421 4.7.0 Too many connections"]
    result = send_message.apply(kwargs={"tenant_id": message.tenant_id, "message_id": message.pk})
    assert result.get() == "retry"
    message = _reload(message, world, in_tenant)
    assert (message.status, message.attempts) == ("queued", 1)
    wait = message.next_attempt_at - timezone.now()
    assert timedelta(seconds=50) < wait <= timedelta(minutes=1)
    assert sweep_queued.apply().get() == 0  # not due yet
    with in_tenant(world["tenant3"]):
        EmailMessage.objects.filter(pk=message.pk).update(next_attempt_at=timezone.now())
    assert sweep_queued.apply().get() == 1  # handed to a worker (inline here): sent
    message = _reload(message, world, in_tenant)
    assert (message.status, message.attempts) == ("sent", 2)
    assert len(smtp_server.received) == 1


def test_retries_back_off_for_hours_and_the_operator_sees_the_failures(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order, api
):
    from datetime import timedelta

    from django.utils import timezone

    from apps.notifications import services
    from apps.notifications.tasks import sweep_queued

    message = _queued_message(world, in_tenant, make_scenario, make_order)
    smtp_server.replies = ["451 4.3.0 Try again later"] * services.MAX_TRIES
    waits = []
    for _try in range(services.MAX_TRIES):
        if _try == 0:
            services.message_deliver(tenant_id=message.tenant_id, message_id=message.pk)
        else:
            with in_tenant(world["tenant3"]):
                EmailMessage.objects.filter(pk=message.pk).update(next_attempt_at=timezone.now())
            assert sweep_queued.apply().get() == 1
        message = _reload(message, world, in_tenant)
        if message.next_attempt_at:
            waits.append(message.next_attempt_at - message.attempted_at)
    assert (message.status, message.attempts) == ("failed", services.MAX_TRIES)
    assert smtp_server.data_commands == services.MAX_TRIES and smtp_server.received == []
    assert waits[0] < timedelta(minutes=2) and waits[-1] >= timedelta(hours=4)
    assert sum(waits, timedelta()) > timedelta(hours=12)
    health = api(world["admin"], world["tenant3"]).get("/api/core/email-log/health/")
    assert health.status_code == 200, health.content
    data = health.json()["data"]
    assert data["by_status"]["failed"] == 1 and data["failed_last_day"] == 1


def test_a_timeout_after_data_is_maybe_sent_and_never_sent_again(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order
):
    """The server takes the content and never answers: the message may have been delivered. It is
    "maybe sent", not retried by the task or the sweep; a person resends it."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.notifications import services
    from apps.notifications.tasks import sweep_queued

    with in_tenant(world["tenant3"]):
        tenant_smtp.timeout = 1
        tenant_smtp.save()
    message = _queued_message(world, in_tenant, make_scenario, make_order)
    smtp_server.stall_after_data = True
    assert services.message_deliver(tenant_id=message.tenant_id, message_id=message.pk) == "uncertain"
    message = _reload(message, world, in_tenant)
    assert message.status == "uncertain" and message.attempts == 1
    assert len(smtp_server.received) == 1  # the server has it
    with in_tenant(world["tenant3"]):
        EmailMessage.objects.filter(pk=message.pk).update(attempted_at=timezone.now() - timedelta(hours=1))
    assert sweep_queued.apply().get() == 0
    assert services.message_deliver(tenant_id=message.tenant_id, message_id=message.pk) == "skip"
    assert smtp_server.data_commands == 1
    assert _reload(message, world, in_tenant).status == "uncertain"


def test_a_message_left_sending_by_a_dead_worker_is_maybe_sent(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order
):

    from django.utils import timezone

    from apps.notifications import services
    from apps.notifications.tasks import sweep_queued

    message = _queued_message(world, in_tenant, make_scenario, make_order)
    with in_tenant(world["tenant3"]):  # committed "sending", then the worker was killed
        EmailMessage.objects.filter(pk=message.pk).update(
            status="sending", attempts=1, attempted_at=timezone.now() - services.SENDING_STALE
        )
    sweep_queued.apply().get()
    message = _reload(message, world, in_tenant)
    assert message.status == "uncertain" and "check" in message.last_error
    assert smtp_server.data_commands == 0


def test_a_message_whose_broker_message_was_lost_is_sent_once_by_the_sweep(
    world, in_tenant, tenant_smtp, smtp_server, make_scenario, make_order
):
    from django.utils import timezone

    from apps.notifications import services
    from apps.notifications.tasks import sweep_queued

    message = _queued_message(world, in_tenant, make_scenario, make_order)
    assert sweep_queued.apply().get() == 0  # just made: its own task is on the way
    with in_tenant(world["tenant3"]):
        EmailMessage.objects.filter(pk=message.pk).update(
            created_at=timezone.now() - services.QUEUE_GRACE, send_after=None
        )
    assert sweep_queued.apply().get() == 1
    assert sweep_queued.apply().get() == 0
    assert len(smtp_server.received) == 1
    assert _reload(message, world, in_tenant).status == "sent"


def test_names_travel_encoded_and_read_decoded_in_the_log(
    world,
    in_tenant,
    api,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    make_scenario(recipients=[{"type": "contact", "role": "parent_vendor"}])
    with in_tenant(world["tenant3"]):
        world["vendor_a"].email = "sales@evergreen.example"
        world["vendor_a"].contact = "Müller, Küchenwelt"
        world["vendor_a"].save()
        tenant_smtp.from_name = "Bäckerei Süd"
        tenant_smtp.save()
    with django_capture_on_commit_callbacks(execute=True):
        make_order()

    (envelope,) = smtp_server.received
    head = envelope.content.split(b"\r\n\r\n", 1)[0]
    assert b"=?utf-8?" in head.lower()  # on the wire the names are encoded words (RFC 2047)
    mail = _parsed(envelope)
    assert mail["To"].addresses[0].display_name == "Müller, Küchenwelt"
    assert mail["To"].addresses[0].addr_spec == "sales@evergreen.example"
    assert mail["From"].addresses[0].display_name == "Bäckerei Süd"

    (row,) = _messages(world, in_tenant)
    assert row.to == ['"Müller, Küchenwelt" <sales@evergreen.example>']
    client = api(world["admin"], world["tenant3"])
    listed = client.get("/api/core/email-log/").json()["data"]["results"][0]
    assert listed["to"] == ['"Müller, Küchenwelt" <sales@evergreen.example>']
    detail = client.get(f"/api/core/email-log/{row.pk}/").json()["data"]
    assert detail["from_email"] == "Bäckerei Süd <orders@eurotrade.example>"


def test_a_name_stored_encoded_by_an_earlier_version_reads_decoded(world, in_tenant, api, make_order):
    with in_tenant(world["tenant3"]):
        order = make_order()
        EmailMessage.objects.all().delete()
        row = EmailMessage.objects.create(
            event="purchase_order.sent",
            content_type=ContentType.objects.get_for_model(type(order)),
            object_id=order.pk,
            to=["=?utf-8?q?K=C3=BCchenwelt?= <a@b.example>"],
            from_email="=?utf-8?b?QsOkY2tlcmVp?= <o@b.example>",
            message_id="<old@b.example>",
        )
    client = api(world["admin"], world["tenant3"])
    detail = client.get(f"/api/core/email-log/{row.pk}/").json()["data"]
    assert detail["to"] == ["Küchenwelt <a@b.example>"]
    assert detail["from_email"] == "Bäckerei <o@b.example>"
