"""Celery tasks of the e-mail scenarios (eager, inline, in the embedded default).

send_message: one delivery attempt; a temporary failure retries with backoff (1, then 4 minutes),
3 tries in all; a permanent one stops (services.message_deliver decides and records).
daily_events: the events that are a date, not a write: certificates expiring in N days, invoices N
days overdue (Celery beat, CELERY_BEAT_SCHEDULE in config/settings.py).
sweep_queued: hands over messages left queued (the broker was down, or a worker died mid-way).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from . import services

logger = logging.getLogger(__name__)


@shared_task(bind=True, name="notifications.send_message", max_retries=services.MAX_TRIES - 1)
def send_message(self, *, tenant_id: int, message_id: int) -> str:
    outcome = services.message_deliver(tenant_id=tenant_id, message_id=message_id)
    if outcome == "retry":
        raise self.retry(countdown=60 * 4**self.request.retries)
    return outcome


@shared_task(name="notifications.daily_events")
def daily_events() -> dict[str, int]:
    from .daily import daily_events_all_tenants

    return daily_events_all_tenants()


@shared_task(name="notifications.sweep_queued")
def sweep_queued() -> int:
    from .daily import sweep_queued_all_tenants

    return sweep_queued_all_tenants(older_than=timezone.now() - timedelta(minutes=30))
