"""Who sees prices: one permission, `products.see_prices` ("Can see prices and amounts").

Prices are purchase and sales prices of products, unit costs and amounts of purchase order lines, order
totals, and every sum of them (the order summary, exports). Without the permission an answer simply
leaves those fields out (as it already does for supplier users' product fields), exports leave out the
columns, and the list cannot be sorted by them (a sort order would reveal them). The default roles give it
to Administrator, Purchasing, Sales and Supplier (a supplier sees the prices of its own orders), not to
Warehouse (apps/users/roles.py); docs/tenancy.md.

Serializers list their price fields in `price_fields` and mix in `PriceFieldsMixin`; views use
`hide_prices(request)` for exports, sorting and sums. Without a request (a server job) nothing is hidden:
only answers to a user are filtered.
"""

from __future__ import annotations

from typing import Any

PRICE_PERMISSION = "products.see_prices"
PRICE_PERMISSION_CODENAME = "see_prices"


def can_see_prices(request) -> bool:
    """A request in a tenant: the user's roles there hold the permission. No request, or no tenant
    entered (the schema generator; a tenant endpoint always enters its tenant before any view code):
    nothing to hide."""
    tenant = getattr(request, "tenant", None) if request is not None else None
    if tenant is None:
        return True
    from apps.users.permissions import tenant_permissions

    return PRICE_PERMISSION in tenant_permissions(getattr(request, "user", None), tenant)


def hide_prices(request) -> bool:
    return not can_see_prices(request)


class PriceFieldsMixin:
    """A serializer whose `price_fields` are left out of the answer for users without the permission."""

    price_fields: tuple[str, ...] = ()

    def to_representation(self, instance) -> dict[str, Any]:
        data = super().to_representation(instance)
        if self.price_fields and hide_prices(self.context.get("request")):
            for name in self.price_fields:
                data.pop(name, None)
        return data


def without_price_columns(columns, price_headers: set[str], request):
    """Export columns without the price ones, for a user without the permission."""
    if not hide_prices(request):
        return columns
    return [column for column in columns if column[0] not in price_headers]


def without_price_orderings(fields, price_fields: set[str], request):
    if not hide_prices(request):
        return fields
    return [field for field in fields if field.lstrip("-") not in price_fields]
