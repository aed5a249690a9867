"""Imports as background jobs (apps/common/import_jobs.py): the file is checked before a job exists, the job
reports progress while its one transaction runs, a failed row leaves nothing written, one import of a kind
runs at a time, and only those who may import that kind in that tenant read the job."""

from __future__ import annotations

import io
import threading
import time
import zipfile
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from apps.common import import_jobs
from apps.common.imports import Importer
from apps.common.models import ImportJob
from apps.common.tasks import run_import
from apps.common.tests.import_helpers import finished_job, import_job, start_import
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


@pytest.mark.django_db
def test_progress_is_reported_in_batches_through_every_phase(tenant3, in_tenant):
    seen: list[tuple[str, int, int]] = []
    with in_tenant(tenant3):
        report = ProductImporter().run(csv_rows(250), commit=True, progress=lambda *a: seen.append(a))
        assert Product.objects.count() == 250
    assert report["created"] == 250
    phases = [phase for phase, _done, _total in seen]
    assert phases.index("reading") < phases.index("validating") < phases.index("saving")
    assert ("validating", 250, 250) in seen and ("saving", 250, 250) in seen
    saving = [done for phase, done, _total in seen if phase == "saving"]
    assert saving == [0, 100, 200, 250]  # batches, not one call per row


@pytest.mark.django_db
def test_job_answers_202_and_finishes_with_the_report(boss, tenant3, in_tenant, make_user):
    response = start_import(boss, PRODUCTS, csv_rows(3))
    assert response.status_code == 202
    body = response.json()
    assert body["code"] == 200
    job = body["data"]
    assert job["kind"] == "products.product" and job["file_name"] == "products.csv"
    assert job["started_by_name"] == "boss"
    # Celery runs eagerly here, so the job has already finished.
    job = finished_job(boss, job["id"])
    assert (job["status"], job["phase"], job["progress"]) == ("done", "finished", 100)
    assert (job["rows_total"], job["created"], job["updated"], job["errors"]) == (3, 3, 0, [])
    assert job["started_at"] and job["finished_at"]
    with in_tenant(tenant3):
        stored = ImportJob.objects.get(pk=job["id"])
        assert not stored.file  # the upload is not kept once the job has run
        assert Product.objects.count() == 3


@pytest.mark.django_db
def test_row_errors_with_row_numbers_and_nothing_written(boss, tenant3, in_tenant):
    job = import_job(boss, PRODUCTS, csv_rows(5, bad_row=4))
    assert job["status"] == "failed" and job["error"] == "import_rejected"
    assert job["message"] == "1 of 5 rows have errors; nothing was imported."
    assert job["errors"] == [
        {
            "row": 4,
            "field": "weight_per_carton_kg",
            "column": "Weight per carton (kg)",
            "message": "Enter a number.",
        }
    ]
    assert (job["rows_valid"], job["rows_invalid"], job["created"]) == (4, 1, 0)
    with in_tenant(tenant3):
        assert not Product.objects.exists()


@pytest.mark.django_db
def test_row_errors_speak_the_language_of_the_user_who_started(boss, tenant3):
    response = boss.post(
        f"{PRODUCTS}import/",
        {"file": csv_rows(2, bad_row=2)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    job = finished_job(boss, response.json()["data"]["id"])
    assert job["errors"][0]["message"] != "Enter a number."
    assert job["message"] != "1 of 2 rows have errors; nothing was imported."


def workbook_without_sheet() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        archive.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook/>')
    return buffer.getvalue()


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (60 * 1024 * 1024))
    return buffer.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("bomb.xlsx", zip_bomb(), "import_file_too_large"),
        ("nosheet.xlsx", workbook_without_sheet(), "import_file_format"),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "import_file_format"),
        ("latin1.csv", "Article number,Name\nCT-1,Café\n".encode("latin-1"), "import_file_encoding"),
        ("cols.csv", b"Name\nCarton\n", "import_missing_columns"),
        ("empty.csv", b"\n\n", "import_file_empty"),
    ],
)
def test_hostile_and_unreadable_uploads_are_refused_before_a_job_exists(
    boss, tenant3, in_tenant, name, content, error
):
    response = start_import(boss, PRODUCTS, SimpleUploadedFile(name, content))
    assert response.status_code == 400
    assert response.json()["error"] == error
    with in_tenant(tenant3):
        assert not ImportJob.objects.exists()


@pytest.mark.django_db
def test_a_second_import_of_the_same_kind_waits_for_the_first(boss, tenant3, in_tenant, queued):
    first = start_import(boss, PRODUCTS, csv_rows(2))
    assert first.status_code == 202 and first.json()["data"]["status"] == "queued"
    assert len(queued) == 0  # sent only once the request's transaction has committed (on_commit)

    second = start_import(boss, PRODUCTS, csv_rows(2))
    assert second.status_code == 409
    assert second.json()["error"] == "import_in_progress"
    assert second.json()["data"] == {"job": first.json()["data"]["id"]}
    # A dry run and an import of another kind are not held up.
    assert start_import(boss, PRODUCTS, csv_rows(2), dry_run=True).status_code == 202
    groups = SimpleUploadedFile("g.csv", b"Name,Code\nCartons,CC\n")
    assert start_import(boss, "/api/products/groups/", groups).status_code == 202

    # A job whose worker never finished it stops blocking after IMPORT_JOB_STALE_SECONDS.
    with in_tenant(tenant3):
        ImportJob.objects.filter(pk=first.json()["data"]["id"]).update(
            created_at=timezone.now() - import_jobs.stale_after() - timedelta(minutes=1)
        )
    third = start_import(boss, PRODUCTS, csv_rows(2))
    assert third.status_code == 202
    stale = boss.get(f"/api/common/imports/{first.json()['data']['id']}/").json()["data"]
    assert stale["status"] == "failed" and stale["error"] == "import_stale"


@pytest.mark.django_db
def test_the_database_holds_one_active_import_per_kind(tenant3, in_tenant):
    from django.db import IntegrityError, transaction

    with in_tenant(tenant3):
        ImportJob.objects.create(kind="products.product", status="running")
        ImportJob.objects.create(kind="products.product", status="queued", dry_run=True)
        ImportJob.objects.create(kind="products.product", status="done")
        with pytest.raises(IntegrityError), transaction.atomic():
            ImportJob.objects.create(kind="products.product", status="queued")


@pytest.mark.django_db
def test_a_queued_job_runs_when_the_worker_takes_it(
    boss, tenant3, in_tenant, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = start_import(boss, PRODUCTS, csv_rows(3))
    job_id = response.json()["data"]["id"]
    assert len(queued) == 1
    kwargs = queued[0]["kwargs"]
    assert kwargs == {
        "tenant_id": tenant3.pk,
        "job_id": job_id,
        "importer": "apps.products.importers.ProductImporter",
        "language": kwargs["language"],
    }
    waiting = boss.get(f"/api/common/imports/{job_id}/").json()["data"]
    assert (waiting["status"], waiting["phase"], waiting["progress"]) == ("queued", "queued", 0)

    assert import_jobs.execute(tenant_id=tenant3.pk, job_id=job_id, importer=kwargs["importer"]) == "done"
    # Running it again (a redelivered message) does nothing.
    assert import_jobs.execute(tenant_id=tenant3.pk, job_id=job_id, importer=kwargs["importer"]) == "done"
    with in_tenant(tenant3):
        assert Product.objects.count() == 3
    with pytest.raises(TypeError):
        import_jobs.execute(tenant_id=tenant3.pk, job_id=job_id, importer="apps.common.models.ImportJob")


@pytest.mark.django_db
def test_an_unexpected_failure_fails_the_job_and_writes_nothing(boss, tenant3, in_tenant, monkeypatch):
    def broken(self, serializer, *, created, extra):
        serializer.save()
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ProductImporter, "save_row", broken)
    job = import_job(boss, PRODUCTS, csv_rows(3))
    assert job["status"] == "failed" and job["error"] == "import_failed"
    assert "nothing was imported" in job["message"] and "disk" not in job["message"]
    with in_tenant(tenant3):
        assert not Product.objects.exists()


@pytest.mark.django_db
def test_another_tenant_and_supplier_users_cannot_read_the_job(
    boss, api, tenant2, tenant3, make_user, in_tenant
):
    job = import_job(boss, PRODUCTS, csv_rows(1))
    url = f"/api/common/imports/{job['id']}/"

    other_admin = make_user(tenant2, username="other-admin")
    assert api(other_admin, tenant2).get(url).status_code == 404  # not in tenant 2 (RLS and the manager)
    assert api(other_admin, tenant3).get(url).status_code == 403  # not a member of tenant 3

    from apps.suppliers.models import ParentVendor, Supplier

    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Vendor", code="PV")
        Supplier.objects.create(number="S-1", name="Mill", parent_vendor=vendor)
    supplier_user = make_user(
        tenant3, role="Supplier", username="mill", is_supplier=True, parent_vendor=vendor
    )
    assert api(supplier_user, tenant3).get(url).status_code == 403

    # Inside the tenant, only those who may import that kind read its jobs.
    sales = make_user(tenant3, role="Sales", username="seller")
    assert api(sales, tenant3).get(url).status_code == 404
    assert api(None, tenant3).get(url).status_code == 401


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_progress_is_visible_while_the_import_transaction_runs(api, tenant3, make_user, in_tenant, queued):
    """A worker writes 300 rows in one transaction; meanwhile another connection reads the job's progress
    over the API and sees no product yet; at the end every row is there."""
    client = api(make_user(tenant3, username="boss"), tenant3)
    response = start_import(client, PRODUCTS, csv_rows(300))
    job_id = response.json()["data"]["id"]
    assert len(queued) == 1  # a real commit ran the on_commit hook
    kwargs = queued[0]["kwargs"]

    reached, release = threading.Event(), threading.Event()
    original = ProductImporter.save_row
    calls = {"n": 0}

    def slow_save_row(self, serializer, *, created, extra):
        calls["n"] += 1
        if calls["n"] == 151:
            reached.set()
            release.wait(20)
        return original(self, serializer, created=created, extra=extra)

    outcome: dict = {}

    def worker():
        try:
            ProductImporter.save_row = slow_save_row
            outcome["status"] = run_import.run(**kwargs)["status"]
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert reached.wait(30), "the import never reached row 151"
        live = client.get(f"/api/common/imports/{job_id}/").json()["data"]
        assert live["status"] == "running" and live["phase"] == "saving"
        assert live["total_rows"] == 300 and live["processed_rows"] == 100
        assert 50 < live["progress"] < 100
        with in_tenant(tenant3):
            assert not Product.objects.exists()  # the writes are not committed yet
    finally:
        release.set()
        thread.join(30)
        ProductImporter.save_row = original
    assert outcome["status"] == "done"
    done = client.get(f"/api/common/imports/{job_id}/").json()["data"]
    assert (done["status"], done["created"], done["progress"]) == ("done", 300, 100)
    with in_tenant(tenant3):
        assert Product.objects.count() == 300
        assert not ImportJob.objects.get(pk=job_id).file


def test_every_import_endpoint_uses_a_registered_importer():
    from apps.common.imports import ImportMixin

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    import config.urls  # noqa: F401  (loads every ViewSet)

    viewsets = [view for view in subclasses(ImportMixin) if view.importer_class is not None]
    assert len(viewsets) >= 5
    for view in viewsets:
        path = import_jobs.importer_path(view.importer_class)
        assert issubclass(import_jobs.import_string(path), Importer)


@pytest.mark.django_db
def test_a_job_whose_worker_died_is_failed_at_once_and_no_longer_blocks(boss, tenant3, in_tenant, queued):
    """Running, but no worker holds its lock (the worker was killed, its transaction rolled back with
    its connection): the next import of the kind is not refused for an hour, and the page says why."""
    first = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    with in_tenant(tenant3):
        ImportJob.objects.filter(pk=first).update(status="running", started_at=timezone.now())
    second = start_import(boss, PRODUCTS, csv_rows(2))
    assert second.status_code == 202, second.content
    lost = boss.get(f"/api/common/imports/{first}/").json()["data"]
    assert lost["status"] == "failed" and lost["error"] == "import_worker_lost"
    assert "start it again" in lost["message"]


@pytest.mark.django_db
def test_the_task_delivered_again_after_the_worker_died_takes_the_job_over(
    boss, tenant3, in_tenant, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job_id = start_import(boss, PRODUCTS, csv_rows(3)).json()["data"]["id"]
    with in_tenant(tenant3):  # the first worker marked it running, then died
        ImportJob.objects.filter(pk=job_id).update(status="running", started_at=timezone.now())
    kwargs = queued[0]["kwargs"]
    assert import_jobs.execute(**{k: kwargs[k] for k in ("tenant_id", "job_id", "importer")}) == "done"
    with in_tenant(tenant3):
        assert Product.objects.count() == 3


@pytest.mark.django_db
@pytest.mark.postgres
def test_the_sweep_leaves_a_live_worker_alone_and_fails_the_job_when_it_dies(
    boss, tenant3, in_tenant, queued
):
    from django.db import connections

    from apps.common.tasks import recover_imports

    job_id = start_import(boss, PRODUCTS, csv_rows(2)).json()["data"]["id"]
    with in_tenant(tenant3):
        ImportJob.objects.filter(pk=job_id).update(status="running", started_at=timezone.now())
    worker = connections.create_connection("default")  # another session: the worker's
    try:
        with worker.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [import_jobs.WORKER_LOCK_CLASS, job_id])
        assert import_jobs.worker_alive(job_id)
        assert recover_imports.apply().get() == 0
        assert boss.get(f"/api/common/imports/{job_id}/").json()["data"]["status"] == "running"
    finally:
        worker.close()  # the worker's connection goes: PostgreSQL releases its lock as the session ends
    deadline = time.monotonic() + 30
    while import_jobs.worker_alive(job_id):
        assert time.monotonic() < deadline, "the closed session's lock was never released"
        time.sleep(0.05)
    assert recover_imports.apply().get() == 1
    assert boss.get(f"/api/common/imports/{job_id}/").json()["data"]["error"] == "import_worker_lost"
