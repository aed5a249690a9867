"""The response envelope of docs/design.md section 4, for every response under /api/.

Success: {"code": 200, "message": "success", "data": ...} (also for HTTP 201/202: docs/specification.md section 8)
Error:   {"code": <status>, "message": "<readable sentence>", "error": "<stable key>", "data": <field errors|null>}
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.encoding import force_str
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from apps.common.errors import RecordInUse
from apps.common.exceptions import DomainError
from apps.common.prices import hide_prices, strip_money

logger = logging.getLogger("apps.api")


def set_rollback(view=None) -> None:
    """An error response rolls back the request's transaction (ATOMIC_REQUESTS): nothing half-written.

    Views marked `non_atomic_requests` (sign-in, which must record failed attempts) run outside it.
    """
    from django.db import connections

    non_atomic: set[str] = getattr(getattr(view, "dispatch", None), "_non_atomic_requests", set())
    for connection in connections.all(initialized_only=True):
        if connection.alias in non_atomic:
            continue
        if connection.settings_dict.get("ATOMIC_REQUESTS") and connection.in_atomic_block:
            connection.set_rollback(True)


ERROR_KEYS = {
    "not_authenticated": "not_authenticated",
    "authentication_failed": "authentication_failed",
    "token_not_valid": "token_not_valid",
    "permission_denied": "permission_denied",
    "not_found": "not_found",
    "method_not_allowed": "method_not_allowed",
    "not_acceptable": "not_acceptable",
    "unsupported_media_type": "unsupported_media_type",
    "throttled": "throttled",
    "parse_error": "parse_error",
    "invalid": "validation_error",
}


def error_body(status_code: int, message: Any, error: str, data: Any = None) -> dict[str, Any]:
    return {"code": status_code, "message": force_str(message), "error": error, "data": data}


def is_envelope(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and "code" in data
        and "message" in data
        and ("data" in data or "error" in data)
    )


class EnvelopeJSONRenderer(JSONRenderer):
    """Wraps successful payloads; error payloads are built by `exception_handler` already wrapped."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        renderer_context = renderer_context or {}
        response = renderer_context.get("response")
        if response is not None:
            if response.status_code == status.HTTP_204_NO_CONTENT:
                # Every response carries the envelope, so "no content" becomes 200 with data null.
                response.status_code = status.HTTP_200_OK
            if not (response.status_code >= 400 and is_envelope(data)) and not getattr(
                response, "skip_envelope", False
            ):
                if response.status_code >= 400:
                    data = error_body(
                        response.status_code, _("The request could not be completed."), "error", data
                    )
                else:
                    # The price rule (apps/common/prices.py): no money field reaches a user without
                    # products.see_prices, whichever serializer or view built the answer.
                    if hide_prices(renderer_context.get("request")):
                        data = strip_money(data)
                    # docs/specification.md section 8: a numeric code of 200 (or 0) is success, any other is a business
                    # error. So every success says 200 in the body; the HTTP status may be 201 or 202.
                    data = {"code": 200, "message": "success", "data": data}
        return super().render(data, accepted_media_type, renderer_context)


def _first_message(detail: Any) -> str | None:
    if isinstance(detail, dict):
        for value in detail.values():
            found = _first_message(value)
            if found:
                return found
    elif isinstance(detail, list):
        for value in detail:
            found = _first_message(value)
            if found:
                return found
    elif detail:
        return force_str(detail)
    return None


def _field_errors(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _field_errors(value) for key, value in detail.items()}
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return [force_str(item) for item in detail]
        return [_field_errors(item) for item in detail]
    return [force_str(detail)]


def _request_limit_error(exc: SuspiciousOperation) -> Response:
    """Django's limits on a request body (settings DATA_UPLOAD_MAX_*): the client's mistake, not ours."""
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(413, _("The request body is too large."), "request_too_large"), status=413)
    if isinstance(exc, TooManyFieldsSent):
        message, key = _("The request has too many form fields."), "too_many_fields"
    elif isinstance(exc, TooManyFilesSent):
        message, key = _("The request has too many files."), "too_many_files"
    else:
        message, key = _("The request could not be read."), "bad_request"
    return Response(error_body(400, message, key), status=400)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    headers: dict[str, str] = {}
    if isinstance(exc, SuspiciousOperation):
        logger.info("Request refused: %s", exc)
        set_rollback(context.get("view"))
        return _request_limit_error(exc)
    if isinstance(exc, RecursionError):
        # Any remaining path of unbounded nesting in a body: bad input, not a server error.
        set_rollback(context.get("view"))
        return Response(
            error_body(400, _("The request body is nested too deeply."), "parse_error"), status=400
        )
    if isinstance(exc, (ProtectedError, RestrictedError)):
        # A delete blocked by on_delete=PROTECT/RESTRICT: the record is still in use, not a server error.
        exc = RecordInUse()
    if isinstance(exc, (OverflowError, DataError)):
        # A number too large for the database's integer type (an id of 2**70 in a filter or a body):
        # bad input, not a server error. The field validators catch most; this is the backstop.
        logger.info("Out-of-range value rejected: %s", exc)
        exc = exceptions.ValidationError(
            {"non_field_errors": [_("A number in the request is out of range.")]}
        )
    if isinstance(exc, DomainError):
        set_rollback(context.get("view"))
        data = exc.data
        retry_after = getattr(exc, "retry_after", None)
        return Response(
            error_body(exc.status_code, exc.message, exc.error, data),
            status=exc.status_code,
            headers={"Retry-After": str(int(retry_after))} if retry_after else None,
        )

    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, exceptions.APIException):
        set_rollback(context.get("view"))
        auth_header = getattr(exc, "auth_header", None)
        if auth_header:
            headers["WWW-Authenticate"] = auth_header
        wait = getattr(exc, "wait", None)
        if wait:
            headers["Retry-After"] = str(int(wait))
        detail: Any = exc.detail
        if isinstance(exc, exceptions.ValidationError):
            if not isinstance(detail, dict):
                detail = {"non_field_errors": detail if isinstance(detail, list) else [detail]}
            fields = _field_errors(detail)
            first = _first_message(detail)
            non_field = detail.get("non_field_errors") if isinstance(detail, dict) else None
            message = (
                force_str(non_field[0])
                if non_field
                else (_("Please correct the highlighted fields.") if first else _("Invalid input."))
            )
            return Response(error_body(400, message, "validation_error", fields), status=400, headers=headers)

        code = exc.get_codes() if hasattr(exc, "get_codes") else None
        if isinstance(code, dict):
            code = code.get("code") or next(iter(code.values()), None)
        if isinstance(code, list):
            code = code[0] if code else None
        error_key = ERROR_KEYS.get(str(code), str(code) if code else "error")
        found = (
            (detail.get("detail") or _first_message(detail))
            if isinstance(detail, dict)
            else _first_message(detail)
        )
        data = None
        if isinstance(exc, exceptions.NotAuthenticated):
            found = _("Authentication credentials were not provided.")
        return Response(
            error_body(exc.status_code, found or exc.default_detail, error_key, data),
            status=exc.status_code,
            headers=headers,
        )

    # Anything else is a bug: log it with its stack, tell the user nothing internal.
    set_rollback(context.get("view"))
    request = context.get("request")
    logger.exception(
        "Unhandled error on %s %s", getattr(request, "method", "?"), getattr(request, "path", "?")
    )
    response = Response(
        error_body(500, _("An unexpected error occurred. Please try again later."), "server_error"),
        status=500,
    )
    # Logged once, above, with its stack: Django's request logger skips a response marked so (it would
    # log every 500 a second time; during a database outage that doubles a flood of tracebacks).
    response._has_been_logged = True  # type: ignore[attr-defined]  # read by django.utils.log
    return response
