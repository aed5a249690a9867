"""One function decides the client's address (apps/common/client_ip.py): a forged X-Forwarded-For does
not get around the sign-in and public-trace rate limits, and proxies are believed only when declared."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.test import APIClient

from apps.common.client_ip import client_ip


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def _request(remote="203.0.113.9", forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(_request(forwarded="1.2.3.4")) == "203.0.113.9"
    assert client_ip(_request()) == "203.0.113.9"


@pytest.mark.parametrize(
    "count,forwarded,expected",
    [
        (1, "198.51.100.7", "198.51.100.7"),
        # The client wrote the first entry itself; the one trusted proxy appended the real address.
        (1, "1.2.3.4, 198.51.100.7", "198.51.100.7"),
        (2, "1.2.3.4, 198.51.100.7, 10.0.0.2", "198.51.100.7"),
        # Fewer entries than proxies: the leftmost, which a trusted proxy wrote.
        (2, "198.51.100.7", "198.51.100.7"),
        # Garbage in the trusted position: the socket's address.
        (1, "not-an-address", "203.0.113.9"),
        (1, "", "203.0.113.9"),
    ],
)
def test_with_trusted_proxies_the_nth_entry_from_the_right(settings, count, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = count
    assert client_ip(_request(forwarded=forwarded)) == expected


def _login(client, n, forged=True):
    extra = {"HTTP_X_FORWARDED_FOR": f"10.9.{n // 250}.{n % 250 + 1}"} if forged else {}
    return client.post(
        "/api/users/login/", {"username": f"nobody{n}", "password": "wrong-password"}, format="json", **extra
    )


@pytest.mark.django_db
def test_a_forged_forwarded_for_does_not_bypass_the_login_rate_limit(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    _rates(settings, login="5/min")
    client = APIClient()
    statuses = [_login(client, n).status_code for n in range(8)]
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429] * 3


@pytest.mark.django_db
def test_behind_a_declared_proxy_the_forwarded_address_is_the_client(settings):
    """With one trusted proxy, different (proxy-written) addresses are different clients, and a client
    prepending its own entries still lands on the address the proxy saw."""
    settings.TRUSTED_PROXY_COUNT = 1
    _rates(settings, login="2/min")
    client = APIClient()
    for n in range(6):  # six clients, one attempt each: none is limited
        assert _login(client, n).status_code == 401
    same = {"HTTP_X_FORWARDED_FOR": "1.1.1.1, 198.51.100.7"}
    body = {"username": "x", "password": "wrong-password"}
    assert client.post("/api/users/login/", body, format="json", **same).status_code == 401
    assert client.post("/api/users/login/", body, format="json", **same).status_code == 401
    forged = {"HTTP_X_FORWARDED_FOR": "8.8.8.8, 198.51.100.7"}
    assert client.post("/api/users/login/", body, format="json", **forged).status_code == 429


@pytest.mark.django_db
def test_a_forged_forwarded_for_does_not_bypass_the_public_trace_rate_limit(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    _rates(settings, public_trace="4/min")
    client = APIClient()
    statuses = [
        client.get(f"/api/eudrtrack/GUESS{n:04d}/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n + 1}").status_code
        for n in range(7)
    ]
    assert statuses[:4] == [404] * 4
    assert statuses[4:] == [429] * 3
