"""The list pagination: ?page=&page_size= (at most 200), with a bounded count.

An exact count of a big list costs as much as reading all its filtered rows (`COUNT(*)` over 100,000 rows
is 100 ms and more), on every page. The count here reads at most `LIST_COUNT_LIMIT + 1` rows
(`SELECT COUNT(*) FROM (SELECT ... LIMIT n + 1)`, without the list's ordering): up to the limit it is the
exact count, as before; above it the answer says `count_more: true` and `count` is a lower bound (the
limit, or the rows up to the end of the requested page when that is more). Pages past the limit still
work: such a page reads one row more than it shows, and there is a next page while that row exists
(docs/api-contract.md "Lists", docs/performance.md "Counts of big lists").

A search (`?search=` on a list with search fields) counts at most `SEARCH_COUNT_LIMIT` + 1 matches
(default 1,000). A term too common for its grams falls back to a scan of the list's rows
(apps/common/api/search.py), and a count that has not reached its limit must read every row: a bound of
1,000 stops that scan once 1,001 matches are found. Whoever searches reads the first page and narrows the
term; "more than 1,000" tells them as much as an exact 9,874 (docs/performance.md "Common terms").
"""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import InvalidPage, Page, Paginator
from django.db.models import QuerySet
from django.utils.functional import cached_property
from rest_framework.exceptions import NotFound
from rest_framework.filters import SearchFilter
from rest_framework.pagination import PageNumberPagination, _positive_int
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param


def count_limit(request=None, view=None) -> int:
    """The count's bound: SEARCH_COUNT_LIMIT while the request searches the list, LIST_COUNT_LIMIT
    otherwise."""
    return bound_for(request is not None and searches(request, view))


def bound_for(searching: bool) -> int:
    """`count_limit` once whether the request searches is known."""
    if searching:
        return min(int(settings.SEARCH_COUNT_LIMIT), int(settings.LIST_COUNT_LIMIT))
    return int(settings.LIST_COUNT_LIMIT)


def searches(request, view) -> bool:
    """True when the view's own search backend has fields to search and the request gives it a term:
    the backend answers, so its parameter name and term parsing are the ones the list applied."""
    for backend_class in getattr(view, "filter_backends", ()):
        if issubclass(backend_class, SearchFilter):
            backend = backend_class()
            return bool(backend.get_search_fields(view, request)) and bool(backend.get_search_terms(request))
    return False


class BoundedPaginator(Paginator):
    """Django's paginator whose count reads at most `limit + 1` rows; `more` says the limit was passed."""

    def __init__(self, object_list, per_page, limit: int) -> None:
        super().__init__(object_list, per_page)
        self.limit = limit

    @cached_property
    def counted(self) -> int:
        rows = self.object_list
        if isinstance(rows, QuerySet):
            # the ordering changes nothing in a count and would make PostgreSQL sort or walk an index;
            # the columns computed per row (subqueries) neither, unless they group the rows
            rows = rows.order_by()
            if rows.query.group_by is None and not rows.query.distinct_fields:
                rows = rows.values("pk")
            return rows[: self.limit + 1].count()
        return min(len(rows), self.limit + 1)

    @property
    def more(self) -> bool:
        return self.counted > self.limit

    @cached_property
    def count(self) -> int:
        return min(self.counted, self.limit)


class StandardPagination(PageNumberPagination):
    """?page=&page_size= (at most 200); data = {count, count_more, next, previous, results}."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        page_size = self.get_page_size(request)
        if not page_size:
            return None
        paginator = BoundedPaginator(queryset, page_size, count_limit(request, view))
        self.count_more = False
        self._url = request.build_absolute_uri()
        if not paginator.more:
            # the exact count: Django's paging as before
            try:
                self.page = paginator.page(self.get_page_number(request, paginator))
            except InvalidPage as exc:
                raise NotFound(self.invalid_page_message.format(page_number="", message=str(exc))) from exc
            self._count = paginator.count
            self._has_next = self.page.has_next()
            self._number = self.page.number
            return list(self.page)
        try:
            number = _positive_int(str(request.query_params.get(self.page_query_param) or 1), strict=True)
        except ValueError as exc:
            raise NotFound(self.invalid_page_message) from exc
        offset = (number - 1) * page_size
        rows = list(queryset[offset : offset + page_size + 1])
        if number > 1 and not rows:
            raise NotFound(self.invalid_page_message)
        self._has_next = len(rows) > page_size
        rows = rows[:page_size]
        if self._has_next:
            self.count_more = True
            self._count = max(paginator.limit, offset + len(rows))
        else:  # the last page: now the count is known
            self._count = offset + len(rows)
        self.page = Page(rows, number, paginator)
        self._number = number
        return rows

    def window(self, request) -> tuple[int, int] | None:
        """(offset, rows) the request's page reads, the one row more that tells whether a page follows
        included; None when its page number or size is not a plain positive number (`paginate_queryset`
        answers those)."""
        page_size = self.get_page_size(request)
        try:
            number = _positive_int(str(request.query_params.get(self.page_query_param) or 1), strict=True)
        except ValueError:
            return None
        if not page_size:
            return None
        return (number - 1) * page_size, page_size + 1

    def get_paginated_response(self, data):
        return Response(
            {
                "count": self._count,
                "count_more": self.count_more,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_next_link(self):
        if not self._has_next:
            return None
        return replace_query_param(self._url, self.page_query_param, self._number + 1)

    def get_previous_link(self):
        if self._number <= 1:
            return None
        if self._number == 2:
            return remove_query_param(self._url, self.page_query_param)
        return replace_query_param(self._url, self.page_query_param, self._number - 1)

    def get_paginated_response_schema(self, schema):
        response = super().get_paginated_response_schema(schema)
        response["properties"] = {
            "count": {
                "type": "integer",
                "example": 123,
                "description": "The number of rows, exact unless count_more is true: then a lower bound.",
            },
            "count_more": {
                "type": "boolean",
                "description": "True when the list has more rows than count (counting stopped at the limit).",
            },
            **{key: value for key, value in response["properties"].items() if key != "count"},
        }
        return response
