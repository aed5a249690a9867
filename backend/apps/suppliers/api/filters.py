"""List filters. Foreign keys filter by id (NumberFilter): a choice filter would build its queryset at
import time, outside any tenant."""

import django_filters

from apps.suppliers.models import ParentVendor, Supplier


class ParentVendorFilter(django_filters.FilterSet):
    country = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = ParentVendor
        fields = ["is_active", "country"]


class SupplierFilter(django_filters.FilterSet):
    parent_vendor = django_filters.NumberFilter(field_name="parent_vendor_id")
    country = django_filters.CharFilter(lookup_expr="iexact")
    currency = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Supplier
        fields = ["parent_vendor", "is_active", "country", "currency"]
