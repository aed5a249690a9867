"""Who sees prices: one permission, `products.see_prices` ("Can see prices and amounts").

Prices are purchase and sales prices of products, unit costs and amounts of purchase order lines, order
totals, and every sum of them (the order summary, exports). Without the permission an answer simply
leaves those fields out (as it already does for supplier users' product fields), exports leave out the
columns, and the list cannot be sorted by them (a sort order would reveal them). The default roles give it
to Administrator, Purchasing, Sales and Supplier (a supplier sees the prices of its own orders), not to
Warehouse (apps/users/roles.py); docs/tenancy.md.

The rule is structural, not per serializer: a money field is known by its name (`MONEY_FIELDS`), and
- every JSON answer leaves out every key of that name, at any depth (`strip_money`, applied by the
  envelope renderer to every successful answer of a user without the permission);
- every export leaves out the columns whose source is such a field or whose header is a money header
  (`without_money_columns`, applied by the base viewset's export);
- the ordering filter drops sorting by them (`apps.common.api.filters.PriceAwareOrderingFilter`).
`apps/common/tests/test_price_rule.py` walks every serializer of the OpenAPI schema and every export and
fails on a money-like field the rule does not cover: a new money field is added to `MONEY_FIELDS` (or,
when it is not money, to `NOT_MONEY` there with the reason).

Serializers may still list `price_fields` (`PriceFieldsMixin`); views use `hide_prices(request)` for sums.
Without a request (a server job) nothing is hidden: only answers to a user are filtered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

PRICE_PERMISSION = "products.see_prices"
PRICE_PERMISSION_CODENAME = "see_prices"


# The names of money fields in every answer: prices, amounts, totals, discounts, VAT amounts, sums of them.
MONEY_FIELDS = frozenset(
    {
        "amount",
        "amount_due",
        "amount_net",
        "amount_paid",
        "amount_vat",
        "credited_amount",
        "discount_percent",
        "external_open_amount",
        "line_net",
        "net_price",
        "order_price",
        "price_difference",
        "price_tolerance",
        "open_amount",
        "purchase_price",
        "sales_price",
        "taxable",
        "total_amount",
        "total_gross",
        "total_net",
        "total_vat",
        "unit_cost",
        "unit_price",
        "vat",
        "vat_breakdown",
    }
)

# Headers of export columns that are money (checked besides the column's source field).
MONEY_HEADERS = frozenset(
    {
        "Net",
        "VAT",
        "Gross",
        "Paid",
        "Total amount",
        "Unit price",
        "Unit cost",
        "Amount",
        "Amount net",
        "Amount VAT",
        "Discount %",
        "Purchase price",
        "Sales price",
        "Credited",
        "Open amount",
    }
)


def is_money_field(name: str) -> bool:
    return name in MONEY_FIELDS


def strip_money(data: Any) -> Any:
    """`data` without any key of a money field, at any depth (lists, nested objects, pages)."""
    if isinstance(data, dict):
        return {key: strip_money(value) for key, value in data.items() if key not in MONEY_FIELDS}
    if isinstance(data, list):
        return [strip_money(item) for item in data]
    return data


def _column_source(column) -> str:
    source = column[1] if len(column) > 1 else ""
    return source.rsplit(".", 1)[-1] if isinstance(source, str) else ""


def is_money_column(column) -> bool:
    return column[0] in MONEY_HEADERS or is_money_field(_column_source(column))


def without_money_columns(columns, request):
    """Export columns without the money ones (by source field or header), for a user without the permission."""
    if not hide_prices(request):
        return columns
    return [column for column in columns if not is_money_column(column)]


def can_see_prices(request) -> bool:
    """A request in a tenant: the user's roles there hold the permission. No request, or no tenant
    entered (the schema generator; a tenant endpoint always enters its tenant before any view code):
    nothing to hide."""
    tenant = getattr(request, "tenant", None) if request is not None else None
    if tenant is None:
        return True
    from apps.tenancy.permissions import tenant_permissions

    return PRICE_PERMISSION in tenant_permissions(getattr(request, "user", None), tenant)


def hide_prices(request) -> bool:
    return not can_see_prices(request)


if TYPE_CHECKING:  # the mixin's methods run on a DRF serializer
    from rest_framework.serializers import Serializer as _SerializerBase
else:
    _SerializerBase = object


class PriceFieldsMixin(_SerializerBase):
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
    return [
        field
        for field in fields
        if field.lstrip("-") not in price_fields and not is_money_field(field.lstrip("-").rsplit("__", 1)[-1])
    ]
