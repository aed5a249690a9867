"""Handing background jobs to Celery without ever failing the request that asked for them.

Every job's state is a row in the database (a filing, an import, an e-mail, an accounting outbox
entry), written in the request's transaction; the Celery message only says "work on row N now". So a
message that cannot be sent (the broker is down) or that is lost (a Redis restarted empty, a worker
killed) loses nothing: the job's periodic recovery finds the row still pending and sends it again
(docs/operations.md, "Exactly once"). The request that committed the row answers as usual.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def send_job(task, **options) -> bool:
    """`task.apply_async(**options)`; False (logged, not raised) when the broker does not take it."""
    try:
        task.apply_async(**options)
    except Exception as exc:  # kombu's OperationalError, redis and socket errors: all mean "not sent"
        logger.warning("Job %s not sent (%s); its recovery sweep sends it later", task.name, exc)
        return False
    return True


def send_job_on_commit(task, **options) -> None:
    """Sends the job once the current transaction commits (the worker must see its rows)."""
    transaction.on_commit(lambda: send_job(task, **options))
