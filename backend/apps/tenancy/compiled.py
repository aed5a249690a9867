"""Queries of a fixed shape that every request runs, compiled to SQL once per process.

Django compiles a queryset to SQL each time it is evaluated: for the membership read of every API request
(a join of 44 columns) that is about a millisecond of Python for a statement PostgreSQL answers in a tenth
of one (docs/performance.md, "Per-request overhead"). `CompiledOnce` compiles its queryset the first time,
with stand-in numbers for the values that change, remembers the SQL, the other parameters and Django's own
compiler, and from then on binds the request's values into the remembered SQL. The rows go through the
same converters and model construction as the ORM's (`ModelIterable`), so the result is what the queryset
itself would return.

Only for querysets whose SQL depends on nothing but the named values: never a tenant-scoped manager (its
filter would be the tenant of the first request, frozen), never a value read from the clock or the
language. `build` is called with the stand-ins once per database alias and dialect; the stand-ins must
each appear once among the compiled parameters, or the shape is refused. It lives in `tenancy`, the
foundation's lowest package, because the membership and permission reads of `tenancy` are its first
users.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.constants import MULTI

from .managers import TenantQuerySet

# Stand-ins for the values: numbers no row id takes, each distinct.
_STAND_IN_BASE = -7_340_000_001


class CompiledOnce:
    """`build(**values)` -> a queryset; `.all(**values)` its model instances, `.rows(**values)` the tuples of
    a `values_list()`, its SQL compiled once per database alias and dialect."""

    def __init__(self, build: Callable[..., QuerySet], *names: str):
        self._build = build
        self._names = names
        self._compiled: dict[tuple[str, str], tuple] = {}
        self._lock = threading.Lock()

    def _compile(self, using: str) -> tuple:
        stand_ins = {name: _STAND_IN_BASE - n for n, name in enumerate(self._names)}
        queryset = self._build(**stand_ins)
        if isinstance(queryset, TenantQuerySet):
            raise TypeError("A tenant-scoped queryset would keep the first request's tenant.")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for index, param in enumerate(params):
            for name, stand_in in stand_ins.items():
                if type(param) is int and param == stand_in:
                    slots.append((index, name))
        if sorted(name for _, name in slots) != sorted(self._names):
            raise ValueError(f"Each value must appear once among the parameters of {sql!r}.")
        return sql, tuple(params), tuple(slots), compiler

    def _bind(self, using: str, values: dict) -> tuple[str, list, object]:
        connection = connections[using]
        key = (using, connection.vendor)  # the SQL is the database's dialect
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or self._compile(using)
                self._compiled[key] = compiled
        sql, template, slots, remembered = compiled
        params = list(template)
        for index, name in slots:
            params[index] = values[name]
        return sql, params, remembered

    def _execute(self, using: str, values: dict, suffix: str = "", suffix_params: tuple = ()):
        sql, params, remembered = self._bind(using, values)
        sql, params = sql + suffix, [*params, *suffix_params]
        # A compiler of this request's connection, answering with the remembered SQL.
        compiler = copy.copy(remembered)
        compiler.connection = connections[using]
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler, compiler.execute_sql(MULTI)

    def sql(self, using: str = "default", **values) -> tuple[str, list]:
        """The SQL and its parameters for these values, to run inside a statement of one's own."""
        sql, params, _ = self._bind(using, values)
        return sql, params

    def rows(self, using: str = "default", **values) -> list[tuple]:
        """The rows of a `values_list()` queryset, as tuples."""
        compiler, results = self._execute(using, values)
        return [tuple(row) for row in compiler.results_iter(results)]

    def slice(self, offset: int, limit: int, using: str = "default", **values) -> list[tuple]:
        """`rows()` from the `offset`-th, at most `limit` of them: the queryset needs an ordering."""
        compiler, results = self._execute(using, values, " LIMIT %s OFFSET %s", (int(limit), int(offset)))
        return [tuple(row) for row in compiler.results_iter(results)]

    def all(self, using: str = "default", **values) -> list:
        """The model instances of a queryset of rows (`select_related` and annotations included)."""
        compiler, results = self._execute(using, values)
        select, klass_info, annotations = compiler.select, compiler.klass_info, compiler.annotation_col_map
        model = klass_info["model"]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        # Django 5.2's signature; the type stubs describe a later release's.
        populators = get_related_populators(klass_info, select, using)  # type: ignore[call-arg]
        rows = []
        for row in compiler.results_iter(results):
            obj = model.from_db(using, names, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            for name, position in (annotations or {}).items():
                setattr(obj, name, row[position])
            rows.append(obj)
        return rows
