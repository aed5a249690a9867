"""Retry and cancel of import jobs from the page (apps/common/import_jobs.py, docstring 7): a stuck or
failed job's file runs again as a new job, a queued or stuck job is cancelled, a job a live worker writes is
not; one import per kind still holds; only those who may start the import in that tenant may do either."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.utils import timezone

from apps.common import import_jobs
from apps.common.models import ImportJob
from apps.common.tasks import run_import
from apps.common.tests.import_helpers import import_job, start_import
from apps.products.importers import ProductImporter
from apps.products.models import Product

PRODUCTS = "/api/products/"


def csv_rows(count: int, *, bad_row: int | None = None) -> SimpleUploadedFile:
    lines = ["Article number,Name,Weight per carton (kg)"]
    for index in range(count):
        weight = "heavy" if bad_row is not None and index + 2 == bad_row else "0.5"
        lines.append(f"CT-{index:05d},Carton {index},{weight}")
    return SimpleUploadedFile("products.csv", ("\n".join(lines) + "\n").encode(), content_type="text/csv")


@pytest.fixture
def boss(api, tenant3, make_user):
    return api(make_user(tenant3, username="boss"), tenant3)


@pytest.fixture
def queued(monkeypatch):
    """Celery as with a worker: the task is sent (recorded here) instead of running inline."""
    sent: list[dict] = []
    eager = run_import.app.conf.task_always_eager
    run_import.app.conf.task_always_eager = False
    monkeypatch.setattr(run_import, "apply_async", lambda **options: sent.append(options))
    yield sent
    run_import.app.conf.task_always_eager = eager


def job(client, job_id: int) -> dict:
    response = client.get(f"/api/common/imports/{job_id}/")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def run_sent(options: dict) -> str:
    kwargs = options["kwargs"]
    return import_jobs.execute(**{k: kwargs[k] for k in ("tenant_id", "job_id", "importer")})


def make_stale(tenant, in_tenant, job_id: int, *, status: str) -> None:
    """The job as a dead worker leaves it, on any database: created before the stale cutoff."""
    with in_tenant(tenant):
        ImportJob.objects.filter(pk=job_id).update(
            status=status,
            started_at=timezone.now() if status == "running" else None,
            created_at=timezone.now() - import_jobs.stale_after() - timedelta(minutes=1),
        )


@pytest.mark.django_db
def test_a_stuck_import_is_retried_as_a_new_job_with_the_same_file(
    boss, tenant3, in_tenant, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = start_import(boss, PRODUCTS, csv_rows(3)).json()["data"]["id"]
    make_stale(tenant3, in_tenant, first, status="running")
    stuck = job(boss, first)
    assert (stuck["status"], stuck["stuck"], stuck["can_retry"], stuck["can_cancel"]) == (
        "running",
        True,
        True,
        True,
    )
    with in_tenant(tenant3):
        stored = ImportJob.objects.get(pk=first).file.name
    assert stored

    with django_capture_on_commit_callbacks(execute=True):
        response = boss.post(f"/api/common/imports/{first}/retry/")
    assert response.status_code == 202, response.content
    retry = response.json()["data"]
    assert retry["id"] != first and retry["retry_of"] == first and retry["status"] == "queued"
    assert retry["file_name"] == "products.csv" and retry["started_by_name"] == "boss"
    old = job(boss, first)
    assert (old["status"], old["error"], old["can_retry"]) == ("failed", "import_stale", False)
    with in_tenant(tenant3):
        assert ImportJob.objects.get(pk=retry["id"]).file.name == stored  # the file moved over
        assert not ImportJob.objects.get(pk=first).file

    # The retry is queued like an upload and runs to its end; the old job's late message does nothing.
    assert len(queued) == 2 and queued[1]["kwargs"]["job_id"] == retry["id"]
    assert run_sent(queued[1]) == "done"
    assert run_sent(queued[0]) == "failed"
    with in_tenant(tenant3):
        assert Product.objects.count() == 3
    assert job(boss, retry["id"])["created"] == 3

    again = boss.post(f"/api/common/imports/{first}/retry/")
    assert again.status_code == 409 and again.json()["error"] == "import_not_retryable"


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_job_running_without_its_worker_lock_is_stuck_at_once(boss, tenant3, in_tenant, queued):
    first = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    with in_tenant(tenant3):
        ImportJob.objects.filter(pk=first).update(status="running", started_at=timezone.now())
    assert job(boss, first)["stuck"] is True
    response = boss.post(f"/api/common/imports/{first}/retry/")
    assert response.status_code == 202, response.content
    old = job(boss, first)
    assert (old["status"], old["error"]) == ("failed", "import_worker_lost")


@pytest.mark.django_db
def test_a_failed_import_keeps_its_file_for_a_retry_only_when_another_run_may_cure_it(
    boss, tenant3, in_tenant, monkeypatch
):
    original = ProductImporter.save_row

    def broken(self, serializer, *, created, extra):
        raise RuntimeError("database hiccup")

    monkeypatch.setattr(ProductImporter, "save_row", broken)
    failed = import_job(boss, PRODUCTS, csv_rows(2))
    assert (failed["error"], failed["can_retry"], failed["can_cancel"]) == ("import_failed", True, False)
    monkeypatch.setattr(ProductImporter, "save_row", original)

    response = boss.post(f"/api/common/imports/{failed['id']}/retry/")
    assert response.status_code == 202, response.content
    assert response.json()["data"]["status"] == "done"  # inline Celery: finished on return
    with in_tenant(tenant3):
        assert Product.objects.count() == 2

    # Row errors: the same file fails the same way; it is not kept.
    rejected = import_job(boss, PRODUCTS, csv_rows(3, bad_row=3))
    assert (rejected["error"], rejected["can_retry"]) == ("import_rejected", False)
    refused = boss.post(f"/api/common/imports/{rejected['id']}/retry/")
    assert refused.status_code == 409 and refused.json()["error"] == "import_not_retryable"
    # A finished import is neither retried nor cancelled.
    done = response.json()["data"]["id"]
    assert boss.post(f"/api/common/imports/{done}/retry/").json()["error"] == "import_not_retryable"
    assert boss.post(f"/api/common/imports/{done}/cancel/").json()["error"] == "import_not_cancellable"


@pytest.mark.django_db
def test_a_retry_waits_for_another_import_of_the_kind(
    boss, tenant3, in_tenant, queued, django_capture_on_commit_callbacks
):
    first = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    make_stale(tenant3, in_tenant, first, status="running")
    with in_tenant(tenant3):  # fails it (stale) and keeps its file: a retry is possible
        import_jobs._fail_stale("products.product")
    second = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]

    response = boss.post(f"/api/common/imports/{first}/retry/")
    assert response.status_code == 409
    assert response.json()["error"] == "import_in_progress" and response.json()["data"] == {"job": second}
    assert job(boss, first)["can_retry"] is True  # the file stays with the old job

    assert boss.post(f"/api/common/imports/{second}/cancel/").status_code == 200
    assert boss.post(f"/api/common/imports/{first}/retry/").status_code == 202


@pytest.mark.django_db
def test_a_queued_import_is_cancelled_and_its_message_then_does_nothing(
    boss, tenant3, in_tenant, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job_id = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    assert job(boss, job_id)["can_cancel"] is True
    response = boss.post(f"/api/common/imports/{job_id}/cancel/")
    assert response.status_code == 200, response.content
    cancelled = response.json()["data"]
    assert (cancelled["status"], cancelled["error"], cancelled["can_retry"]) == (
        "cancelled",
        "import_cancelled",
        False,
    )
    assert "nothing was imported" in cancelled["message"]
    with in_tenant(tenant3):
        assert not ImportJob.objects.get(pk=job_id).file
    assert run_sent(queued[0]) == "cancelled"
    with in_tenant(tenant3):
        assert not Product.objects.exists()
    # The kind is free again; a second cancel is refused.
    assert start_import(boss, PRODUCTS, csv_rows(1)).status_code == 202
    again = boss.post(f"/api/common/imports/{job_id}/cancel/")
    assert again.status_code == 409 and again.json()["error"] == "import_not_cancellable"
    listed = boss.get("/api/common/imports/?status=cancelled").json()["data"]["results"]
    assert [row["id"] for row in listed] == [job_id]


@pytest.mark.django_db
@pytest.mark.postgres
def test_an_import_a_live_worker_writes_is_not_cancelled_until_the_worker_is_gone(
    boss, tenant3, in_tenant, queued
):
    job_id = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    with in_tenant(tenant3):
        ImportJob.objects.filter(pk=job_id).update(status="running", started_at=timezone.now())
    worker = connections.create_connection("default")  # another session: the worker's
    try:
        with worker.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [import_jobs.WORKER_LOCK_CLASS, job_id])
        live = job(boss, job_id)
        assert (live["stuck"], live["can_retry"], live["can_cancel"]) == (False, False, False)
        refused = boss.post(f"/api/common/imports/{job_id}/cancel/")
        assert refused.status_code == 409 and refused.json()["error"] == "import_running"
        assert "cannot be cancelled" in refused.json()["message"]
        assert boss.post(f"/api/common/imports/{job_id}/retry/").json()["error"] == "import_not_retryable"
        with worker.cursor() as cursor:  # the worker dies: its session's lock goes with it
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [import_jobs.WORKER_LOCK_CLASS, job_id])
    finally:
        worker.close()
    response = boss.post(f"/api/common/imports/{job_id}/cancel/")
    assert response.status_code == 200 and response.json()["data"]["status"] == "cancelled"


@pytest.mark.django_db
def test_only_who_may_start_the_import_in_that_tenant_retries_or_cancels(
    boss, api, tenant2, tenant3, make_user, in_tenant, queued
):
    job_id = start_import(boss, PRODUCTS, csv_rows(1)).json()["data"]["id"]
    make_stale(tenant3, in_tenant, job_id, status="queued")
    urls = [f"/api/common/imports/{job_id}/retry/", f"/api/common/imports/{job_id}/cancel/"]

    other_admin = make_user(tenant2, username="other-admin")
    from apps.suppliers.models import ParentVendor, Supplier

    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Vendor", code="PV")
        Supplier.objects.create(number="S-1", name="Mill", parent_vendor=vendor)
    supplier_user = make_user(
        tenant3, role="Supplier", username="mill", is_supplier=True, parent_vendor=vendor
    )
    sales = make_user(tenant3, role="Sales", username="seller")
    for url in urls:
        assert api(other_admin, tenant2).post(url).status_code == 404  # another tenant's job
        assert api(other_admin, tenant3).post(url).status_code == 403  # not a member of tenant 3
        assert api(supplier_user, tenant3).post(url).status_code == 403
        assert api(sales, tenant3).post(url).status_code == 404  # may not import products
        assert api(None, tenant3).post(url).status_code == 401
    with in_tenant(tenant3):
        untouched = ImportJob.objects.get(pk=job_id)
        assert untouched.status == "queued" and untouched.file
        assert ImportJob.objects.count() == 1


@pytest.mark.django_db
def test_the_sweep_drops_the_files_nobody_retried(boss, tenant3, in_tenant, queued):
    from apps.common.tasks import recover_imports

    job_id = start_import(boss, PRODUCTS, csv_rows(1)).json()["data"]["id"]
    make_stale(tenant3, in_tenant, job_id, status="queued")
    response = boss.post(f"/api/common/imports/{job_id}/retry/")
    assert response.status_code == 202
    with in_tenant(tenant3):  # the retry's worker dies in its turn
        retried = ImportJob.objects.get(pk=response.json()["data"]["id"])
        import_jobs._finish_failed(retried, error="import_worker_lost", message="lost")
        assert ImportJob.objects.get(pk=retried.pk).file
    recover_imports.apply().get()
    with in_tenant(tenant3):
        assert ImportJob.objects.get(pk=retried.pk).file  # kept within IMPORT_RETRY_KEEP_HOURS
        ImportJob.objects.filter(pk=retried.pk).update(finished_at=timezone.now() - import_jobs.retry_keep())
    recover_imports.apply().get()
    with in_tenant(tenant3):
        assert not ImportJob.objects.get(pk=retried.pk).file
    assert job(boss, retried.pk)["can_retry"] is False
