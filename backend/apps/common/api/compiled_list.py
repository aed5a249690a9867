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
    statement's tuples.

    With a `window` (the page's offset and size, the one row more the paginator may ask for included) that
    lies within the counted rows, the count and the page are one statement (`CompiledOnce.counted_slice`):
    the page's statement reads its first `limit` + 1 rows in order, counts them and keeps the window. A
    search's count and page apply the same condition to the same rows, so the rows are read and tested
    once instead of twice (docs/performance.md, "A search's count and page in one statement")."""

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
        self.window: tuple[int, int] | None = None
        self._read: tuple[int, int, list[tuple]] | None = None  # (offset, size, rows) read with the count

    def __len__(self) -> int:
        if self.window is not None:
            offset, size = self.window
            if offset + size <= self.limit + 1:
                counted, rows = self.paging.counted_slice(
                    offset, size, self.limit + 1, self.using, **self.values
                )
                if counted is not None:
                    self._read = (offset, size, rows)
                    return counted
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
        if self._read is not None:
            offset, size, read = self._read
            # fewer rows than the window's size: the list ends within it
            if offset <= start and (index.stop <= offset + size or len(read) < size):
                rows = read[start - offset : index.stop - offset]
                return self.write(rows) if rows else []
        rows = self.paging.slice(start, index.stop - start, self.using, **self.values)
        return self.write(rows) if rows else []
