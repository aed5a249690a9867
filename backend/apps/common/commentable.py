"""Which records can carry comments, and who may see a record's comments.

The commented record decides: a user sees (and comments on) a record's comments exactly when they may
view the record itself: the view permission of its model in the tenant, and for supplier users the
record's `supplier_scope` (lookup path to the parent vendor) matching their own parent vendor.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, QuerySet

from apps.common.api.permissions import user_type
from apps.tenancy.permissions import tenant_permissions

COMMENTABLE_MODELS = (
    "purchaseorders.purchaseorder",
    "salesorders.salesorder",
    "logistics.shipmentinfo",
    "suppliers.supplier",
)


def commentable_content_types() -> dict[int, type[Model]]:
    result = {}
    for label in COMMENTABLE_MODELS:
        model = apps.get_model(label)
        result[ContentType.objects.get_for_model(model).pk] = model
    return result


def visible_records(model: type[Model], user, tenant) -> QuerySet:
    """The records of `model` this user may view in the current tenant (none if not allowed)."""
    queryset = model._default_manager.all()
    perm = f"{model._meta.app_label}.view_{model._meta.model_name}"
    if perm not in tenant_permissions(user, tenant):
        return queryset.none()
    if user_type(user) == "supplier":
        scope = getattr(model, "supplier_scope", None)
        if not scope or not user.parent_vendor_id:
            return queryset.none()
        queryset = queryset.filter(**{scope: user.parent_vendor_id})
        # what the supplier portal never shows of its own vendor's records (a draft purchase order)
        hidden = getattr(model, "supplier_exclude", None)
        if hidden:
            queryset = queryset.exclude(**hidden)
    return queryset
