"""Due diligence package jobs: their state is a row (`DdsPackageJob`, job_models.py) in the database,
shared by the web processes and the Celery workers, so queued, running, done and failed jobs and their
downloads outlive a Redis that restarts empty (docs/operations.md, "Exactly once"). Only the progress of
a running build is kept in the cache: the build writes in one transaction, and a progress row written
in it would be invisible until it ends. A job read when the cache has lost that progress shows the
progress last stored (at its start or its end).

A job, as the API shows it: {"id", "delivery", "status": queued|running|done|failed, "progress": {"done",
"total", "step"}, "warnings": [...], "errors": [...], "message", "file_name", "size", "created_at",
"finished_at", "path"}. The ZIP itself lives in the storage at `package_path(...)`, which depends only on
the tenant, the delivery and the job id.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from apps.eudr.dds.job_models import DdsPackageJob
from apps.tenancy.context import tenant_context

PROGRESS_TTL_SECONDS = 24 * 3600
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
STATES = {QUEUED, RUNNING, DONE, FAILED}
_FIELDS = ("status", "progress", "warnings", "errors", "message", "path", "file_name", "size")


def package_path(*, tenant_id: int, delivery_id: int, job_id: str) -> str:
    return f"tenants/{tenant_id}/eudr/dds/{delivery_id}/{job_id}.zip"


def _progress_key(tenant_id: int, delivery_id: int, job_id: str) -> str:
    return f"eudr:dds-job-progress:{tenant_id}:{delivery_id}:{job_id}"


def is_job_id(value: str) -> bool:
    try:
        return uuid.UUID(str(value)).hex == str(value)
    except ValueError:
        return False


def _as_dict(job: DdsPackageJob) -> dict[str, Any]:
    return {
        "id": job.key,
        "delivery": job.delivery_id,
        "status": job.status,
        "progress": job.progress or {"done": 0, "total": 0, "step": "queued"},
        "warnings": job.warnings or [],
        "errors": job.errors or [],
        "message": job.message,
        "path": job.path,
        "file_name": job.file_name,
        "size": job.size,
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
    }


def job_create(*, tenant_id: int, delivery_id: int, warnings: list[dict[str, Any]]) -> dict[str, Any]:
    """A queued job of the delivery (in the caller's transaction: the request's, committed before the
    task is sent)."""
    with transaction.atomic(), tenant_context(tenant_id):
        job = DdsPackageJob.objects.create(
            key=uuid.uuid4().hex,
            delivery_id=delivery_id,
            progress={"done": 0, "total": 0, "step": "queued"},
            warnings=warnings,
        )
    return _as_dict(job)


def job_get(*, tenant_id: int, delivery_id: int, job_id: str) -> dict[str, Any] | None:
    with tenant_context(tenant_id):
        job = DdsPackageJob.objects.filter(key=job_id, delivery_id=delivery_id).first()
    if job is None:
        return None
    found = _as_dict(job)
    if job.status == RUNNING:
        progress = cache.get(_progress_key(tenant_id, delivery_id, job_id))
        if progress:
            found["progress"] = progress
    return found


def job_progress(*, tenant_id: int, delivery_id: int, job_id: str, progress: dict[str, Any]) -> None:
    """The progress of a running build (the cache only: called inside the build's transaction)."""
    cache.set(_progress_key(tenant_id, delivery_id, job_id), progress, PROGRESS_TTL_SECONDS)


def job_update(*, tenant_id: int, delivery_id: int, job_id: str, **changes: Any) -> dict[str, Any] | None:
    """Stores a change of state (its own transaction, outside the build's). Returns the job, or None when
    there is no such job."""
    unknown = set(changes) - set(_FIELDS)
    if unknown:
        raise TypeError(f"unknown job fields: {sorted(unknown)}")
    if "status" in changes and changes["status"] not in STATES:
        raise ValueError(changes["status"])
    with transaction.atomic(), tenant_context(tenant_id):
        job = DdsPackageJob.objects.select_for_update().filter(key=job_id, delivery_id=delivery_id).first()
        if job is None:
            return None
        for name, value in changes.items():
            setattr(job, name, value)
        if changes.get("status") in (DONE, FAILED):
            job.finished_at = timezone.now()
        job.save()
    if changes.get("progress") is not None:
        job_progress(tenant_id=tenant_id, delivery_id=delivery_id, job_id=job_id, progress=job.progress)
    return _as_dict(job)
