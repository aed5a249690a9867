"""PostgreSQL's `timestamptz` values parsed by psycopg's own loader, in C where psycopg has it.

Django registers its own loader for `timestamptz` on every PostgreSQL connection (`BaseTzLoader` in
`django.db.backends.postgresql.psycopg_any`): the value parsed, then given the connection's time zone
with `replace(tzinfo=...)`. It is a subclass of psycopg's Python loader, and psycopg's C loader (from
`psycopg[binary]`) cannot be subclassed, so every time of every statement was parsed in Python: a
third of the time a list page of 50 deliveries spent reading its rows (docs/performance.md, "Times
parsed in C").

`register` puts a loader of the same behaviour on each new connection: it holds psycopg's fastest
`timestamptz` loader for the text format (C with `psycopg[binary]`, the Python one otherwise) and
replaces the time zone exactly as Django's does. It carries Django's `timezone` attribute, which Django
compares on every cursor (`create_cursor`): the same zone keeps it, another makes Django register its own
on that cursor, as before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache
def loader_for(zone) -> type:
    """A loader class for `timestamptz` values given `zone` (Django's connection time zone; None: naive)."""
    from psycopg import adapters, postgres
    from psycopg.adapt import Loader
    from psycopg.pq import Format

    oid = postgres.types["timestamptz"].oid
    found = adapters.get_loader(oid, Format.TEXT)
    if found is None:  # psycopg always has one for its own type
        raise LookupError("psycopg has no loader for timestamptz")
    fastest: type[Any] = found

    class TimestamptzLoader(Loader):
        timezone = zone

        def __init__(self, oid: int, context: Any = None):
            super().__init__(oid, context)
            self._parse = fastest(oid, context).load

        def load(self, data):
            return self._parse(data).replace(tzinfo=zone)

    return TimestamptzLoader


def register(sender, connection, **kwargs) -> None:
    """`connection_created`: the loader on a new PostgreSQL connection."""
    if connection.vendor != "postgresql":
        return
    from django.conf import settings

    if not settings.USE_TZ:
        return
    connection.connection.adapters.register_loader("timestamptz", loader_for(connection.timezone))
