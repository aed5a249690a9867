"""List filters (foreign keys by id: a choice filter would build its queryset at import time)."""

import django_filters
from django.db.models import Q

from apps.inventory import selectors
from apps.inventory.models import Location, Stock, StockMove, WarehouseCarton


class StockFilter(django_filters.FilterSet):
    product = django_filters.NumberFilter(field_name="product_id")
    location = django_filters.NumberFilter(field_name="location_id")
    warehouse = django_filters.NumberFilter(field_name="location__warehouse_id")
    product_group = django_filters.NumberFilter(field_name="product__group_id")
    in_stock = django_filters.BooleanFilter(method="filter_in_stock")
    below_reorder_point = django_filters.BooleanFilter(method="filter_below_reorder_point")

    class Meta:
        model = Stock
        fields = ["product", "location", "warehouse", "product_group"]

    def filter_in_stock(self, queryset, name, value):
        return queryset.filter(quantity__gt=0) if value else queryset.filter(quantity__lte=0)

    def filter_below_reorder_point(self, queryset, name, value):
        if not value:
            return queryset
        return selectors.below_reorder_point(queryset)


class StockMoveFilter(django_filters.FilterSet):
    product = django_filters.NumberFilter(field_name="product_id")
    location = django_filters.NumberFilter(method="filter_location")
    warehouse = django_filters.NumberFilter(method="filter_warehouse")
    kind = django_filters.ChoiceFilter(choices=StockMove.Kind.choices)
    document_type = django_filters.ChoiceFilter(choices=StockMove.Document.choices)
    document_id = django_filters.NumberFilter()
    reference = django_filters.CharFilter(lookup_expr="icontains")
    moved_after = django_filters.IsoDateTimeFilter(field_name="moved_at", lookup_expr="gte")
    moved_before = django_filters.IsoDateTimeFilter(field_name="moved_at", lookup_expr="lte")

    class Meta:
        model = StockMove
        fields = ["product", "kind", "reference", "document_type", "document_id"]

    def filter_location(self, queryset, name, value):
        return queryset.filter(Q(from_location_id=value) | Q(to_location_id=value))

    def filter_warehouse(self, queryset, name, value):
        return queryset.filter(Q(from_location__warehouse_id=value) | Q(to_location__warehouse_id=value))


class WarehouseCartonFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=WarehouseCarton.Status.choices)
    product = django_filters.NumberFilter(field_name="product_id")
    location = django_filters.NumberFilter(field_name="location_id")
    warehouse = django_filters.NumberFilter(field_name="location__warehouse_id")
    inbound_shipment = django_filters.NumberFilter(field_name="inbound_shipment_id")
    posted = django_filters.BooleanFilter(field_name="receipt", lookup_expr="isnull", exclude=True)

    class Meta:
        model = WarehouseCarton
        fields = ["status", "product", "location", "inbound_shipment"]


class LocationFilter(django_filters.FilterSet):
    warehouse = django_filters.NumberFilter(field_name="warehouse_id")
    code = django_filters.CharFilter(method="filter_code")
    kind = django_filters.CharFilter()
    is_active = django_filters.BooleanFilter()

    class Meta:
        model = Location
        fields = ["warehouse", "kind", "is_active"]

    def filter_code(self, queryset, name, value):
        """`A-01` or `RTM/A-01` (warehouse code and location code, as printed on a location label)."""
        text = value.strip().upper()
        if "/" in text:
            warehouse, _sep, code = text.partition("/")
            return queryset.filter(warehouse__code__iexact=warehouse, code__iexact=code)
        return queryset.filter(code__iexact=text)
