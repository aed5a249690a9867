from __future__ import annotations

import django_filters
from django.db.models import Q
from django.utils import timezone

from apps.eudr.models import CartonLabel, MaterialType, ProductionBatch, RawMaterialDelivery, SupplierPolicy


class RawMaterialDeliveryFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        choices=RawMaterialDelivery.Status.choices,
        method="filter_status",
        help_text="The effective status: an active delivery past a certificate's expiry counts as expired.",
    )
    material_type = django_filters.ChoiceFilter(choices=MaterialType.choices, method="filter_material_type")
    country_code = django_filters.CharFilter(lookup_expr="iexact")
    created_from = django_filters.DateFilter(field_name="created_at", lookup_expr="date__gte")
    created_to = django_filters.DateFilter(field_name="created_at", lookup_expr="date__lte")

    class Meta:
        model = RawMaterialDelivery
        fields = ["parent_vendor", "status", "country_code", "fm_certification_type"]

    def filter_status(self, queryset, name, value):
        today = timezone.localdate()
        past = Q(fm_certificate_expiry__lt=today) | Q(coc_certificate_expiry__lt=today)
        if value == RawMaterialDelivery.Status.ACTIVE:
            return queryset.filter(status=value).exclude(past)
        if value == RawMaterialDelivery.Status.EXPIRED:
            return queryset.filter(Q(status=value) | (Q(status=RawMaterialDelivery.Status.ACTIVE) & past))
        return queryset.filter(status=value)

    def filter_material_type(self, queryset, name, value):
        return queryset.filter(
            pk__in=RawMaterialDelivery.objects.filter(lines__material_type=value).values("pk")
        )


class CartonLabelFilter(django_filters.FilterSet):
    raw_material = django_filters.NumberFilter(field_name="raw_material_id")
    batch = django_filters.NumberFilter(field_name="batch_id")
    production_batch_code = django_filters.CharFilter(lookup_expr="iexact")
    status = django_filters.ChoiceFilter(
        choices=[*CartonLabel.Status.choices, ("all", "All")],
        method="filter_status",
        help_text="active (the default), voided (deleted labels) or all.",
    )
    purchase_order = django_filters.CharFilter(lookup_expr="iexact", help_text="The order number.")
    purchase_order_line = django_filters.NumberFilter(field_name="purchase_order_line_id")
    product = django_filters.NumberFilter(field_name="product_id")
    container = django_filters.CharFilter(lookup_expr="iexact")
    code = django_filters.CharFilter(lookup_expr="iexact")
    created_from = django_filters.DateFilter(field_name="created_at", lookup_expr="date__gte")
    created_to = django_filters.DateFilter(field_name="created_at", lookup_expr="date__lte")

    class Meta:
        model = CartonLabel
        fields = ["raw_material", "batch", "production_batch_code", "status", "purchase_order"]

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("status"):
            queryset = queryset.filter(status=CartonLabel.Status.ACTIVE)
        return queryset

    def filter_status(self, queryset, name, value):
        if value == "all":
            return queryset
        return queryset.filter(status=value)


class ProductionBatchFilter(django_filters.FilterSet):
    production_batch_code = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = ProductionBatch
        fields = ["production_batch_code", "product", "purchase_order_line"]


class SupplierPolicyFilter(django_filters.FilterSet):
    class Meta:
        model = SupplierPolicy
        fields = ["parent_vendor", "material_type", "cap_mode", "is_active"]
