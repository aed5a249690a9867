"""Writes of the printing area: pairing, agent heartbeats, creating jobs, handing them to agents, results.

Delivery is at most once per idempotency key: `jobs_claim` moves a job from `queued` to `sent` under a
row lock (SKIP LOCKED, so two polls of the same agent never both get it); a job whose result never
arrived (the poll's answer was lost) is offered again to the same agent after `SENT_LEASE`, and the agent
keeps a journal of the keys it has printed, so it reports that job again without printing it twice.
Results are idempotent too: a repeated report of a finished job changes nothing.

Expiry is computed on read: `jobs_expire_due` (one UPDATE) runs before every job list and every poll,
so a queued job older than its `expires_at` is `expired` wherever it is seen, with no beat process
needed in the embedded default.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.tenancy.context import tenant_context

from . import errors, zpl
from .models import PairingCode, PrintAgent, PrinterDevice, PrinterStatus, PrintJob

PAIRING_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PAIRING_CODE_TTL = timedelta(minutes=15)
SENT_LEASE = timedelta(seconds=60)
MAX_LABELS_PER_JOB = 500
MAX_JOBS_PER_POLL = 10


def job_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "PRINT_JOB_TTL_SECONDS", 600))


def secret_hash(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def normalise_pairing_code(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:16]


def _tenant_by_setting(table: str, column: str, setting: str, value: str) -> int | None:
    """The tenant of the one row whose `column` equals `value`, read before any tenant is known.

    On PostgreSQL the table is under row-level security; migration 0002 adds a SELECT-only policy that
    admits exactly the row whose hash equals the transaction-local `setting` (set, read, cleared), as the
    public carton trace does for carton codes. Elsewhere (SQLite) the table is read directly.
    """
    quoted = connection.ops.quote_name(table)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT set_config(%s, %s, true)", [setting, value])
        try:
            cursor.execute(f"SELECT tenant_id FROM {quoted} WHERE {column} = %s LIMIT 1", [value])  # noqa: S608
            row = cursor.fetchone()
        finally:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT set_config(%s, '', true)", [setting])
    return row[0] if row else None


# --- pairing -----------------------------------------------------------------------------------------


@transaction.atomic
def pairing_code_create(*, name: str, user, parent_vendor=None) -> tuple[PairingCode, str]:
    """A new one-time pairing code (shown once; only its hash is stored), valid for PAIRING_CODE_TTL."""
    code = "".join(secrets.choice(PAIRING_CODE_ALPHABET) for _ in range(8))
    row = PairingCode.objects.create(
        code_hash=secret_hash(code),
        name=name.strip() or "Print agent",
        parent_vendor=parent_vendor,
        expires_at=timezone.now() + PAIRING_CODE_TTL,
        created_by=user,
    )
    return row, f"{code[:4]}-{code[4:]}"


def agent_pair(*, code: str, hostname: str = "", version: str = "") -> tuple[PrintAgent, str]:
    """Exchanges a pairing code for an agent and its token. The code works once and until it expires;
    the token is returned here only, the server keeps its SHA-256."""
    code_hash = secret_hash(normalise_pairing_code(code))
    tenant_id = _tenant_by_setting(
        PairingCode._meta.db_table, "code_hash", "app.pairing_code_hash", code_hash
    )
    if tenant_id is None:
        raise errors.PairingCodeInvalid()
    with tenant_context(tenant_id), transaction.atomic():
        pairing = PairingCode.objects.select_for_update().get(code_hash=code_hash)
        if pairing.used_at is not None:
            raise errors.PairingCodeUsed()
        now = timezone.now()
        if pairing.expires_at <= now:
            raise errors.PairingCodeExpired()
        token = secrets.token_urlsafe(32)
        agent = PrintAgent.objects.create(
            name=pairing.name,
            parent_vendor_id=pairing.parent_vendor_id,
            token_hash=secret_hash(token),
            token_hint=token[:6],
            hostname=hostname[:200],
            version=version[:40],
            last_seen_at=now,
            created_by_id=pairing.created_by_id,
        )
        pairing.used_at = now
        pairing.agent = agent
        pairing.save(update_fields=["used_at", "agent"])
    return agent, token


def agent_tenant_for_token(token: str) -> tuple[int, str] | None:
    """(tenant id, token hash) of an active agent's token, or None."""
    if not token or len(token) > 200:
        return None
    token_hash = secret_hash(token)
    tenant_id = _tenant_by_setting(
        PrintAgent._meta.db_table, "token_hash", "app.agent_token_hash", token_hash
    )
    return (tenant_id, token_hash) if tenant_id is not None else None


@dataclass
class PrinterReport:
    printer_id: int
    status: str


@transaction.atomic
def agent_heartbeat(*, agent: PrintAgent, hostname: str, version: str, printers: list[PrinterReport]) -> None:
    """Marks the agent seen and stores the status of the printers it reports (only its own printers)."""
    now = timezone.now()
    PrintAgent.objects.filter(pk=agent.pk).update(
        last_seen_at=now, hostname=hostname[:200], version=version[:40]
    )
    agent.last_seen_at = now
    by_status: dict[str, list[int]] = {}
    for report in printers:
        if report.status in PrinterStatus.values:
            by_status.setdefault(report.status, []).append(report.printer_id)
    for status, ids in by_status.items():
        seen = (
            {"last_seen_at": now}
            if status not in (PrinterStatus.NO_ANSWER, PrinterStatus.UNREACHABLE)
            else {}
        )
        PrinterDevice.objects.filter(agent=agent, pk__in=ids).update(last_status=status, **seen)


@transaction.atomic
def agent_revoke(*, agent: PrintAgent) -> PrintAgent:
    """Switches an agent off: its token stops working at once; its printers keep their settings."""
    agent.is_active = False
    agent.token_hash = secret_hash(secrets.token_hex(32))
    agent.save(update_fields=["is_active", "token_hash"])
    return agent


# --- jobs --------------------------------------------------------------------------------------------


def jobs_expire_due() -> int:
    """Queued jobs whose time is up become `expired` (in the current tenant). One UPDATE."""
    now = timezone.now()
    return PrintJob.objects.filter(status=PrintJob.Status.QUEUED, expires_at__lte=now).update(
        status=PrintJob.Status.EXPIRED,
        finished_at=now,
        error=_("No print agent picked this job up in time."),
    )


def _check_printer(printer: PrinterDevice) -> None:
    if not printer.is_active:
        raise errors.PrinterInactive()
    if printer.agent_id is None:
        raise errors.PrinterWithoutAgent()


def carton_labels_zpl(
    *, labels, printer: PrinterDevice, template: str, base_url: str, copy_number: int = 1
) -> str:
    note = f"COPY {copy_number}" if copy_number > 1 else ""
    parts = []
    for label in labels:
        layout = zpl.carton_layout(
            label,
            f"{base_url}/eudrtrace/{label.code}",
            template=template,
            dpi=printer.dpi,
            width_mm=printer.label_width_mm,
            height_mm=printer.label_height_mm,
            copy_note=note,
        )
        parts.append(zpl.to_zpl(layout))
    return "".join(parts)


def test_label_zpl(*, printer: PrinterDevice) -> str:
    layout = zpl.layout_test(
        dpi=printer.dpi,
        width_mm=printer.label_width_mm,
        height_mm=printer.label_height_mm,
        printer_name=printer.name,
        when=timezone.now().strftime("%Y-%m-%d %H:%M UTC"),
    )
    return zpl.to_zpl(layout)


def _with_copies(text: str, copies: int) -> str:
    return text * copies if copies > 1 else text


@transaction.atomic
def print_job_create(
    *,
    printer: PrinterDevice,
    source: str,
    user,
    labels=None,
    label_ids: list[int] | None = None,
    label_filter: dict | None = None,
    template: str = "",
    copies: int = 1,
    raw_zpl: str = "",
    base_url: str = "",
    copy_number: int = 1,
    reprint_of: PrintJob | None = None,
) -> PrintJob:
    """Queues one job. Carton labels: `labels` is the selected labels' queryset (already scoped to what
    the user may see); its ZPL is built now, so a poll only reads a text column."""
    _check_printer(printer)
    count = 0
    template = template or printer.template
    if source == PrintJob.Source.CARTON_LABELS:
        selected = list(labels[: MAX_LABELS_PER_JOB + 1]) if labels is not None else []
        if not selected:
            raise errors.NoLabelsSelected()
        if len(selected) > MAX_LABELS_PER_JOB:
            raise errors.TooManyLabels(
                _("At most %(limit)s labels can be printed in one job.") % {"limit": MAX_LABELS_PER_JOB}
            )
        body = carton_labels_zpl(
            labels=selected, printer=printer, template=template, base_url=base_url, copy_number=copy_number
        )
        label_ids = [label.pk for label in selected]
        count = len(selected)
    elif source == PrintJob.Source.TEST_LABEL:
        body, count = test_label_zpl(printer=printer), 1
    elif source == PrintJob.Source.RAW_ZPL:
        body = raw_zpl
    else:
        body, template = "", ""
    now = timezone.now()
    return PrintJob.objects.create(
        printer=printer,
        source=source,
        template=template if source == PrintJob.Source.CARTON_LABELS else "",
        label_ids=label_ids or [],
        label_filter=label_filter or {},
        label_count=count * copies,
        copies=copies,
        copy_number=copy_number,
        reprint_of=reprint_of,
        zpl=_with_copies(body, copies),
        user=user,
        created_at=now,
        expires_at=now + job_ttl(),
    )


@transaction.atomic
def print_job_reprint(*, job: PrintJob, user) -> PrintJob:
    """Prints a job's labels again as a new job. A job that printed nothing (expired, or refused by the
    agent before any data was sent) is printed again as the same print, with its own copy number; any
    other is a copy, marked "COPY N" where N follows the highest copy that may have come out."""
    if job.source not in (PrintJob.Source.CARTON_LABELS, PrintJob.Source.TEST_LABEL):
        raise errors.JobNotReprintable()
    original = job.reprint_of or job
    if job.printed_nothing:
        number = job.copy_number
    else:
        family = PrintJob.objects.filter(Q(pk=original.pk) | Q(reprint_of=original)).exclude(
            status=PrintJob.Status.EXPIRED
        )
        family = family.exclude(status=PrintJob.Status.FAILED, data_sent=False)
        number = (family.aggregate(highest=Max("copy_number"))["highest"] or 0) + 1
    if job.source == PrintJob.Source.TEST_LABEL:
        return print_job_create(
            printer=job.printer, source=job.source, user=user, copy_number=number, reprint_of=original
        )
    from apps.eudr.models import CartonLabel

    labels = (
        CartonLabel.objects.filter(pk__in=job.label_ids)
        .select_related("raw_material__parent_vendor", "product")
        .order_by("production_batch_code", "batch_sequence", "id")
    )
    return print_job_create(
        printer=job.printer,
        source=job.source,
        user=user,
        labels=labels,
        template=job.template,
        copies=job.copies,
        base_url=_base_url_of(job),
        copy_number=number,
        reprint_of=original,
    )


def _base_url_of(job: PrintJob) -> str:
    """The trace URL base the job's labels were printed with (read back from its QR field)."""
    marker = "^FDMA,"
    start = job.zpl.find(marker)
    if start < 0:
        return (getattr(settings, "PUBLIC_BASE_URL", "") or "").rstrip("/")
    url = zpl.unescape_field(job.zpl[start + len(marker) : job.zpl.find("^FS", start)])
    return url.rsplit("/eudrtrace/", 1)[0]


@transaction.atomic
def jobs_claim(*, agent: PrintAgent, limit: int = MAX_JOBS_PER_POLL) -> list[PrintJob]:
    """Hands the agent its next jobs: queued jobs of its printers (oldest first), and jobs already sent to
    it whose result never came back after SENT_LEASE. Locks with SKIP LOCKED: a concurrent poll gets
    other jobs, never the same."""
    jobs_expire_due()
    now = timezone.now()
    queued = PrintJob.objects.filter(printer__agent=agent, status=PrintJob.Status.QUEUED, expires_at__gt=now)
    stale = PrintJob.objects.filter(agent=agent, status=PrintJob.Status.SENT, sent_at__lt=now - SENT_LEASE)
    jobs = list(
        (queued | stale)
        .select_for_update(skip_locked=True, of=("self",))
        .select_related("printer")
        .order_by("created_at", "id")[:limit]
    )
    for job in jobs:
        job.status = PrintJob.Status.SENT
        job.agent = agent
        job.attempts += 1
        job.sent_at = now
    if jobs:
        PrintJob.objects.bulk_update(jobs, ["status", "agent", "attempts", "sent_at"])
    return jobs


def has_work(*, agent: PrintAgent) -> bool:
    """Whether a poll would find something: one indexed EXISTS, cheap enough to repeat every second."""
    now = timezone.now()
    return (
        PrintJob.objects.filter(
            printer__agent=agent, status=PrintJob.Status.QUEUED, expires_at__gt=now
        ).exists()
        or PrintJob.objects.filter(
            agent=agent, status=PrintJob.Status.SENT, sent_at__lt=now - SENT_LEASE
        ).exists()
    )


@transaction.atomic
def job_report(
    *,
    agent: PrintAgent,
    job_id: int,
    idempotency_key: str,
    printed: bool,
    error: str,
    printer_status: dict,
    data_sent: bool | None = None,
) -> PrintJob:
    """Records the agent's result of a job it was sent. Idempotent: a finished job stays as it is.
    `data_sent` is what the agent says reached the printer (None: it does not know or does not say)."""
    job = (
        PrintJob.objects.select_for_update(of=("self",))
        .select_related("printer")
        .filter(pk=job_id, agent=agent)
        .first()
    )
    if job is None or str(job.idempotency_key) != str(idempotency_key):
        raise errors.JobNotFound()
    if job.status in (PrintJob.Status.PRINTED, PrintJob.Status.FAILED, PrintJob.Status.EXPIRED):
        return job
    now = timezone.now()
    job.status = PrintJob.Status.PRINTED if printed else PrintJob.Status.FAILED
    job.error = "" if printed else (error or _("The printer reported an error."))[:500]
    job.printer_status = printer_status
    job.data_sent = True if printed else data_sent
    job.finished_at = now
    job.save(update_fields=["status", "error", "printer_status", "data_sent", "finished_at"])
    state = printer_status.get("state") if isinstance(printer_status, dict) else None
    if state in PrinterStatus.values:
        printer = job.printer
        printer.last_status = state
        fields = ["last_status"]
        if state not in (PrinterStatus.NO_ANSWER, PrinterStatus.UNREACHABLE):
            printer.last_seen_at = now
            fields.append("last_seen_at")
        printer.save(update_fields=fields)
    return job
