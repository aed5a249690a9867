"""Imports as background jobs: the request checks and stores the file, a Celery task reads, validates and
writes it (apps/common/imports.py does the reading and writing), the API reports progress.

The flow of `POST <list>/import/` (ImportMixin.import_rows):

1. `job_start`: the quick checks of `Importer.check_file` (size, format, the XLSX archive's declared
   size, the header row and its required columns) refuse a hostile or unreadable file with 400 before
   anything is stored. Then the file is saved in the storage and an `ImportJob` (queued) is created.
   An import (not a dry run) of a kind refuses to start while another of the same kind is queued or
   running in the tenant (409 `import_in_progress`, `data.job` = the running job's id); a partial unique
   constraint holds that rule under concurrent requests too. A job left queued or running for longer
   than `IMPORT_JOB_STALE_SECONDS` (a worker that died) is marked failed instead of blocking forever.
2. The task (`apps.common.tasks.run_import`) is queued after the request's transaction commits; in the
   embedded default Celery runs eagerly and the job has finished when the answer (202) is sent.
3. `execute`: marks the job running (committed at once, so it is visible), then reads, validates and
   writes every row in ONE transaction, and stores the final counts in the job row inside that same
   transaction: the rows and "done" commit together or not at all. A rejected file (row errors, a bound
   passed while reading) rolls back and is stored as `failed` with its error key, message and row errors.
4. Progress while the transaction runs goes to the cache (Redis when REDIS_URL is set, shared by the web
   processes and the workers), because other connections cannot see into an open transaction;
   `GET /api/common/imports/{id}/` overlays it on the job row while the job is active.
5. A worker that dies is noticed at once, not after the hour: the running worker holds a PostgreSQL
   advisory lock on the job (session-level, on its own connection) for as long as it works; PostgreSQL
   releases it when the worker's connection goes. A job "running" whose lock is free has lost its
   worker (its transaction was rolled back with the connection: nothing was imported). The task
   delivered again after the worker's death (acks_late) takes such a job over and runs it again; the
   sweep `common.recover_imports` (every 2 minutes) marks the ones nobody took over failed
   (`import_worker_lost`, "start it again"), and `job_start` does the same before it refuses a second
   import of the kind.
6. `GET /api/common/imports/?kind=&status=` lists the jobs of the kinds the user may import
   (`importable_kinds`), so an import dialog opened while one of its kind runs follows that job.
7. A person moves a stuck or failed job on from the page (`POST /api/common/imports/{id}/retry/` and
   `.../cancel/`, the permissions of starting the import):
   - "Stuck" is what the recovery would fail: queued or running past `IMPORT_JOB_STALE_SECONDS`, or
     running while no worker holds its lock. A failure another run of the same file may cure (a lost
     worker, a stale job, an unexpected error: `RETRYABLE_ERRORS`) keeps the stored file; a file with row
     errors, a refused file, a done or cancelled job drop it, as before.
   - `job_retry` fails a stuck job first, then creates a NEW job (`retry_of` = the old one) that takes
     the old job's file over and is queued like a fresh upload. The old job stays failed, so the log
     keeps what happened, and a message of the old job delivered late finds it finished and does
     nothing. One active import per kind still holds (409 `import_in_progress`).
   - `job_cancel` cancels a queued job or a stuck one (status `cancelled`, the file dropped, nothing
     was imported). A job running under a live worker is refused with 409 `import_running`: its rows
     are written in one transaction that commits or rolls back as a whole and ends within the task's
     time limit; there is no point at which stopping it from outside would be cleaner than letting it
     end. The row lock on the job orders a cancel against a worker taking the job: whichever commits
     first wins, and the other sees it (`execute` runs only an active job).
   - Files of failed jobs nobody retried are dropped by `common.recover_imports` after
     `IMPORT_RETRY_KEEP_HOURS` (24).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, Value
from django.db.models.expressions import RawSQL
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext

from apps.common.errors import (
    CommonErrorCode,
    ImportInProgress,
    ImportNotCancellable,
    ImportNotRetryable,
    ImportRunning,
)
from apps.common.imports import Importer, ImportFileError, ImportRejected
from apps.common.models import ImportJob
from apps.tenancy.context import tenant_context

logger = logging.getLogger(__name__)

PROGRESS_TTL_SECONDS = 24 * 3600


# The first key of the advisory locks of import jobs (the second is the job id).
WORKER_LOCK_CLASS = 0x1A4F


def _hold_worker_lock(job_id: int) -> bool:
    """Takes the job's advisory lock for this connection's session (PostgreSQL); False when another
    worker holds it. Without PostgreSQL (the embedded default runs jobs inline) always True."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [WORKER_LOCK_CLASS, job_id])
        return bool(cursor.fetchone()[0])


def _release_worker_lock(job_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [WORKER_LOCK_CLASS, job_id])


def worker_alive(job_id: int) -> bool:
    """Whether a worker holds the job (its advisory lock is taken). Without PostgreSQL: True."""
    if connection.vendor != "postgresql":
        return True
    if _hold_worker_lock(job_id):
        _release_worker_lock(job_id)
        return False
    return True


def with_worker_alive(jobs):
    """`jobs` annotated with `worker_is_alive` (running and its lock held), read in the same query from
    pg_locks, so that a list says which jobs are stuck without a query per job. Without PostgreSQL: True."""
    if connection.vendor != "postgresql":
        return jobs.annotate(worker_is_alive=Value(True, output_field=BooleanField()))
    table = ImportJob._meta.db_table
    # Only the model's own table name and a parameter go into the SQL.
    held = (
        f"CASE WHEN {table}.status = 'running' THEN EXISTS (SELECT 1 FROM pg_locks AS held"  # noqa: S608
        " WHERE held.locktype = 'advisory' AND held.granted AND held.classid = %s AND held.objsubid = 2"
        f" AND held.objid::bigint = {table}.id"
        " AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database()))"
        " ELSE false END"
    )
    return jobs.annotate(
        worker_is_alive=RawSQL(  # noqa: S611
            held,
            [WORKER_LOCK_CLASS],
            output_field=BooleanField(),
        )
    )


def stale_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "IMPORT_JOB_STALE_SECONDS", 3600))


# Failures another run of the same file may cure: their job keeps the file for a retry.
RETRYABLE_ERRORS = frozenset(
    {CommonErrorCode.IMPORT_STALE, CommonErrorCode.IMPORT_WORKER_LOST, CommonErrorCode.IMPORT_FAILED}
)


def retry_keep() -> timedelta:
    return timedelta(hours=getattr(settings, "IMPORT_RETRY_KEEP_HOURS", 24))


def job_stuck(job: ImportJob) -> bool:
    """Queued or running past the stale cutoff, or running while no worker holds it (module docstring, 7)."""
    if job.status not in ImportJob.ACTIVE_STATUSES:
        return False
    if job.created_at is not None and job.created_at < timezone.now() - stale_after():
        return True
    if job.status != ImportJob.Status.RUNNING:
        return False
    alive = getattr(job, "worker_is_alive", None)  # with_worker_alive, else asked now
    return not (worker_alive(job.pk) if alive is None else alive)


def importer_path(importer_class: type[Importer]) -> str:
    return f"{importer_class.__module__}.{importer_class.__qualname__}"


def kind_of(importer_class: type[Importer]) -> str:
    return importer_class.model._meta.label_lower


def import_permissions(kind: str) -> list[str]:
    app_label, model_name = kind.split(".", 1)
    return [f"{app_label}.add_{model_name}", f"{app_label}.change_{model_name}"]


def importable_kinds(held: frozenset[str]) -> set[str]:
    """The kinds (`app_label.model_name`) whose import the holder of these permissions may start and
    follow: those of which they hold both the add and the change permission."""
    kinds = set()
    for perm in held:
        app_label, _sep, codename = perm.partition(".")
        if codename.startswith("add_"):
            model_name = codename[len("add_") :]
            if f"{app_label}.change_{model_name}" in held:
                kinds.add(f"{app_label}.{model_name}")
    return kinds


def import_jobs_list(*, kinds: set[str], kind: str = "", statuses: list[str] | None = None, dry_run=None):
    """The tenant's import jobs of the given kinds, newest first, narrowed by kind, statuses and dry run."""
    jobs = with_worker_alive(ImportJob.objects.select_related("started_by").filter(kind__in=sorted(kinds)))
    if kind:
        jobs = jobs.filter(kind=kind)
    if statuses:
        jobs = jobs.filter(status__in=statuses)
    if dry_run is not None:
        jobs = jobs.filter(dry_run=dry_run)
    return jobs.order_by("-created_at", "-id")


# Progress (cache) ---------------------------------------------------------------------------------


def _progress_key(tenant_id: int, job_id: int) -> str:
    return f"imports:progress:{tenant_id}:{job_id}"


def progress_set(job: ImportJob, phase: str, done: int, total: int) -> None:
    cache.set(
        _progress_key(job.tenant_id, job.pk),
        {"phase": phase, "processed_rows": done, "total_rows": total},
        PROGRESS_TTL_SECONDS,
    )


def progress_get(job: ImportJob) -> dict[str, Any] | None:
    return cache.get(_progress_key(job.tenant_id, job.pk))


def percent(*, dry_run: bool, phase: str, done: int, total: int) -> int:
    """0-100 over the whole job: a dry run validates every row; an import validates (first half) and
    then writes (second half)."""
    if phase == "finished":
        return 100
    if phase not in ("validating", "saving") or total <= 0:
        return 0
    share = min(done, total) / total
    if dry_run:
        return int(share * 99)
    return int(share * 49) if phase == "validating" else 50 + int(share * 49)


def job_state(job: ImportJob) -> dict[str, Any]:
    """{phase, total_rows, processed_rows, progress} of a job: from the cache while it is active."""
    if job.status in ImportJob.ACTIVE_STATUSES:
        live = progress_get(job) if job.status == ImportJob.Status.RUNNING else None
        phase = (live or {}).get("phase", "queued" if job.status == ImportJob.Status.QUEUED else "reading")
        done = int((live or {}).get("processed_rows", 0))
        total = int((live or {}).get("total_rows", 0))
    else:
        phase, done, total = "finished", job.processed_rows, job.total_rows
    return {
        "phase": phase,
        "total_rows": total,
        "processed_rows": done,
        "progress": percent(dry_run=job.dry_run, phase=phase, done=done, total=total),
    }


# Starting a job (in the request) ------------------------------------------------------------------


def _fail_as_stale(job: ImportJob) -> None:
    _finish_failed(
        job,
        error=CommonErrorCode.IMPORT_STALE,
        message=gettext("The import did not finish in time; nothing was imported. Please try again."),
    )


def _fail_as_lost(job: ImportJob) -> None:
    _finish_failed(
        job,
        error=CommonErrorCode.IMPORT_WORKER_LOST,
        message=gettext(
            "The worker running this import stopped; nothing was imported. Please start it again."
        ),
    )


def _fail_stale(kind: str) -> None:
    cutoff = timezone.now() - stale_after()
    for job in ImportJob.objects.filter(
        kind=kind, status__in=ImportJob.ACTIVE_STATUSES, created_at__lt=cutoff
    ):
        _fail_as_stale(job)
    _fail_lost(ImportJob.objects.filter(kind=kind))


def _fail_lost(jobs) -> list[int]:
    """Marks failed the running jobs of `jobs` whose worker is gone (see the module docstring, 5)."""
    lost = []
    for job in jobs.filter(status=ImportJob.Status.RUNNING).order_by("pk"):
        if not worker_alive(job.pk):
            _fail_as_lost(job)
            lost.append(job.pk)
    return lost


def import_jobs_recover() -> list[int]:
    """Marks failed the tenant's running import jobs whose worker is gone and drops the files of failed
    jobs kept for a retry longer than `IMPORT_RETRY_KEEP_HOURS` (call inside the tenant; the beat task
    `common.recover_imports`, every 2 minutes). Returns the ids of the jobs it failed."""
    with transaction.atomic():
        lost = _fail_lost(ImportJob.objects.select_for_update(skip_locked=True))
        expired = (
            ImportJob.objects.select_for_update(skip_locked=True)
            .filter(status=ImportJob.Status.FAILED, finished_at__lt=timezone.now() - retry_keep())
            .exclude(file="")
            .order_by("pk")
        )
        for job in expired:
            _discard_file(job)
            job.save(update_fields=["file"])
        return lost


def job_start(*, importer: Importer, upload, dry_run: bool, user) -> ImportJob:
    """Checks the upload quickly, stores it and queues the job (see the module docstring)."""
    importer.check_file(upload)
    kind = kind_of(type(importer))
    if not dry_run:
        _fail_stale(kind)
        running = ImportJob.objects.filter(
            kind=kind, status__in=ImportJob.ACTIVE_STATUSES, dry_run=False
        ).first()
        if running is not None:
            raise ImportInProgress(data={"job": running.pk})
    upload.seek(0)
    name = (getattr(upload, "name", "") or "import")[-255:]
    path = importer_path(type(importer))
    try:
        with transaction.atomic():
            job = ImportJob(kind=kind, importer=path, dry_run=dry_run, file_name=name, started_by=user)
            job.file.save(name, ContentFile(upload.read()), save=False)
            job.save()
    except IntegrityError as exc:
        raise _in_progress(kind) from exc
    return _queue(job)


def _in_progress(kind: str) -> ImportInProgress:
    running = ImportJob.objects.filter(kind=kind, status__in=ImportJob.ACTIVE_STATUSES, dry_run=False).first()
    return ImportInProgress(data={"job": running.pk if running else None})


def _queue(job: ImportJob) -> ImportJob:
    """Sends the job's task: at once when Celery runs inline (the job has finished on return), else after
    the transaction commits (the worker must see the committed job row and file)."""
    from apps.common.tasks import run_import

    options: dict[str, Any] = {
        "kwargs": {
            "tenant_id": job.tenant_id,
            "job_id": job.pk,
            "importer": job.importer,
            "language": translation.get_language() or settings.LANGUAGE_CODE,
        }
    }
    queue = getattr(settings, "IMPORT_QUEUE", None)
    if queue:
        options["queue"] = queue
    if run_import.app.conf.task_always_eager:
        run_import.apply_async(**options)
        job.refresh_from_db()
    else:
        # The worker must see the committed job row and file.
        transaction.on_commit(lambda: run_import.apply_async(**options))
    return job


def _importer_of(job: ImportJob) -> str:
    """The job's importer; for a job stored before the column existed, the one Importer of its kind."""
    if job.importer:
        return job.importer

    def subclasses(cls: type[Importer]):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    found = {
        importer_path(cls)
        for cls in subclasses(Importer)
        if getattr(cls, "model", None) is not None and kind_of(cls) == job.kind
    }
    return found.pop() if len(found) == 1 else ""


def job_retry(*, job_id: int, user) -> ImportJob:
    """Runs a failed or stuck job's file again as a new job (module docstring, 7); returns the new job.

    Locks: the old job's row (select_for_update), so two retries of one job cannot both take its file;
    the partial unique constraint keeps one active import per kind against concurrent uploads."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.status in ImportJob.ACTIVE_STATUSES:
            if not job_stuck(job):
                raise ImportNotRetryable(
                    gettext("This import is still running; wait for it to finish or fail before retrying.")
                )
            _fail_stuck(job)
        importer = _importer_of(job)
        if (
            job.status != ImportJob.Status.FAILED
            or job.error not in RETRYABLE_ERRORS
            or not job.file
            or not importer
        ):
            raise ImportNotRetryable()
        if not job.dry_run:
            _fail_stale(job.kind)
            if ImportJob.objects.filter(
                kind=job.kind, status__in=ImportJob.ACTIVE_STATUSES, dry_run=False
            ).exists():
                raise _in_progress(job.kind)
        retry = ImportJob(
            kind=job.kind,
            importer=importer,
            dry_run=job.dry_run,
            file_name=job.file_name,
            file=job.file.name,
            started_by=user,
            retry_of=job,
        )
        job.file = ""
        job.save(update_fields=["file"])
        try:
            with transaction.atomic():
                retry.save()
        except IntegrityError as exc:
            raise _in_progress(job.kind) from exc
    return _queue(retry)


def _fail_stuck(job: ImportJob) -> None:
    if job.created_at is not None and job.created_at < timezone.now() - stale_after():
        _fail_as_stale(job)
    else:
        _fail_as_lost(job)


def job_cancel(*, job_id: int) -> ImportJob:
    """Cancels a queued or stuck job (module docstring, 7); a job a live worker runs is refused.

    Locks the job's row: `execute` takes the same lock before it marks the job running, so a cancel and
    a worker starting the job never both proceed."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.status not in ImportJob.ACTIVE_STATUSES:
            raise ImportNotCancellable()
        if job.status == ImportJob.Status.RUNNING and not job_stuck(job):
            raise ImportRunning()
        job.status = ImportJob.Status.CANCELLED
        job.error = CommonErrorCode.IMPORT_CANCELLED
        job.message = gettext("The import was cancelled; nothing was imported.")
        job.finished_at = timezone.now()
        _discard_file(job)
        job.save()
    return job


# Running a job (in the task) -----------------------------------------------------------------------


def _apply_report(job: ImportJob, report: dict[str, Any]) -> None:
    job.total_rows = report.get("rows_total", job.total_rows) or 0
    job.processed_rows = job.total_rows
    for field in ("rows_valid", "rows_invalid", "to_create", "to_update", "errors_truncated"):
        if field in report:
            setattr(job, field, report[field])
    job.created_count = report.get("created", 0)
    job.updated_count = report.get("updated", 0)
    job.errors = list(report.get("errors", []))
    job.ignored_columns = list(report.get("ignored_columns", job.ignored_columns or []))


def _finish_failed(job: ImportJob, *, error: str, message: str, data: Any = None) -> None:
    """Fails the job; the file is kept for a retry when another run may cure the failure."""
    job.status = ImportJob.Status.FAILED
    job.error = error[:60]
    job.message = str(message)[:500]
    if isinstance(data, dict):
        _apply_report(job, data)
        job.created_count = job.updated_count = 0
    job.finished_at = timezone.now()
    if error not in RETRYABLE_ERRORS:
        _discard_file(job)
    job.save()


def _discard_file(job: ImportJob) -> None:
    if job.file:
        name = job.file.name or ""
        storage = job.file.storage
        job.file = ""
        transaction.on_commit(lambda: storage.delete(name) if name else None)


def execute(*, tenant_id: int, job_id: int, importer: str) -> str:
    """Runs one queued job to its end; returns its final status. Never raises for a bad file."""
    importer_class = import_string(importer)
    if not (isinstance(importer_class, type) and issubclass(importer_class, Importer)):
        raise TypeError(f"{importer} is not an Importer")

    with transaction.atomic(), tenant_context(tenant_id):
        job = ImportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in ImportJob.ACTIVE_STATUSES:
            return job.status if job else "missing"
        # Running means a worker holds its lock; when it is free that worker died (this is the task
        # delivered again): take the job over. The lock is taken before "running" commits.
        if not _hold_worker_lock(job.pk):
            return job.status
        job.status = ImportJob.Status.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])
    try:
        return _execute_held(job, tenant_id=tenant_id, importer=importer, importer_class=importer_class)
    finally:
        _release_worker_lock(job.pk)


def _execute_held(job: ImportJob, *, tenant_id: int, importer: str, importer_class) -> str:
    job_id = job.pk
    progress_set(job, "reading", 0, 0)

    def progress(phase: str, done: int, total: int) -> None:
        progress_set(job, phase, done, total)

    try:
        with transaction.atomic(), tenant_context(tenant_id):
            with job.file.open("rb") as stored:
                raw = stored.read()
            upload = ContentFile(raw, name=job.file_name)
            report = importer_class(context={}).run(upload, commit=not job.dry_run, progress=progress)
            _apply_report(job, report)
            job.status = ImportJob.Status.DONE
            job.error = ""
            job.message = ""
            job.finished_at = timezone.now()
            _discard_file(job)
            job.save()
    except (ImportRejected, ImportFileError) as exc:
        with tenant_context(tenant_id):
            job.refresh_from_db()
            _finish_failed(job, error=exc.error, message=str(exc.message), data=exc.data)
    except Exception:
        logger.exception("Import job %s (%s) failed", job_id, importer)
        with tenant_context(tenant_id):
            job.refresh_from_db()
            _finish_failed(
                job,
                error=CommonErrorCode.IMPORT_FAILED,
                message=gettext("The import could not be completed; nothing was imported. Please try again."),
            )
    finally:
        cache.delete(_progress_key(tenant_id, job_id))
    return job.status
