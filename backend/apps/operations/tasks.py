from celery import shared_task

from .health import record_worker_seen


@shared_task(name="operations.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    """Run by beat every minute: the readiness check reports when a worker last took a task."""
    record_worker_seen()
