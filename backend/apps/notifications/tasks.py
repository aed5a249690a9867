"""Celery tasks of the e-mail scenarios (eager, inline, in the embedded default).

send_message: one delivery attempt (services.message_deliver decides and records: a temporary failure
stores when to try again, 1 minute to 4 hours later, 10 tries in all; a permanent one stops; a timeout
after the content was sent is "maybe sent" and never retried on its own).
daily_events: the events that are a date, not a write: certificates expiring in N days, invoices N
days overdue (Celery beat, CELERY_BEAT_SCHEDULE in config/settings.py).
sweep_queued: every minute, hands retries whose time has come and messages whose broker message was lost
to a worker, and marks "maybe sent" what a dead worker left "sending" (services.messages_recover).
"""

from __future__ import annotations

import logging

from celery import shared_task

from . import services

logger = logging.getLogger(__name__)


@shared_task(name="notifications.send_message")
def send_message(*, tenant_id: int, message_id: int) -> str:
    # A retry is not a Celery retry (an ETA message hours ahead would outlive the broker's visibility
    # timeout): the row keeps `next_attempt_at` and sweep_queued hands it over when it is due.
    return services.message_deliver(tenant_id=tenant_id, message_id=message_id)


@shared_task(name="notifications.daily_events")
def daily_events() -> dict[str, int]:
    from .daily import daily_events_all_tenants

    return daily_events_all_tenants()


@shared_task(name="notifications.sweep_queued")
def sweep_queued() -> int:
    from .daily import sweep_queued_all_tenants

    return sweep_queued_all_tenants()
