"""The list filter backend: django-filter, with tenant-scoped choices for foreign-key filters.

django-filter builds a foreign-key filter (`Meta.fields = ["parent_vendor"]`) with the related model's
default manager when the FilterSet class is created, at import time, outside any tenant. A tenant
model's manager fails closed there (apps/tenancy/managers.py), so the backend re-scopes those choices to
the request's tenant on every request: `?parent_vendor=<id of another tenant's vendor>` is then an
invalid choice (400), never a match, and forgetting a callable queryset in a FilterSet is harmless.

A number filter accepts only what fits a 64-bit integer column: `?warehouse=99999999999999999999999999`
is a 400 validation error on every database (SQLite cannot bind it; PostgreSQL would quietly match
nothing), so the same request answers the same way whichever database serves it.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django_filters import rest_framework as filters
from rest_framework.filters import OrderingFilter

from apps.common.prices import hide_prices, is_money_field
from apps.tenancy.managers import TenantQuerySet

BIGINT_BOUNDS = (MinValueValidator(-(2**63)), MaxValueValidator(2**63 - 1))


class TenantFilterBackend(filters.DjangoFilterBackend):
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


class PriceAwareOrderingFilter(OrderingFilter):
    """DRF's ordering filter without sorting by money fields for users who may not see prices (a sort order
    would reveal them; apps/common/prices.py)."""

    def get_valid_fields(self, queryset, view, context=None):
        fields = super().get_valid_fields(queryset, view, context or {})
        request = getattr(view, "request", None)
        if not hide_prices(request):
            return fields
        return [item for item in fields if not is_money_field(item[0].rsplit("__", 1)[-1])]
