"""Filters of the users admin list (users of the current tenant) and of departments."""

import django_filters
from django.db.models import Q

from apps.tenancy.context import require_tenant_id
from apps.users.models import User


class UserFilter(django_filters.FilterSet):
    user_type = django_filters.ChoiceFilter(
        choices=[("internal", "internal"), ("warehouse", "warehouse"), ("supplier", "supplier")],
        method="filter_user_type",
    )
    is_active = django_filters.BooleanFilter()
    role = django_filters.NumberFilter(method="filter_role")
    department = django_filters.NumberFilter(method="filter_department")
    parent_vendor = django_filters.NumberFilter(field_name="parent_vendor_id")

    class Meta:
        model = User
        fields = ["user_type", "is_active", "role", "department", "parent_vendor"]

    def filter_user_type(self, queryset, name, value):
        if value == "warehouse":
            return queryset.filter(is_warehouse=True)
        if value == "supplier":
            return queryset.filter(is_supplier=True, is_warehouse=False)
        return queryset.filter(is_supplier=False, is_warehouse=False)

    def filter_role(self, queryset, name, value):
        return queryset.filter(
            Q(memberships__tenant_id=require_tenant_id()) & Q(memberships__roles__id=value)
        ).distinct()

    def filter_department(self, queryset, name, value):
        return queryset.filter(
            memberships__tenant_id=require_tenant_id(), memberships__department_id=value
        ).distinct()
