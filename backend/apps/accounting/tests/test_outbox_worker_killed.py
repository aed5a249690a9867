# ruff: noqa: F811 (the fixture of test_celery_redis, imported by name)
"""An invoice push whose REAL Celery worker process is killed (SIGKILL) after the local Visma server wrote
the invoice and while it holds the answer: the entry stays pending under its lease; once the lease has
passed, the periodic run (sent through the broker as beat sends it, for every tenant) has another worker
look the invoice's number up and adopt it. Visma holds exactly one invoice.

Needs REDIS_URL_FOR_TESTS and PostgreSQL (apps/eudr/tests/test_celery_redis.py); the workers listen on a
queue of their own.
"""

from __future__ import annotations

import os
import signal
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounting.models import SyncEntry
from apps.common.tests.celery_workers import Workers, wait_for
from apps.eudr.tests.test_celery_redis import REDIS_URL, redis_celery  # noqa: F401
from apps.eudr.tests.test_celery_redis import pytestmark as celery_marks

pytestmark = [*celery_marks, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def accounting_queue(redis_celery):
    """This process sends the outbox runs to the test's queue (as the worker's CELERY_QUEUE_ACCOUNTING)."""
    app, queue = redis_celery
    saved = app.conf.task_routes
    app.conf.update(task_routes={**saved, "accounting.process_outbox": {"queue": queue}})
    yield app, queue
    app.conf.update(task_routes=saved)


@pytest.fixture
def workers(accounting_queue, settings, tmp_path):
    _app, queue = accounting_queue
    pool = Workers(
        queue=queue,
        redis_url=REDIS_URL,
        media_root=str(settings.MEDIA_ROOT),
        log_dir=tmp_path,
        env={"CELERY_QUEUE_ACCOUNTING": queue},
    )
    yield pool
    pool.stop()


def test_an_invoice_whose_worker_is_killed_after_visma_wrote_it_is_adopted_once(
    fake, net_connection, sales_world, post_invoice, in_tenant, workers, accounting_queue
):
    app, queue = accounting_queue
    w = sales_world
    fake.hold_after_write.add(("POST", "/v1/customerinvoice"))
    first = workers.start()

    invoice = post_invoice()  # queues the entry; the run is sent to the worker after the commit

    wait_for(fake.holding.is_set, "the worker's invoice POST to be written and held", workers)
    os.kill(first.pid, signal.SIGKILL)
    assert first.wait(timeout=30) == -signal.SIGKILL
    assert list(fake.net["customerinvoice"]) == [invoice.number]  # written; the worker never heard so

    with in_tenant(w["tenant3"]):
        entry = SyncEntry.objects.get(kind="invoice")
        # as the dead worker left it: pending, nothing recorded, leased for LEASE
        assert (entry.status, entry.attempts, entry.external_id) == ("pending", 0, "")
        assert entry.leased_until and entry.leased_until > timezone.now()
        SyncEntry.objects.filter(pk=entry.pk).update(leased_until=timezone.now() - timedelta(seconds=1))

    workers.start()
    run = app.send_task("accounting.process_outbox", queue=queue)  # as beat sends it: every tenant
    assert run.get(timeout=90) == {"sent": 1, "failed": 0, "retry": 0, "waiting": 0}, workers.output()

    with in_tenant(w["tenant3"]):
        entry.refresh_from_db()
    assert (entry.status, entry.external_id, entry.attempts) == ("sent", invoice.number, 1)
    assert list(fake.net["customerinvoice"]) == [invoice.number]
    assert len(fake.calls("POST", "/v1/customerinvoice")) == 1  # adopted by the look-up, not sent again
    assert len(fake.calls("GET", f"/v1/customerinvoice/{invoice.number}")) == 2
