"""List filters. Foreign keys filter by id (NumberFilter): a choice filter would build its queryset at
import time, outside any tenant."""

import django_filters

from apps.salesorders import selectors
from apps.salesorders.models import Invoice, SalesOrder, SalesOrderLine, SalesQuotation, Shipment


class StatusInFilter(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """?status=draft,confirmed (comma-separated) or a single value."""


class SalesOrderFilter(django_filters.FilterSet):
    status = StatusInFilter(choices=SalesOrder.Status.choices, lookup_expr="in")
    customer = django_filters.NumberFilter(field_name="customer_id")
    owner = django_filters.NumberFilter(field_name="owner_id")
    warehouse = django_filters.NumberFilter(field_name="warehouse_id")
    currency = django_filters.CharFilter(lookup_expr="iexact")
    order_number = django_filters.CharFilter(lookup_expr="iexact")
    order_date_from = django_filters.DateFilter(field_name="order_date", lookup_expr="gte")
    order_date_to = django_filters.DateFilter(field_name="order_date", lookup_expr="lte")
    product = django_filters.NumberFilter(method="filter_product")

    class Meta:
        model = SalesOrder
        fields = ["status", "customer", "owner", "warehouse", "currency", "order_number"]

    def filter_product(self, queryset, name, value):
        return queryset.filter(pk__in=SalesOrderLine.objects.filter(product_id=value).values("order_id"))


class ShipmentFilter(django_filters.FilterSet):
    status = StatusInFilter(choices=Shipment.Status.choices, lookup_expr="in")
    sales_order = django_filters.NumberFilter(field_name="sales_order_id")
    customer = django_filters.NumberFilter(field_name="sales_order__customer_id")
    warehouse = django_filters.NumberFilter(field_name="warehouse_id")
    planned_date_from = django_filters.DateFilter(field_name="planned_date", lookup_expr="gte")
    planned_date_to = django_filters.DateFilter(field_name="planned_date", lookup_expr="lte")

    class Meta:
        model = Shipment
        fields = ["status", "sales_order", "customer", "warehouse"]


PAYMENT_STATUSES = [
    ("draft", "draft"),
    ("open", "open"),
    ("partially_paid", "partially_paid"),
    ("paid", "paid"),
    ("overdue", "overdue"),
    ("credited", "credited"),
    ("unpaid", "unpaid"),
    ("credit_note", "credit_note"),
]


class InvoiceFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Invoice.Status.choices)
    kind = django_filters.ChoiceFilter(choices=Invoice.Kind.choices)
    sales_order = django_filters.NumberFilter(field_name="sales_order_id")
    customer = django_filters.NumberFilter(field_name="customer_id")
    shipment = django_filters.NumberFilter(field_name="shipments")
    payment_status = django_filters.ChoiceFilter(choices=PAYMENT_STATUSES, method="filter_payment_status")
    issue_date_from = django_filters.DateFilter(field_name="issue_date", lookup_expr="gte")
    issue_date_to = django_filters.DateFilter(field_name="issue_date", lookup_expr="lte")

    class Meta:
        model = Invoice
        fields = ["status", "kind", "sales_order", "customer"]

    def filter_payment_status(self, queryset, name, value):
        return selectors.invoices_filter_payment_status(queryset, value)


SCHEDULE_STATUSES = [("late", "late"), ("planned", "planned"), ("open", "open")]


class DeliveryFilter(django_filters.FilterSet):
    customer = django_filters.NumberFilter(field_name="order__customer_id")
    warehouse = django_filters.NumberFilter(field_name="order__warehouse_id")
    product = django_filters.NumberFilter(field_name="product_id")
    sales_order = django_filters.NumberFilter(field_name="order_id")
    status = django_filters.ChoiceFilter(choices=SCHEDULE_STATUSES, field_name="schedule_status")
    due_from = django_filters.DateFilter(field_name="due_date", lookup_expr="gte")
    due_to = django_filters.DateFilter(field_name="due_date", lookup_expr="lte")

    class Meta:
        model = SalesOrderLine
        fields = ["customer", "warehouse", "product", "sales_order", "status"]


class SalesQuotationFilter(django_filters.FilterSet):
    """`status` is the shown status (`expired` is derived from `valid_until`): selectors."""

    status = StatusInFilter(choices=SalesQuotation.Status.choices, method="filter_status")
    customer = django_filters.NumberFilter(field_name="customer_id")
    owner = django_filters.NumberFilter(field_name="owner_id")
    quotation_date_from = django_filters.DateFilter(field_name="quotation_date", lookup_expr="gte")
    quotation_date_to = django_filters.DateFilter(field_name="quotation_date", lookup_expr="lte")

    class Meta:
        model = SalesQuotation
        fields = ["status", "customer", "owner"]

    def filter_status(self, queryset, name, value):
        return selectors.quotations_filter_status(queryset, list(value)) if value else queryset
