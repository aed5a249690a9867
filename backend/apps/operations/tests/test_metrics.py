"""Prometheus metrics: only for a scraper with the token; requests by view, queue depths, task outcomes."""

from __future__ import annotations

import os

import pytest
from rest_framework.test import APIClient

from apps.operations import metrics

pytestmark = pytest.mark.django_db


def test_no_token_configured_means_no_endpoint(settings):
    settings.METRICS_TOKEN = ""
    assert APIClient().get("/api/metrics/").status_code == 404


def test_a_scraper_without_the_token_is_refused(settings):
    settings.METRICS_TOKEN = "s3cret-scrape-token"
    client = APIClient()
    assert client.get("/api/metrics/").status_code == 401
    assert client.get("/api/metrics/", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401


def test_requests_by_view_and_task_outcomes(settings):
    settings.METRICS_TOKEN = "s3cret-scrape-token"
    client = APIClient()
    client.get("/api/health/live/")

    class FakeTask:
        name = "notifications.send_email"

    metrics._on_success(sender=FakeTask)
    metrics._on_failure(sender=FakeTask)
    body = client.get("/api/metrics/", HTTP_AUTHORIZATION="Bearer s3cret-scrape-token").content.decode()
    assert (
        'django_http_requests_total_by_view_transport_method_total{method="GET",transport="http",view="health-live"}'
        in body
    )
    assert 'cartontrace_celery_tasks_total{outcome="success",task="notifications.send_email"}' in body
    assert 'cartontrace_celery_tasks_total{outcome="failure",task="notifications.send_email"}' in body


def test_queue_depth_is_read_from_the_broker(settings):
    url = os.environ.get("REDIS_URL_FOR_TESTS")
    if not url:
        pytest.skip("REDIS_URL_FOR_TESTS is not set")
    import redis

    settings.CELERY_BROKER_URL = url
    settings.CELERY_TASK_DEFAULT_QUEUE = "celery-metrics-test"
    client = redis.Redis.from_url(url)
    client.delete("celery-metrics-test")
    client.rpush("celery-metrics-test", "a", "b", "c")
    try:
        (family,) = list(metrics.CeleryQueueCollector().collect())
        samples = {sample.labels["queue"]: sample.value for sample in family.samples}
        assert samples["celery-metrics-test"] == 3
    finally:
        client.delete("celery-metrics-test")


def test_a_broker_that_is_down_gives_no_samples_not_an_error(settings):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/0"
    (family,) = list(metrics.CeleryQueueCollector().collect())
    assert family.samples == []
