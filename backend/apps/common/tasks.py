"""Background jobs of the common area (Celery; eager, inline, in the embedded default).

run_import: one CSV/XLSX import or dry run (apps/common/import_jobs.py): reads the stored file, validates
every row and writes them all in one transaction, reporting progress to the cache in batches; speaks the
language of the user who started it, so row errors read as they would in the request.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import translation

IMPORT_SOFT_TIME_LIMIT = 30 * 60


@shared_task(
    name="common.run_import", soft_time_limit=IMPORT_SOFT_TIME_LIMIT, time_limit=IMPORT_SOFT_TIME_LIMIT + 60
)
def run_import(*, tenant_id: int, job_id: int, importer: str, language: str = "en") -> dict:
    from apps.common.import_jobs import execute

    with translation.override(language):
        status = execute(tenant_id=tenant_id, job_id=job_id, importer=importer)
    return {"job": job_id, "status": status}


@shared_task(name="common.purge_idempotent_requests")
def purge_idempotent_requests() -> int:
    """Idempotency keys older than IDEMPOTENCY_KEY_HOURS, in every tenant (apps/common/idempotency.py)."""
    from django.db import transaction

    from apps.common.idempotency import idempotent_requests_purge
    from apps.tenancy.context import tenant_context
    from apps.tenancy.models import Tenant

    total = 0
    for tenant in Tenant.objects.order_by("pk"):
        with transaction.atomic(), tenant_context(tenant):
            total += idempotent_requests_purge()
    return total


@shared_task(name="common.recover_imports")
def recover_imports() -> int:
    """Every tenant's import jobs whose worker died: marked failed at once (import_jobs_recover)."""
    from apps.common.import_jobs import import_jobs_recover
    from apps.tenancy.context import tenant_context
    from apps.tenancy.models import Tenant

    lost = 0
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with tenant_context(tenant):
            lost += len(import_jobs_recover())
    return lost


@shared_task(name="common.count_search_grams")
def count_search_grams() -> int:
    """Every tenant's counts of its common search grams, counted again (search_index.counts_refresh)."""
    from apps.common.search_index import counts_refresh

    return sum(counts_refresh().values())
