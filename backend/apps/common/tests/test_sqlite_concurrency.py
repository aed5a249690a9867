"""The embedded default (SQLite, `make run`: one process, eight threads) under concurrent writers.

sqlite_writers.py runs in its own process with the settings of `make run` (no DATABASE_URL) on a fresh
SQLite file: 8 threads sign in, read the tenants, create departments and edit their profile at the same
time. Every answer must be a success: no "database is locked" (500). With Django's default SQLite options
(deferred transactions, 5 s timeout, rollback journal) the same load answers 500s (docs/operations.md).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

PROBE = Path(__file__).with_name("sqlite_writers.py")


def test_the_embedded_default_uses_sqlite_the_way_a_server_must():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_ENV"}}
    code = "import config.settings as s; print(__import__('json').dumps(s.DATABASES['default']['OPTIONS']))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    options = json.loads(out.stdout)
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 20
    assert "journal_mode=WAL" in options["init_command"]
    assert "busy_timeout" in options["init_command"]


def test_concurrent_writers_get_no_errors(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV"}}
    env.update(
        {
            "PYTHONPATH": str(settings.BASE_DIR),
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "APP_VAR_DIR": str(tmp_path),
            "MEDIA_ROOT": str(tmp_path / "media"),
            "LOGIN_RATE": "100000/min",
            "PROBE_THREADS": "8",
            "PROBE_ROUNDS": "6",
        }
    )
    result = subprocess.run(
        [sys.executable, "-W", "ignore", str(PROBE)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["journal_mode"] == "wal"
    assert report["requests"] == 8 * 6 * 4
    assert report["errors"] == []
