"""Proxy headers are believed only from the proxies named in TRUSTED_PROXY_ADDRESSES: a client that
reaches a node directly can neither choose its address, nor pass for https, nor choose its request id;
a production node that believes every peer is warned by `check --deploy`."""

from __future__ import annotations

import logging

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.test import RequestFactory

from apps.common import client_ip as module
from apps.common.client_ip import TrustedProxyMiddleware, client_ip
from apps.operations.checks import proxy_addresses
from apps.operations.request_id import RequestIdMiddleware

FORGED = {
    "HTTP_X_FORWARDED_FOR": "198.51.100.7",
    "HTTP_X_FORWARDED_PROTO": "https",
    "HTTP_X_REQUEST_ID": "chosen-by-the-client",
}


def seen(remote: str) -> dict:
    """What the views would see of a request from `remote` that carries proxy headers."""
    request = RequestFactory().get("/api/health/live/", REMOTE_ADDR=remote, **FORGED)
    answer: dict = {}

    def view(req):
        answer.update(ip=client_ip(req), secure=req.is_secure(), request_id=req.request_id)
        return HttpResponse()

    TrustedProxyMiddleware(RequestIdMiddleware(view))(request)
    return answer


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.0/8", "2001:db8::1"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    module._untrusted_warned.clear()


def test_headers_from_a_listed_proxy_are_believed(behind_one_proxy):
    answer = seen("10.1.2.3")
    assert answer == {"ip": "198.51.100.7", "secure": True, "request_id": "chosen-by-the-client"}
    assert seen("2001:db8::1")["ip"] == "198.51.100.7"
    assert seen("::ffff:10.0.0.9")["ip"] == "198.51.100.7"  # an IPv4 proxy seen through a dual-stack socket


def test_headers_from_a_client_reaching_the_node_directly_are_dropped(behind_one_proxy, caplog):
    with caplog.at_level(logging.WARNING, logger="apps.operations"):
        answer = seen("203.0.113.9")
        seen("203.0.113.9")
    assert answer["ip"] == "203.0.113.9"
    assert answer["secure"] is False
    assert answer["request_id"] != "chosen-by-the-client"
    warnings = [r.getMessage() for r in caplog.records if "TRUSTED_PROXY_ADDRESSES" in r.getMessage()]
    assert len(warnings) == 1 and "203.0.113.9" in warnings[0]  # once per address


def test_without_a_list_every_peer_is_believed_as_far_as_the_count(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = []
    assert seen("203.0.113.9")["ip"] == "198.51.100.7"


def test_a_malformed_list_stops_with_its_message(settings):
    settings.PRODUCTION = True
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.0/33"]
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXY_ADDRESSES"):
        proxy_addresses()


def test_check_deploy_warns_when_a_proxy_count_has_no_addresses(settings):
    settings.PRODUCTION = True
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = []
    assert [w.id for w in proxy_addresses()] == ["operations.W001"]
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.0/8"]
    assert proxy_addresses() == []
    settings.TRUSTED_PROXY_COUNT = 0
    settings.TRUSTED_PROXY_ADDRESSES = []
    assert proxy_addresses() == []
    settings.PRODUCTION = False
    settings.TRUSTED_PROXY_COUNT = 1
    assert proxy_addresses() == []
