"""Health endpoints: live always, ready from the database, migrations, Redis, storage and workers."""

from __future__ import annotations

import socket

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from apps.operations import health, tasks


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.delete(health.WORKER_SEEN_KEY)
    yield
    cache.delete(health.WORKER_SEEN_KEY)


@pytest.mark.django_db
def test_live_answers_without_sign_in_or_tenant():
    response = APIClient().get("/api/health/live/")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "live"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_ready_when_every_required_check_passes(settings):
    settings.REDIS_URL = ""
    response = APIClient().get("/api/health/ready/")
    assert response.status_code == 200, response.json()
    checks = response.json()["data"]["checks"]
    assert checks["database"]["ok"] and checks["migrations"]["ok"] and checks["storage"]["ok"]
    assert checks["redis"] == {"ok": True, "detail": "not configured", "required": False}


@pytest.mark.django_db
def test_not_ready_when_redis_does_not_answer(settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{_free_port()}/0"
    response = APIClient().get("/api/health/ready/")
    assert response.status_code == 503
    body = response.json()
    assert body["error"] == "not_ready"
    assert body["data"]["checks"]["redis"]["ok"] is False
    assert body["data"]["checks"]["database"]["ok"] is True
    # An installation whose balancer must keep serving through a Redis outage can say so.
    settings.HEALTH_READY_REQUIRES_REDIS = False
    assert APIClient().get("/api/health/ready/").status_code == 200


@pytest.mark.django_db
def test_ready_with_a_redis_that_answers(settings):
    import os

    url = os.environ.get("REDIS_URL_FOR_TESTS")
    if not url:
        pytest.skip("REDIS_URL_FOR_TESTS is not set")
    settings.REDIS_URL = url
    assert health.check_redis().ok


@pytest.mark.django_db
def test_not_ready_when_the_database_fails(monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    from django.db import connections

    monkeypatch.setattr(connections["default"], "cursor", broken_cursor)
    check = health.check_database()
    assert check.ok is False
    assert "OperationalError" in check.detail
    # The migrations check is skipped when the database does not answer; readiness is false.
    ready, checks = health.readiness()
    assert ready is False
    assert "migrations" not in checks


@pytest.mark.django_db
def test_not_ready_while_migrations_are_missing(monkeypatch):
    from django.db.migrations.executor import MigrationExecutor

    monkeypatch.setattr(health, "_migrations_applied", False)
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("m", False)])
    check = health.check_migrations()
    assert check.ok is False and check.detail == "1 not applied"


@pytest.mark.django_db
def test_storage_that_cannot_be_created_is_not_ready(settings, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    settings.MEDIA_ROOT = blocker / "media"
    check = health.check_storage()
    assert check.ok is False and "unreachable" in check.detail


@pytest.mark.django_db
def test_workers_are_reported_and_required_only_when_configured(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = ""
    client = APIClient()

    checks = client.get("/api/health/ready/").json()["data"]["checks"]
    assert checks["workers"]["ok"] is False and checks["workers"]["required"] is False

    settings.HEALTH_READY_REQUIRES_WORKERS = True
    assert client.get("/api/health/ready/").status_code == 503

    tasks.worker_heartbeat()  # what beat runs every minute on a worker
    response = client.get("/api/health/ready/")
    assert response.status_code == 200
    assert response.json()["data"]["checks"]["workers"]["ok"] is True


@pytest.mark.django_db
def test_inline_tasks_need_no_worker(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert health.check_workers().as_dict() == {"ok": True, "detail": "tasks run inline", "required": False}


@pytest.mark.django_db
def test_health_is_exempt_from_the_https_redirect(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^api/health/"]
    assert APIClient().get("/api/health/live/").status_code == 200


@pytest.mark.django_db
def test_other_methods_answer_in_the_envelope():
    response = APIClient().post("/api/health/ready/", {})
    assert response.status_code == 405
    assert response.json()["code"] == 405
