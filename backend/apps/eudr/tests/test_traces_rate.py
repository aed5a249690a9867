"""The shared pace of calls to the EU information system (apps/eudr/traces/rate.py): threads and processes
together stay at EUDR_TRACES_RATE calls per second, through Redis and, with Redis down, through PostgreSQL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from apps.eudr.tests import traces_server as fake
from apps.eudr.traces import TracesClient, TracesCredentials, rate

REDIS_URL = os.environ.get("REDIS_URL_FOR_TESTS", "")
BACKEND_DIR = Path(__file__).resolve().parents[3]
CREDENTIALS = TracesCredentials("user", "key", "eudr-test")

CHILD = """
import sys, time
from apps.eudr.traces import rate
out = []
for _ in range(int(sys.argv[2])):
    rate.take(sys.argv[1])
    out.append(time.time())
print(" ".join(repr(t) for t in out))
"""


def _check_pace(starts: list[float], per_second: int) -> None:
    """No second-long window holds more than the rate: any rate+1 consecutive calls span at least a second
    (less an allowance for the moment a thread is scheduled after its wait), and n calls therefore take at
    least (n-1)/rate.

    A call's time is read just after the limiter lets it go; on a busy machine a thread can wait a few
    hundred milliseconds for a core in between, so the allowance is a quarter of a second. A limiter that
    did not hold calls back would let them through together: spans near zero, far below it."""
    allowance = 0.25
    starts = sorted(starts)
    spans = [starts[i + per_second] - starts[i] for i in range(len(starts) - per_second)]
    assert min(spans) >= 1.0 - allowance, spans
    assert starts[-1] - starts[0] >= (len(starts) - 1) / per_second - allowance


def _closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture(autouse=True)
def fresh_limiter():
    rate.reset_for_tests()
    yield
    rate.reset_for_tests()


def _threads(key: str, threads: int, calls: int) -> list[float]:
    from django.db import connection

    starts: list[float] = []
    lock = threading.Lock()

    def work():
        try:
            for _ in range(calls):
                rate.take(key)
                with lock:
                    starts.append(time.time())
        finally:
            connection.close()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return starts


def _processes(key: str, processes: int, calls: int, env: dict[str, str]) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, key, str(calls)],
            cwd=BACKEND_DIR,
            env={
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "config.settings",
                **env,
                "PYTHONPATH": str(BACKEND_DIR),
            },
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]


def _collect(children: list[subprocess.Popen]) -> list[float]:
    starts: list[float] = []
    for child in children:
        out, _err = child.communicate(timeout=120)
        assert child.returncode == 0
        starts += [float(item) for item in out.split()]
    return starts


CHILD = "import django; django.setup()\n" + CHILD


@pytest.mark.redis
@pytest.mark.skipif(not REDIS_URL, reason="set REDIS_URL_FOR_TESTS to run")
@pytest.mark.django_db
def test_threads_and_processes_share_the_pace_through_redis(settings):
    settings.REDIS_URL = REDIS_URL
    settings.EUDR_TRACES_RATE = 5
    key = f"test-{uuid.uuid4().hex[:8]}"
    children = _processes(
        key, 2, 3, {"REDIS_URL": REDIS_URL, "DATABASE_URL": os.environ.get("DATABASE_URL", "")}
    )
    starts = _threads(key, 3, 3) + _collect(children)
    assert len(starts) == 15
    _check_pace(starts, 5)
    assert rate.take(key) == "redis"


@pytest.mark.skipif(not django_settings.IS_POSTGRES, reason="the fallback is PostgreSQL's advisory lock")
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_the_database_keeps_the_pace_across_threads_and_processes(settings):
    from django.db import connection

    down = _closed_port_url()
    settings.REDIS_URL = down
    settings.EUDR_TRACES_RATE = 5
    key = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    children = _processes(key, 2, 3, {"REDIS_URL": down, "DATABASE_URL": url})
    starts = _threads(key, 3, 3) + _collect(children)
    assert len(starts) == 15
    _check_pace(starts, 5)
    assert rate.take(key) == "database"


@pytest.mark.django_db
def test_every_client_call_is_paced(settings, monkeypatch):
    taken: list[str] = []
    monkeypatch.setattr(rate, "take", lambda key: taken.append(key) or "process")
    with fake.FakeTraces() as server:
        client = TracesClient(CREDENTIALS, base_url=server.url)
        client.echo()
        client.get_dds("b7c5f2a4-0000-4000-8000-000000000001")
        client.verify_declaration("25FRKGLE0Q7R", "ABCD1234")
    assert taken == ["127.0.0.1"] * 4  # the echo tries the WSDL's address, then the reference's


@pytest.mark.django_db
def test_the_client_goes_through_the_outbound_policy(settings):
    """A loopback address is refused unless the operator allows its network; nothing is sent then."""
    from apps.eudr.traces import TracesAddressRefused

    with fake.FakeTraces() as server:
        client = TracesClient(CREDENTIALS, base_url=server.url)
        settings.OUTBOUND_ALLOWED_NETWORKS = []
        with pytest.raises(TracesAddressRefused) as refused:
            client.get_dds("b7c5f2a4-0000-4000-8000-000000000001")
        assert refused.value.outcome_unknown is False
        assert "loopback" in str(refused.value.message)
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        settings.OUTBOUND_ALLOW_HTTP = False
        with pytest.raises(TracesAddressRefused):
            client.get_dds("b7c5f2a4-0000-4000-8000-000000000001")
        assert server.requests == []
        # with the allow-list the operator sets for its test servers, the call is made
        settings.OUTBOUND_ALLOW_HTTP = True
        assert client.get_dds("b7c5f2a4-0000-4000-8000-000000000001")[0].reference_number
        assert [action for _p, action, _b in server.requests] == ["getDds"]
