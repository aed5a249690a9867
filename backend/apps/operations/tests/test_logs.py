"""Request ids: accepted from the proxy or made, returned, written in every log line with the user and
the tenant, and carried into background tasks."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from apps.operations import request_id
from apps.operations.logs import JsonFormatter
from apps.operations.request_id import RequestContextFilter, RequestIdMiddleware


@pytest.fixture
def captured():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestContextFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("apps.operations.tests")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield logger, stream
    logger.removeHandler(handler)


def _lines(stream) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.django_db
def test_every_answer_carries_a_request_id():
    response = APIClient().get("/api/health/live/")
    assert len(response["X-Request-ID"]) == 32


@pytest.mark.django_db
def test_the_proxys_id_is_kept_and_a_forged_one_replaced():
    client = APIClient()
    assert client.get("/api/health/live/", HTTP_X_REQUEST_ID="abc-123.x_y")["X-Request-ID"] == "abc-123.x_y"
    forged = client.get("/api/health/live/", HTTP_X_REQUEST_ID='x"\n{"level":"ERROR"}')["X-Request-ID"]
    assert forged != 'x"\n{"level":"ERROR"}' and len(forged) == 32


@pytest.mark.django_db
def test_a_log_line_names_request_user_and_tenant(captured, make_user, tenant2, in_tenant):
    logger, stream = captured
    user = make_user(tenant2)

    def view(request):
        request.user = user  # what authentication does before the view runs
        with in_tenant(tenant2):
            logger.info("stock moved", extra={"product": 7})
        logger.error("failed", exc_info=ValueError("boom"))
        from django.http import HttpResponse

        return HttpResponse("ok")

    request = RequestFactory().get("/api/x/", HTTP_X_REQUEST_ID="req-1", REMOTE_ADDR="203.0.113.9")
    RequestIdMiddleware(view)(request)
    first, second = _lines(stream)
    assert first["request_id"] == "req-1"
    assert first["user_id"] == user.pk
    assert first["tenant_id"] == tenant2.pk
    assert first["product"] == 7
    assert first["message"] == "stock moved"
    assert second["tenant_id"] is None
    assert "ValueError: boom" in second["exception"]
    assert "\n" not in stream.getvalue().splitlines()[1]


def test_outside_a_request_the_fields_are_empty(captured):
    logger, stream = captured
    logger.info("beat")
    (line,) = _lines(stream)
    assert line["request_id"] is None and line["user_id"] is None and line["tenant_id"] is None


def test_a_request_logged_by_django_names_the_client(captured):
    logger, stream = captured
    request = RequestFactory().get("/api/y/", REMOTE_ADDR="198.51.100.4")
    logger.error("Internal Server Error: /api/y/", extra={"request": request, "status_code": 500})
    (line,) = _lines(stream)
    assert line["client_ip"] == "198.51.100.4"
    assert line["path"] == "/api/y/" and line["method"] == "GET" and line["status_code"] == 500


def test_a_task_queued_in_a_request_carries_its_id():
    token = request_id._request_id.set("req-42")
    try:
        headers: dict = {}
        request_id._before_publish(headers=headers)
        assert headers["request_id"] == "req-42"
    finally:
        request_id._request_id.reset(token)

    class FakeTask:
        class request:
            request_id = "req-42"

    request_id._task_prerun(task_id="t1", task=FakeTask)
    assert request_id.current_request_id() == "req-42"
    request_id._task_postrun(task_id="t1")
    assert request_id.current_request_id() is None


def test_proxy_headers_without_trusted_proxies_warn_once(settings, caplog, monkeypatch):
    settings.TRUSTED_PROXY_COUNT = 0
    monkeypatch.setattr(request_id, "_proxy_warning_given", False)
    from django.http import HttpResponse

    middleware = RequestIdMiddleware(lambda request: HttpResponse("ok"))
    with caplog.at_level(logging.WARNING, logger="apps.operations"):
        for _ in range(3):
            middleware(RequestFactory().get("/", HTTP_X_FORWARDED_FOR="198.51.100.1"))
    warnings = [r for r in caplog.records if "TRUSTED_PROXY_COUNT" in r.getMessage()]
    assert len(warnings) == 1


def test_no_warning_when_proxies_are_trusted(settings, caplog, monkeypatch):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setattr(request_id, "_proxy_warning_given", False)
    from django.http import HttpResponse

    with caplog.at_level(logging.WARNING, logger="apps.operations"):
        RequestIdMiddleware(lambda request: HttpResponse("ok"))(
            RequestFactory().get("/", HTTP_X_FORWARDED_FOR="198.51.100.1")
        )
    assert not [r for r in caplog.records if "TRUSTED_PROXY_COUNT" in r.getMessage()]
