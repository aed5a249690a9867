"""Background jobs of the EUDR area (Celery; eager, inline, in the embedded default).

build_dds_package: builds a delivery's due diligence package (apps/eudr/dds/package.py). It enters the
delivery's tenant itself (tenant_context inside a transaction, so PostgreSQL row-level security applies),
reports progress both to Celery (state PROGRESS, meta {done, total, step}) and to the job the API reads
(apps/eudr/dds/jobs.py: its state a database row, a running build's progress in the cache), and speaks
the language of the user who asked.

file_dds: carries out the pending action (submit, amend, withdraw, refresh) of a statement filed with the
EU information system (apps/eudr/filing.py), inside the tenant; when the system does not answer it
retries later (a worker) and each retry looks the statement up before filing again (idempotent).

recover_filings: every two minutes (beat), hands statements left pending by a dead worker or a lost
message to a worker again, or to a person after too many attempts (filing.dds_submissions_recover).

expire_raw_materials: the nightly expiry of deliveries whose certificate has passed (Celery beat runs it
daily: CELERY_BEAT_SCHEDULE in config/settings.py; the same as `manage.py expire_raw_materials`).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from apps.common.jobs import send_job
from apps.eudr.dds import jobs
from apps.eudr.dds.package import PackageRefused, build_package
from apps.eudr.services import raw_materials_expire_all_tenants
from apps.notifications.emit import emit
from apps.tenancy.context import tenant_context

logger = logging.getLogger(__name__)


@shared_task(bind=True, name="eudr.build_dds_package")
def build_dds_package(self, *, tenant_id: int, delivery_id: int, job_id: str, language: str = "en") -> dict:
    ids = {"tenant_id": tenant_id, "delivery_id": delivery_id, "job_id": job_id}
    last = {"done": 0, "total": 0, "step": "started"}

    def progress(done: int, total: int, step: str) -> None:
        # Inside the build's transaction: the cache only; the job's row takes the last one at the end.
        last.update(done=done, total=total, step=step)
        jobs.job_progress(**ids, progress=dict(last))
        if self.request.id:
            self.update_state(state="PROGRESS", meta=dict(last))

    with translation.override(language):
        if jobs.job_update(**ids, status=jobs.RUNNING, progress=dict(last)) is None:
            logger.warning("Due diligence package job %s of delivery %s does not exist", job_id, delivery_id)
            return {"status": "nothing"}
        try:
            with transaction.atomic(), tenant_context(tenant_id):
                result = build_package(delivery_id=delivery_id, job_id=job_id, progress=progress)
                emit(
                    "eudr.dds_package_ready",
                    pk=delivery_id,
                    key=job_id,
                    extra={"package_path": result["path"], "file_name": result["file_name"]},
                )
        except PackageRefused as refused:
            jobs.job_update(
                **ids,
                status=jobs.FAILED,
                progress=dict(last),
                message=str(_("Required information is missing: the package was not built.")),
                errors=[c.as_dict() for c in refused.checks if c.severity == "error"],
                warnings=[c.as_dict() for c in refused.checks if c.severity != "error"],
            )
            return {"status": jobs.FAILED}
        except Exception:
            logger.exception("Due diligence package %s of delivery %s failed", job_id, delivery_id)
            jobs.job_update(
                **ids,
                status=jobs.FAILED,
                progress=dict(last),
                message=str(_("The package could not be built. Please try again.")),
            )
            raise
        jobs.job_update(
            **ids,
            status=jobs.DONE,
            progress=dict(last),
            path=result["path"],
            file_name=result["file_name"],
            size=result["size"],
            warnings=result["warnings"],
        )
    return {"status": jobs.DONE, "path": result["path"], "size": result["size"]}


@shared_task(name="eudr.expire_raw_materials")
def expire_raw_materials() -> dict[str, int]:
    """Stores `expired` on every tenant's active deliveries with an expired certificate; returns
    {tenant name: deliveries expired}."""
    changed = raw_materials_expire_all_tenants()
    if changed:
        logger.info("Raw-material deliveries expired: %s", changed)
    return changed


@shared_task(bind=True, name="eudr.file_dds", max_retries=3, default_retry_delay=60)
def file_dds(
    self, *, tenant_id: int, submission_id: int, user_id: int | None = None, language: str = "en"
) -> dict:
    from django.contrib.auth import get_user_model

    from apps.eudr.filing import begin_attempt, file_dds_work
    from apps.eudr.traces import TracesUnavailable

    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    with translation.override(language):
        try:
            # Two transactions: the attempt is counted and committed before the system is called.
            with tenant_context(tenant_id):
                before = begin_attempt(submission_id=submission_id)
            if before is None:
                return {"status": "nothing"}
            with tenant_context(tenant_id):
                submission = file_dds_work(submission_id=submission_id, attempted_before=before, user=user)
        except TracesUnavailable as exc:
            if self.app.conf.task_always_eager:
                # Inline (embedded default): the action stays pending; the user retries from the page.
                return {"status": "unanswered"}
            raise self.retry(exc=exc) from exc
    return {"status": submission.status if submission else "nothing"}


def file_dds_options(
    *, tenant_id: int, submission_id: int, user_id: int | None = None, language: str = "en"
) -> dict:
    """apply_async options of the filing task (its queue: EUDR_DDS_QUEUE, else the partner queue)."""
    options: dict = {
        "kwargs": {
            "tenant_id": tenant_id,
            "submission_id": submission_id,
            "user_id": user_id,
            "language": language,
        }
    }
    queue = getattr(settings, "EUDR_DDS_QUEUE", None)
    if queue:
        options["queue"] = queue
    return options


@shared_task(name="eudr.recover_filings")
def recover_filings() -> dict:
    """Every tenant's stalled filings: looked up and finished by a worker, or handed to a person."""
    from apps.eudr.filing import dds_submissions_recover
    from apps.tenancy.models import Tenant

    summary = {"requeued": 0, "for_a_person": 0}
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with tenant_context(tenant):
            found = dds_submissions_recover()
        for submission_id in found["requeue"]:
            send_job(file_dds, **file_dds_options(tenant_id=tenant.pk, submission_id=submission_id))
        summary["requeued"] += len(found["requeue"])
        summary["for_a_person"] += len(found["person"])
    if any(summary.values()):
        logger.warning("Filings recovered: %s", summary)
    return summary


@shared_task(name="eudr.read_due_statuses")
def read_due_statuses() -> dict:
    """Every tenant's statements whose status may be read (30 minutes after a submit or amend): the read is
    queued as a refresh and carried out by `eudr.file_dds` (docs/eudr.md, "Filing from the product")."""
    from apps.eudr.filing import dds_statuses_due
    from apps.tenancy.models import Tenant

    queued = 0
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with tenant_context(tenant):
            due = dds_statuses_due()
        for submission_id in due:
            send_job(file_dds, **file_dds_options(tenant_id=tenant.pk, submission_id=submission_id))
        queued += len(due)
    return {"queued": queued}
