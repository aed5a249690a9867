"""Running an import through the API as a client does: POST the file (202 with a job), then read the job.
Celery runs eagerly in the tests, so the job has finished when the POST answers."""

from __future__ import annotations

from typing import Any


def start_import(client, url: str, file, *, dry_run: bool = False):
    return client.post(f"{url}import/{'?dry_run=1' if dry_run else ''}", {"file": file}, format="multipart")


def finished_job(client, job_id: int) -> dict[str, Any]:
    response = client.get(f"/api/common/imports/{job_id}/")
    assert response.status_code == 200, response.content
    job = response.json()["data"]
    assert job["status"] in ("done", "failed"), job
    return job


def import_job(client, url: str, file, *, dry_run: bool = False) -> dict[str, Any]:
    """The finished job of an import of `file` into the list at `url` (asserts it was started)."""
    response = start_import(client, url, file, dry_run=dry_run)
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["code"] == 200 and body["data"]["dry_run"] is dry_run
    return finished_job(client, body["data"]["id"])
