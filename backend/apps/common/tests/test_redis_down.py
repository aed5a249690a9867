"""Redis is a cache, not a single point of failure (apps/common/cache.py, apps/users/tokens.py).

The cache points at a REAL redis-server this test starts on a free port of 127.0.0.1 and stops
(`redis_server`), or at a port where nothing listens. With Redis down: sign-in, authenticated reads and
writes and the public trace answer as usual, throttles still limit (per process), an ended session stays
ended; when Redis is back, keys written meanwhile are not read back stale.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.eudr.tests.trace_data import make_cartons, make_delivery

pytestmark = pytest.mark.django_db

REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(condition, *, timeout=15.0, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}")


class RedisProcess:
    """One redis-server on a free port, without persistence (a restart starts empty)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self._answers, message="redis-server to answer")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
        wait_until(lambda: not self._answers(), message="redis-server to stop")


def cache_settings(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "apps.common.cache.ResilientRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            "RETRY_SECONDS": 0,  # ask Redis again on every call: the test decides when it is back
        }
    }


@pytest.fixture
def redis_server(settings):
    if not REDIS_SERVER:
        pytest.skip("needs redis-server on PATH")
    server = RedisProcess()
    server.start()
    settings.CACHES = cache_settings(server.url)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_absent(settings):
    """The cache at a port where nothing listens."""
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{free_port()}/0")


def sign_in(username="anna", password="demo1234"):
    return APIClient().post("/api/users/login/", {"username": username, "password": password}, format="json")


def test_the_api_answers_while_redis_is_absent(redis_absent, tenant3, make_user, api):
    user = make_user(tenant3, "Administrator", username="anna")
    response = sign_in()
    assert response.status_code == 200, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['data']['access']}")
    assert client.get("/api/users/me/").status_code == 200
    assert client.get("/api/tenants/").status_code == 200
    writer = api(user, tenant3)
    created = writer.post("/api/users/departments/", {"name": "Logistics"}, format="json")
    assert created.status_code == 201, created.content
    assert writer.get("/api/users/departments/").json()["data"]["count"] == 1


def test_the_public_trace_is_served_from_the_database_while_redis_is_down(redis_server, tenant3, in_tenant):
    with in_tenant(tenant3):
        cartons = make_cartons(make_delivery(), count=2)
    url = f"/api/eudrtrack/{cartons[0].code}/"
    assert APIClient().get(url).status_code == 200
    redis_server.stop()
    down = APIClient().get(url)
    assert down.status_code == 200, down.content
    assert down.json()["data"]["code"] == cartons[0].code
    redis_server.start()
    assert APIClient().get(url).status_code == 200


def test_throttles_keep_counting_in_the_process_while_redis_is_down(
    redis_absent, settings, tenant3, make_user
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login": "3/min"},
    }
    make_user(tenant3, username="anna")
    codes = [sign_in(password="wrong-password").status_code for _ in range(4)]
    assert codes[:3] != [429, 429, 429] and codes[3] == 429, codes


def test_an_ended_session_stays_ended_when_redis_restarts_empty(redis_server, tenant3, make_user):
    make_user(tenant3, username="anna")
    session = sign_in().json()["data"]
    out = APIClient().post("/api/users/logout/", {"refresh": session["refresh"]}, format="json")
    assert out.status_code == 200
    redis_server.stop()
    redis_server.start()  # empty: no persistence
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {session['access']}")
    assert client.get("/api/users/me/").status_code == 401


def test_sign_out_works_while_redis_is_down_and_holds_after_it_returns(redis_server, tenant3, make_user):
    make_user(tenant3, username="anna")
    session = sign_in().json()["data"]
    redis_server.stop()
    out = APIClient().post("/api/users/logout/", {"refresh": session["refresh"]}, format="json")
    assert out.status_code == 200, out.content
    redis_server.start()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {session['access']}")
    assert client.get("/api/users/me/").status_code == 401


def test_a_key_written_while_redis_was_down_is_not_read_back_stale(redis_server):
    cache.set("eudr:public-trace:generation", "before")
    cache.set("unrelated", "kept")
    assert cache.get("eudr:public-trace:generation") == "before"
    redis_server.process.send_signal(19)  # SIGSTOP: Redis keeps its data but does not answer
    try:
        cache.set("eudr:public-trace:generation", "during")  # an invalidation that cannot reach Redis
        assert cache.get("eudr:public-trace:generation") is None  # down: a miss, never an error
        assert cache.add("other", 1) is False
        assert cache.get_many(["unrelated"]) == {}
    finally:
        redis_server.process.send_signal(18)  # SIGCONT
    # Back: the key whose write was lost is gone (recomputed by its user), the others are still there.
    assert cache.get("unrelated") == "kept"
    assert cache.get("eudr:public-trace:generation") is None


def test_the_outage_is_logged_once_not_per_call(redis_absent, caplog):
    with caplog.at_level("WARNING", logger="apps.common.cache"):
        for _ in range(5):
            assert cache.get("anything") is None
            cache.set("anything", 1)
    assert [r.getMessage() for r in caplog.records].count(caplog.records[0].getMessage()) == 1
    assert len(caplog.records) == 1
