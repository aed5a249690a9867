"""The previous release's code keeps working on this release's schema (docs/operations.md, "Upgrades").

During a rolling upgrade, nodes still running the previous release serve requests against the schema the
new release migrated. This test does exactly that: it checks out the previous release (the commit in
previous_release.txt, the last release this one upgrades from) into a temporary worktree, migrates a fresh
database with THIS release's migrations, and runs the previous release's own tests of the main writes
(purchase orders and receipts, sales orders, shipments and invoices, stock and cartons, carton generation)
against that database without migrating it back. A NOT NULL column without a database default, a dropped
or renamed column, or a new constraint the old code breaks fails here.

Each release sets previous_release.txt to the commit it upgrades from.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from apps.common.tests.processes import database_url

HERE = Path(__file__).resolve().parent
BACKEND = HERE.parents[2]
PREVIOUS = (HERE / "previous_release.txt").read_text().split()[0]

# The previous release's tests of the main writes (paths inside its backend/).
MAIN_WRITES = [
    "apps/purchaseorders/tests/test_orders.py",
    "apps/purchaseorders/tests/test_receipts.py",
    "apps/salesorders/tests",
    "apps/inventory/tests/test_inventory.py",
    "apps/inventory/tests/test_cartons.py",
    "apps/inventory/tests/test_picking.py",
    "apps/eudr/tests/test_weight_rules.py",
    "apps/eudr/tests/test_order_quantity.py",
]

FLUSH_PLUGIN = """
from django.core.management.commands import flush

_sql_flush = flush.sql_flush


def _cascading(style, connection, reset_sequences=True, allow_cascade=False):
    return _sql_flush(style, connection, reset_sequences=reset_sequences, allow_cascade=True)


flush.sql_flush = _cascading
"""

pytestmark = [
    pytest.mark.skipif(
        not django_settings.IS_POSTGRES,
        reason="needs PostgreSQL: the previous release runs in other processes",
    ),
    pytest.mark.runs_long,
]


def _git(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _admin(sql: str) -> None:
    """CREATE/DROP DATABASE: outside any transaction, on the server's maintenance database."""
    import psycopg

    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(sql)


def _run(command: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_the_previous_release_passes_its_main_write_tests_on_the_new_schema(tmp_path):
    top = _git("rev-parse", "--show-toplevel", cwd=BACKEND)
    if top.returncode != 0 or _git("cat-file", "-e", f"{PREVIOUS}^{{commit}}", cwd=BACKEND).returncode != 0:
        message = f"the previous release {PREVIOUS[:12]} is not in this clone's history"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI clones the whole history: a missing commit is a mistake
        pytest.skip(message)
    repo = Path(top.stdout.strip())
    previous = tmp_path / "previous"
    added = _git("worktree", "add", "--detach", str(previous), PREVIOUS, cwd=repo)
    assert added.returncode == 0, added.stderr

    # The previous release's transactional tests empty the database with Django's flush, which truncates
    # the tables the old code knows; this release's new tables refer to some of them, so the truncation
    # cascades to them (as emptying the whole database would). Production code never flushes.
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "prevrel_flush.py").write_text(FLUSH_PLUGIN)
    name = f"ct_prevrel_{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "CELERY_TASK_ALWAYS_EAGER": "1"}
    env.pop("REDIS_URL", None)
    try:
        _admin(f'CREATE DATABASE "test_{name}"')  # the test database the old code's pytest-django reuses
        migrated = _run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
            cwd=BACKEND,
            env={**env, "DATABASE_URL": database_url(f"test_{name}")},
        )
        assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
        old = _run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "prevrel_flush",
                "--reuse-db",
                "-x",
                *MAIN_WRITES,
            ],
            cwd=previous / "backend",
            env={
                **env,
                "DATABASE_URL": database_url(name),
                "PYTHONPATH": f"{previous / 'backend'}{os.pathsep}{plugins}",
            },
        )
        assert old.returncode == 0, old.stdout[-6000:] + old.stderr[-3000:]
        assert " passed" in old.stdout
    finally:
        _admin(f'DROP DATABASE IF EXISTS "test_{name}" WITH (FORCE)')
        _git("worktree", "remove", "--force", str(previous), cwd=repo)
        shutil.rmtree(previous, ignore_errors=True)
