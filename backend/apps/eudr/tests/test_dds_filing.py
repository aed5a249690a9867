"""Filing statements from the product: the TRACES credentials (encrypted, write-only), the connection
test, submit / amend / withdraw / refresh through Celery (inline here) against a local server that answers
as the EU information system, idempotency (a retried submit never files twice), the 72 hours, and the
verification number only on signed-in internal pages."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from apps.eudr import filing
from apps.eudr.filing_models import DdsSubmission, TracesAccount
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tests.trace_data import UPSTREAM_REFERENCE, make_cartons, make_delivery
from apps.eudr.traces import TracesUnavailable

from . import traces_server as fake

pytestmark = pytest.mark.django_db

ACCOUNT_URL = "/api/eudr/traces-account/"
RAW = "/api/eudr/raw-materials/"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def server(settings):
    with fake.FakeTraces() as running:
        settings.EUDR_TRACES_URLS = {"acceptance": running.url, "production": running.url}
        settings.EUDR_TRACES_TIMEOUT = 0.5
        yield running


@pytest.fixture
def world(eudr_world):
    t = eudr_world.tenant3
    t.legal_name, t.address, t.country = "EuroTrade Goods B.V.", "Havenweg 12", "NL"
    t.save()
    return eudr_world


@pytest.fixture
def account(world, api):
    saved = api(world.admin, world.tenant3).put(
        ACCOUNT_URL,
        {
            "username": "eurotrade-ws",
            "auth_key": "s3cret-Key",
            "client_id": "eudr-test",
            "environment": "acceptance",
        },
        format="json",
    )
    assert saved.status_code == 200, saved.content
    return saved.json()["data"]


@pytest.fixture
def delivery(world, in_tenant):
    with in_tenant(world.tenant3):
        delivery = make_delivery()
        make_cartons(delivery, count=2)
        return delivery


def url(delivery, action=""):
    return f"{RAW}{delivery.pk}/dds-filing/" + (f"{action}/" if action else "")


def read_status(world, in_tenant, client=None, delivery=None):
    """The scheduled status read, once its 30 minutes have passed (moved into the past here)."""
    from apps.eudr.tasks import read_due_statuses

    with in_tenant(world.tenant3):
        DdsSubmission.objects.exclude(status_due_at=None).update(
            status_due_at=timezone.now() - timedelta(seconds=1)
        )
    read_due_statuses()
    if client is not None:
        return client.get(url(delivery)).json()["data"]
    return None


# -- credentials ---------------------------------------------------------------------------------------


def test_credentials_are_saved_encrypted_and_the_key_is_write_only(world, api, account, in_tenant):
    assert account["username"] == "eurotrade-ws" and account["has_auth_key"] is True
    assert "auth_key" not in account and "s3cret" not in str(account)
    with in_tenant(world.tenant3):
        stored = TracesAccount.objects.get()
        assert stored.auth_key == "s3cret-Key"
        with connection.cursor() as cursor:
            cursor.execute("SELECT auth_key FROM eudr_tracesaccount WHERE id = %s", [stored.pk])
            raw = cursor.fetchone()[0]
    assert raw and "s3cret" not in raw
    # an empty key keeps the stored one
    client = api(world.admin, world.tenant3)
    kept = client.put(ACCOUNT_URL, {"auth_key": "", "environment": "production"}, format="json").json()[
        "data"
    ]
    assert kept["has_auth_key"] is True and kept["environment"] == "production"
    with in_tenant(world.tenant3):
        assert TracesAccount.objects.get().auth_key == "s3cret-Key"
    refused = client.put(ACCOUNT_URL, {"environment": "moon"}, format="json")
    assert refused.status_code == 400


def test_credentials_are_the_tenants_own_and_internal_only(world, api, account):
    assert api(world.admin_x, world.tenant2).get(ACCOUNT_URL).json()["data"]["username"] == ""
    assert api(world.admin_x, world.tenant3).get(ACCOUNT_URL).status_code == 403
    assert api(world.supplier_a, world.tenant3).get(ACCOUNT_URL).status_code == 403
    assert api(world.sales, world.tenant3).get(ACCOUNT_URL).status_code == 403
    purchaser = api(world.purchaser, world.tenant3)
    seen = purchaser.get(ACCOUNT_URL).json()["data"]
    assert seen["can_edit"] is False and seen["username"] == "eurotrade-ws"
    assert purchaser.put(ACCOUNT_URL, {"username": "x"}, format="json").status_code == 403
    assert purchaser.post(ACCOUNT_URL + "test/").status_code == 403


def test_test_connection_calls_the_echo_service(world, api, account, server):
    client = api(world.admin, world.tenant3)
    ok = client.post(ACCOUNT_URL + "test/").json()["data"]
    assert ok["last_test_ok"] is True and "OK" in ok["last_test_message"]
    assert "/ws/eudr/echo" in ok["last_test_message"] and "2026 reference" in ok["last_test_message"]
    assert server.requests[-1][0] == "/tracesnt/ws/eudr/echo"
    server.answer("echo", fake.ECHO_OK)
    wsdl = client.post(ACCOUNT_URL + "test/").json()["data"]
    assert "/ws/EudrEchoService" in wsdl["last_test_message"]
    server.answer("testEcho", fake.ECHO_AUTH_FAULT, status=500)
    failed = client.post(ACCOUNT_URL + "test/").json()["data"]
    assert failed["last_test_ok"] is False and failed["last_test_message"] == "Authentication failed"


def test_filing_needs_the_credentials(world, api, delivery):
    refused = api(world.admin, world.tenant3).post(url(delivery, "submit"))
    assert refused.status_code == 400
    assert refused.json()["error"] == "traces_account_missing"


# -- filing ----------------------------------------------------------------------------------------------


def test_submit_records_the_numbers_and_the_history(world, api, account, server, delivery, in_tenant):
    client = api(world.admin, world.tenant3)
    response = client.post(url(delivery, "submit"))
    assert response.status_code == 202, response.content
    submitted = response.json()["data"]["current"]
    # the status is not read sooner than 30 minutes after the submit (the scheduled read does it)
    assert submitted["status"] == "submitted" and submitted["uuid"] == fake.UUID
    assert server.actions() == ["verify-declaration", "submitDds"]
    data = read_status(world, in_tenant, client, delivery)
    current = data["current"]
    assert current["status"] == "available" and current["status_due_at"] is None
    assert (current["uuid"], current["reference_number"], current["verification_number"]) == (
        fake.UUID,
        "26NLX7TVCZAQ2S",
        "SFFCB4Y3",
    )
    assert current["can_amend"] and current["can_withdraw"]
    assert [(e["action"], e["outcome"]) for e in current["events"]] == [
        ("submit", "queued"),
        ("submit", "ok"),
        ("refresh", "queued"),
        ("refresh", "ok"),
    ]
    # the grouped upstream statement is verified first
    assert server.actions() == ["verify-declaration", "submitDds", "getDds"]
    # the request sent is the delivery's V3 statement with the submission's internal reference
    body = server.requests[1][2].decode()
    assert f"<dds:internalReferenceNumber>{current['internal_reference']}<" in body
    with in_tenant(world.tenant3):
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
    assert (stored.dds_reference_number, stored.dds_verification_number) == ("26NLX7TVCZAQ2S", "SFFCB4Y3")
    # a second submit while it is live is refused
    again = client.post(url(delivery, "submit"))
    assert again.status_code == 409 and again.json()["error"] == "dds_filing_not_allowed"
    assert server.actions().count("submitDds") == 1


def test_a_business_fault_rejects_with_the_systems_messages(world, api, account, server, delivery, in_tenant):
    server.answer("submitDds", fake.FAULT_BUSINESS, status=500)
    client = api(world.admin, world.tenant3)
    data = client.post(url(delivery, "submit")).json()["data"]
    assert data["current"] is None
    [rejected] = data["history"]
    assert rejected["status"] == "rejected"
    assert rejected["messages"][0]["message"] == "The area of a point must be at least 0.1 ha"
    assert "HS code not allowed" in rejected["last_error"]
    # a rejected statement can be corrected and filed again
    client.post(url(delivery, "submit"))
    second = read_status(world, in_tenant, client, delivery)
    assert second["current"]["status"] == "available" and len(second["history"]) == 2


def test_an_authentication_fault_says_so(world, api, account, server, delivery, in_tenant):
    server.answer("submitDds", fake.FAULT_AUTH, status=500)
    data = api(world.admin, world.tenant3).post(url(delivery, "submit")).json()["data"]
    current = data["current"]
    assert current["status"] == "draft" and current["pending_action"] == ""
    assert "security token" in current["last_error"]
    # with the credentials corrected, the same statement is sent again (looked up first)
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    again = read_status(world, in_tenant, client, delivery)["current"]
    assert again["id"] == current["id"] and again["status"] == "available"
    assert server.actions().count("submitDds") == 2
    assert "getDdsByInternalReference" in server.actions()


def test_a_retried_submit_never_files_twice(world, api, account, server, delivery, in_tenant):
    """The first call times out (the system may have filed it); the retry finds it by its internal
    reference and adopts it instead of submitting again."""
    server.answer("submitDds", fake.DELAY)
    client = api(world.admin, world.tenant3)
    first = client.post(url(delivery, "submit")).json()["data"]["current"]
    assert first["status"] == "draft" and first["pending_action"] == "submit"
    assert first["last_error"]
    server.answer(
        "getDdsByInternalReference",
        fake.overview("GetDdsByInternalReferenceResponse", internal=first["internal_reference"]),
    )
    retried = client.post(url(delivery, "submit")).json()["data"]["current"]
    assert retried["id"] == first["id"]
    assert retried["status"] == "available" and retried["uuid"] == fake.UUID
    assert server.actions().count("submitDds") == 1
    assert "getDdsByInternalReference" in server.actions()
    with in_tenant(world.tenant3):
        assert DdsSubmission.objects.count() == 1


def test_running_the_work_twice_does_nothing_the_second_time(
    world, api, account, server, delivery, in_tenant
):
    client = api(world.admin, world.tenant3)
    submission_id = client.post(url(delivery, "submit")).json()["data"]["current"]["id"]
    with in_tenant(world.tenant3):
        assert filing.begin_attempt(submission_id=submission_id) is None  # nothing pending any more
        assert filing.file_dds_work(submission_id=submission_id, attempted_before=0) is not None
    assert server.actions().count("submitDds") == 1


def test_unanswered_then_nothing_filed_submits_once_more(world, api, account, server, delivery, in_tenant):
    server.answer("submitDds", fake.DELAY)
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    # the system has no such statement: the retry files it
    retried = client.post(url(delivery, "submit")).json()["data"]["current"]
    assert retried["status"] == "submitted"
    assert server.actions().count("submitDds") == 2
    assert server.actions().index("getDdsByInternalReference") < len(server.actions()) - 1


def test_the_task_raises_for_a_worker_to_retry(world, account, server, delivery, in_tenant):
    with in_tenant(world.tenant3):
        submission = filing.dds_submission_request(delivery_id=delivery.pk, user=world.admin)
        server.answer("submitDds", fake.DELAY)
        before = filing.begin_attempt(submission_id=submission.pk)
        with pytest.raises(TracesUnavailable):
            filing.file_dds_work(submission_id=submission.pk, attempted_before=before)
        submission.refresh_from_db()
    assert submission.pending_action == "submit" and submission.attempts == 1


def test_amend_withdraw_and_refresh(world, api, account, server, delivery, in_tenant):
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    amended = client.post(url(delivery, "amend")).json()["data"]["current"]
    assert amended["status"] == "amended" and amended["amended_at"] and amended["status_due_at"]
    assert "amendDds" in server.actions()
    amend_body = next(body for _p, action, body in server.requests if action == "amendDds").decode()
    assert f"<dds:uuid>{fake.UUID}</dds:uuid>" in amend_body
    # "refresh now" respects the 30 minutes after the amend and says when it may be tried
    early = client.post(url(delivery, "refresh"))
    assert early.status_code == 409 and early.json()["error"] == "dds_status_not_due"
    assert early.json()["data"]["status_due_at"] == amended["status_due_at"]
    assert "try again from" in early.json()["message"]
    assert "getDds" not in server.actions()
    with in_tenant(world.tenant3):
        DdsSubmission.objects.update(status_due_at=timezone.now() - timedelta(seconds=1))
    refreshed = client.post(url(delivery, "refresh")).json()["data"]["current"]
    assert refreshed["status"] == "amended" and refreshed["checked_at"] and refreshed["status_due_at"] is None
    withdrawn = client.post(url(delivery, "withdraw")).json()["data"]
    assert withdrawn["current"] is None
    assert withdrawn["history"][0]["status"] == "withdrawn"
    with in_tenant(world.tenant3):
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
    assert (stored.dds_reference_number, stored.dds_verification_number) == ("", "")
    assert client.post(url(delivery, "withdraw")).status_code == 409


def test_a_refused_withdrawal_keeps_the_statement(world, api, account, server, delivery, in_tenant):
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    read_status(world, in_tenant)
    server.answer("withdrawDds", fake.FAULT_WITHDRAW_GROUPED, status=500)
    current = client.post(url(delivery, "withdraw")).json()["data"]["current"]
    assert current["status"] == "available"
    assert current["last_error"] == "The statement is grouped and cannot be withdrawn"


def test_amend_and_withdraw_only_within_72_hours(world, api, account, server, delivery, in_tenant):
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    with in_tenant(world.tenant3):
        DdsSubmission.objects.update(submitted_at=timezone.now() - timedelta(hours=72, minutes=1))
    for action in ("amend", "withdraw"):
        refused = client.post(url(delivery, action))
        assert refused.status_code == 409
        assert (
            refused.json()["message"]
            == "The 72 hours in which the EU information system allows this have passed."
        )
    current = client.get(url(delivery)).json()["data"]["current"]
    assert current["can_amend"] is False and current["can_withdraw"] is False
    assert server.actions().count("withdrawDds") == 0


def test_filing_refuses_missing_information(world, api, account, server, in_tenant):
    with in_tenant(world.tenant3):
        delivery = make_delivery(forest_supplier_name="")
    refused = api(world.admin, world.tenant3).post(url(delivery, "submit"))
    assert refused.status_code == 400 and refused.json()["error"] == "dds_information_missing"
    assert server.requests == []


# -- who sees what ---------------------------------------------------------------------------------------


def test_only_internal_users_of_the_tenant_file_and_see_the_verification_number(
    world, api, account, server, delivery, in_tenant
):
    api(world.admin, world.tenant3).post(url(delivery, "submit"))
    read_status(world, in_tenant)
    supplier = api(world.supplier_a, world.tenant3)
    assert supplier.get(url(delivery)).status_code == 403
    assert supplier.post(url(delivery, "submit")).status_code == 403
    assert "SFFCB4Y3" not in supplier.get(f"{RAW}{delivery.pk}/").content.decode()
    assert "SFFCB4Y3" not in supplier.get(RAW).content.decode()
    assert api(world.sales, world.tenant3).post(url(delivery, "withdraw")).status_code == 403
    assert api(world.admin_x, world.tenant2).get(url(delivery)).status_code == 404
    assert api(world.admin_x, world.tenant2).post(url(delivery, "withdraw")).status_code == 404
    with in_tenant(world.tenant3):
        declared = delivery.labels.order_by("pk").first()
        # a carton labelled after the statement was filed is not declared by it (docs/eudr.md)
        late = make_cartons(delivery, count=1, batch_code="20261122A")[0]
    public = APIClient().get(f"/api/eudrtrack/{declared.code}/")
    assert public.json()["data"]["dds_reference_number"] == "26NLX7TVCZAQ2S"
    assert "SFFCB4Y3" not in public.content.decode()
    later = APIClient().get(f"/api/eudrtrack/{late.code}/").json()["data"]
    assert (later["dds_reference_number"], later["dds_reference_kind"]) == (UPSTREAM_REFERENCE, "upstream")


def test_the_overview_reads_in_few_queries(
    world, api, account, server, delivery, django_assert_max_num_queries
):
    client = api(world.admin, world.tenant3)
    client.post(url(delivery, "submit"))
    client.post(url(delivery, "refresh"))
    with django_assert_max_num_queries(14):
        assert client.get(url(delivery)).status_code == 200


def test_a_server_fault_without_detail_on_submit_is_looked_up_before_any_retry(
    world, api, account, server, delivery, in_tenant
):
    server.answer("submitDds", fake.FAULT_SERVER_NO_DETAIL, status=500)
    client = api(world.admin, world.tenant3)
    first = client.post(url(delivery, "submit")).json()["data"]["current"]
    assert first["status"] == "draft"  # never a final rejection
    assert first["events"][-1]["outcome"] == "unknown"
    # the system did file it after all: the retry finds it by its internal reference and files nothing
    server.answer("getDdsByInternalReference", fake.overview("GetDdsByInternalReferenceResponse"))
    retried = client.post(url(delivery, "submit")).json()["data"]["current"]
    assert retried["status"] == "available"
    assert server.actions().count("submitDds") == 1
    assert server.actions().index("getDdsByInternalReference") > server.actions().index("submitDds")


def test_the_status_is_read_by_the_schedule_no_sooner_than_30_minutes_after_submit(
    world, api, account, server, delivery, in_tenant
):
    from apps.eudr.tasks import read_due_statuses

    client = api(world.admin, world.tenant3)
    submitted = client.post(url(delivery, "submit")).json()["data"]["current"]
    due = timezone.datetime.fromisoformat(submitted["status_due_at"])
    assert due - timezone.datetime.fromisoformat(submitted["submitted_at"]) == filing.STATUS_WAIT
    # the schedule does not read it before its time, and neither does "refresh now"
    assert read_due_statuses() == {"queued": 0}
    early = client.post(url(delivery, "refresh"))
    assert early.status_code == 409 and early.json()["data"]["status_due_at"] == submitted["status_due_at"]
    assert "getDds" not in server.actions()
    # still processing at its time: read again STATUS_RECHECK later
    server.answer(
        "getDds", fake.overview("GetDdsResponse", status="SUBMITTED", reference="", verification="")
    )
    with in_tenant(world.tenant3):
        DdsSubmission.objects.update(status_due_at=timezone.now() - timedelta(seconds=1))
    assert read_due_statuses() == {"queued": 1}
    with in_tenant(world.tenant3):
        processing = DdsSubmission.objects.get()
    assert processing.status == "submitted" and processing.pending_action == ""
    assert processing.status_due_at > timezone.now() + filing.STATUS_RECHECK - timedelta(minutes=1)
    # another tenant's schedule run sees nothing of it; the next read finds it available
    assert read_due_statuses() == {"queued": 0}
    current = read_status(world, in_tenant, client, delivery)["current"]
    assert current["status"] == "available" and current["reference_number"] == "26NLX7TVCZAQ2S"
    assert server.actions().count("getDds") == 2


def test_a_test_outcome_is_said_in_the_readers_language(world, api, account, server, in_tenant):
    """Run in Chinese, read in English, and the other way round: the stored outcome is the catalogue's
    English message and its values, translated on every read; the system's own words stay as they came."""
    zh = api(world.admin, world.tenant3)
    ran = zh.post(ACCOUNT_URL + "test/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["data"]
    assert ran["last_test_message"].startswith("已连接：欧盟信息系统")
    assert "/ws/eudr/echo" in ran["last_test_message"]
    with in_tenant(world.tenant3):
        stored = TracesAccount.objects.get()
    assert stored.last_test_message.startswith("Connected: the EU information system answered")
    assert stored.last_test_params["path"].endswith("/ws/eudr/echo")
    english = api(world.admin, world.tenant3).get(ACCOUNT_URL, HTTP_ACCEPT_LANGUAGE="en").json()["data"]
    assert english["last_test_message"].startswith("Connected: the EU information system answered “")
    assert "/ws/eudr/echo" in english["last_test_message"] and "%(" not in english["last_test_message"]
    chinese = api(world.admin, world.tenant3).get(ACCOUNT_URL, HTTP_ACCEPT_LANGUAGE="zh-hans").json()["data"]
    assert chinese["last_test_message"] == ran["last_test_message"]
    server.answer("testEcho", fake.ECHO_AUTH_FAULT, status=500)
    failed = zh.post(ACCOUNT_URL + "test/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["data"]
    assert failed["last_test_message"] == "Authentication failed"
