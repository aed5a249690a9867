"""List filters. Foreign keys filter by id (NumberFilter): a choice filter would build its queryset at
import time, outside any tenant."""

import django_filters

from apps.purchaseorders.models import MatchStatus, PurchaseOrder, Receipt, SupplierInvoice


class StatusInFilter(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """?status=confirmed,sent (comma-separated) or a single value."""


class PurchaseOrderFilter(django_filters.FilterSet):
    status = StatusInFilter(choices=PurchaseOrder.Status.choices, lookup_expr="in")
    type = django_filters.ChoiceFilter(choices=PurchaseOrder.Type.choices)
    supplier = django_filters.NumberFilter(field_name="supplier_id")
    parent_vendor = django_filters.NumberFilter(field_name="supplier__parent_vendor_id")
    owner = django_filters.NumberFilter(field_name="owner_id")
    currency = django_filters.CharFilter(lookup_expr="iexact")
    order_number = django_filters.CharFilter(lookup_expr="iexact")
    order_date_from = django_filters.DateFilter(field_name="order_date", lookup_expr="gte")
    order_date_to = django_filters.DateFilter(field_name="order_date", lookup_expr="lte")
    promise_date_from = django_filters.DateFilter(field_name="promise_date", lookup_expr="gte")
    promise_date_to = django_filters.DateFilter(field_name="promise_date", lookup_expr="lte")
    product = django_filters.NumberFilter(method="filter_product")

    class Meta:
        model = PurchaseOrder
        fields = ["status", "type", "supplier", "parent_vendor", "owner", "currency", "order_number"]

    def filter_product(self, queryset, name, value):
        from apps.purchaseorders.models import PurchaseOrderLine

        return queryset.filter(pk__in=PurchaseOrderLine.objects.filter(product_id=value).values("order_id"))


class ReceiptFilter(django_filters.FilterSet):
    purchase_order = django_filters.NumberFilter(field_name="purchase_order_id")
    supplier = django_filters.NumberFilter(field_name="purchase_order__supplier_id")
    warehouse = django_filters.NumberFilter(field_name="warehouse_id")
    receipt_date_from = django_filters.DateFilter(field_name="receipt_date", lookup_expr="gte")
    receipt_date_to = django_filters.DateFilter(field_name="receipt_date", lookup_expr="lte")

    class Meta:
        model = Receipt
        fields = ["purchase_order", "supplier", "warehouse"]


class SupplierInvoiceFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=SupplierInvoice.Status.choices)
    match_status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    kind = django_filters.ChoiceFilter(choices=SupplierInvoice.Kind.choices)
    supplier = django_filters.NumberFilter(field_name="supplier_id")
    purchase_order = django_filters.NumberFilter(field_name="purchase_order_id")
    issue_date_from = django_filters.DateFilter(field_name="issue_date", lookup_expr="gte")
    issue_date_to = django_filters.DateFilter(field_name="issue_date", lookup_expr="lte")

    class Meta:
        model = SupplierInvoice
        fields = ["status", "match_status", "kind", "supplier", "purchase_order"]
