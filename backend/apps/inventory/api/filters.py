"""List filters (foreign keys by id: a choice filter would build its queryset at import time)."""

import django_filters

from apps.inventory.models import Stock, StockMove


class StockFilter(django_filters.FilterSet):
    product = django_filters.NumberFilter(field_name="product_id")
    location = django_filters.NumberFilter(field_name="location_id")
    warehouse = django_filters.NumberFilter(field_name="location__warehouse_id")
    in_stock = django_filters.BooleanFilter(method="filter_in_stock")

    class Meta:
        model = Stock
        fields = ["product", "location", "warehouse"]

    def filter_in_stock(self, queryset, name, value):
        return queryset.filter(quantity__gt=0) if value else queryset.filter(quantity__lte=0)


class StockMoveFilter(django_filters.FilterSet):
    product = django_filters.NumberFilter(field_name="product_id")
    location = django_filters.NumberFilter(method="filter_location")
    kind = django_filters.ChoiceFilter(choices=StockMove.Kind.choices)
    reference = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = StockMove
        fields = ["product", "kind", "reference"]

    def filter_location(self, queryset, name, value):
        from django.db.models import Q

        return queryset.filter(Q(from_location_id=value) | Q(to_location_id=value))
