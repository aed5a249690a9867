"""The date-driven events, emitted once for each day per tenant (tasks.daily_events, Celery beat). An area
declares one with `due` (apps/notifications/events.py): (the scenario's `days`, the day) -> the records
and the date that keys the occurrence, so a second run the same day (or a record that keeps the date)
mails nobody twice. They are:

- raw_material.expiring (apps/eudr/events.py): active deliveries whose FM or COC certificate expires
  exactly N days from today (N = the scenario's `days`); the key is the expiry date;
- invoice.overdue (apps/salesorders/events.py): posted invoices (not credit notes) with an open amount
  whose due date was exactly N days ago; the key is the due date.

Catch-up: every run emits each day from the day after the last one recorded (`DailyEventsRun`) up to
today, at most CATCH_UP_DAYS back, so a run that beat could not send (the broker was down), or that no
worker ran, is made up by the next one (beat sends it every hour from 06:00, docs/operations.md,
"Periodic runs"): a certificate that expired while the broker was down is still announced, late rather
than never. A tenant without any recorded day starts with today.
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from apps.tenancy.context import tenant_context

from . import events as registry
from .emit import emit_many
from .models import DailyEventsRun, EmailScenario

logger = logging.getLogger(__name__)

CATCH_UP_DAYS = 7


def daily_events(*, today: date | None = None) -> int:
    """Emits the current tenant's date events; returns how many (scenario, record) pairs were emitted."""
    today = today or timezone.localdate()
    dated = [name for name, event in registry.EVENTS.items() if event.due is not None]
    emitted = 0
    for scenario in EmailScenario.objects.filter(enabled=True, event__in=dated).order_by("pk"):
        due = registry.EVENTS[scenario.event].due
        assert due is not None  # the scenarios were filtered on it
        records, target = due(scenario.days, today)
        pks = list(records.values_list("pk", flat=True))
        if pks:
            emit_many(scenario.event, pks=pks, key=target.isoformat(), scenario_ids=[scenario.pk])
            emitted += len(pks)
    return emitted


def days_due(*, today: date) -> list[date]:
    """The days whose events the current tenant has not emitted yet, oldest first."""
    last = (
        DailyEventsRun.objects.filter(day__lte=today).order_by("-day").values_list("day", flat=True).first()
    )
    if last is None:
        return [today]
    first = max(last + timedelta(days=1), today - timedelta(days=CATCH_UP_DAYS - 1))
    return [first + timedelta(days=n) for n in range((today - first).days + 1)]


def daily_events_all_tenants(*, today: date | None = None) -> dict[str, int]:
    """Every tenant's date events of each day not emitted yet (one transaction per tenant and day: the
    day's record and its messages commit together)."""
    from apps.tenancy.models import Tenant

    today = today or timezone.localdate()
    result: dict[str, int] = {}
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with tenant_context(tenant):
            days = days_due(today=today)
        for day in days:
            with transaction.atomic(), tenant_context(tenant):
                run, created = DailyEventsRun.objects.get_or_create(day=day)
                if not created:
                    continue  # another run did this day meanwhile
                run.emitted = daily_events(today=day)
                run.save(update_fields=["emitted"])
            if run.emitted:
                result[tenant.name] = result.get(tenant.name, 0) + run.emitted
        if len(days) > 1:
            logger.warning(
                "Date events of tenant %s caught up for %s", tenant.pk, [d.isoformat() for d in days]
            )
    return result


def sweep_queued_all_tenants() -> int:
    """services.messages_recover in every tenant; the due messages are handed to a worker. Returns how
    many were handed over."""
    from apps.common.jobs import send_job
    from apps.tenancy.models import Tenant

    from .services import messages_recover
    from .tasks import send_message

    total = 0
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with tenant_context(tenant):
            found = messages_recover()
        for message_id in found["requeue"]:
            send_job(send_message, kwargs={"tenant_id": tenant.pk, "message_id": message_id})
        if found["uncertain"]:
            logger.warning(
                "E-mail: %s messages of tenant %s maybe sent (worker died)", found["uncertain"], tenant.pk
            )
        total += len(found["requeue"])
    return total
