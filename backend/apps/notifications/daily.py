"""The date-driven events, run once a day per tenant (tasks.daily_events, Celery beat):

- raw_material.expiring: active deliveries whose FM or COC certificate expires exactly N days from
  today (N = the scenario's `days`); the occurrence key is the expiry date, so a second run the same day
  (or a delivery that keeps the date) mails nobody twice;
- invoice.overdue: posted invoices (not credit notes) with an open amount whose due date was exactly N
  days ago; the key is the due date.
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.tenancy.context import tenant_context

from . import events as registry
from .emit import emit_many
from .models import EmailScenario

logger = logging.getLogger(__name__)


def daily_events(*, today: date | None = None) -> int:
    """Emits the current tenant's date events; returns how many (scenario, record) pairs were emitted."""
    today = today or timezone.localdate()
    emitted = 0
    for scenario in EmailScenario.objects.filter(
        enabled=True, event__in=("raw_material.expiring", "invoice.overdue")
    ).order_by("pk"):
        if scenario.event == "raw_material.expiring":
            from apps.eudr.models import RawMaterialDelivery

            target = today + timedelta(days=scenario.days)
            records = RawMaterialDelivery.objects.filter(status=RawMaterialDelivery.Status.ACTIVE).filter(
                Q(fm_certificate_expiry=target) | Q(coc_certificate_expiry=target)
            )
        else:
            model = registry.EVENTS["invoice.overdue"].model_class()
            if model is None:
                continue
            target = today - timedelta(days=scenario.days)
            records = model.objects.filter(status="posted", kind="invoice", due_date=target).filter(
                amount_paid__lt=F("total_gross")
            )
        pks = list(records.values_list("pk", flat=True))
        if pks:
            emit_many(scenario.event, pks=pks, key=target.isoformat(), scenario_ids=[scenario.pk])
            emitted += len(pks)
    return emitted


def daily_events_all_tenants(*, today: date | None = None) -> dict[str, int]:
    from apps.tenancy.models import Tenant

    result: dict[str, int] = {}
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with transaction.atomic(), tenant_context(tenant):
            count = daily_events(today=today)
        if count:
            result[tenant.name] = count
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
