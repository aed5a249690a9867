# ruff: noqa: F811 (the fixtures of test_dds_filing, imported by name)
"""Filings left pending by a worker that died (or a message lost with a Redis that restarted empty) are
moved on by the recovery sweep (`eudr.recover_filings`, filing.dds_submissions_recover): looked up in the
EU information system by internal reference and finished, never filed twice; after too many attempts
handed to a person, whose retry on the page works. Against the local TRACES server of test_dds_filing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.eudr import filing
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tasks import recover_filings
from apps.eudr.tests.test_dds_filing import (  # noqa: F401 (fixtures)
    _fresh_cache,
    account,
    delivery,
    server,
    url,
    world,
)

from . import traces_server as fake

pytestmark = pytest.mark.django_db


def partner_calls(server) -> list[str]:
    """The calls about the statement itself: the upstream statement's verification when the filing was
    queued is not part of what recovery does."""
    return [action for action in server.actions() if action != "verify-declaration"]


def crashed_during_submit(world, delivery, in_tenant, *, attempts=1) -> DdsSubmission:
    """The state a worker killed during submitDds leaves: the attempt committed, the action pending, no
    uuid, no error, and nothing touched it since."""
    with in_tenant(world.tenant3):
        submission = filing.dds_submission_request(delivery_id=delivery.pk, user=world.admin)
        assert filing.begin_attempt(submission_id=submission.pk) == 0
        DdsSubmission.objects.filter(pk=submission.pk).update(
            attempts=attempts, updated_at=timezone.now() - filing.RECOVERY_AFTER - timedelta(seconds=1)
        )
        submission.refresh_from_db()
    return submission


def test_a_filing_whose_worker_died_after_the_system_filed_it_ends_available(
    world, api, account, server, delivery, in_tenant
):
    submission = crashed_during_submit(world, delivery, in_tenant)
    # The system holds the statement the dead worker sent.
    server.answer(
        "getDdsByInternalReference",
        fake.overview("GetDdsByInternalReferenceResponse", internal=submission.internal_reference),
    )
    assert recover_filings() == {"requeued": 1, "for_a_person": 0}
    with in_tenant(world.tenant3):
        submission.refresh_from_db()
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
    assert submission.status == "available" and submission.pending_action == ""
    assert submission.uuid == fake.UUID and submission.attempts == 2
    assert (stored.dds_reference_number, stored.dds_verification_number) == ("26NLX7TVCZAQ2S", "SFFCB4Y3")
    assert "submitDds" not in partner_calls(server)  # adopted, not filed twice
    assert partner_calls(server)[0] == "getDdsByInternalReference"
    overview = api(world.admin, world.tenant3).get(url(delivery)).json()["data"]
    outcomes = [(e["action"], e["outcome"]) for e in overview["current"]["events"]]
    assert ("submit", "queued") in outcomes and outcomes[-1] == ("submit", "ok")
    # Nothing left for the next sweep.
    assert recover_filings() == {"requeued": 0, "for_a_person": 0}


def test_a_filing_whose_message_was_lost_before_it_reached_the_system_is_filed_once(
    world, account, server, delivery, in_tenant
):
    with in_tenant(world.tenant3):
        submission = filing.dds_submission_request(delivery_id=delivery.pk, user=world.admin)
        DdsSubmission.objects.filter(pk=submission.pk).update(
            updated_at=timezone.now() - filing.RECOVERY_AFTER - timedelta(seconds=1)
        )
    recover_filings()
    with in_tenant(world.tenant3):
        submission.refresh_from_db()
    # filed once; its status is read by the schedule 30 minutes later
    assert submission.status == "submitted" and submission.status_due_at
    assert partner_calls(server).count("submitDds") == 1


def test_a_recent_pending_filing_is_left_to_its_worker(world, account, server, delivery, in_tenant):
    with in_tenant(world.tenant3):
        filing.dds_submission_request(delivery_id=delivery.pk, user=world.admin)
    assert recover_filings() == {"requeued": 0, "for_a_person": 0}
    assert partner_calls(server) == []


def test_after_too_many_attempts_a_person_retries_from_the_page(
    world, api, account, server, delivery, in_tenant
):
    submission = crashed_during_submit(world, delivery, in_tenant, attempts=filing.RECOVERY_MAX_ATTEMPTS)
    assert recover_filings() == {"requeued": 0, "for_a_person": 1}
    assert partner_calls(server) == []
    client = api(world.admin, world.tenant3)
    current = client.get(url(delivery)).json()["data"]["current"]
    assert current["pending_action"] == "" and "retry" in current["last_error"]
    assert recover_filings() == {"requeued": 0, "for_a_person": 0}  # told once
    retried = client.post(url(delivery, "submit"))
    assert retried.status_code == 202, retried.content
    current = retried.json()["data"]["current"]
    assert current["id"] == submission.pk and current["status"] == "submitted"
    # looked up first (the system had nothing), then filed once
    assert partner_calls(server)[:2] == ["getDdsByInternalReference", "submitDds"]


def test_the_sweep_of_one_tenant_never_sees_another_tenants_filings(
    world, account, server, delivery, in_tenant
):
    crashed_during_submit(world, delivery, in_tenant)
    with in_tenant(world.tenant2):
        assert filing.dds_submissions_recover() == {"requeue": [], "person": []}
