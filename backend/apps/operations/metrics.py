"""Prometheus metrics (docs/operations.md, "Metrics").

Requests, latency and errors by view come from django-prometheus's middleware. This module adds what is
ours: the depth of every Celery queue (read from Redis at scrape time) and the outcome of every task (a
counter in each worker process, served by the worker on `CELERY_METRICS_PORT`). `/api/metrics/` answers
only a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`; without the setting it does not exist
(404), so nothing about the installation is public by default.
"""

from __future__ import annotations

import hmac
import logging
import os

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, generate_latest
from prometheus_client import REGISTRY as DEFAULT_REGISTRY
from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger("apps.operations")

TASKS = Counter(
    "cartontrace_celery_tasks_total",
    "Background tasks finished, by task name and outcome (success, failure, retry).",
    ["task", "outcome"],
)


def queue_names() -> list[str]:
    names = {getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery") or "celery"}
    for queue in getattr(settings, "CELERY_TASK_QUEUES", None) or ():
        names.add(getattr(queue, "name", queue))
    for route in (getattr(settings, "CELERY_TASK_ROUTES", None) or {}).values():
        if isinstance(route, dict) and route.get("queue"):
            names.add(route["queue"])
    return sorted(str(name) for name in names)


class CeleryQueueCollector:
    """The number of messages waiting in each queue of the Redis broker, read when scraped."""

    def collect(self):
        family = GaugeMetricFamily(
            "cartontrace_celery_queue_length", "Messages waiting in each Celery queue.", labels=["queue"]
        )
        broker = getattr(settings, "CELERY_BROKER_URL", "")
        if broker.startswith(("redis://", "rediss://")):
            try:
                import redis

                client = redis.Redis.from_url(broker, socket_connect_timeout=1, socket_timeout=1)
                try:
                    for name in queue_names():
                        family.add_metric([name], client.llen(name))
                finally:
                    client.close()
            except Exception as exc:  # the broker is down: no samples; the readiness check says why
                logger.debug("queue lengths unreadable: %s", type(exc).__name__)
        yield family


def _registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        registry.register(CeleryQueueCollector())
        return registry
    return DEFAULT_REGISTRY


_queue_collector_registered = False


def _ensure_queue_collector() -> None:
    global _queue_collector_registered
    if not _queue_collector_registered and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        DEFAULT_REGISTRY.register(CeleryQueueCollector())
        _queue_collector_registered = True


def _authorised(request) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return bool(token) and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


@never_cache
def metrics_view(request):
    if not getattr(settings, "METRICS_TOKEN", ""):
        return HttpResponse(status=404)
    if not _authorised(request):
        response = HttpResponse(status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    _ensure_queue_collector()
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)


def _on_success(sender=None, **kwargs):
    TASKS.labels(getattr(sender, "name", "unknown"), "success").inc()


def _on_failure(sender=None, **kwargs):
    TASKS.labels(getattr(sender, "name", "unknown"), "failure").inc()


def _on_retry(sender=None, **kwargs):
    TASKS.labels(getattr(sender, "name", "unknown"), "retry").inc()


def _serve_worker_metrics(**kwargs):
    port = os.environ.get("CELERY_METRICS_PORT")
    if port:
        from prometheus_client import start_http_server

        start_http_server(int(port), addr=os.environ.get("CELERY_METRICS_ADDR", "127.0.0.1"))


def connect_task_signals() -> None:
    from celery.signals import task_failure, task_retry, task_success, worker_ready

    task_success.connect(_on_success, dispatch_uid="operations_metrics_success", weak=False)
    task_failure.connect(_on_failure, dispatch_uid="operations_metrics_failure", weak=False)
    task_retry.connect(_on_retry, dispatch_uid="operations_metrics_retry", weak=False)
    worker_ready.connect(_serve_worker_metrics, dispatch_uid="operations_metrics_worker", weak=False)
