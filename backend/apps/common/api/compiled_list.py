"""A list page read through statements compiled once per process (`apps.tenancy.compiled.CompiledOnce`),
for the paginator: the raw-material deliveries list (apps/eudr/api/list_page.py) and the products list
(apps/products/api/list_page.py) serve their pages through it (docs/performance.md, "Deliveries list:
compiled statements, rows from tuples" and "Products list and search: compiled statements").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections

from apps.tenancy.compiled import CompiledOnce


class CompiledPage(Sequence):
    """The rows a user sees, for the paginator: its length is the bounded count (`limit` + 1 rows at
    most, as `BoundedPaginator` counts: the count's statement is the list's ids without an ordering), a
    slice is the page's rows (the page's statement needs an ordering) as `write` makes them of the
    statement's tuples."""

    def __init__(
        self,
        count: CompiledOnce,
        page: CompiledOnce,
        values: dict[str, Any],
        limit: int,
        using: str,
        write: Callable[[list[tuple]], list[dict[str, Any]]],
    ):
        self.counting, self.paging, self.values = count, page, values
        self.limit, self.using, self.write = limit, using, write

    def __len__(self) -> int:
        sql, params = self.counting.sql(self.using, **self.values)
        with connections[self.using].cursor() as cursor:
            # the compiled SQL of a queryset, its values as parameters
            count = f"SELECT COUNT(*) FROM ({sql} LIMIT %s) subquery"  # noqa: S608
            cursor.execute(count, [*params, self.limit + 1])
            return cursor.fetchone()[0]

    def __getitem__(self, index):
        if not isinstance(index, slice) or index.step not in (None, 1) or index.stop is None:
            raise TypeError("A page of the list is read as a slice.")
        start = index.start or 0
        if index.stop <= start:
            return []  # an empty list's page: no statement
        rows = self.paging.slice(start, index.stop - start, self.using, **self.values)
        return self.write(rows) if rows else []
