"""Two application nodes, as docs/operations.md ("Several machines") sets them up, in one test journey.

Real processes only: two gunicorn servers, each with a media folder of its own, one Celery worker that
belongs to the second node, one PostgreSQL (the test database, as the ordinary application role, so
row-level security applies), one Redis server started for this test (so that it can be stopped), and a real
S3-compatible server (SeaweedFS). The journey:
- a token from node A works on node B;
- a file uploaded through A downloads through B (neither node's disk holds it: the bucket does);
- an import started on A is finished by B's worker (A has none), from the file in the bucket;
- A's readiness turns 503 (not ready, Redis named) once Redis stops, while liveness stays 200.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from django.conf import settings as django_settings

from apps.common.tests.processes import database_url, free_ports
from apps.common.tests.test_comments import setup as comments_setup  # noqa: F401  (fixture)

BACKEND_DIR = Path(__file__).resolve().parents[3]
WAIT_SECONDS = 300  # an upper bound for a very busy machine; every wait ends as soon as its condition holds

pytestmark = [
    pytest.mark.runs_long,
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.skipif(
        not django_settings.IS_POSTGRES,
        reason="needs PostgreSQL: the nodes are other processes and cannot reach an in-memory SQLite database",
    ),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server on the PATH"),
]


def _wait_for(condition, what: str):
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.2)


class _Process:
    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self.handle = log.open("w+")
        self.process = subprocess.Popen(
            command, cwd=BACKEND_DIR, env=env, stdout=self.handle, stderr=subprocess.STDOUT
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.handle.close()


@pytest.fixture
def redis_server(tmp_path):
    (port,) = free_ports(1)
    server = _Process(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
        os.environ.copy(),
        tmp_path / "redis.log",
    )  # fmt: skip
    _wait_for(lambda: "Ready to accept connections" in server.output() or not server.alive(), "Redis")
    assert server.alive(), server.output()
    yield server, f"redis://127.0.0.1:{port}/0"
    server.stop()


@pytest.fixture
def nodes(tmp_path, redis_server, s3_server):
    """Node A (server only) and node B (server and worker), sharing PostgreSQL, Redis and the bucket."""
    _redis, redis_url = redis_server
    bucket = f"cartontrace-{uuid.uuid4().hex[:12]}"
    s3_server.client().create_bucket(Bucket=bucket)
    queue = (
        f"imports-{uuid.uuid4().hex[:8]}"  # this test's own queue: parallel runs take no job of each other
    )
    shared = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_QUEUE_IMPORTS": queue,
        "DJANGO_SECRET_KEY": "two-nodes-" + uuid.uuid4().hex,
        "S3_BUCKET": bucket,
        "S3_ENDPOINT_URL": s3_server.endpoint,
        "S3_REGION": "us-east-1",
        "S3_ACCESS_KEY_ID": "cartontrace-test",
        "S3_SECRET_ACCESS_KEY": "cartontrace-test-secret",
        "S3_ADDRESSING_STYLE": "path",
        "HEALTH_READY_REQUIRES_REDIS": "1",
    }
    started: list[_Process] = []
    urls = {}
    try:
        for name in ("a", "b"):
            env = {**shared, "MEDIA_ROOT": str(tmp_path / f"node-{name}-media")}
            server = _Process(
                [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", "127.0.0.1:0",
                 "--workers", "1", "--threads", "4", "--log-level", "info"],
                env,
                tmp_path / f"node-{name}.log",
            )  # fmt: skip
            started.append(server)
            found = _wait_for(
                lambda s=server: (
                    re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", s.output())
                    or (not s.alive() and "exited")
                ),
                f"node {name} to listen",
            )
            assert server.alive(), server.output()
            urls[name] = found.group(1)
            if name == "b":
                worker = _Process(
                    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-Q", queue,
                     "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
                     "-n", f"{queue}@node-b"],
                    env,
                    tmp_path / "node-b-worker.log",
                )  # fmt: skip
                started.append(worker)
        for name, url in urls.items():
            _wait_for(lambda u=url: _get(u, "/api/health/live/").status_code == 200, f"node {name} live")
        yield {"a": urls["a"], "b": urls["b"], "tmp": tmp_path, "bucket": bucket, "processes": started}
    finally:
        for process in started:
            process.stop()


def _get(base: str, path: str, **kwargs) -> httpx.Response:
    try:
        return httpx.get(base + path, timeout=60, **kwargs)
    except httpx.TransportError:
        return httpx.Response(599)


def test_two_nodes_share_tokens_files_imports_and_report_redis_down(
    comments_setup,  # noqa: F811  (the fixture imported above)
    tenant3,
    nodes,
    redis_server,
    s3_server,
):
    a, b = nodes["a"], nodes["b"]
    tenant = {"tenant_id": tenant3.pk}

    # Signed in on A, the token works on B.
    signed_in = httpx.post(
        a + "/api/users/login/", json={"username": "boss", "password": "demo1234"}, timeout=60
    )
    assert signed_in.status_code == 200, signed_in.text
    auth = {"Authorization": "Bearer " + signed_in.json()["data"]["access"]}
    assert _get(b, "/api/users/me/", headers=auth).json()["data"]["username"] == "boss"

    # A file uploaded through A downloads through B.
    supplier = comments_setup["supplier_a_obj"]
    comment = httpx.post(
        a + "/api/common/comments/",
        params=tenant,
        headers=auth,
        json={"content_type": "supplier", "object_id": supplier.pk, "content": "Certificate attached"},
        timeout=60,
    )
    assert comment.status_code == 201, comment.text
    uploaded = httpx.post(
        a + f"/api/common/comments/{comment.json()['data']['id']}/add_attachment/",
        params=tenant,
        headers=auth,
        files={"file": ("certificate.pdf", b"%PDF-1.4 two nodes", "application/pdf")},
        timeout=60,
    )
    assert uploaded.status_code == 201, uploaded.text
    download = _get(b, uploaded.json()["data"]["url"], params=tenant, headers=auth)
    assert download.status_code == 200 and download.content == b"%PDF-1.4 two nodes"
    for name in ("a", "b"):  # neither node's own folder holds it
        assert not any((nodes["tmp"] / f"node-{name}-media").rglob("*.pdf"))

    # An import started on A is finished by B's worker, reading its file from the bucket.
    template = _get(
        a, "/api/products/groups/import-template/", params={**tenant, "format": "csv"}, headers=auth
    )
    assert template.status_code == 200
    header = next(csv.reader(io.StringIO(template.content.decode("utf-8-sig"))))
    rows = io.StringIO()
    writer = csv.writer(rows)
    writer.writerow(header)
    for name in ("Imported through node A", "Finished by node B"):
        writer.writerow([name if column == "Name" else "" for column in header])
    started = httpx.post(
        a + "/api/products/groups/import/",
        params=tenant,
        headers=auth,
        files={"file": ("groups.csv", rows.getvalue().encode(), "text/csv")},
        timeout=60,
    )
    assert started.status_code == 202, started.text
    job_id = started.json()["data"]["id"]

    def finished():
        job = _get(b, f"/api/common/imports/{job_id}/", params=tenant, headers=auth).json().get("data") or {}
        return job if job.get("status") not in (None, "queued", "running") else None

    job = _wait_for(finished, "the import to finish on node B's worker")
    assert job["status"] == "done" and job["created"] == 2, repr(job)

    assert "common.run_import" in nodes["processes"][-1].output()  # B's worker ran it (A has no worker)

    # Readiness follows Redis; liveness does not.
    assert _get(a, "/api/health/ready/").status_code == 200
    redis_process, _url = redis_server
    redis_process.stop()
    not_ready = _wait_for(
        lambda: (r := _get(a, "/api/health/ready/")).status_code == 503 and r, "A to report Redis down"
    )
    assert "redis" in not_ready.text.lower()
    assert _get(a, "/api/health/live/").status_code == 200
