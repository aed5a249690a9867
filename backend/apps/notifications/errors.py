"""The e-mail area's refusals (templates, previews, test sends, resends): each a stable `error` key of the
envelope (Saleor's per-domain error codes). Services raise them; the API's exception handler turns them
into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy

from apps.common.exceptions import Conflict, DomainError, NotFound


class EmailErrorCode(StrEnum):
    NO_RECORD = "no_record"
    EVENT_UNAVAILABLE = "event_unavailable"
    NO_EMAIL = "no_email"
    NOT_RESENDABLE = "not_resendable"
    NOT_RETRYABLE = "not_retryable"
    TEMPLATE_IN_USE = "template_in_use"
    NOT_FOUND = "not_found"


class NoRecord(DomainError):
    status_code = 400
    error = EmailErrorCode.NO_RECORD
    default_message = gettext_lazy("There is no record of this kind to preview with yet.")


class EventUnavailable(Conflict):
    error = EmailErrorCode.EVENT_UNAVAILABLE
    default_message = gettext_lazy("This event's records do not exist in this installation yet.")


class NoEmail(DomainError):
    status_code = 400
    error = EmailErrorCode.NO_EMAIL
    default_message = gettext_lazy("Your user has no e-mail address.")


class NotResendable(Conflict):
    error = EmailErrorCode.NOT_RESENDABLE
    default_message = gettext_lazy("Only a sent or failed message can be sent again.")


class NotRetryable(Conflict):
    """Retry of a message that is not failed or maybe sent (queued, sending, sent: a second click, or
    another operator was quicker)."""

    error = EmailErrorCode.NOT_RETRYABLE
    default_message = gettext_lazy("Only a failed or maybe-sent message can be retried; this one is not.")


class TemplateInUse(Conflict):
    error = EmailErrorCode.TEMPLATE_IN_USE
    default_message = gettext_lazy("Scenarios use this template: delete or change them first.")


class EventNotFound(NotFound):
    """An event name the registry does not know."""

    error = EmailErrorCode.NOT_FOUND
    default_message = gettext_lazy("Not found.")


class RawMessageMissing(NotFound):
    """A message whose received original (.eml) was not stored."""

    error = EmailErrorCode.NOT_FOUND
    default_message = gettext_lazy("Not found.")


class SmtpSettingsMissing(NotFound):
    """The tenant has no SMTP settings yet (nothing to read, nothing to test with)."""

    error = EmailErrorCode.NOT_FOUND
    default_message = gettext_lazy("Not found.")
