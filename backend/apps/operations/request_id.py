"""One id per request, in every log line it causes and in every background task it queues.

The id comes from the proxy's `X-Request-ID` when it is a plain token (letters, digits, `.`, `_`, `-`,
at most 128 characters), otherwise it is made here; the answer carries it back in `X-Request-ID`. A task
queued during the request carries the id in its message headers and logs under it in the worker.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

from django.conf import settings
from django.utils.functional import SimpleLazyObject, empty

HEADER = "X-Request-ID"
_META_KEY = "HTTP_X_REQUEST_ID"
_VALID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")

_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
_request: ContextVar[object | None] = ContextVar("request", default=None)

logger = logging.getLogger("apps.operations")
_proxy_warning_given = False


def current_request_id() -> str | None:
    return _request_id.get()


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted_request_id(raw: str | None) -> str:
    """The proxy's id when it is a plain token, else a new one (a forged id cannot inject log text)."""
    if raw and _VALID.match(raw):
        return raw
    return new_request_id()


def _warn_about_proxy_headers(request) -> None:
    """Once per process: requests carry proxy headers the settings do not believe (docs/operations.md,
    "Behind a proxy"). With TRUSTED_PROXY_COUNT=0 every client behind a proxy shares the proxy's address,
    so one guesser locks a user out for everyone and all share one sign-in rate."""
    global _proxy_warning_given
    if _proxy_warning_given:
        return
    meta = request.META
    if int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0) == 0 and (
        meta.get("HTTP_X_FORWARDED_FOR") or meta.get("HTTP_X_FORWARDED_PROTO")
    ):
        _proxy_warning_given = True
        logger.warning(
            "Requests arrive with X-Forwarded-For or X-Forwarded-Proto while TRUSTED_PROXY_COUNT is 0: "
            "every client is seen as the proxy's address. Set TRUSTED_PROXY_COUNT to the number of "
            "proxies in front of the application (docs/operations.md, 'Behind a proxy')."
        )


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = accepted_request_id(request.META.get(_META_KEY))
        request.request_id = request_id
        _warn_about_proxy_headers(request)
        id_token = _request_id.set(request_id)
        request_token = _request.set(request)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(id_token)
            _request.reset(request_token)
        response[HEADER] = request_id
        return response


def _current_user_id() -> int | None:
    """The signed-in user of the current request, if authentication has already run: never triggers a
    database read from inside a log call."""
    request = _request.get()
    if request is None:
        return None
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        wrapped = user._wrapped
        if wrapped is empty:
            return None
        user = wrapped
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


class RequestContextFilter(logging.Filter):
    """Adds request_id, user_id and tenant_id to every log record (None outside a request or task)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from apps.tenancy.context import get_current_tenant_id

        record.request_id = _request_id.get()
        record.user_id = _current_user_id()
        record.tenant_id = get_current_tenant_id()
        return True


def _before_publish(headers=None, **kwargs) -> None:
    request_id = _request_id.get()
    if request_id and headers is not None:
        headers.setdefault("request_id", request_id)


_task_tokens: dict[str, object] = {}


def _task_prerun(task_id=None, task=None, **kwargs) -> None:
    request_id = getattr(getattr(task, "request", None), "request_id", None) or _request_id.get()
    if request_id is None:
        request_id = new_request_id()
    _task_tokens[task_id] = _request_id.set(request_id)


def _task_postrun(task_id=None, **kwargs) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        try:
            _request_id.reset(token)
        except ValueError:  # set in another context (a worker pool that switched contexts)
            _request_id.set(None)


def connect_task_signals() -> None:
    from celery.signals import before_task_publish, task_postrun, task_prerun

    before_task_publish.connect(_before_publish, dispatch_uid="operations_request_id_publish", weak=False)
    task_prerun.connect(_task_prerun, dispatch_uid="operations_request_id_prerun", weak=False)
    task_postrun.connect(_task_postrun, dispatch_uid="operations_request_id_postrun", weak=False)
