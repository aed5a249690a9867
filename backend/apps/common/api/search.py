"""List search (`?search=`) without joins.

DRF's SearchFilter ORs one `icontains` per search field. A field of another table (`group__name`,
`supplier__name`, `lines__product_number`) made that a join with the condition on the joined row, and a
reverse relation a DISTINCT (as EXISTS) on top, for the count and for the page. Here each such field
becomes a condition on the list's own table over the ids the other table matches,
`group_id = ANY(ARRAY(SELECT id FROM products_productgroup WHERE UPPER(name) LIKE ...))` (forward
foreign key) or `id = ANY(ARRAY(SELECT order_id FROM ...lines WHERE ...))` (reverse one), computed once
per query: one pass over the list's rows, no join, no DISTINCT. A path of several relations nests the
same condition, innermost first (`sales_order__customer__name`: `sales_order_id = ANY(ARRAY(SELECT id
FROM salesorders_salesorder WHERE customer_id = ANY(ARRAY(SELECT id FROM customers_customer WHERE
...))))`). A many-to-many field goes through its link table the same way. Reverse many-to-many relations, paths of
more than MAX_HOPS relations and SQLite keep DRF's behaviour.

Trigram indexes (pg_trgm, GIN over `upper(col::text)`) would answer the `LIKE '%x%'` conditions in well
under a millisecond, but not under row-level security: PostgreSQL evaluates the tenant policy before any
condition whose operator is not LEAKPROOF, and LIKE (`textlike`) is not, so no index on it is used for
the app's role (docs/performance.md, "List search").
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import FieldDoesNotExist
from django.db import connection, models
from django.db.models import ForeignObjectRel
from rest_framework.filters import SearchFilter

from apps.common import search_index


class EqualsAny(models.Func):
    """`lhs = ANY(array)`: an index condition on lhs when the array is an uncorrelated subquery."""

    arg_joiner = " = ANY("
    template = "(%(expressions)s))"
    output_field = models.BooleanField()


class _IdArrayField(ArrayField):
    """An array of ids read from the database, passed to the driver as they are. ArrayField prepares each
    element through its base field (a range check and a wrapper per id): 3 µs an id, 15 ms to compile a
    statement with 5,000 candidates, done for the count and again for the page."""

    def get_db_prep_value(self, value, connection, prepared=False):
        return value


def _ids(ids: list[int]):
    """A constant array of ids: planned with its real length, and tested by hashing, not one by one.
    psycopg writes it as a literal of the narrowest integer array that holds them all, cast to bigint[]
    (`'{...}'::int2[]::bigint[]`), which PostgreSQL folds to one bigint[] constant when planning."""
    return models.Value(ids, output_field=_IdArrayField(models.BigIntegerField()))


MAX_HOPS = 3  # relations followed in one search field (`order_links__purchase_order__order_number`: 2)


class JoinFreeSearchFilter(SearchFilter):
    def _relation(self, model, search_field: str):
        """(relations, target field) of `relation__...__field` (up to MAX_HOPS foreign keys or one-to-one
        fields, either direction, or many-to-many fields of the model itself, and the default lookup), or
        None."""
        if search_field[0] in self.lookup_prefixes:
            return None
        parts = search_field.split("__")
        if not 2 <= len(parts) <= MAX_HOPS + 1:
            return None
        relations, current = [], model
        for name in parts[:-1]:
            try:
                relation = current._meta.get_field(name)
            except FieldDoesNotExist:
                return None
            forward = (relation.many_to_one or relation.one_to_one) and relation.concrete
            reverse = isinstance(relation, ForeignObjectRel) and (relation.one_to_many or relation.one_to_one)
            many = isinstance(relation, models.ManyToManyField)
            if relation.related_model is None or not (forward or reverse or many):
                return None
            relations.append(relation)
            current = relation.related_model
        try:
            target = current._meta.get_field(parts[-1])
        except FieldDoesNotExist:
            return None
        if target.is_relation:
            return None
        return relations, target

    def _related_condition(self, model, search_field: str, term: str, candidate_ids=None):
        """The condition for `relation__...__field`, or None to leave it to DRF. `candidate_ids`: the rows
        of the last related table that may match (from their grams), or None for all. Each hop is an
        `= ANY(ARRAY(SELECT ...))` over the next table's matching rows, innermost first."""
        found = self._relation(model, search_field)
        if found is None:
            return None
        relations, target = found
        matching = relations[-1].related_model._default_manager.filter(
            **{f"{target.name}__{self.default_lookup}": term}
        )
        if candidate_ids is not None:
            matching = matching.filter(EqualsAny(models.F("pk"), _ids(candidate_ids)))
        condition = None
        for index in range(len(relations) - 1, -1, -1):
            if condition is not None:  # the rows of this hop's table that lead to a match
                matching = relations[index].related_model._default_manager.filter(condition)
            relation = relations[index]
            if isinstance(relation, models.ManyToManyField):
                # this row's id is among those its through rows to the matching rows hold
                through: Any = relation.remote_field.through
                to_target = through._meta.get_field(relation.m2m_reverse_field_name()).attname
                to_source = through._meta.get_field(relation.m2m_field_name()).attname
                links = through._default_manager.filter(
                    EqualsAny(models.F(to_target), ArraySubquery(matching.order_by().values("pk")))
                )
                condition = EqualsAny(models.F("pk"), ArraySubquery(links.order_by().values(to_source)))
            elif relation.concrete:  # forward: this row's key is among the matching rows' ids
                condition = EqualsAny(
                    models.F(relation.attname), ArraySubquery(matching.order_by().values("pk"))
                )
            else:  # reverse: this row's id is among the keys the matching rows hold
                condition = EqualsAny(
                    models.F("pk"), ArraySubquery(matching.order_by().values(relation.field.attname))
                )
        return condition

    def _own_indexed(self, model, search_field: str) -> int | None:
        """The gram kind when `search_field` is a field of the list's own table with grams."""
        indexed = search_index.indexed_fields(model)
        if indexed is None or search_field[0] in self.lookup_prefixes or "__" in search_field:
            return None
        kind, fields = indexed
        return kind if search_field in fields else None

    def _related_indexed(self, model, search_field: str) -> int | None:
        """The gram kind of the last related table when `relation__...__field` is one of its fields with
        grams."""
        found = self._relation(model, search_field)
        if found is None:
            return None
        relations, target = found
        indexed = search_index.indexed_fields(relations[-1].related_model)
        if indexed is None or target.name not in indexed[1]:
            return None
        return indexed[0]

    def _fields(self, queryset, search_fields: list[str]) -> tuple[dict, dict, dict]:
        """(the `icontains` lookup of each field DRF's way, the gram kind of each of those on the list's
        own table, the gram kind of each related field's last table)."""
        model = queryset.model
        left_to_drf = [field for field in search_fields if self._relation(model, field) is None]
        lookups = {field: self.construct_search(field, queryset) for field in left_to_drf}
        own_kinds = {field: self._own_indexed(model, field) for field in left_to_drf}
        related_kinds = {
            field: self._related_indexed(model, field) for field in search_fields if field not in lookups
        }
        return lookups, own_kinds, related_kinds

    def gram_kinds(self, queryset, search_fields: list[str]) -> set[int]:
        """The gram kinds whose candidates a search of these fields reads."""
        _, own_kinds, related_kinds = self._fields(queryset, search_fields)
        return {kind for kind in [*own_kinds.values(), *related_kinds.values()] if kind is not None}

    def filter_queryset(self, request, queryset, view):
        if connection.vendor != "postgresql":
            return super().filter_queryset(request, queryset, view)
        search_fields = [str(field) for field in self.get_search_fields(view, request) or ()]
        search_terms = self.get_search_terms(request)
        if not search_fields or not search_terms:
            return queryset
        kinds = self.gram_kinds(queryset, search_fields)
        # one query per term: the candidates of every table with grams that the search reads
        found = [search_index.candidates(kinds, term) for term in search_terms]
        return self.searched(queryset, search_fields, search_terms, found)

    def searched(self, queryset, search_fields: list[str], terms: list, found: list[dict]):
        """`queryset` with every term in one of the fields, given each term's candidates per gram kind
        (`search_index.candidates`, or stand-ins of them for a statement compiled once:
        apps/products/api/list_page.py)."""
        model = queryset.model
        lookups, own_kinds, related_kinds = self._fields(queryset, search_fields)
        conditions = []
        for term, candidates in zip(terms, found, strict=True):
            alternatives, indexed_alternatives, own_candidates = [], [], None
            for field in search_fields:
                if field in lookups:
                    condition = models.Q(**{lookups[field]: term})
                    kind = own_kinds[field]
                    if kind is not None and candidates[kind] is not None:
                        own_candidates = candidates[kind]
                        indexed_alternatives.append(condition)
                    else:
                        alternatives.append(condition)
                else:
                    kind = related_kinds[field]
                    related_candidates = candidates[kind] if kind is not None else None
                    alternatives.append(
                        models.Q(self._related_condition(model, field, term, related_candidates))
                    )
            if indexed_alternatives:
                # the exact `icontains` of the indexed fields, on the rows holding the term's grams only
                alternatives.append(
                    models.Q(EqualsAny(models.F("pk"), _ids(own_candidates or [])))
                    & reduce(operator.or_, indexed_alternatives)
                )
            conditions.append(reduce(operator.or_, alternatives))
        base = queryset
        queryset = queryset.filter(reduce(operator.and_, conditions))
        if self.must_call_distinct(queryset, list(lookups)):
            queryset = base.filter(models.Exists(queryset.filter(pk=models.OuterRef("pk"))))
        return queryset
