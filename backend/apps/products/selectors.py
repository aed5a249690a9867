"""Reads of the product catalogue that are more than a plain queryset (the group tree)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps as django_apps
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from apps.products.models import Product, ProductGroup


@dataclass
class GroupNode:
    id: int
    name: str
    parent_id: int | None
    children: list[int] = field(default_factory=list)


class GroupIndex:
    """Every group of the tenant (id, name, parent) read in one query: paths, depths, subtrees."""

    def __init__(self) -> None:
        self.nodes: dict[int, GroupNode] = {
            pk: GroupNode(pk, name, parent_id)
            for pk, name, parent_id in ProductGroup.objects.values_list("id", "name", "parent_id")
        }
        for node in self.nodes.values():
            if node.parent_id in self.nodes:
                self.nodes[node.parent_id].children.append(node.id)

    def ancestors(self, group_id: int | None) -> list[int]:
        """Ids from the group's parent up to the root (guarded against a cycle in bad data)."""
        result: list[int] = []
        node = self.nodes.get(group_id) if group_id is not None else None
        while node is not None and node.parent_id is not None and node.parent_id not in result:
            result.append(node.parent_id)
            node = self.nodes.get(node.parent_id)
        return result

    def path(self, group_id: int) -> str:
        ids = [group_id, *self.ancestors(group_id)]
        return " / ".join(self.nodes[i].name for i in reversed(ids) if i in self.nodes)

    def depth(self, group_id: int) -> int:
        return len(self.ancestors(group_id))

    def subtree(self, group_id: int) -> list[int]:
        """The group and all its descendants."""
        result, stack = [], [group_id]
        while stack:
            current = stack.pop()
            if current in result or current not in self.nodes:
                continue
            result.append(current)
            stack.extend(self.nodes[current].children)
        return result


def product_groups_with_counts() -> QuerySet[ProductGroup]:
    """Groups with `product_count` and `children_count` (subqueries: no row multiplication)."""
    products = (
        Product.objects.filter(group=OuterRef("pk"))
        .order_by()
        .values("group")
        .annotate(n=Count("pk"))
        .values("n")
    )
    children = (
        ProductGroup.objects.filter(parent=OuterRef("pk"))
        .order_by()
        .values("parent")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return ProductGroup.objects.select_related("parent").annotate(
        product_count=Coalesce(Subquery(products, output_field=IntegerField()), Value(0)),
        children_count=Coalesce(Subquery(children, output_field=IntegerField()), Value(0)),
    )


def product_group_tree() -> list[dict]:
    """The whole tree, roots first, children nested and sorted by name (two queries)."""
    groups = list(product_groups_with_counts().order_by("name"))
    by_parent: dict[int | None, list[ProductGroup]] = {}
    for group in groups:
        by_parent.setdefault(group.parent_id, []).append(group)
    known = {group.pk for group in groups}

    def build(group: ProductGroup, depth: int, seen: frozenset[int]) -> dict:
        return {
            "id": group.pk,
            "name": group.name,
            "code": group.code,
            "description": group.description,
            "parent": group.parent_id,
            "depth": depth,
            "product_count": group.product_count,  # type: ignore[attr-defined]  # annotated by the query
            "children_count": group.children_count,  # type: ignore[attr-defined]
            "children": [
                build(child, depth + 1, seen | {group.pk})
                for child in by_parent.get(group.pk, [])
                if child.pk not in seen
            ],
        }

    roots = [g for g in groups if g.parent_id is None or g.parent_id not in known]
    return [build(root, 0, frozenset()) for root in roots]


def supplier_products(queryset: QuerySet, parent_vendor_id: int | None) -> QuerySet:
    """Products on purchase order lines of the supplier user's parent vendor (none until such lines exist).

    The purchase order line model belongs to the purchasing area; we find it by name and follow its
    `supplier_scope` (or its foreign key to the purchase order) to the parent vendor.
    """
    if not parent_vendor_id:
        return queryset.none()
    try:
        line_model = django_apps.get_model("purchaseorders", "PurchaseOrderLine")
        line_model._meta.get_field("product")
    except (LookupError, FieldDoesNotExist):
        return queryset.none()
    scope = getattr(line_model, "supplier_scope", None)
    if not scope:
        order_model = django_apps.get_model("purchaseorders", "PurchaseOrder")
        order_fk = next(
            (
                f.name
                for f in line_model._meta.concrete_fields
                if f.is_relation and f.related_model is order_model
            ),
            None,
        )
        if order_fk is None:
            return queryset.none()
        scope = f"{order_fk}__{order_model.supplier_scope}"
    lines = line_model.objects.filter(**{scope: parent_vendor_id}).values("product_id")
    return queryset.filter(pk__in=lines)
