"""List filters. Foreign keys filter by id (NumberFilter): a choice filter would build its queryset at
import time, outside any tenant."""

import django_filters

from apps.logistics.models import Dispatch, ShipmentCompany, ShipmentInfo


class StatusInFilter(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """?status=planned,in_transit (comma-separated) or a single value."""


class ShipmentFilter(django_filters.FilterSet):
    status = StatusInFilter(choices=ShipmentInfo.Status.choices, lookup_expr="in")
    shipment_company = django_filters.NumberFilter(field_name="shipment_company_id")
    purchase_order = django_filters.NumberFilter(method="filter_purchase_order")
    container_number = django_filters.CharFilter(lookup_expr="iexact")
    eta_from = django_filters.DateFilter(field_name="eta", lookup_expr="gte")
    eta_to = django_filters.DateFilter(field_name="eta", lookup_expr="lte")
    etd_from = django_filters.DateFilter(field_name="etd", lookup_expr="gte")
    etd_to = django_filters.DateFilter(field_name="etd", lookup_expr="lte")

    class Meta:
        model = ShipmentInfo
        fields = ["status", "shipment_company", "container_number"]

    def filter_purchase_order(self, queryset, name, value):
        from apps.logistics.models import ShipmentPurchaseOrder

        links = ShipmentPurchaseOrder.objects.filter(purchase_order_id=value)
        user = getattr(self.request, "user", None)
        if getattr(user, "is_supplier", False) and not getattr(user, "is_warehouse", False):
            # only the supplier's own orders may be used to find shipments
            links = links.filter(purchase_order__supplier__parent_vendor_id=user.parent_vendor_id)
        return queryset.filter(pk__in=links.values("shipment_id"))


class ShipmentCompanyFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = ShipmentCompany
        fields = ["name"]


class DispatchFilter(django_filters.FilterSet):
    carrier = django_filters.NumberFilter(field_name="carrier_id")
    pickup_date = django_filters.DateFilter()
    pickup_from = django_filters.DateFilter(field_name="pickup_date", lookup_expr="gte")
    pickup_to = django_filters.DateFilter(field_name="pickup_date", lookup_expr="lte")
    shipment_status = django_filters.CharFilter(field_name="sales_shipment__status")

    class Meta:
        model = Dispatch
        fields = ["carrier", "pickup_date"]
