"""The public trace's fast path: GET /api/eudrtrack/{code}/ answered from its precomputed row.

A middleware placed right after WhiteNoise (config/settings.py), so a scan costs what a static file
costs plus the throttle's check and one primary-key read: the request never reaches the session, CSRF,
authentication, tenant or audit middleware, the URL resolver, DRF or the request's transaction. It
answers only what it can answer completely:

- 200 with the stored body, or 304 when `If-None-Match` names the stored strong ETag; both with
  `Cache-Control: public, max-age=N, s-maxage=N` (N: the company's `public_trace_max_age`) and the ETag;
- everything else goes on to the view (apps/eudr/api/public_views.py): a malformed or unknown code, a
  carton whose answer is not stored yet (the view builds it from the live rows and stores it), a client
  over its rate (the view answers 429 in the API's error envelope), any other method.

The throttle is the view's own (same scope, same cache keys, same rate): a request it lets through here
is not counted again by the view.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

PREFIX = "/api/eudrtrack/"
CHECKED = "_public_trace_throttle_checked"


class _View:
    throttle_scope = "public_trace"


class _Client:
    """What the throttle reads of a request: the address (apps.common.client_ip) and an anonymous user."""

    user = AnonymousUser()

    def __init__(self, request: HttpRequest) -> None:
        self._request = request
        self.META = request.META


def cache_control(max_age: int) -> str:
    return f"public, max-age={max_age}, s-maxage={max_age}"


def etag_matches(request: HttpRequest, etag: str) -> bool:
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    return any(tag.strip() in (etag, "*") for tag in header.split(","))


def answer(request: HttpRequest, body: bytes, etag: str, max_age: int) -> HttpResponse:
    response: HttpResponse
    if etag_matches(request, etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = cache_control(max_age)
    return response


def stored(code: str) -> tuple[bytes, str, int] | None:
    """The stored answer of `code`, or None (none stored, or the read failed: the view answers then).

    One round trip: the connection's health check (CONN_HEALTH_CHECKS, a `SELECT 1` before a request's
    first statement on a kept connection) is skipped, since this read checks the connection as well. A
    connection that died since its last use fails the read; it is closed and the scan goes on to the
    view, which opens a new one."""
    from apps.eudr.models import PublicTrace

    table = connection.ops.quote_name(PublicTrace._meta.db_table)
    if connection.connection is not None and not connection.in_atomic_block:
        connection.health_check_done = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT body, etag, max_age FROM {table} WHERE code = %s", [code])  # noqa: S608
            row: Any = cursor.fetchone()
    except OperationalError:
        if connection.in_atomic_block:
            raise
        connection.close()
        return None
    if row is None:
        return None
    return bytes(row[0]), row[1], row[2]


def normalised_code(raw: str) -> str | None:
    code = raw.strip().upper()
    if not code or len(code) > 32 or not code.isalnum() or not code.isascii():
        return None
    return code


class PublicTraceMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        path = request.path_info
        if request.method in ("GET", "HEAD") and path.startswith(PREFIX) and path.endswith("/"):
            code = normalised_code(path[len(PREFIX) : -1])
            if code is not None:
                response = self.fast(request, code)
                if response is not None:
                    return response
        return self.get_response(request)

    def fast(self, request: HttpRequest, code: str) -> HttpResponse | None:
        from apps.eudr.api.public_views import PublicTraceThrottle

        if not PublicTraceThrottle().allow_request(_Client(request), _View()):
            return None  # the view answers 429 in the error envelope
        setattr(request, CHECKED, True)
        found = stored(code)
        if found is None:
            return None
        return answer(request, *found)
