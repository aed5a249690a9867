"""List search (`?search=`) without joins.

DRF's SearchFilter ORs one `icontains` per search field. A field of another table (`group__name`,
`supplier__name`, `lines__product_number`) made that a join with the condition on the joined row, and a
reverse relation a DISTINCT (as EXISTS) on top, for the count and for the page. Here each such field
becomes a condition on the list's own table over the ids the other table matches,
`group_id = ANY(ARRAY(SELECT id FROM products_productgroup WHERE UPPER(name) LIKE ...))` (forward
foreign key) or `id = ANY(ARRAY(SELECT order_id FROM ...lines WHERE ...))` (reverse one), computed once
per query: one pass over the list's rows, no join, no DISTINCT. Deeper paths and SQLite keep DRF's
behaviour.

Trigram indexes (pg_trgm, GIN over `upper(col::text)`) would answer the `LIKE '%x%'` conditions in well
under a millisecond, but not under row-level security: PostgreSQL evaluates the tenant policy before any
condition whose operator is not LEAKPROOF, and LIKE (`textlike`) is not, so no index on it is used for
the app's role (docs/performance.md, "List search").
"""

from __future__ import annotations

import operator
from functools import reduce

from django.contrib.postgres.expressions import ArraySubquery
from django.core.exceptions import FieldDoesNotExist
from django.db import connection, models
from rest_framework.filters import SearchFilter


class EqualsAny(models.Func):
    """`lhs = ANY(array)`: an index condition on lhs when the array is an uncorrelated subquery."""

    arg_joiner = " = ANY("
    template = "(%(expressions)s))"
    output_field = models.BooleanField()


class JoinFreeSearchFilter(SearchFilter):
    def _related_condition(self, model, search_field: str, term: str):
        """The condition for `relation__field` (one hop, default lookup), or None to leave it to DRF."""
        if search_field[0] in self.lookup_prefixes:
            return None
        parts = search_field.split("__")
        if len(parts) != 2:
            return None
        try:
            relation = model._meta.get_field(parts[0])
        except FieldDoesNotExist:
            return None
        related = relation.related_model
        if related is None:
            return None
        try:
            target = related._meta.get_field(parts[1])
        except FieldDoesNotExist:
            return None
        if target.is_relation:
            return None
        matching = related._default_manager.filter(**{f"{parts[1]}__{self.default_lookup}": term}).order_by()
        if relation.many_to_one and relation.concrete:
            return EqualsAny(models.F(relation.attname), ArraySubquery(matching.values("pk")))
        if relation.one_to_many:
            return EqualsAny(models.F("pk"), ArraySubquery(matching.values(relation.field.attname)))
        return None

    def filter_queryset(self, request, queryset, view):
        if connection.vendor != "postgresql":
            return super().filter_queryset(request, queryset, view)
        search_fields = self.get_search_fields(view, request)
        search_terms = self.get_search_terms(request)
        if not search_fields or not search_terms:
            return queryset
        model = queryset.model
        left_to_drf = [
            field for field in search_fields if self._related_condition(model, str(field), "x") is None
        ]
        lookups = {str(field): self.construct_search(str(field), queryset) for field in left_to_drf}
        conditions = []
        for term in search_terms:
            alternatives = []
            for field in map(str, search_fields):
                if field in lookups:
                    alternatives.append(models.Q(**{lookups[field]: term}))
                else:
                    alternatives.append(models.Q(self._related_condition(model, field, term)))
            conditions.append(reduce(operator.or_, alternatives))
        base = queryset
        queryset = queryset.filter(reduce(operator.and_, conditions))
        if self.must_call_distinct(queryset, left_to_drf):
            queryset = base.filter(models.Exists(queryset.filter(pk=models.OuterRef("pk"))))
        return queryset
