"""The due diligence package through the machine's REAL Redis broker and a REAL Celery worker process.

Needs REDIS_URL_FOR_TESTS (e.g. redis://127.0.0.1:6379/15: a dedicated database) and PostgreSQL (the
worker is another process: it must reach the test database, which an in-memory SQLite one is not). CI
sets both. The worker listens on a queue of its own, so parallel runs never take each other's jobs.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import uuid
import zipfile
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import transaction

from apps.common.tests.processes import database_url
from apps.eudr.tests.trace_data import attach_file, make_cartons, make_delivery

REDIS_URL = os.environ.get("REDIS_URL_FOR_TESTS", "")
BACKEND_DIR = Path(__file__).resolve().parents[3]

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(
        not REDIS_URL, reason="set REDIS_URL_FOR_TESTS (e.g. redis://127.0.0.1:6379/15) to run"
    ),
    pytest.mark.skipif(
        not django_settings.IS_POSTGRES,
        reason="needs PostgreSQL (DATABASE_URL): the worker process cannot reach an in-memory SQLite database",
    ),
]


@pytest.fixture
def redis_celery(settings):
    """Points this process's Celery app and cache at the real Redis; restores them afterwards."""
    from config.celery import app

    queue = f"dds-test-{uuid.uuid4().hex[:10]}"
    saved = {key: app.conf.get(key) for key in ("broker_url", "result_backend", "task_always_eager")}
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    settings.EUDR_DDS_QUEUE = queue
    app.conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    _reset_connections(app)
    try:
        yield app, queue
    finally:
        app.conf.update(**saved)
        _reset_connections(app)


def _reset_connections(app) -> None:
    from kombu import pools

    # kombu's process-wide producer pools are keyed by the broker URL: without this, the next test on the
    # same URL would take the pool closed here ("Acquire on closed pool").
    pools.reset()
    if getattr(app, "_pool", None) is not None:
        app._pool.force_close_all()
        app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    if hasattr(app._local, "backend"):
        del app._local.backend


@pytest.fixture
def worker(redis_celery, settings):
    _app, queue = redis_celery
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    log = (Path(settings.MEDIA_ROOT).parent / "worker.log").open("w+")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "info",
            "-n",
            f"{queue}@%h",
        ],
        cwd=BACKEND_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield process, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def _worker_output(log) -> str:
    log.flush()
    log.seek(0)
    return log.read()[-4000:]


@pytest.mark.django_db(transaction=True)
def test_package_built_by_a_real_worker_through_redis(
    worker, redis_celery, api, make_user, tenant3, in_tenant
):
    from celery import Celery

    process, log = worker
    tenant3.legal_name, tenant3.address, tenant3.country = (
        "EuroTrade Goods B.V.",
        "Havenweg 12, Rotterdam",
        "NL",
    )
    tenant3.save()
    with transaction.atomic(), in_tenant(tenant3):
        delivery = make_delivery()
        make_cartons(delivery, count=3)
        attach_file(delivery, "vendor_certificate", "certificate.pdf", b"%PDF-1.4 cert")
    admin = make_user(tenant3, "Administrator")
    client = api(admin, tenant3)

    response = client.post(f"/api/eudr/raw-materials/{delivery.pk}/dds-package/")
    assert response.status_code == 202, response.content
    job = response.json()["data"]
    assert job["status"] == "queued"  # not eager: the worker builds it

    deadline = time.monotonic() + 120
    seen = set()
    while time.monotonic() < deadline:
        assert process.poll() is None, "the worker exited:\n" + _worker_output(log)
        job = client.get(f"/api/eudr/raw-materials/{delivery.pk}/dds-package/{job['id']}/").json()["data"]
        seen.add(job["status"])
        if job["status"] in ("done", "failed"):
            break
        time.sleep(0.3)
    assert job["status"] == "done", f"{job}\n{_worker_output(log)}"
    assert job["progress"] == {"done": 5, "total": 5, "step": "stored"}

    # Celery's own result, read back from Redis by an independent client
    result = Celery(broker=REDIS_URL, backend=REDIS_URL).AsyncResult(job["id"])
    assert result.get(timeout=30) == {
        "status": "done",
        "path": job_path(tenant3, delivery, job),
        "size": job["size"],
    }

    download = client.get(job["download_url"])
    assert download.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content)))
    assert set(archive.namelist()) == {
        "dds.json",
        "dds.xml",
        "geolocation.geojson",
        "summary.pdf",
        "files/vendor_certificate/certificate.pdf",
    }
    statement = json.loads(archive.read("dds.json"))["statement"]
    assert statement["commodities"][0]["descriptors"]["goodsMeasure"]["netWeight"] == 2.55
    assert "succeeded" in _worker_output(log)


def job_path(tenant, delivery, job) -> str:
    from apps.eudr.dds.jobs import package_path

    return package_path(tenant_id=tenant.pk, delivery_id=delivery.pk, job_id=job["id"])
