"""The list filter backend: django-filter, with tenant-scoped choices for foreign-key filters.

django-filter builds a foreign-key filter (`Meta.fields = ["parent_vendor"]`) with the related model's
default manager when the FilterSet class is created, at import time, outside any tenant. A tenant
model's manager fails closed there (apps/tenancy/managers.py), so the backend re-scopes those choices to
the request's tenant on every request: `?parent_vendor=<id of another tenant's vendor>` is then an
invalid choice (400), never a match, and forgetting a callable queryset in a FilterSet is harmless.

A number filter accepts only what fits a 64-bit integer column: `?warehouse=99999999999999999999999999`
is a 400 validation error on every database (SQLite cannot bind it; PostgreSQL would quietly match
nothing), so the same request answers the same way whichever database serves it.

A request that names none of the filter set's parameters is not filtered at all: the filter set, its form
and its validation would change nothing (django-filter skips an empty value), and building them is a few
milliseconds of every unfiltered list page (docs/performance.md, "Per-request overhead"). A filter set that
filters without a parameter (a default in its own `filter_queryset`) or requires one is always built.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import F, UniqueConstraint
from django_filters import rest_framework as filters
from rest_framework.filters import OrderingFilter

from apps.common.prices import hide_prices, is_money_field
from apps.tenancy.managers import TenantQuerySet

BIGINT_MAX = 2**63 - 1  # the largest value of a 64-bit integer column (ids, numbers)
BIGINT_BOUNDS = (MinValueValidator(-BIGINT_MAX - 1), MaxValueValidator(BIGINT_MAX))


def names_none_of(filterset_class, query_params) -> bool:
    """Whether the query string names none of the filter set's parameters, so that building the filter set
    would change nothing. A parameter is named when a key is a filter's name or begins with it and "_" (the
    halves of a range: `created_after`, `amount_min`); a filter set with its own `filter_queryset` or `qs`,
    or with a required filter, always counts as named."""
    if (
        filterset_class.filter_queryset is not filters.FilterSet.filter_queryset
        or filterset_class.qs is not filters.FilterSet.qs
    ):
        return False
    names = filterset_class.base_filters
    if any(filter_.extra.get("required") for filter_ in names.values()):
        return False
    return not any(key in names or any(key.startswith(f"{name}_") for name in names) for key in query_params)


class TenantFilterBackend(filters.DjangoFilterBackend):
    def filter_queryset(self, request, queryset, view):
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is None or names_none_of(filterset_class, request.query_params):
            return queryset
        return super().filter_queryset(request, queryset, view)

    def get_filterset(self, request, queryset, view):
        filterset = super().get_filterset(request, queryset, view)
        if filterset is None:
            return None
        for filter_ in filterset.filters.values():
            choices = getattr(filter_, "queryset", None)
            if isinstance(choices, TenantQuerySet) and choices._tenant_missing:
                filter_.queryset = choices.model.objects.for_current_tenant()
            if isinstance(filter_, filters.NumberFilter):
                filter_.extra["validators"] = [*filter_.extra.get("validators", ()), *BIGINT_BOUNDS]
        return filterset


TIE_BREAKERS = frozenset({"id", "-id", "pk", "-pk"})


class PriceAwareOrderingFilter(OrderingFilter):
    """DRF's ordering filter without sorting by money fields for users who may not see prices (a sort order
    would reveal them; apps/common/prices.py).

    Every list ordering ends on the row's unique key, in the direction of its last term: rows that tie on
    the chosen column (two orders of the same date) come in the same order on every request, whatever plan
    the database picks, so a page boundary never repeats or skips a row and a picture of a list does not
    change after the database has been analysed. The list indexes are (tenant, column, id) to match
    (docs/performance.md, "Indexes for the list orderings").

    Rows without a value (a policy for every parent vendor has no vendor's name) come where PostgreSQL
    puts them, last when ascending and first when descending, on every database: SQLite would put them
    the other way round, so the same list would differ between the two. PostgreSQL's own order keeps the
    list indexes usable."""

    def get_ordering(self, request, queryset, view):
        ordering = super().get_ordering(request, queryset, view)
        if not ordering:
            ordering = list(queryset.query.order_by) or list(queryset.model._meta.ordering)
        if not ordering:
            return None
        return nulls_as_postgresql(with_tie_breaker(list(ordering), queryset.model), queryset.model)

    def get_valid_fields(self, queryset, view, context=None):
        fields = super().get_valid_fields(queryset, view, context or {})
        request = getattr(view, "request", None)
        if not hide_prices(request):
            return fields
        return [item for item in fields if not is_money_field(item[0].rsplit("__", 1)[-1])]


def with_tie_breaker(ordering: list, model=None) -> list:
    """`ordering` ending on `id`, ascending or descending as its last term (a field name or an expression),
    unless its last term is already unique within a tenant (an order number: the index of its unique
    constraint then serves the ordering as it is)."""
    last = ordering[-1]
    if isinstance(last, str):
        if last in TIE_BREAKERS or (model is not None and unique_in_tenant(model, last.lstrip("-"))):
            return ordering
        descending = last.startswith("-")
    else:
        descending = bool(getattr(last, "descending", False))
    return [*ordering, "-id" if descending else "id"]


def nulls_as_postgresql(ordering: list, model) -> list:
    """Each term of `ordering` naming a field that may be empty (the field, or a relation on its way, may
    be null) as an expression with PostgreSQL's place for the empties: last ascending, first descending."""
    result = []
    for term in ordering:
        if isinstance(term, str) and term not in TIE_BREAKERS and may_be_null(model, term.lstrip("-")):
            name = term.lstrip("-")
            term = F(name).desc(nulls_first=True) if term.startswith("-") else F(name).asc(nulls_last=True)
        result.append(term)
    return result


def _field(model, name: str):
    """The model's field of that name, or None when it has none (an annotation, a mistyped name)."""
    try:
        return model._meta.get_field(name)
    except FieldDoesNotExist:
        return None


def may_be_null(model, path: str) -> bool:
    """Whether the field at `path` (`parent_vendor__name`) can be empty for a row of `model`: the field is
    nullable, or a relation it is reached through is (an outer join). An unknown path: False."""
    for name in path.split("__"):
        field = _field(model, name)
        if field is None:
            return False
        if getattr(field, "null", False):
            return True
        model = getattr(field, "related_model", None)
        if model is None:
            return False
    return False


def unique_in_tenant(model, name: str) -> bool:
    """Whether no two rows of one tenant share a value of the field `name` (never a nullable field, whose
    nulls tie): the field is unique, or a unique constraint without a condition is (tenant, name)."""
    if "__" in name:
        return False
    field = _field(model, name)
    if field is None or getattr(field, "null", True):
        return False
    if getattr(field, "unique", False):
        return True
    sets = [
        constraint.fields
        for constraint in model._meta.constraints
        if isinstance(constraint, UniqueConstraint) and constraint.condition is None and constraint.fields
    ]
    sets += list(model._meta.unique_together)
    return any(name in fields and set(fields) <= {name, "tenant"} for fields in sets)
