"""E-mail delivery health for a company's administrator (GET /api/core/email-log/health/) and Retry of a
failed or maybe-sent message (POST /api/core/email-log/{id}/retry/): the same message and Message-ID,
queued once however often it is clicked, delivered over a real SMTP server on loopback; only the
company's own users with the permission retry it."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.notifications import services
from apps.notifications.models import EmailMessage

pytestmark = pytest.mark.django_db

BASE = "/api/core/email-log"


def _messages(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return list(EmailMessage.objects.order_by("pk"))


def _failed_message(
    world, in_tenant, make_scenario, make_order, smtp_server, capture, reply="554 5.7.1 Rejected"
):
    make_scenario()
    smtp_server.replies = [reply]
    with capture(execute=True):
        make_order()
    (row,) = _messages(world, in_tenant)
    assert row.status == "failed"
    return row


def test_the_administrator_sees_counts_and_the_failed_messages_and_retries_one(
    world,
    api,
    in_tenant,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    failed = _failed_message(
        world, in_tenant, make_scenario, make_order, smtp_server, django_capture_on_commit_callbacks
    )
    admin = api(world["admin"], world["tenant3"])
    health = admin.get(f"{BASE}/health/").json()["data"]
    assert health["by_status"]["failed"] == 1 and health["attention_total"] == 1
    (listed,) = health["attention"]
    assert (listed["id"], listed["status"], listed["attempts"]) == (failed.pk, "failed", 1)
    assert listed["last_error"].startswith("554") and listed["subject"] == failed.subject

    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(f"{BASE}/{failed.pk}/retry/")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["status"] == "queued"  # as answered; sent once the request committed
    (row,) = _messages(world, in_tenant)  # the same message, no copy
    assert (row.pk, row.status, row.attempts, row.message_id) == (failed.pk, "sent", 2, failed.message_id)
    (envelope,) = smtp_server.received
    parsed = email.message_from_bytes(envelope.content, policy=policy.default)
    assert parsed["Message-ID"] == failed.message_id

    health = admin.get(f"{BASE}/health/").json()["data"]
    assert health["attention_total"] == 0 and health["attention"] == []
    assert health["by_status"]["sent"] == 1


def test_a_second_click_queues_nothing_twice(
    world,
    api,
    in_tenant,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    failed = _failed_message(
        world, in_tenant, make_scenario, make_order, smtp_server, django_capture_on_commit_callbacks
    )
    admin = api(world["admin"], world["tenant3"])
    smtp_server.replies = ["554 5.7.1 Still rejected"]
    # Queued, its task not run yet (a worker will take it): a second retry is refused.
    assert admin.post(f"{BASE}/{failed.pk}/retry/").status_code == 200
    again = admin.post(f"{BASE}/{failed.pk}/retry/")
    assert again.status_code == 409 and again.json()["error"] == "not_retryable"
    row = _messages(world, in_tenant)[0]
    assert row.status == "queued" and row.next_attempt_at is not None  # the sweep's lease

    # The task's broker message was lost: the sweep hands it on after the grace, once.
    later = timezone.now() + services.QUEUE_GRACE + timedelta(seconds=1)
    with in_tenant(world["tenant3"]):
        assert services.messages_recover(now=later)["requeue"] == [failed.pk]
        assert services.messages_recover(now=later)["requeue"] == []  # leased
    assert services.message_deliver(tenant_id=row.tenant_id, message_id=row.pk) == "failed"
    assert services.message_deliver(tenant_id=row.tenant_id, message_id=row.pk) == "skip"
    assert smtp_server.data_commands == 2  # the first try and the retry, nothing more
    # A sent message is not retried (Resend sends a copy).
    smtp_server.replies = []
    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(f"{BASE}/{failed.pk}/retry/").status_code == 200
    assert _messages(world, in_tenant)[0].status == "sent"
    refused = admin.post(f"{BASE}/{failed.pk}/retry/")
    assert refused.status_code == 409 and "failed or maybe-sent" in refused.json()["message"]


def test_a_maybe_sent_message_is_retried_with_its_message_id(
    world,
    api,
    in_tenant,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    failed = _failed_message(
        world, in_tenant, make_scenario, make_order, smtp_server, django_capture_on_commit_callbacks
    )
    with in_tenant(world["tenant3"]):
        EmailMessage.objects.filter(pk=failed.pk).update(
            status="uncertain", last_error="timed out after DATA"
        )
    health = api(world["admin"], world["tenant3"]).get(f"{BASE}/health/").json()["data"]
    assert [m["status"] for m in health["attention"]] == ["uncertain"]
    with django_capture_on_commit_callbacks(execute=True):
        response = api(world["admin"], world["tenant3"]).post(f"{BASE}/{failed.pk}/retry/")
    assert response.status_code == 200
    (row,) = _messages(world, in_tenant)
    assert (row.status, row.message_id) == ("sent", failed.message_id)


def test_only_the_companys_users_with_the_permission_retry(
    world,
    api,
    in_tenant,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    failed = _failed_message(
        world, in_tenant, make_scenario, make_order, smtp_server, django_capture_on_commit_callbacks
    )
    url = f"{BASE}/{failed.pk}/retry/"
    assert api(world["other_admin"], world["tenant2"]).post(url).status_code == 404
    assert (
        api(world["other_admin"], world["tenant2"]).get(f"{BASE}/health/").json()["data"]["attention"] == []
    )
    assert api(world["other_admin"], world["tenant3"]).post(url).status_code == 403
    assert api(world["supplier_user_a"], world["tenant3"]).post(url).status_code == 403
    assert api(world["supplier_user_a"], world["tenant3"]).get(f"{BASE}/health/").status_code == 403
    assert api(world["warehouse_user"], world["tenant3"]).post(url).status_code == 403
    assert api(world["sales"], world["tenant3"]).post(url).status_code == 403
    assert api(None, world["tenant3"]).post(url).status_code == 401
    assert _messages(world, in_tenant)[0].status == "failed"
    assert smtp_server.data_commands == 1


def test_the_health_answer_costs_the_same_queries_however_many_messages_failed(
    world,
    api,
    in_tenant,
    tenant_smtp,
    smtp_server,
    make_scenario,
    make_order,
    django_capture_on_commit_callbacks,
):
    admin = api(world["admin"], world["tenant3"])
    make_scenario()

    def queries() -> int:
        admin.handler._force_user.__dict__.pop("_tenant_perm_cache", None)
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(f"{BASE}/health/").status_code == 200
        return len(captured.captured_queries)

    smtp_server.replies = ["554 5.7.1 Rejected"]
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    one = queries()
    smtp_server.replies = ["554 5.7.1 Rejected"] * 3
    for _order in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            make_order()
    assert len(admin.get(f"{BASE}/health/").json()["data"]["attention"]) == 4
    assert queries() == one
