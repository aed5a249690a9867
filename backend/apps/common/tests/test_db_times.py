"""PostgreSQL's `timestamptz` values read through psycopg's own (C) loader give what Django's loader gives."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import adapters, postgres
from psycopg.pq import Format

from apps.common.db_times import loader_for

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.IS_POSTGRES, reason="a loader of PostgreSQL's connections"),
]

OID = postgres.types["timestamptz"].oid


def test_each_connection_reads_times_through_the_fastest_loader():
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(OID, Format.TEXT)
    assert loader is loader_for(connection.timezone)
    assert not issubclass(loader, BaseTzLoader)
    with connection.cursor() as cursor:
        # Django keeps it: the cursor's loader is the connection's (no per-cursor registration)
        assert cursor.cursor.adapters.get_loader(OID, Format.TEXT) is loader
    # psycopg's own loader for the type: its C one where psycopg has it
    assert loader(OID, connection.connection)._parse.__self__.__class__ is adapters.get_loader(
        OID, Format.TEXT
    )


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 29, 16, 22, 43, 123456, tzinfo=UTC),
        datetime(2026, 11, 29, 16, 22, 43, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 1, tzinfo=timezone(timedelta(hours=8))),
        datetime(2020, 2, 29, 0, 0, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
        datetime(1, 1, 1, 0, 0, tzinfo=UTC),
    ],
)
def test_a_time_read_is_the_one_django_reads(value):
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz, %s::timestamptz::text", [value, value])
        ours, text = cursor.fetchone()
    django_loader = type("SpecificTzLoader", (BaseTzLoader,), {"timezone": connection.timezone})
    theirs = django_loader(OID, connection.connection).load(text.encode())
    assert ours == theirs == value
    assert ours.tzinfo is theirs.tzinfo
    assert ours.isoformat() == theirs.isoformat()
