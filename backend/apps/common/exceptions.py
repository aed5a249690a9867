"""Domain exceptions: each carries an HTTP status and a stable `error` key (docs/style.md, Saleor's error codes).

Services raise them; the API's exception handler turns them into the error envelope.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    status_code = 400
    error = "domain_error"
    default_message = _("The request could not be completed.")

    def __init__(
        self,
        message: Any = None,
        *,
        error: str | None = None,
        data: Any = None,
        status_code: int | None = None,
    ) -> None:
        self.message = message if message is not None else self.default_message
        if error:
            self.error = error
        if status_code:
            self.status_code = status_code
        self.data = data
        super().__init__(str(self.message))


class Conflict(DomainError):
    """The request is valid but the record's state does not allow it (409)."""

    status_code = 409
    error = "conflict"
    default_message = _("The record's current state does not allow this.")


class FieldErrors(DomainError):
    """Field errors a service finds (a unique clash that slipped past validation, a rule on a value):
    the same envelope as a serializer's validation error, `data` keyed by field."""

    status_code = 400
    error = "validation_error"
    default_message = _("Please correct the highlighted fields.")

    def __init__(self, errors: dict[str, Any], message: Any = None) -> None:
        non_field = errors.get("non_field_errors")
        if message is None and non_field:
            message = non_field[0]
        super().__init__(message, data=_as_text(errors))

    @classmethod
    def on(cls, field: str, *messages: Any) -> FieldErrors:
        return cls({field: list(messages)})


def _as_text(value: Any) -> Any:
    """Translates lazy messages now (in the request's language) into the shape the envelope gives a
    serializer's errors: a field's messages are always a list."""
    if isinstance(value, dict):
        return {key: _as_text(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        if all(not isinstance(item, (dict, list, tuple)) for item in value):
            return [str(item) for item in value]
        return [_as_text(item) for item in value]
    return [str(value)]


class Forbidden(DomainError):
    """The user may not do this (403), with a sentence saying why."""

    status_code = 403
    error = "permission_denied"
    default_message = _("You do not have permission to perform this action.")


class NotFound(DomainError):
    status_code = 404
    error = "not_found"
    default_message = _("Not found.")


class TenantRequired(DomainError):
    status_code = 400
    error = "tenant_required"
    default_message = _("The tenant_id query parameter is required.")


class TenantForbidden(DomainError):
    status_code = 403
    error = "tenant_forbidden"
    default_message = _("You are not a member of this tenant.")
