"""What tests that start other processes (a Celery worker, gunicorn nodes, the previous release, SeaweedFS,
Redis) need to hand them: the test database's URL and free ports on the loopback."""

from __future__ import annotations

import socket
from urllib.parse import quote

from django.db import connection


def database_url(name: str | None = None) -> str:
    """The URL of the test database (or of database `name` on the same server, as the same role)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name or db['NAME']}"


def free_ports(count: int) -> list[int]:
    """`count` distinct ports free now (held together while chosen, so they differ)."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()
