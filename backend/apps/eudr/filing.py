"""Filing due diligence statements with the EU information system: services (HackSoft style, keyword-only)
and the work the Celery task does (tasks.file_dds). See filing_models.py and docs/eudr.md.

States: draft (queued, not yet accepted) -> submitted (the system gave a uuid) -> available (it gave the
reference and verification numbers) -> amended / withdrawn; rejected when the system refuses it (its
messages kept in words). Amend and withdraw only within 72 hours of the submission, as the system allows.

Idempotency: a submission row is created once per request (one live row per delivery, a unique
constraint); the task increments `attempts` in its own committed transaction before it calls the
system, then works under the row's lock; an attempt after an earlier one whose outcome is unknown first
asks the system for the statement by its internal reference (`getDdsByInternalReference`) and adopts it
instead of filing it again.
"""

from __future__ import annotations

import logging
from datetime import UTC, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.common.exceptions import DomainError
from apps.eudr import traces
from apps.eudr.dds import xml as dds_xml
from apps.eudr.dds.package import check_delivery, load_facts
from apps.eudr.dds.statement import build_request, internal_reference
from apps.eudr.errors import DdsFilingNotAllowed, DdsStatusNotDue, DdsSubmissionMissing, TracesAccountMissing
from apps.eudr.filing_models import DdsSubmission, DdsSubmissionEvent, TracesAccount
from apps.eudr.gates import filing_gate_check
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.placing import coverage_release
from apps.tenancy.models import EudrImportRole, Tenant

logger = logging.getLogger(__name__)

AMEND_WINDOW = timedelta(hours=72)
# The 2026 reference asks that a statement's status be read no sooner than 30 minutes after its submit
# or amend; a statement still processing then is read again STATUS_RECHECK later (docs/eudr.md).
STATUS_WAIT = timedelta(minutes=30)
STATUS_RECHECK = timedelta(minutes=10)
Status = DdsSubmission.Status
Action = DdsSubmission.Action
SYSTEM_STATUS = {
    "SUBMITTED": Status.SUBMITTED,
    "AVAILABLE": Status.AVAILABLE,
    "REJECTED": Status.REJECTED,
    "WITHDRAWN": Status.WITHDRAWN,
    "GROUPED": Status.GROUPED,
    "ARCHIVED": Status.ARCHIVED,
    "OBSOLETE": Status.ARCHIVED,
}


# -- credentials -----------------------------------------------------------------------------------------


def traces_account_get() -> TracesAccount | None:
    return TracesAccount.objects.first()


@transaction.atomic
def traces_account_save(*, data: dict[str, Any], user) -> TracesAccount:
    """Creates or updates the tenant's TRACES account; an empty or absent `auth_key` keeps the stored one."""
    account = TracesAccount.objects.select_for_update().first() or TracesAccount()
    for name in ("username", "client_id", "environment"):
        if name in data:
            setattr(account, name, data[name])
    if data.get("auth_key"):
        account.auth_key = data["auth_key"]
    account.updated_by = user
    account.save()
    return account


def client_for(account: TracesAccount | None) -> traces.TracesClient:
    if account is None or not account.is_complete:
        raise TracesAccountMissing()
    return traces.TracesClient(
        traces.TracesCredentials(
            username=account.username,
            auth_key=account.auth_key,
            client_id=account.client_id,
            environment=account.environment,
        )
    )


# The outcomes of a connection test, stored as these English msgids with their values.
ECHO_ANSWERED_WSDL = gettext_noop(
    "Connected: the EU information system answered “%(status)s” at %(path)s (the echo WSDL's address)."
)
ECHO_ANSWERED_REFERENCE = gettext_noop(
    "Connected: the EU information system answered “%(status)s” at %(path)s (the 2026 "
    "reference's address; the echo WSDL's did not answer)."
)


def traces_account_test() -> TracesAccount:
    """Calls the echo service with the stored credentials and records the outcome: the catalogue's English
    message and its values (`traces_test_message` translates it for the reader), or the system's words."""
    account = traces_account_get()
    client = client_for(account)
    params: dict[str, str] = {}
    with translation.override("en"):
        try:
            status, variant, path = client.echo_with_variant()
            ok = True
            message = ECHO_ANSWERED_WSDL if variant == "wsdl" else ECHO_ANSWERED_REFERENCE
            params = {"status": str(status)[:200], "path": str(path)[:300]}
        except traces.TracesError as exc:
            ok, message = False, exc.describe()
    TracesAccount.objects.filter(pk=account.pk).update(
        last_test_at=timezone.now(),
        last_test_ok=ok,
        last_test_message=message[:1000],
        last_test_params=params,
    )
    account.refresh_from_db()
    return account


def traces_test_message(account: TracesAccount | None) -> str:
    """The stored test outcome in the reader's language: a catalogue message translates and takes its
    values; the EU system's own words (no entry in the catalogue) stay as they came."""
    if account is None or not account.last_test_message:
        return ""
    text = _(account.last_test_message)
    params = account.last_test_params or {}
    if not params:
        return text
    for template in (text, account.last_test_message):
        try:
            return template % params
        except (KeyError, TypeError, ValueError):
            continue
    return text


# -- requests from the API (they queue the work) ---------------------------------------------------------


def _event(submission: DdsSubmission, action: str, outcome: str, message: str = "", user=None) -> None:
    DdsSubmissionEvent.objects.create(
        submission=submission,
        action=action,
        outcome=outcome,
        status=submission.status,
        message=str(message)[:2000],
        user=user,
    )


def live_submission(delivery_id: int) -> DdsSubmission | None:
    return (
        DdsSubmission.objects.filter(delivery_id=delivery_id).exclude(status__in=DdsSubmission.FINAL).first()
    )


def filing_allowed_check(tenant: Tenant) -> TracesAccount:
    """The company files statements itself (since Regulation (EU) 2025/2650 only the operator who first
    places the goods does) and has complete TRACES credentials; answers the account."""
    if tenant.eudr_import_role != EudrImportRole.OPERATOR:
        raise DdsFilingNotAllowed(
            _(
                "The company does not file due diligence statements: its role for imports in Company "
                "settings is not operator."
            )
        )
    account = traces_account_get()
    if account is None or not account.is_complete:
        raise TracesAccountMissing()
    return account


@transaction.atomic
def dds_submission_request(*, delivery_id: int, user, queryset=None) -> DdsSubmission:
    """A new submission of the delivery's statement, queued. Refused while another one is live."""
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = queryset.select_for_update(of=("self",)).get(pk=delivery_id)
    account = filing_allowed_check(Tenant.objects.get(pk=delivery.tenant_id))
    live = live_submission(delivery.pk)
    if live is not None and live.pending_action == Action.SUBMIT and live.last_error:
        # The earlier submission got no answer: try it again (the task looks it up before filing again).
        _event(live, Action.SUBMIT, "queued", _("Retry after no answer."), user)
        return live
    if live is not None and not live.uuid and not live.pending_action:
        # Not accepted yet (e.g. the credentials were refused): the same statement is sent again; an
        # attempt that may have reached the system is looked up first.
        live.pending_action = Action.SUBMIT
        live.environment = account.environment
        live.save(update_fields=["pending_action", "environment", "updated_at"])
        _event(live, Action.SUBMIT, "queued", user=user)
        return live
    if live is not None:
        raise DdsFilingNotAllowed(
            _("This delivery's statement is already filed: amend it, or withdraw it first.")
        )
    from apps.eudr.filing_models import DdsCoveredCarton

    if DdsCoveredCarton.objects.filter(delivery=delivery, active=True).exists():
        # A carton is declared once: its import's statement declares it (docs/eudr.md).
        raise DdsFilingNotAllowed(
            _(
                "Cartons of this delivery are declared by the statement of the import that brought them: "
                "file statements on the inbound shipment instead."
            )
        )
    # A new statement: the upstream statement it groups must exist and be usable, as the system says now
    # (a retry of a live submission was checked when it was first queued).
    from apps.eudr.verification import ensure_upstream_usable

    ensure_upstream_usable(delivery=delivery)
    filing_gate_check(delivery=delivery)
    submission = DdsSubmission(delivery=delivery, environment=account.environment, created_by=user)
    submission.internal_reference = internal_reference(delivery, submission.key.hex[:8])
    submission.pending_action = Action.SUBMIT
    try:
        with transaction.atomic():
            submission.save()
    except IntegrityError as exc:  # a concurrent request won the race
        raise DdsFilingNotAllowed(
            _("This delivery's statement is already filed: amend it, or withdraw it first.")
        ) from exc
    _event(submission, Action.SUBMIT, "queued", user=user)
    return submission


def _within_window(submission: DdsSubmission) -> bool:
    return bool(submission.submitted_at and timezone.now() - submission.submitted_at <= AMEND_WINDOW)


@transaction.atomic
def dds_submission_action(
    *, action: str, user, delivery_id: int | None = None, submission_id: int | None = None
) -> DdsSubmission:
    """Queues amend / withdraw / refresh on the delivery's live submission, or on one statement around a
    placing (`submission_id`) (checked here, the system checks again)."""
    live = DdsSubmission.objects.select_for_update().exclude(status__in=DdsSubmission.FINAL)
    if submission_id is not None:
        submission = live.filter(pk=submission_id, delivery__isnull=True).first()
    else:
        submission = live.filter(delivery_id=delivery_id).first()
    if submission is None:
        raise DdsSubmissionMissing()
    if submission.pending_action:
        if submission.last_error and action == Action.REFRESH:
            # The pending action got no answer: run it again (it looks the statement up first).
            _event(submission, submission.pending_action, "queued", _("Retry after no answer."), user)
            return submission
        raise DdsFilingNotAllowed(_("The previous request to the EU information system is still under way."))
    if action in (Action.AMEND, Action.WITHDRAW):
        if not submission.uuid:
            raise DdsFilingNotAllowed(
                _("The statement is not accepted by the system yet: refresh its status.")
            )
        if not _within_window(submission):
            raise DdsFilingNotAllowed(
                _("The 72 hours in which the EU information system allows this have passed.")
            )
    if action == Action.REFRESH and not submission.uuid and submission.attempts == 0:
        raise DdsFilingNotAllowed(_("The statement has not been sent yet."))
    if action == Action.REFRESH and submission.uuid:
        status_not_due_check(submission)
    submission.pending_action = action
    submission.save(update_fields=["pending_action", "updated_at"])
    _event(submission, action, "queued", user=user)
    return submission


# -- the work (tasks.file_dds) ---------------------------------------------------------------------------


def _apply_overview(submission: DdsSubmission, overview: traces.DdsOverview) -> None:
    submission.uuid = overview.uuid or submission.uuid
    submission.reference_number = overview.reference_number or submission.reference_number
    submission.verification_number = overview.verification_number or submission.verification_number
    submission.system_status = overview.status or submission.system_status
    mapped = SYSTEM_STATUS.get((overview.status or "").upper())
    if mapped == Status.AVAILABLE and submission.amended_at:
        mapped = Status.AMENDED
    if mapped:
        submission.status = mapped
    reasons = [
        {"id": kind, "message": text, "field": ""}
        for kind, text in (
            ("rejectionReason", overview.rejection_reason),
            ("communication", overview.communication),
        )
        if text
    ]
    if reasons:
        submission.messages = reasons
    submission.checked_at = timezone.now()


def _record_on_delivery(submission: DdsSubmission) -> None:
    """The delivery's filed-statement numbers follow the product's statement (the public trace shows the
    reference number only); a withdrawn statement's numbers are removed. A statement around a placing
    is found through its cartons instead (placing.carton_statements)."""
    if submission.delivery_id is None:
        return
    delivery = RawMaterialDelivery.objects.select_for_update(of=("self",)).get(pk=submission.delivery_id)
    fields = ["dds_reference_number", "dds_verification_number", "dds_filed_at", "dds_filed_by", "updated_at"]
    if submission.status == Status.WITHDRAWN:
        if delivery.dds_reference_number == submission.reference_number:
            delivery.dds_reference_number = delivery.dds_verification_number = ""
            delivery.dds_filed_at = delivery.dds_filed_by = None
            delivery.save(update_fields=fields)
        return
    if submission.reference_number and submission.verification_number:
        delivery.dds_reference_number = submission.reference_number
        delivery.dds_verification_number = submission.verification_number
        delivery.dds_filed_at = submission.submitted_at or timezone.now()
        delivery.dds_filed_by = submission.created_by
        delivery.save(update_fields=fields)


def _request_of(submission: DdsSubmission) -> dict[str, Any]:
    if submission.delivery_id is None:
        from apps.eudr.placing import placing_request

        request, found = placing_request(submission)
        errors = [c for c in found if c.severity == "error"]
        if errors:
            raise DdsFilingNotAllowed(
                _("Required information is missing: %(problems)s")
                % {"problems": "; ".join(c.message for c in errors[:5])}
            )
        return request
    delivery = RawMaterialDelivery.objects.select_related("parent_vendor").get(pk=submission.delivery_id)
    _facts, found = check_delivery(delivery)
    errors = [c for c in found if c.severity == "error"]
    if errors:
        raise DdsFilingNotAllowed(
            _("Required information is missing: %(problems)s")
            % {"problems": "; ".join(c.message for c in errors)}
        )
    return build_request(load_facts(delivery), internal_reference_number=submission.internal_reference)


def begin_attempt(*, submission_id: int) -> int | None:
    """Counts the attempt; the caller commits it before the call (tasks.file_dds: its own tenant_context,
    so a crash during the call is remembered). Returns the attempts made before this one, or None when
    nothing is pending."""
    with transaction.atomic():
        submission = DdsSubmission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or not submission.pending_action:
            return None
        before = submission.attempts
        submission.attempts += 1
        submission.save(update_fields=["attempts", "updated_at"])
    return before


# A pending action untouched this long has lost its worker or its message (a TRACES call times out after
# EUDR_TRACES_TIMEOUT, 30 s; the task's own retries come a minute apart).
RECOVERY_AFTER = timedelta(minutes=5)
# Attempts the recovery makes on its own; then the submission waits for a person's retry (Submit or
# Refresh on the page), with the reason in `last_error`.
RECOVERY_MAX_ATTEMPTS = 8


def status_not_due_check(submission: DdsSubmission, *, now=None) -> None:
    """Refuses a status read before the submission's `status_due_at` (DdsStatusNotDue, 409, with the
    moment it may be tried in the message and in `data.status_due_at`)."""
    due = submission.status_due_at
    if due and (now or timezone.now()) < due:
        raise DdsStatusNotDue(
            _(
                "The EU information system's status is read no sooner than 30 minutes after a submit or "
                "amend: try again from %(when)s."
            )
            % {"when": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT")},
            data={"status_due_at": due.astimezone(UTC).isoformat().replace("+00:00", "Z")},
        )


def dds_statuses_due(*, now=None) -> list[int]:
    """Queues a status read on the tenant's submissions whose `status_due_at` has come (call inside the
    tenant; the beat task `eudr.read_due_statuses` runs it in every tenant and hands the ids to
    `eudr.file_dds`). Returns the ids."""
    now = now or timezone.now()
    queued: list[int] = []
    with transaction.atomic():
        due = (
            DdsSubmission.objects.select_for_update(skip_locked=True)
            .filter(status_due_at__lte=now, pending_action="")
            .exclude(uuid="")
            .exclude(status__in=DdsSubmission.FINAL)
            .order_by("status_due_at", "pk")
        )
        for submission in due:
            submission.pending_action = Action.REFRESH
            submission.save(update_fields=["pending_action", "updated_at"])
            _event(submission, Action.REFRESH, "queued", _("Scheduled status read."))
            queued.append(submission.pk)
    return queued


def dds_submissions_recover(*, now=None) -> dict[str, list[int]]:
    """Moves on the tenant's submissions left pending by a dead worker or a lost message (call inside
    the tenant; the beat task `eudr.recover_filings` runs it in every tenant).

    Each one untouched for RECOVERY_AFTER is either handed to a worker again ("requeue": the task looks
    the statement up by its internal reference before filing it, so an attempt that reached the system
    is adopted, never filed twice) or, after RECOVERY_MAX_ATTEMPTS attempts, left for a person ("person":
    the pending action is cleared and `last_error` says so; Submit, Refresh, Amend or Withdraw on the page
    start it again, and a new submit looks the statement up first). Returns both lists of ids.
    """
    now = now or timezone.now()
    found: dict[str, list[int]] = {"requeue": [], "person": []}
    with transaction.atomic():
        stalled = (
            DdsSubmission.objects.select_for_update(skip_locked=True)
            .exclude(pending_action="")
            .filter(updated_at__lt=now - RECOVERY_AFTER)
            .order_by("pk")
        )
        for submission in stalled:
            if submission.attempts < RECOVERY_MAX_ATTEMPTS:
                found["requeue"].append(submission.pk)
                _event(submission, submission.pending_action, "queued", _("Picked up again after no answer."))
            else:
                found["person"].append(submission.pk)
                action = submission.pending_action
                submission.pending_action = ""
                submission.last_error = str(
                    _(
                        "No answer after %(attempts)s attempts: check the connection, then retry from this "
                        "page."
                    )
                    % {"attempts": submission.attempts}
                )
                _event(submission, action, "unknown", submission.last_error)
            # Touched, so the next sweep waits RECOVERY_AFTER again before it looks at the row.
            submission.save(update_fields=["pending_action", "last_error", "updated_at"])
    return found


def file_dds_work(*, submission_id: int, attempted_before: int, user=None) -> DdsSubmission | None:
    """Carries out the submission's pending action (call inside the tenant, after begin_attempt).
    Idempotent: running it twice, or after a crash, never files the statement twice. Raises
    TracesUnavailable when the system did not answer (the action stays pending, for a retry)."""
    before = attempted_before
    unanswered: traces.TracesError | None = None
    with transaction.atomic():
        submission = DdsSubmission.objects.select_for_update().get(pk=submission_id)
        action = submission.pending_action
        if not action:
            return submission  # another worker finished it while this one waited for the lock
        try:
            client = client_for(traces_account_get())
            _carry_out(submission, action, client, attempted_before=before)
        except traces.TracesError as exc:
            if exc.outcome_unknown:
                # No answer: the action stays pending; a retry (the task's or the user's) looks it up first.
                submission.last_error = exc.describe()
                submission.save(update_fields=["last_error", "uuid", "status", "updated_at"])
                _event(submission, action, "unknown", exc.describe(), user)
                unanswered = exc
            else:
                submission.messages = exc.messages or [
                    {"id": exc.error, "message": str(exc.message), "field": ""}
                ]
                submission.last_error = exc.describe()
                if (
                    action == Action.SUBMIT
                    and not submission.uuid
                    and exc.error != "traces_authentication_failed"
                ):
                    submission.status = Status.REJECTED
                submission.pending_action = ""
                submission.save()
                coverage_release(submission)
                _event(submission, action, "refused", exc.describe(), user)
        except DomainError as exc:
            submission.last_error = str(exc.message)
            submission.messages = [{"id": exc.error, "message": str(exc.message), "field": ""}]
            if action == Action.SUBMIT and not submission.uuid:
                submission.status = Status.REJECTED
            submission.pending_action = ""
            submission.save()
            coverage_release(submission)
            _event(submission, action, "refused", str(exc.message), user)
        else:
            submission.pending_action = ""
            submission.last_error = ""
            submission.save()
            _record_on_delivery(submission)
            coverage_release(submission)
            _event(submission, action, "ok", "", user)
    if unanswered is not None:
        raise unanswered
    return submission


def _carry_out(
    submission: DdsSubmission, action: str, client: traces.TracesClient, *, attempted_before: int
) -> None:
    now = timezone.now()
    if action == Action.SUBMIT:
        if not submission.uuid and attempted_before:
            # An earlier attempt may have reached the system: look for it before filing again.
            for overview in client.get_dds_by_internal_reference(submission.internal_reference):
                if overview.internal_reference in ("", submission.internal_reference):
                    _apply_overview(submission, overview)
                    submission.submitted_at = submission.submitted_at or now
                    break
        if not submission.uuid:
            request = _request_of(submission)
            element = dds_xml.submit_request(request)
            problems = dds_xml.validate_request(element)
            if problems:
                raise DdsFilingNotAllowed(
                    _("The statement does not match the EU information system's format (%(problem)s).")
                    % {"problem": problems[0]}
                )
            submission.uuid = client.submit_dds(element)
            submission.status = Status.SUBMITTED
            submission.system_status = "SUBMITTED"
            submission.submitted_at = now
            submission.messages = []
        if submission.status == Status.SUBMITTED:
            # Its status is read by the scheduled task, no sooner than STATUS_WAIT after the submit.
            submission.status_due_at = now + STATUS_WAIT
    elif action == Action.AMEND:
        if not _within_window(submission):
            raise DdsFilingNotAllowed(
                _("The 72 hours in which the EU information system allows this have passed.")
            )
        request = _request_of(submission)
        element = dds_xml.amend_request(uuid=submission.uuid, statement=request["statement"])
        _uuid, status = client.amend_dds(element)
        submission.amended_at = now
        submission.system_status = status or submission.system_status
        submission.status = (
            Status.AMENDED
            if (status or "AVAILABLE").upper() in ("AVAILABLE", "SUBMITTED")
            else SYSTEM_STATUS.get(status.upper(), submission.status)
        )
        submission.messages = []
        submission.status_due_at = now + STATUS_WAIT
    elif action == Action.WITHDRAW:
        if not _within_window(submission):
            raise DdsFilingNotAllowed(
                _("The 72 hours in which the EU information system allows this have passed.")
            )
        _uuid, status = client.withdraw_dds(submission.uuid)
        submission.system_status = status or "WITHDRAWN"
        submission.status = SYSTEM_STATUS.get(submission.system_status.upper(), Status.WITHDRAWN)
        submission.withdrawn_at = now
    elif action == Action.REFRESH:
        if not submission.uuid:
            found = client.get_dds_by_internal_reference(submission.internal_reference)
            if found:
                _apply_overview(submission, found[0])
                submission.submitted_at = submission.submitted_at or now
            else:
                submission.status = Status.REJECTED
                submission.messages = [
                    {
                        "id": "not_found",
                        "message": _("The EU information system has no such statement."),
                        "field": "",
                    }
                ]
            return
        overviews = client.get_dds(submission.uuid)
        if overviews:
            _apply_overview(submission, overviews[0])
        processing = not overviews or (submission.system_status or "").upper() == "SUBMITTED"
        submission.status_due_at = now + STATUS_RECHECK if processing else None
