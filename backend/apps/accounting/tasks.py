"""Celery tasks of the accounting integration (eager, inline, in the embedded default).

process_outbox: the due outbox entries of one tenant, or of every tenant with an enabled connection
(Celery beat every 5 minutes picks up retries whose backoff has passed).
read_payment_status: the payment status of sent invoices (Celery beat, hourly).
"""

from __future__ import annotations

from celery import shared_task

from . import outbox


def _tenants() -> list[int]:
    """Tenants with an enabled connection (each tenant is entered: row-level security hides the rest)."""
    from apps.accounting.models import AccountingConnection
    from apps.tenancy.context import tenant_context
    from apps.tenancy.models import Tenant

    result = []
    for tenant_id in Tenant.objects.filter(is_active=True).order_by("pk").values_list("pk", flat=True):
        with tenant_context(tenant_id):
            if AccountingConnection.objects.filter(enabled=True).exists():
                result.append(tenant_id)
    return result


@shared_task(name="accounting.process_outbox")
def process_outbox(tenant_id: int | None = None) -> dict[str, int]:
    totals: dict[str, int] = {}
    for tid in [tenant_id] if tenant_id else _tenants():
        for key, value in outbox.process_outbox(tid).items():
            totals[key] = totals.get(key, 0) + value
    return totals


@shared_task(name="accounting.read_payment_status")
def read_payment_status(tenant_id: int | None = None) -> dict[str, int]:
    totals: dict[str, int] = {}
    for tid in [tenant_id] if tenant_id else _tenants():
        for key, value in outbox.read_payment_status(tid).items():
            totals[key] = totals.get(key, 0) + value
    return totals
