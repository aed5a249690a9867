from typing import Any

from rest_framework import serializers


class TenantRelatedField(serializers.PrimaryKeyRelatedField):
    """A foreign key chosen by id, looked up only in the current tenant (another tenant's id: "does not exist").

    Pass the model's manager (`Product.objects`), never a queryset built at import time.
    """

    def get_queryset(self):
        queryset: Any = self.queryset  # type: ignore[arg-type]  # the stubs read a manager as a descriptor
        if hasattr(queryset, "get_queryset"):
            return queryset.get_queryset()
        return queryset.all()
