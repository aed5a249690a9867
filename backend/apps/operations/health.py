"""What a load balancer asks a node (docs/operations.md, "Health").

`live`: the process answers. `ready`: this node can serve: the database answers and every migration the
code knows is applied, Redis answers (when the installation has one), the file storage answers. Celery
workers are reported (seen within the last few minutes through their heartbeat task) and make the node
not-ready only when `HEALTH_READY_REQUIRES_WORKERS` is set. Redis is required by default
(`HEALTH_READY_REQUIRES_REDIS`): the API keeps answering without it, but with per-process rate limits and
no shared cache, which an operator must hear about: a web node cannot fix a dead worker, and
taking every web node out of the balancer for it would turn a background outage into a full one.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections

WORKER_SEEN_KEY = "operations:worker-seen"
WORKER_FRESH_SECONDS = 180
_migrations_applied = False


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    required: bool = True

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail, "required": self.required}


def check_database() -> Check:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not reachable"; the reason is logged, not served
        return Check("database", False, f"unreachable ({type(exc).__name__})")
    return Check("database", True, connections[DEFAULT_DB_ALIAS].vendor)


def check_migrations() -> Check:
    """Every migration of the code is applied (cached once true: a running process's code does not gain
    migrations)."""
    global _migrations_applied
    if _migrations_applied:
        return Check("migrations", True, "applied")
    try:
        from django.db.migrations.executor import MigrationExecutor

        connection = connections[DEFAULT_DB_ALIAS]
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:
        return Check("migrations", False, f"unknown ({type(exc).__name__})")
    if plan:
        return Check("migrations", False, f"{len(plan)} not applied")
    _migrations_applied = True
    return Check("migrations", True, "applied")


def check_redis() -> Check:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return Check("redis", True, "not configured", required=False)
    required = bool(getattr(settings, "HEALTH_READY_REQUIRES_REDIS", True))
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return Check("redis", False, f"unreachable ({type(exc).__name__})", required=required)
    return Check("redis", True, "answers", required=required)


def check_storage() -> Check:
    from django.core.files.storage import FileSystemStorage, default_storage

    try:
        if isinstance(default_storage, FileSystemStorage):
            # Local disk: the media folder must exist (or be creatable) and be writable.
            location = default_storage.location
            os.makedirs(location, exist_ok=True)
            if not os.access(location, os.W_OK):
                return Check("storage", False, "media folder not writable")
            return Check("storage", True, "local")
        default_storage.exists("health/probe")
    except Exception as exc:
        return Check("storage", False, f"unreachable ({type(exc).__name__})")
    return Check("storage", True, type(default_storage).__name__)


def record_worker_seen() -> None:
    cache.set(WORKER_SEEN_KEY, time.time(), timeout=WORKER_FRESH_SECONDS * 10)


def check_workers() -> Check:
    required = bool(getattr(settings, "HEALTH_READY_REQUIRES_WORKERS", False))
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return Check("workers", True, "tasks run inline", required=False)
    try:
        seen = cache.get(WORKER_SEEN_KEY)
    except Exception as exc:
        return Check("workers", False, f"unknown ({type(exc).__name__})", required=required)
    if seen is None:
        return Check("workers", False, "no worker seen", required=required)
    age = time.time() - float(seen)
    when = datetime.fromtimestamp(float(seen), tz=UTC).isoformat(timespec="seconds")
    return Check("workers", age <= WORKER_FRESH_SECONDS, f"last seen {when}", required=required)


def readiness() -> tuple[bool, dict[str, dict[str, object]]]:
    checks = [check_database(), check_redis(), check_storage(), check_workers()]
    if checks[0].ok:
        checks.insert(1, check_migrations())
    ready = all(check.ok for check in checks if check.required)
    return ready, {check.name: check.as_dict() for check in checks}
