"""Writes of the product catalogue: products and product groups.

Every function is atomic. Uniqueness per tenant is checked by the serializers for a friendly message and
enforced by the database; a race that slips past the check still ends as a field error, never a 500.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext_lazy as _

from apps.products.errors import ProductGroupNotEmpty, ProductInUse
from apps.products.models import Product, ProductGroup

ARTICLE_NUMBER_TAKEN = _("A product with this article number already exists.")
GROUP_NAME_TAKEN = _("A product group with this name already exists.")
GROUP_CODE_TAKEN = _("A product group with this code already exists.")
GROUP_CYCLE = _("A group cannot be placed under itself or one of its subgroups.")


def _save(instance, unique_errors: dict[str, tuple[str, Any]]) -> None:
    """Saves in a savepoint; a unique-constraint violation becomes a field error."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as exc:
        text = str(exc)
        for field, (constraint, message) in unique_errors.items():
            if constraint in text or field in text:
                raise ValidationError({field: [message]}) from exc
        field, (_constraint, message) = next(iter(unique_errors.items()))
        raise ValidationError({field: [message]}) from exc


def _apply(instance, data: dict[str, Any]) -> None:
    for name, value in data.items():
        setattr(instance, name, value)


PRODUCT_UNIQUE = {"article_number": ("product_tenant_article_unique", ARTICLE_NUMBER_TAKEN)}


@transaction.atomic
def product_create(*, data: dict[str, Any]) -> Product:
    """Creates a product in the current tenant."""
    product = Product()
    _apply(product, data)
    _save(product, PRODUCT_UNIQUE)
    return product


@transaction.atomic
def product_update(*, product: Product, data: dict[str, Any]) -> Product:
    """Changes the given fields of a product."""
    _apply(product, data)
    _save(product, PRODUCT_UNIQUE)
    return product


@transaction.atomic
def product_delete(*, product: Product) -> None:
    """Deletes a product that no order refers to; one that is used must be deactivated instead."""
    try:
        with transaction.atomic():
            product.delete()
    except ProtectedError as exc:
        raise ProductInUse() from exc


GROUP_UNIQUE = {
    "name": ("productgroup_tenant_name_unique", GROUP_NAME_TAKEN),
    "code": ("productgroup_tenant_code_unique", GROUP_CODE_TAKEN),
}


def _check_parent(*, group: ProductGroup | None, parent: ProductGroup | None) -> None:
    """Locks the tenant's groups (stable order) and refuses a parent inside the group's own subtree.

    The lock makes two concurrent moves (A under B, B under A) run one after the other, so the second
    one sees the first and is refused instead of both succeeding into a cycle.
    """
    if parent is None or group is None or group.pk is None:
        return
    parents = dict(ProductGroup.objects.select_for_update().order_by("pk").values_list("pk", "parent_id"))
    current: int | None = parent.pk
    seen: set[int] = set()
    while current is not None and current not in seen:
        if current == group.pk:
            raise ValidationError({"parent": [GROUP_CYCLE]})
        seen.add(current)
        current = parents.get(current)


@transaction.atomic
def product_group_create(*, data: dict[str, Any]) -> ProductGroup:
    """Creates a product group (optionally under a parent)."""
    group = ProductGroup()
    _apply(group, data)
    _save(group, GROUP_UNIQUE)
    return group


@transaction.atomic
def product_group_update(*, group: ProductGroup, data: dict[str, Any]) -> ProductGroup:
    """Changes a group; moving it under one of its own subgroups (a cycle) is refused."""
    if "parent" in data:
        _check_parent(group=group, parent=data["parent"])
    _apply(group, data)
    _save(group, GROUP_UNIQUE)
    return group


@transaction.atomic
def product_group_delete(*, group: ProductGroup) -> None:
    """Deletes an empty group: one with products or subgroups is refused (409) with what to do."""
    products = Product.objects.filter(group=group).count()
    children = ProductGroup.objects.filter(parent=group).count()
    if products or children:
        raise ProductGroupNotEmpty(
            _(
                "The group still has %(products)s product(s) and %(children)s subgroup(s). "
                "Move or delete them first."
            )
            % {"products": products, "children": children}
        )
    group.delete()
