import django_filters

from apps.customers.models import Customer


class CustomerFilter(django_filters.FilterSet):
    is_active = django_filters.BooleanFilter()
    country = django_filters.CharFilter(
        field_name="billing_country", lookup_expr="iexact", label="Billing country"
    )
    currency = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Customer
        fields = ["is_active", "country", "currency"]
