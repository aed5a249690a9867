# ruff: noqa: F811 (the fixtures of test_dds_filing and test_celery_redis, imported by name)
"""A statement filing whose REAL Celery worker process is killed (SIGKILL) while the EU information system
holds its answer, after it has recorded the statement: the recovery sweep, sent through the broker as
beat sends it, has another worker look the statement up by its internal reference and adopt it. The
filing ends "available" with its reference number on the delivery, and the system holds exactly one
statement (submitDds was called once).

Needs REDIS_URL_FOR_TESTS and PostgreSQL (test_celery_redis.py); the workers listen on a queue of their own.
"""

from __future__ import annotations

import json
import os
import signal
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.common.tests.celery_workers import Workers, wait_for
from apps.eudr import filing
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tests.test_celery_redis import REDIS_URL, redis_celery  # noqa: F401
from apps.eudr.tests.test_celery_redis import pytestmark as celery_marks
from apps.eudr.tests.test_dds_filing import _fresh_cache, account, delivery, url, world  # noqa: F401

from . import traces_server as fake

pytestmark = [*celery_marks, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def traces(settings):
    """The local TRACES server keeping what is filed, for this process and the workers."""
    with fake.FakeTraces() as running:
        running.keep_statements()
        settings.EUDR_TRACES_URLS = {"acceptance": running.url, "production": running.url}
        yield running


@pytest.fixture
def workers(redis_celery, traces, settings, tmp_path):
    _app, queue = redis_celery  # EUDR_DDS_QUEUE of this process is the queue too
    urls = json.dumps({"acceptance": traces.url, "production": traces.url})
    pool = Workers(
        queue=queue,
        redis_url=REDIS_URL,
        media_root=str(settings.MEDIA_ROOT),
        log_dir=tmp_path,
        env={
            "DJANGO_SETTINGS_MODULE": "apps.eudr.tests.worker_settings",
            "TEST_EUDR_TRACES_URLS": urls,
            "TEST_EUDR_DDS_QUEUE": queue,
        },
    )
    yield pool
    pool.stop()


def test_a_filing_whose_worker_is_killed_while_the_system_holds_its_answer_is_adopted_once(
    world, api, account, traces, delivery, in_tenant, workers, redis_celery
):
    app, queue = redis_celery
    first = workers.start()
    traces.hold_answers.clear()  # the system records the statement, then does not answer

    response = api(world.admin, world.tenant3).post(url(delivery, "submit"))
    assert response.status_code == 202, response.content
    submission_id = response.json()["data"]["current"]["id"]
    assert response.json()["data"]["current"]["pending_action"] == "submit"  # a worker files it

    wait_for(traces.held.is_set, "the worker's submitDds to be recorded and held", workers)
    assert first.poll() is None
    os.kill(first.pid, signal.SIGKILL)
    assert first.wait(timeout=30) == -signal.SIGKILL
    assert len(traces.statements) == 1  # filed, but the dead worker never heard so

    with in_tenant(world.tenant3):
        # What the dead worker left: the attempt counted, the action pending, no uuid. (Its transaction,
        # which held the row, ended with its connection: this update waits for that, not for a timer.)
        stalled = DdsSubmission.objects.get(pk=submission_id)
        assert (stalled.pending_action, stalled.attempts, stalled.uuid) == ("submit", 1, "")
        # RECOVERY_AFTER has passed
        DdsSubmission.objects.filter(pk=submission_id).update(
            updated_at=timezone.now() - filing.RECOVERY_AFTER - timedelta(seconds=1)
        )

    # Another worker; the sweep is sent through the broker as beat sends it (to this test's queue).
    workers.start()
    swept = app.send_task("eudr.recover_filings", queue=queue)
    assert swept.get(timeout=90) == {"requeued": 1, "for_a_person": 0}, workers.output()

    def finished():
        with in_tenant(world.tenant3):
            submission = DdsSubmission.objects.get(pk=submission_id)
        return submission if not submission.pending_action else None

    submission = wait_for(finished, "the filing to be finished by the second worker", workers)
    assert submission.status == "available", (submission.last_error, workers.output())
    assert submission.uuid == fake.UUID and submission.attempts == 2
    with in_tenant(world.tenant3):
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
    assert (stored.dds_reference_number, stored.dds_verification_number) == ("26NLX7TVCZAQ2S", "SFFCB4Y3")
    # exactly one statement in the system: submitted once, adopted by the look-up
    assert list(traces.statements) == [submission.internal_reference]
    assert traces.actions().count("submitDds") == 1
    assert traces.actions().count("getDdsByInternalReference") == 1
