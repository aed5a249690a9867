"""Domain exceptions: each carries an HTTP status and a stable `error` key (STYLE.md, Saleor's error codes).

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
