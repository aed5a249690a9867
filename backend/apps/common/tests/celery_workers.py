"""Real Celery worker processes for fault tests: started on a queue of the test's own, against the test
database and the Redis of REDIS_URL_FOR_TESTS, killed or stopped by the test; their output is kept for the
failure message. `wait_for` polls a condition with a deadline (no fixed sleeps)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from apps.common.tests.processes import database_url

BACKEND_DIR = Path(__file__).resolve().parents[3]


class Workers:
    def __init__(self, *, queue: str, redis_url: str, media_root: str, log_dir: Path, env: dict) -> None:
        self.queue, self.log_dir, self.started = queue, log_dir, []
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": redis_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "MEDIA_ROOT": media_root,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # local test servers are plain http on the loopback, which the outbound policy lets through so
            "OUTBOUND_ALLOW_HTTP": "1",
            "OUTBOUND_ALLOWED_NETWORKS": "127.0.0.1/32",
            **env,
        }

    def start(self) -> subprocess.Popen:
        n = len(self.started) + 1
        log = (self.log_dir / f"worker-{n}.log").open("w+")
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-Q"]
        command += [self.queue, "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]
        command += ["-n", f"{self.queue}-{n}@%h"]
        process = subprocess.Popen(
            command, cwd=BACKEND_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        self.started.append((process, log))
        return process

    def output(self) -> str:
        texts = []
        for process, log in self.started:
            log.flush()
            log.seek(0)
            texts.append(f"--- worker pid {process.pid}:\n{log.read()[-3000:]}")
        return "\n".join(texts)

    def stop(self) -> None:
        for process, log in self.started:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
            log.close()


def wait_for(condition, what: str, workers: Workers, seconds: float = 90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}\n{workers.output()}")
