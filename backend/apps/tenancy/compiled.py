"""Queries of a fixed shape that every request runs, compiled to SQL once per process.

Django compiles a queryset to SQL each time it is evaluated: for the membership read of every API request
(a join of 44 columns) that is about a millisecond of Python for a statement PostgreSQL answers in a tenth
of one (docs/performance.md, "Per-request overhead"). `CompiledOnce` compiles its queryset the first time,
with stand-in numbers for the values that change, remembers the SQL, the other parameters and Django's own
compiler, and from then on binds the request's values into the remembered SQL. The rows go through the
same converters and model construction as the ORM's (`ModelIterable`), so the result is what the queryset
itself would return.

Only for querysets whose SQL depends on nothing but the named values: never a value read from the clock
or the language, never a tenant-scoped manager unless the tenant is one of the values (`tenant=`: the
build then runs with its stand-in as the active tenant, so every tenant-scoped manager in it, subqueries
included, filters by the stand-in; otherwise its filter would be the tenant of the first request,
frozen). The values are numbers, texts (`texts=`: a parameter of their own, or the pattern of a
`contains` lookup, escaped at each binding as Django escapes it) and lists of ids (`id_lists=`, passed
to the driver as they are). `build` is called with the stand-ins once per database alias and dialect;
every stand-in must appear among the compiled parameters, and a text only in one of those two ways, or
the shape is refused. It lives in `tenancy`, the foundation's lowest package, because the membership and
permission reads of `tenancy` are its first users.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

from .context import building_for
from .managers import TenantQuerySet

# Stand-ins for the values: numbers no row id takes, each distinct; texts of letters and digits only (a
# LIKE pattern escapes nothing in them).
_STAND_IN_BASE = -7_340_000_001
_TEXT_STAND_IN = "Qz{}StandInZq"
_VALUE, _CONTAINS = "value", "contains"


class CompiledOnce:
    """`build(**values)` -> a queryset; `.all(**values)` its model instances, `.rows(**values)` the tuples of
    a `values_list()`, its SQL compiled once per database alias and dialect."""

    def __init__(
        self,
        build: Callable[..., QuerySet],
        *names: str,
        texts: tuple[str, ...] = (),
        id_lists: tuple[str, ...] = (),
        tenant: str | None = None,
    ):
        if tenant is not None and tenant not in names:
            raise ValueError("The tenant must be one of the numbers.")
        self._build = build
        self._names = names
        self._texts = texts
        self._id_lists = id_lists
        self._tenant = tenant
        self._compiled: dict[tuple[str, str], tuple] = {}
        self._lock = threading.Lock()

    def _stand_ins(self) -> dict[str, object]:
        stand_ins: dict[str, object] = {name: _STAND_IN_BASE - n for n, name in enumerate(self._names)}
        first = len(self._names)
        stand_ins.update({name: [_STAND_IN_BASE - first - n] for n, name in enumerate(self._id_lists)})
        stand_ins.update({name: _TEXT_STAND_IN.format(n) for n, name in enumerate(self._texts)})
        return stand_ins

    def _built(self, stand_ins: dict[str, object]) -> QuerySet:
        if self._tenant is None:
            queryset = self._build(**stand_ins)
            if isinstance(queryset, TenantQuerySet):
                raise TypeError("A tenant-scoped queryset would keep the first request's tenant.")
            return queryset
        with building_for(stand_ins[self._tenant]):  # type: ignore[arg-type]
            return self._build(**stand_ins)

    def _slot(self, param, stand_ins: dict[str, object], sql: str) -> tuple[str, str] | None:
        """(name, how) of the value a compiled parameter holds, or None for a constant."""
        for name, stand_in in stand_ins.items():
            if isinstance(stand_in, str):
                if type(param) is str and stand_in in param:
                    if param == stand_in:
                        return name, _VALUE
                    if param == f"%{stand_in}%":
                        return name, _CONTAINS
                    raise ValueError(f"A text must be a parameter or a contains pattern in {sql!r}.")
            elif type(param) is type(stand_in) and param == stand_in:
                return name, _VALUE
        return None

    def _compile(self, using: str) -> tuple:
        stand_ins = self._stand_ins()
        queryset = self._built(stand_ins)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for index, param in enumerate(params):
            found = self._slot(param, stand_ins, sql)
            if found is not None:
                slots.append((index, *found))
        if {name for _, name, _ in slots} != set(stand_ins):
            raise ValueError(f"Each value must appear among the parameters of {sql!r}.")
        # Django's converters of the selected columns (a JSON or an array field's, the backend's), worked
        # out once: the compiler works them out again for every statement it runs.
        columns = [column[0] for column in compiler.select[0 : compiler.col_count]]
        converters = tuple(compiler.get_converters(columns).items())
        # columns selected only for the ordering or DISTINCT come after the queryset's own: left out
        width = compiler.col_count if compiler.has_extra_select else None
        return sql, tuple(params), tuple(slots), compiler, converters, width

    def _bind(self, using: str, values: dict) -> tuple[str, list, tuple]:
        connection = connections[using]
        key = (using, connection.vendor)  # the SQL is the database's dialect
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or self._compile(using)
                self._compiled[key] = compiled
        sql, template, slots = compiled[:3]
        params = list(template)
        for index, name, how in slots:
            value = values[name]
            # a contains pattern escaped as Django's lookup escapes it
            params[index] = value if how is _VALUE else f"%{connection.ops.prep_for_like_query(value)}%"
        return sql, params, compiled

    def _execute(
        self, using: str, values: dict, template: str = "{sql}", extra_params: tuple = (), skip: int = 0
    ):
        """(the rows as the queryset's compiler would give them, the compiled entry): the statement run on
        a cursor of the request's connection, its rows fetched at once and converted by the converters
        worked out when compiling, as `SQLCompiler.execute_sql` and `results_iter` trim and convert them.
        `template`: a statement around the compiled SQL, `extra_params` its own parameters after the
        compiled ones, `skip` the columns it puts before the queryset's (kept as they are)."""
        sql, params, compiled = self._bind(using, values)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(template.format(sql=sql), [*params, *extra_params])
            rows = cursor.fetchall()
        converters, width = compiled[4], compiled[5]
        if width is not None:
            rows = [row[: skip + width] for row in rows]
        if converters:
            rows = [_converted(row, converters, connection, skip) for row in rows]
        return rows, compiled

    def sql(self, using: str = "default", **values) -> tuple[str, list]:
        """The SQL and its parameters for these values, to run inside a statement of one's own."""
        sql, params, _ = self._bind(using, values)
        return sql, params

    def rows(self, using: str = "default", **values) -> list[tuple]:
        """The rows of a `values_list()` queryset, as tuples."""
        return self._execute(using, values)[0]

    def slice(self, offset: int, limit: int, using: str = "default", **values) -> list[tuple]:
        """`rows()` from the `offset`-th, at most `limit` of them: the queryset needs an ordering."""
        return self._execute(using, values, "{sql} LIMIT %s OFFSET %s", (int(limit), int(offset)))[0]

    def counted_slice(
        self, offset: int, limit: int, bound: int, using: str = "default", **values
    ) -> tuple[int | None, list[tuple]]:
        """(how many of the first `bound` rows there are, `slice(offset, limit)`) in one statement: the
        queryset's first `bound` rows in its order, counted by a window over them, the page taken from
        them (`offset + limit` at most `bound`). The count is None when the page is empty but for the
        first: no row carries it."""
        if offset < 0 or limit < 1 or offset + limit > bound:
            raise ValueError("The page must lie within the counted rows.")
        # The window function sees every row of the subquery before OFFSET and LIMIT apply; it neither
        # sorts nor groups, so the rows leave in the subquery's order.
        counted = "SELECT count(*) OVER (), bounded.* FROM ({sql} LIMIT %s) bounded OFFSET %s LIMIT %s"
        rows, _ = self._execute(using, values, counted, (int(bound), int(offset), int(limit)), skip=1)
        if not rows:
            return (0 if offset == 0 else None), []
        return rows[0][0], [row[1:] for row in rows]

    def all(self, using: str = "default", **values) -> list:
        """The model instances of a queryset of rows (`select_related` and annotations included)."""
        results, compiled = self._execute(using, values)
        compiler = compiled[3]
        select, klass_info, annotations = compiler.select, compiler.klass_info, compiler.annotation_col_map
        model = klass_info["model"]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        # Django 5.2's signature; the type stubs describe a later release's.
        populators = get_related_populators(klass_info, select, using)  # type: ignore[call-arg]
        rows = []
        for row in results:
            obj = model.from_db(using, names, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            for name, position in (annotations or {}).items():
                setattr(obj, name, row[position])
            rows.append(obj)
        return rows


def _converted(row: tuple, converters: tuple, connection, skip: int = 0) -> tuple:
    values = list(row)
    for position, (functions, expression) in converters:
        value = values[skip + position]
        for function in functions:
            value = function(value, expression, connection)
        values[skip + position] = value
    return tuple(values)
