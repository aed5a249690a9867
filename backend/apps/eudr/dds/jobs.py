"""Status of due diligence package jobs, kept in the cache (Redis in production, shared by the web
processes and the Celery workers; local memory in the embedded default, where the task runs inline).

A job: {"id", "delivery", "status": queued|running|done|failed, "progress": {"done", "total", "step"},
"warnings": [...], "errors": [...], "message", "file_name", "size", "created_at", "finished_at"}.
The ZIP itself lives in the storage at `package_path(...)`, which depends only on the tenant, the delivery
and the job id, so a finished package stays downloadable after its status has left the cache.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import cache
from django.utils import timezone

JOB_TTL_SECONDS = 7 * 24 * 3600
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


def package_path(*, tenant_id: int, delivery_id: int, job_id: str) -> str:
    return f"tenants/{tenant_id}/eudr/dds/{delivery_id}/{job_id}.zip"


def _key(tenant_id: int, delivery_id: int, job_id: str) -> str:
    return f"eudr:dds-job:{tenant_id}:{delivery_id}:{job_id}"


def is_job_id(value: str) -> bool:
    try:
        return uuid.UUID(str(value)).hex == str(value)
    except ValueError:
        return False


def job_create(*, tenant_id: int, delivery_id: int, warnings: list[dict[str, Any]]) -> dict[str, Any]:
    job = {
        "id": uuid.uuid4().hex,
        "delivery": delivery_id,
        "status": QUEUED,
        "progress": {"done": 0, "total": 0, "step": "queued"},
        "warnings": warnings,
        "errors": [],
        "message": "",
        "file_name": "",
        "size": None,
        "created_at": timezone.now().isoformat(),
        "finished_at": None,
    }
    cache.set(_key(tenant_id, delivery_id, job["id"]), job, JOB_TTL_SECONDS)
    return job


def job_get(*, tenant_id: int, delivery_id: int, job_id: str) -> dict[str, Any] | None:
    return cache.get(_key(tenant_id, delivery_id, job_id))


def job_update(*, tenant_id: int, delivery_id: int, job_id: str, **changes: Any) -> dict[str, Any]:
    key = _key(tenant_id, delivery_id, job_id)
    job = cache.get(key) or {"id": job_id, "delivery": delivery_id, "created_at": timezone.now().isoformat()}
    job.update(changes)
    if changes.get("status") in (DONE, FAILED):
        job["finished_at"] = timezone.now().isoformat()
    cache.set(key, job, JOB_TTL_SECONDS)
    return job
