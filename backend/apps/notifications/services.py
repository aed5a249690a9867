"""E-mail writes: messages for an event occurrence, delivery over SMTP, preview, test, resend, settings.

- `messages_for_event` (after the business transaction committed): loads the record, builds the event's
  variables once, and for every enabled scenario whose conditions hold resolves the recipients and makes
  one message per address, rendered in that recipient's language (or the scenario's fixed one), with
  the attachments kept byte for byte (SHA-256). A dedupe key (scenario, event, record, occurrence,
  address) is unique per tenant: the same occurrence never sends the same scenario twice to the same
  address, whatever retries or duplicate calls happen.
- `message_deliver` is one attempt of one message (the Celery task calls it): temporary failures (4xx,
  connection errors) are retried by the task with backoff, 3 tries in all; permanent ones (5xx,
  authentication) fail at once. The MIME message is built once, and exactly those bytes are sent and
  kept (`raw`, `raw_sha256`).
"""

from __future__ import annotations

import hashlib
import logging
import smtplib
import socket
import ssl
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from email.utils import make_msgid
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.translation import gettext as _

from apps.common import outbound
from apps.common.secrets import SecretUnreadable, readable
from apps.tenancy.context import tenant_context

from . import events as registry
from .addresses import mailbox
from .errors import EventUnavailable, NoEmail, NoRecord, NotResendable, NotRetryable, TemplateInUse
from .models import EmailAttachment, EmailMessage, EmailScenario, EmailTemplate, SmtpSettings
from .outbox import OutboxBackend
from .rendering import RenderError, conditions_hold, render
from .smtp import GuardedTrackingSmtpBackend

logger = logging.getLogger(__name__)

# Tries of a message through a worker (about 16 hours: retry_delay) and inline (the embedded default,
# without beat: one after the other).
MAX_TRIES = 10
INLINE_TRIES = 3
RETRY_DELAYS = [timedelta(minutes=m) for m in (1, 4, 15, 30, 60, 120, 240)]
# The recovery sweep (messages_recover): a queued message is its worker's for QUEUE_GRACE after it was
# made or due; a message handed by the sweep is not handed again for SWEEP_LEASE; "sending" longer than
# SENDING_STALE (far beyond any SMTP timeout) means its worker died.
QUEUE_GRACE = timedelta(minutes=2)
SWEEP_LEASE = timedelta(minutes=5)
SENDING_STALE = timedelta(minutes=15)
MAX_RECIPIENTS_PER_SCENARIO = 200


# -- templates ---------------------------------------------------------------------------------------


@transaction.atomic
def template_delete(*, template: EmailTemplate) -> None:
    """Deletes a template no scenario uses; scenarios refer to their template, so one in use is refused."""
    if template.scenarios.exists():
        raise TemplateInUse()
    template.delete()


# -- rendering one template for one record ---------------------------------------------------------------


@dataclass
class Rendered:
    subject: str
    body_text: str
    body_html: str
    language: str


def _pick(template: EmailTemplate, part: str, language: str) -> str:
    """The template part in `language`, else in the other language (a template written in one only)."""
    other = "zh" if language == "en" else "en"
    return getattr(template, f"{part}_{language}") or getattr(template, f"{part}_{other}")


def render_template(template: EmailTemplate, context: dict[str, Any], language: str) -> Rendered:
    context = registry.days_as_read(context, language)
    subject = " ".join(render(_pick(template, "subject", language), context).split())[:998]
    html = render(_pick(template, "body_html", language), context, html=True)
    text = render(_pick(template, "body_text", language), context)
    if not text and html:
        text = strip_tags(html).strip()
    return Rendered(subject=subject, body_text=text, body_html=html, language=language)


def _sha256(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\x00")
    return digest.hexdigest()


# -- recipients -------------------------------------------------------------------------------------------


def resolve_recipients(scenario: EmailScenario, event: registry.Event, record) -> list[registry.Recipient]:
    """Every address the scenario names for this record, each once (first occurrence wins)."""
    found: list[registry.Recipient] = []
    specs = scenario.recipients or []
    suppliers = _supplier_addresses([s["address"] for s in specs if s.get("type") == "address"])
    for spec in specs:
        kind = spec.get("type")
        if kind == "contact":
            found += registry.contacts(event, record, spec.get("role", ""), spec.get("match", "") or "")
        elif kind == "address":
            audience = (
                registry.SUPPLIER if spec["address"].strip().lower() in suppliers else registry.INTERNAL
            )
            found.append(registry.Recipient(spec["address"], "", spec.get("language") or "en", audience))
        elif kind == "role":
            found += registry.user_recipients(
                registry.tenant_users(is_supplier=False, memberships__roles=spec.get("role"))
            )
        elif kind == "department":
            found += registry.user_recipients(
                registry.tenant_users(is_supplier=False, memberships__department=spec.get("department"))
            )
    unique: dict[str, registry.Recipient] = {}
    for recipient in found:
        unique.setdefault(recipient.email.strip().lower(), recipient)
    return list(unique.values())[:MAX_RECIPIENTS_PER_SCENARIO]


def _supplier_addresses(addresses: list[str]) -> set[str]:
    """The fixed addresses that belong to supplier portal users of this company (lower case): their
    links go to the supplier portal. One query, none without fixed addresses."""
    if not addresses:
        return set()
    return set(
        registry.tenant_users(is_supplier=True)
        .annotate(email_lower=Lower("email"))
        .filter(email_lower__in=[a.strip().lower() for a in addresses])
        .values_list("email_lower", flat=True)
    )


# -- making messages ---------------------------------------------------------------------------------------


def _message_id() -> str:
    domain = (settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "cartontrace.local").strip(">").strip()
    return make_msgid(domain=domain or "cartontrace.local")


def _store_attachments(message: EmailMessage, attachments: list[registry.Attachment]) -> None:
    for item in attachments:
        row = EmailAttachment(
            message=message,
            file_name=item.file_name,
            content_type=item.content_type,
            size=len(item.content),
            sha256=hashlib.sha256(item.content).hexdigest(),
        )
        row.file.save(item.file_name, ContentFile(item.content), save=False)
        row.save()


def _new_message(
    *,
    scenario: EmailScenario | None,
    event: registry.Event,
    record,
    recipient: registry.Recipient,
    rendered: Rendered | None,
    error: str = "",
    attachments: Sequence[registry.Attachment] = (),
    dedupe_key: str | None = None,
    delay_minutes: int = 0,
    is_test: bool = False,
    user=None,
) -> EmailMessage | None:
    """Stores one message (queued, or failed with `error`). None when the dedupe key is already taken."""
    to = mailbox(recipient.name, recipient.email)
    fields = {
        "scenario": scenario,
        "event": event.name,
        "content_type": ContentType.objects.get_for_model(type(record)),
        "object_id": record.pk,
        "record_label": str(event.record_label(record))[:200],
        "record_url": event.record_url(record)[:300],
        "to": [to],
        "language": rendered.language if rendered else recipient.language,
        "message_id": _message_id(),
        "dedupe_key": dedupe_key,
        "is_test": is_test,
        "requested_by": user,
        "send_after": timezone.now() + timedelta(minutes=delay_minutes),
    }
    if rendered is not None and not error:
        fields.update(subject=rendered.subject, body_text=rendered.body_text, body_html=rendered.body_html)
        fields["body_sha256"] = _sha256(rendered.subject, rendered.body_text, rendered.body_html)
    else:
        fields.update(
            subject=(rendered.subject if rendered else "") or str(event.label),
            status=EmailMessage.Status.FAILED,
            last_error=error[:2000],
        )
    try:
        with transaction.atomic():
            message = EmailMessage.objects.create(**fields)
    except IntegrityError:  # the same occurrence is already on its way to this address
        return None
    if not error:
        _store_attachments(message, list(attachments))
    return message


def _dedupe_key(scenario: EmailScenario, event: str, record, key: str, address: str) -> str:
    label = record._meta.label_lower
    return _sha256(str(scenario.pk), event, label, str(record.pk), key, address.strip().lower())


def messages_for_event(
    *, event_name: str, record_pk: int, key: str = "", extra: dict | None = None, scenario_ids=None
) -> list[EmailMessage]:
    """The queued messages of one event occurrence (in the current tenant). See the module docstring."""
    event = registry.get_event(event_name)
    if event is None:
        return []
    record = registry.load_record(event, record_pk)
    if record is None:
        return []
    scenarios = EmailScenario.objects.filter(event=event_name, enabled=True).select_related("template")
    if scenario_ids is not None:
        scenarios = scenarios.filter(pk__in=scenario_ids)
    context = registry.build_context(event, record, extra)
    made: list[EmailMessage] = []
    for scenario in scenarios.order_by("pk"):
        if not conditions_hold(scenario.conditions, context):
            continue
        recipients = resolve_recipients(scenario, event, record)
        if not recipients:
            continue
        attachments: list[registry.Attachment] = []
        error = ""
        for attachment_key in scenario.attachments or []:
            try:
                attachments.append(registry.attachment(event, record, attachment_key, extra))
            except registry.AttachmentUnavailable as exc:
                error = _("The attachment %(name)s is not available: %(reason)s") % {
                    "name": attachment_key,
                    "reason": exc,
                }
        cache: dict[tuple[str, str], Rendered | str] = {}
        for recipient in recipients:
            language = recipient.language if scenario.language == "recipient" else scenario.language
            language = language if language in ("en", "zh") else "en"
            variant = (language, recipient.audience)
            if variant not in cache:
                seen = registry.context_for(event, record, context, recipient.audience)
                try:
                    cache[variant] = render_template(scenario.template, seen, language)
                except RenderError as exc:
                    cache[variant] = _("The template could not be rendered: %(error)s") % {"error": exc}
            rendered = cache[variant]
            message = _new_message(
                scenario=scenario,
                event=event,
                record=record,
                recipient=recipient,
                rendered=rendered if isinstance(rendered, Rendered) else None,
                error=error or (rendered if isinstance(rendered, str) else ""),
                attachments=attachments,
                dedupe_key=_dedupe_key(scenario, event_name, record, key, recipient.email),
                delay_minutes=scenario.delay_minutes,
            )
            if message is not None:
                made.append(message)
    return made


# -- delivering --------------------------------------------------------------------------------------------


class _FrozenEmail(EmailMultiAlternatives):
    """Builds its MIME message once, so the bytes kept in the log are the bytes the server received."""

    _frozen = None

    def message(self, *args, **kwargs):
        if self._frozen is None:
            self._frozen = super().message(*args, **kwargs)
        return self._frozen


@dataclass
class Transport:
    connection: Any
    kind: str
    from_email: str
    reply_to: str


def smtp_backend(config: SmtpSettings) -> GuardedTrackingSmtpBackend:
    """The company's own server, through the outbound client (apps/common/outbound.py): its host is a
    tenant's address, so only public addresses, a bounded timeout and a rate per company."""
    return GuardedTrackingSmtpBackend(
        host=config.host,
        port=config.port,
        username=config.username or None,
        password=readable(config.password) or None,
        use_tls=config.security == SmtpSettings.Security.STARTTLS,
        use_ssl=config.security == SmtpSettings.Security.SSL,
        timeout=config.timeout,
        fail_silently=False,
    )


def transport(*, local_outbox: bool = False) -> Transport:
    """The tenant's own server when it has one enabled, else the installation's (EMAIL_BACKEND);
    `local_outbox` (the demo's messages) always the local outbox: nothing leaves the machine."""
    if local_outbox:
        return Transport(
            OutboxBackend(fail_silently=False),
            EmailMessage.Transport.OUTBOX,
            settings.DEFAULT_FROM_EMAIL,
            "",
        )
    config = SmtpSettings.objects.filter(enabled=True).first()
    if config is not None:
        sender = mailbox(config.from_name, config.from_email)
        return Transport(smtp_backend(config), EmailMessage.Transport.TENANT_SMTP, sender, config.reply_to)
    connection = get_connection(fail_silently=False)
    kind = (
        EmailMessage.Transport.OUTBOX
        if isinstance(connection, OutboxBackend)
        else EmailMessage.Transport.SMTP
    )
    return Transport(connection, kind, settings.DEFAULT_FROM_EMAIL, "")


def _is_temporary(exc: BaseException) -> bool:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(exc, smtplib.SMTPConnectError):
        return True
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return False
    return isinstance(exc, (smtplib.SMTPServerDisconnected, socket.timeout, ConnectionError, OSError))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        text = (
            exc.smtp_error.decode(errors="replace")
            if isinstance(exc.smtp_error, bytes)
            else str(exc.smtp_error)
        )
        return f"{exc.smtp_code} {text}"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(
            f"{address}: {code} {msg.decode(errors='replace') if isinstance(msg, bytes) else msg}"
            for address, (code, msg) in exc.recipients.items()
        )
    return f"{type(exc).__name__}: {exc}"


def build_email(message: EmailMessage, route: Transport) -> _FrozenEmail:
    email = _FrozenEmail(
        subject=message.subject,
        body=message.body_text,
        from_email=route.from_email,
        to=list(message.to),
        reply_to=[route.reply_to] if route.reply_to else None,
        headers={"Message-ID": message.message_id},
        connection=route.connection,
    )
    if message.body_html:
        email.attach_alternative(message.body_html, "text/html")
    for item in message.attachments.all():
        with item.file.open("rb") as handle:
            email.attach(item.file_name, handle.read(), item.content_type)
    return email


def retry_delay(attempts: int) -> timedelta:
    """The wait after the `attempts`-th temporary failure: 1, 4, 15, 30 minutes, 1, 2 hours, then every 4
    hours; with MAX_TRIES the tries span about 16 hours, so an SMTP outage of an afternoon loses nothing."""
    return RETRY_DELAYS[min(max(attempts, 1), len(RETRY_DELAYS)) - 1]


def message_deliver(
    *, tenant_id: int, message_id: int, local_outbox: bool = False, max_tries: int | None = None
) -> str:
    """One delivery attempt. Returns "sent", "retry" (temporary failure, tries left: `next_attempt_at`
    says when), "uncertain" (the server took the content but never answered), "failed" or "skip".

    Exactly once: (1) the message is committed as "sending" before the SMTP conversation, so a second
    worker skips it and a worker that dies during the conversation leaves a row the recovery sweep marks
    "maybe sent" (never resent on its own); (2) the conversation runs outside any database transaction
    (a database lost meanwhile cannot undo the record of a send that happened); (3) the outcome is
    committed after it. The Message-ID is the message's own, the same on every try."""
    max_tries = max_tries or MAX_TRIES
    with transaction.atomic(), tenant_context(tenant_id):
        message = EmailMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None or message.status != EmailMessage.Status.QUEUED:
            return "skip"
        message.attempts += 1
        message.status = EmailMessage.Status.SENDING
        message.attempted_at = timezone.now()
        message.next_attempt_at = None
        error, email, route = "", None, None
        try:
            route = transport(local_outbox=local_outbox)
            message.transport = route.kind
            message.from_email = route.from_email[:400]
            message.reply_to = route.reply_to
            email = build_email(message, route)
        except SecretUnreadable as exc:
            error = f"SMTP password: {exc}"
        message.save()
    outcome = "failed" if email is None else "sent"
    if email is not None:
        assert route is not None  # built with the e-mail
        try:
            route.connection.send_messages([email])
        except Exception as exc:
            error = _describe(exc)
            if getattr(route.connection, "content_sent", False) and not isinstance(
                exc, smtplib.SMTPResponseException
            ):
                # The content went out and no answer came back (a timeout, a dropped connection): the
                # server may be delivering it. An answer (4xx/5xx) would be a definite "not taken".
                outcome = "uncertain"
            elif _is_temporary(exc) and message.attempts < max_tries:
                outcome = "retry"
            else:
                outcome = "failed"
            if not isinstance(exc, (smtplib.SMTPException, OSError)):
                logger.exception("E-mail %s could not be sent", message_id)
    with transaction.atomic(), tenant_context(tenant_id):
        message = EmailMessage.objects.select_for_update().get(pk=message_id)
        if outcome == "sent" and email is not None:
            raw = email.message().as_bytes(linesep="\r\n")
            message.raw.save(f"{message.pk}.eml", ContentFile(raw), save=False)
            message.raw_sha256 = hashlib.sha256(raw).hexdigest()
            message.status = EmailMessage.Status.SENT
            message.sent_at = timezone.now()
            message.last_error = ""
        else:
            message.last_error = error[:2000]
            message.status = {
                "retry": EmailMessage.Status.QUEUED,
                "uncertain": EmailMessage.Status.UNCERTAIN,
            }.get(outcome, EmailMessage.Status.FAILED)
            if outcome == "retry":
                message.next_attempt_at = timezone.now() + retry_delay(message.attempts)
        message.save()
    return outcome


def messages_recover(*, now=None) -> dict[str, int]:
    """The tenant's messages a worker should have moved on (call inside the tenant; the beat task
    `notifications.sweep_queued` runs it every minute in every tenant):

    - queued and due (a retry whose backoff has passed, a message whose broker message was lost): handed
      to a worker again, with a lease of SWEEP_LEASE before the sweep hands it again;
    - "sending" for longer than SENDING_STALE (its worker died during the SMTP conversation): "maybe
      sent", for a person to check and resend; never sent again on its own.
    Returns {"requeue": [ids], "uncertain": count}."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            EmailMessage.objects.select_for_update(skip_locked=True)
            .filter(status=EmailMessage.Status.QUEUED)
            .filter(
                # a retry (or a message the sweep handed before) whose time has come
                Q(next_attempt_at__lte=now)
                # never tried, and its own task should have taken it by now
                | Q(
                    next_attempt_at__isnull=True,
                    created_at__lte=now - QUEUE_GRACE,
                )
                & (Q(send_after__isnull=True) | Q(send_after__lte=now - QUEUE_GRACE))
            )
            .order_by("pk")
            .values_list("pk", flat=True)[:500]
        )
        EmailMessage.objects.filter(pk__in=due).update(next_attempt_at=now + SWEEP_LEASE)
        uncertain = EmailMessage.objects.filter(
            status=EmailMessage.Status.SENDING, attempted_at__lt=now - SENDING_STALE
        ).update(
            status=EmailMessage.Status.UNCERTAIN,
            last_error=str(_("The worker stopped during the SMTP conversation: check before resending.")),
        )
    return {"requeue": due, "uncertain": uncertain}


# Failed and maybe-sent messages listed by the health answer, newest first.
HEALTH_ATTENTION_LIMIT = 20


def messages_health() -> dict[str, Any]:
    """What an operator watches (inside the tenant): messages by status, failures in the last day, the
    oldest message still waiting, and the newest failed or maybe-sent messages (for Retry)."""
    counts = dict(
        EmailMessage.objects.values_list("status").annotate(n=Count("pk")).values_list("status", "n")
    )
    since = timezone.now() - timedelta(days=1)
    oldest = EmailMessage.objects.filter(status=EmailMessage.Status.QUEUED).order_by("created_at").first()
    return {
        "by_status": {status: counts.get(status, 0) for status in EmailMessage.Status.values},
        "failed_last_day": EmailMessage.objects.filter(
            status__in=[EmailMessage.Status.FAILED, EmailMessage.Status.UNCERTAIN], attempted_at__gte=since
        ).count(),
        "retrying": EmailMessage.objects.filter(status=EmailMessage.Status.QUEUED, attempts__gt=0).count(),
        "oldest_waiting_since": oldest.created_at if oldest else None,
        "attention_total": counts.get(EmailMessage.Status.FAILED, 0)
        + counts.get(EmailMessage.Status.UNCERTAIN, 0),
        "attention": list(
            EmailMessage.objects.select_related("scenario")
            .filter(status__in=[EmailMessage.Status.FAILED, EmailMessage.Status.UNCERTAIN])
            .order_by("-attempted_at", "-id")[:HEALTH_ATTENTION_LIMIT]
        ),
    }


# -- actions ---------------------------------------------------------------------------------------------


def preview(
    *, event_name: str, template: EmailTemplate, record_pk: int | None, language: str, scenario=None
) -> dict[str, Any]:
    """The template rendered against a real record of the tenant (the latest one without `record_pk`),
    with the recipients and whether the scenario's conditions hold for it."""
    event = registry.get_event(event_name)
    if event is None or not event.available:
        raise EventUnavailable()
    record = registry.load_record(event, record_pk) if record_pk else None
    if record is None:
        candidates = registry.demo_records(event, limit=1)
        if record_pk or not candidates:
            raise NoRecord()
        record = candidates[0]
    context = registry.build_context(event, record, {})
    result: dict[str, Any] = {
        "record": {
            "id": record.pk,
            "label": str(event.record_label(record)),
            "url": event.record_url(record),
        },
        "language": language,
        "subject": "",
        "body_html": "",
        "body_text": "",
        "error": "",
        "variables": context,
        "conditions_hold": None,
        "recipients": [],
    }
    try:
        rendered = render_template(template, context, language)
        result.update(subject=rendered.subject, body_html=rendered.body_html, body_text=rendered.body_text)
    except RenderError as exc:
        result["error"] = str(exc)
    if scenario is not None:
        result["conditions_hold"] = conditions_hold(scenario.conditions, context)
        result["recipients"] = [
            {"email": r.email, "name": r.name, "language": r.language}
            for r in resolve_recipients(scenario, event, record)
        ]
    return result


@transaction.atomic
def send_test(*, scenario: EmailScenario, record_pk: int | None, language: str, user) -> EmailMessage:
    """The scenario's message for a real record, sent to the requesting user only (marked as a test)."""
    if not user.email:
        raise NoEmail()
    event = registry.get_event(scenario.event)
    if event is None or not event.available:
        raise EventUnavailable()
    record = registry.load_record(event, record_pk) if record_pk else None
    if record is None:
        candidates = registry.demo_records(event, limit=1)
        if record_pk or not candidates:
            raise NoRecord()
        record = candidates[0]
    context = registry.build_context(event, record, {})
    error = ""
    rendered = None
    try:
        rendered = render_template(scenario.template, context, language)
    except RenderError as exc:
        error = _("The template could not be rendered: %(error)s") % {"error": exc}
    attachments = []
    for key in scenario.attachments or []:
        try:
            attachments.append(registry.attachment(event, record, key, {}))
        except registry.AttachmentUnavailable:
            continue  # a test shows the text; an attachment the record lacks is left out
    recipient = registry.Recipient(user.email, registry.user_name(user), language)
    message = _new_message(
        scenario=scenario,
        event=event,
        record=record,
        recipient=recipient,
        rendered=rendered,
        error=error,
        attachments=attachments,
        is_test=True,
        user=user,
    )
    assert message is not None  # a test message has no dedupe key, so it is always stored
    queue_after_commit([message])
    return message


def message_compose(
    *,
    event_name: str,
    record,
    recipients: Sequence[registry.Recipient],
    subject: str,
    body_text: str,
    attachments: Sequence[registry.Attachment] = (),
    user=None,
) -> list[EmailMessage]:
    """Messages a person sends from a record's page (no scenario): one per recipient, with the given text
    and attachments, queued after the transaction commits and delivered, logged and retried like every
    other message. `event_name` is the name the log shows; the record's label and link come from the
    event family of `family_event` (the declared event of the same record type)."""
    family_event = registry.get_event(event_name) or registry.get_event(_FAMILY_EVENTS.get(event_name, ""))
    if family_event is None:
        raise EventUnavailable()
    event = replace(family_event, name=event_name)
    made = []
    for recipient in recipients:
        rendered = Rendered(
            subject=subject,
            body_text=body_text,
            body_html="",
            language=recipient.language,
        )
        message = _new_message(
            scenario=None,
            event=event,
            record=record,
            recipient=recipient,
            rendered=rendered,
            attachments=attachments,
            user=user,
        )
        if message is not None:
            made.append(message)
    queue_after_commit(made)
    return made


# Messages sent by hand whose name is not a declared event: the declared event of the same record type
_FAMILY_EVENTS = {"invoice.sent": "invoice.posted"}


@transaction.atomic
def message_resend(*, message: EmailMessage, user) -> EmailMessage:
    """A copy of a sent or failed message (same recipients, subject, bodies and attachment files) with a
    new Message-ID, queued now."""
    if message.status in (EmailMessage.Status.QUEUED, EmailMessage.Status.SENDING) or not message.subject:
        raise NotResendable()
    copy = EmailMessage.objects.create(
        scenario=message.scenario,
        event=message.event,
        content_type=message.content_type,
        object_id=message.object_id,
        record_label=message.record_label,
        record_url=message.record_url,
        to=message.to,
        subject=message.subject,
        body_text=message.body_text,
        body_html=message.body_html,
        body_sha256=message.body_sha256,
        language=message.language,
        message_id=_message_id(),
        is_test=message.is_test,
        resent_from=message,
        requested_by=user,
        send_after=timezone.now(),
    )
    EmailAttachment.objects.bulk_create(
        [
            EmailAttachment(
                message=copy,
                file_name=a.file_name,
                content_type=a.content_type,
                size=a.size,
                sha256=a.sha256,
                file=a.file.name,
            )
            for a in message.attachments.all()
        ]
    )
    queue_after_commit([copy])
    return copy


@transaction.atomic
def message_retry(*, message_id: int) -> EmailMessage:
    """A failed or maybe-sent message queued again: the same row, recipients, content and Message-ID
    (a receiver that got a maybe-sent message already can tell the two apart), one more try.

    Exactly once: the row is locked (select_for_update) and must still be failed or maybe sent, so two
    clicks or two operators queue it once (the second gets NotRetryable). `next_attempt_at` is the
    sweep's lease: should the task's broker message be lost, `messages_recover` hands it on after
    QUEUE_GRACE. The tries already made stay counted (`attempts`), so a temporary failure on this try
    fails it again instead of starting the hours-long backoff over."""
    message = EmailMessage.objects.select_for_update().get(pk=message_id)
    if (
        message.status not in (EmailMessage.Status.FAILED, EmailMessage.Status.UNCERTAIN)
        or not message.subject
    ):
        raise NotRetryable()
    now = timezone.now()
    message.status = EmailMessage.Status.QUEUED
    message.send_after = now
    message.next_attempt_at = now + QUEUE_GRACE
    message.save(update_fields=["status", "send_after", "next_attempt_at"])
    queue_after_commit([message])
    return message


def queue_after_commit(messages: list[EmailMessage]) -> None:
    """Hands the queued messages to Celery once the transaction that made them has committed."""
    pending = [(m.tenant_id, m.pk, m.send_after) for m in messages if m.status == EmailMessage.Status.QUEUED]
    if pending:
        transaction.on_commit(lambda: queue(pending))


def queue(pending: list[tuple[int, int, Any]]) -> None:
    from .tasks import send_message

    now = timezone.now()
    for tenant_id, message_id, send_after in pending:
        countdown = max(int((send_after - now).total_seconds()), 0) if send_after else 0
        kwargs = {"tenant_id": tenant_id, "message_id": message_id}
        try:
            if send_message.app.conf.task_always_eager:
                # inline (the embedded default): the tries follow each other without the backoff; a
                # failure is recorded on the message, never raised into the request that committed
                for _attempt in range(INLINE_TRIES):
                    if (
                        message_deliver(tenant_id=tenant_id, message_id=message_id, max_tries=INLINE_TRIES)
                        != "retry"
                    ):
                        break
            else:
                send_message.apply_async(kwargs=kwargs, countdown=countdown)
        except Exception:
            logger.exception("E-mail %s could not be queued", message_id)


# -- SMTP settings ---------------------------------------------------------------------------------------


SMTP_FIELDS = (
    "enabled",
    "host",
    "port",
    "security",
    "username",
    "from_email",
    "from_name",
    "reply_to",
    "timeout",
)


@transaction.atomic
def smtp_settings_save(*, data: dict[str, Any]) -> SmtpSettings:
    """Creates or changes the tenant's SMTP settings. A password left out keeps the stored one; an empty
    string with `clear_password` removes it."""
    config = SmtpSettings.objects.select_for_update().first() or SmtpSettings()
    for name in SMTP_FIELDS:
        if name in data:
            setattr(config, name, data[name])
    if data.get("password"):
        config.password = data["password"]
    elif data.get("clear_password"):
        config.password = ""
    config.save()
    return config


@transaction.atomic
def smtp_settings_delete() -> None:
    SmtpSettings.objects.all().delete()


def smtp_test_failure(exc: BaseException) -> str:
    """A fixed message for a failed connection test: what went wrong and the reply-code class, never the
    server's own words (the host is the tenant's: a banner or a reply could be any service's)."""
    if isinstance(exc, outbound.OutboundRefused):
        return exc.message
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return _("The server refused the user name or password (reply %(class)s).") % {
            "class": outbound.status_class(exc.smtp_code)
        }
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return _("The server does not offer the chosen security (STARTTLS) or login.")
    if isinstance(exc, smtplib.SMTPResponseException):
        if not 200 <= exc.smtp_code < 600:
            return _("The address did not answer like an SMTP server.")
        return _("The server refused the connection (reply %(class)s).") % {
            "class": outbound.status_class(exc.smtp_code)
        }
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return _("The server closed the connection.")
    if isinstance(exc, ssl.SSLError):
        return _("The secure connection (TLS) failed.")
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return _("The server did not answer in time.")
    if isinstance(exc, OSError):
        return _("The server could not be reached.")
    return _("The address did not answer like an SMTP server.")


def smtp_test(*, config: SmtpSettings) -> dict[str, Any]:
    """Opens a connection (TLS and login as configured) and closes it: {"ok", "message"}; failures in
    fixed messages (`smtp_test_failure`). Rate limited per company (OUTBOUND_TEST_RATE)."""
    outbound.test_rate_check()
    try:
        backend = smtp_backend(config)
        backend.open()
        backend.close()
    except SecretUnreadable:
        return {"ok": False, "message": _("The stored password cannot be read: enter it again.")}
    except Exception as exc:
        return {"ok": False, "message": smtp_test_failure(exc)}
    return {
        "ok": True,
        "message": _("Connected to %(host)s:%(port)s.") % {"host": config.host, "port": config.port},
    }
