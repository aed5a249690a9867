import django_filters

from apps.products.models import Product, ProductGroup
from apps.products.selectors import GroupIndex


class ProductFilter(django_filters.FilterSet):
    group = django_filters.NumberFilter(
        method="filter_group", label="Product group id (its subgroups' products included)"
    )
    is_active = django_filters.BooleanFilter()
    unit = django_filters.ChoiceFilter(choices=Product.Unit.choices)
    hs_code = django_filters.CharFilter(lookup_expr="startswith", label="HS code starts with")
    has_weight = django_filters.BooleanFilter(
        field_name="weight_per_carton_kg", lookup_expr="isnull", exclude=True, label="Has a carton weight"
    )

    class Meta:
        model = Product
        fields = ["group", "is_active", "unit", "hs_code", "has_weight"]

    def filter_group(self, queryset, name, value):
        return queryset.filter(group_id__in=GroupIndex().subtree(int(value)))


class ProductGroupFilter(django_filters.FilterSet):
    parent = django_filters.NumberFilter(field_name="parent_id")
    root = django_filters.BooleanFilter(
        field_name="parent", lookup_expr="isnull", label="Top-level groups only"
    )

    class Meta:
        model = ProductGroup
        fields = ["parent", "root"]
