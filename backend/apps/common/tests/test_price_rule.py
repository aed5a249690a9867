# ruff: noqa: F811  (the sales fixtures are imported by name and used as arguments)
"""The price rule made structural (apps/common/prices.py).

- Every serializer of the OpenAPI schema: a field that looks like money (by name), or any decimal field,
  is either a money field the rule hides (`MONEY_FIELDS`) or listed below as not money, with the reason.
  A new money field that nobody added to the rule fails here.
- Every export of the schema, for a user holding every permission but `products.see_prices`: no money
  column. The same user with the permission gets them (so the walk really reaches the money columns).
- The sales orders: list, detail with lines, CSV export, sorting, for a warehouse user: no amounts.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth.models import Permission
from drf_spectacular.generators import SchemaGenerator

from apps.common.prices import MONEY_FIELDS, MONEY_HEADERS, is_money_column
from apps.salesorders.tests.conftest import (  # noqa: F401
    _fast_passwords,
    make_sales_order,
    sales_world,
    world,
)
from apps.tenancy.context import tenant_context
from apps.users.models import Role

pytestmark = pytest.mark.django_db

MONEY_LIKE = re.compile(r"price|amount|cost|total|net|vat|gross|discount|paid|taxable|fee|charge|sum|tax")

# Fields that look like money by name, or are decimals, and are not money (with the reason).
NOT_MONEY = {
    # the VAT treatment: codes, a legal mention, a percentage and whether a tax id passes its check digits
    "vat_id_valid": "whether a tax id passes its check",
    "customer_vat_number_valid": "whether a tax id passes its check",
    "vat_case": "a code of the VAT treatment",
    "vat_category": "a code of the VAT treatment",
    "vat_exemption_code": "a code of the VAT treatment",
    "vat_mention": "a legal text",
    "rate": "a VAT percentage, not a price",
    "summary": "the text of a risk assessment",
    "forest_share": "the share (0..1) of a plot's cells that were forest in 2020",
    # identifiers and codes, not amounts
    "buyer_vat_number": "a tax id",
    "seller_vat_number": "a tax id",
    "vat_id": "a tax id",
    "seller_vat_id": "a tax id",
    "syntax": "the syntax of a received e-invoice file (UBL, CII, Factur-X)",
    "vat_number": "a tax id",
    "represented_operator_vat": "a tax id",
    "vat_rate": "a rate of the law, not a price",
    "credited_invoice": "a reference",
    "credited_invoice_number": "a reference",
    "credited_line": "a reference",
    "default_terms_of_payment_id": "an id in the accounting system",
    "payment_status": "a status word",
    "reverse_charge": "a flag (VAT reverse charge applies)",
    "port_of_discharge": "a place",
    "payment_terms": "days and words",
    "payment_terms_days": "days",
    # counts and quantities
    "received": "a received quantity",
    "rows_total": "a row count",
    "attention_total": "a count of e-mail messages that need attention (delivery health)",
    "total_rows": "a row count",
    "amounts": "the order summary's sums by currency: the summary view answers {} without the permission "
    "(apps/purchaseorders/tests/test_prices.py)",
    "total": "a count (order summary: its amounts are under `amounts`; import progress)",
    "total_qty": "a quantity",
    "total_area_ha": "an area",
    "net_weight_kg": "a weight",
    "net_weight_per_carton_kg": "a weight",
    "cap_value": "a quantity cap of a supplier policy",
    "min_consumption_per_carton": "a weight",
    # the report lab: its measures are refused without the permission (apps/reports/selectors.py)
    "totals": "report lab results (price measures refused without the permission)",
    "subtotals": "report lab results (price measures refused without the permission)",
    "pivot_totals": "report lab results (price measures refused without the permission)",
    "value": "a filter value or a choice",
}
QUANTITY_LIKE = re.compile(
    r"(^|_)(qty|quantity|kg|mm|ha|ms|ordered|shipped|invoiced|reserved|available|on_hand|difference|"
    r"reorder_point|weight_per_carton|rate_percent|tolerance_percent)($|_)"
)


def _schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_money_field_of_every_serializer_is_covered_by_the_rule():
    schema = _schema()
    uncovered: dict[str, set[str]] = {}
    for component, body in schema["components"]["schemas"].items():
        for name, prop in (body.get("properties") or {}).items():
            decimal = prop.get("format") == "decimal" or prop.get("type") == "number"
            if not (MONEY_LIKE.search(name) or decimal):
                continue
            if name in MONEY_FIELDS or name in NOT_MONEY:
                continue
            if decimal and QUANTITY_LIKE.search(name) and not MONEY_LIKE.search(name):
                continue
            uncovered.setdefault(name, set()).add(component)
    assert not uncovered, (
        "money-like fields the price rule does not cover: add them to MONEY_FIELDS (apps/common/prices.py) "
        f"or, when they are not money, to NOT_MONEY here with the reason: {uncovered}"
    )


def test_money_headers_are_recognised_by_name_or_source():
    assert is_money_column(("Net", "total_net"))
    assert is_money_column(("Whatever", "lines.unit_price"))
    assert is_money_column(("Total amount", lambda row: 1))
    assert not is_money_column(("Ordered quantity", "ordered_qty"))
    assert {"Net", "VAT", "Gross"} <= MONEY_HEADERS


def _all_but_prices(tenant, user):
    from apps.tenancy.models import Membership

    with tenant_context(tenant):
        role = Role.objects.create(name="Everything but prices")
        role.permissions.set(Permission.objects.exclude(codename="see_prices"))
        Membership.objects.get(user=user, tenant=tenant).roles.set([role])
    return role


MONEY_HEADER_LIKE = re.compile(r"\b(net|vat|gross|price|amount|cost|paid|discount|total)\b", re.IGNORECASE)
NOT_MONEY_HEADERS = {"VAT id", "VAT number", "VAT rate", "Total quantity", "Payment terms (days)"}
# Headers with a money word that are not money: weights, quantities, rates, ids, numbers, terms, counts.
NOT_MONEY_HEADER_LIKE = re.compile(r"weight|quantit|rate|\bid\b|number|terms|count|\bkg\b", re.IGNORECASE)


def _export_paths(schema) -> list[str]:
    return sorted(
        path
        for path in schema["paths"]
        if path.endswith("/export/") and "{" not in path and "get" in schema["paths"][path]
    )


def test_no_export_has_a_money_column_without_the_permission(sales_world, make_sales_order, api):
    world = sales_world
    make_sales_order(confirm=False)
    user = world["purchasing"]
    role = _all_but_prices(world["tenant3"], user)
    client = api(user, world["tenant3"])
    paths = _export_paths(_schema())
    assert "/api/salesorders/orders/export/" in paths and len(paths) > 10
    seen_money_with_permission = False
    for with_prices in (False, True):
        if with_prices:
            with tenant_context(world["tenant3"]):
                role.permissions.add(Permission.objects.get(codename="see_prices"))
            user._tenant_perm_cache = {}
        for path in paths:
            response = client.get(path, {"format": "csv"})
            assert response.status_code < 500, path
            if response.status_code != 200:
                continue
            content = b"".join(response.streaming_content) if response.streaming else response.content
            header = next(csv.reader(io.StringIO(content.decode("utf-8-sig"))), [])
            money = [
                column
                for column in header
                if column in MONEY_HEADERS
                or (
                    column not in NOT_MONEY_HEADERS
                    and MONEY_HEADER_LIKE.search(column)
                    and not NOT_MONEY_HEADER_LIKE.search(column)
                )
            ]
            if with_prices:
                seen_money_with_permission |= bool(money)
            else:
                assert money == [], (path, money)
    assert seen_money_with_permission


def test_sales_orders_show_no_amounts_to_a_warehouse_user(sales_world, make_sales_order, api):
    world = sales_world
    order = make_sales_order(confirm=False)
    base = "/api/salesorders/orders/"
    admin = api(world["admin"], world["tenant3"])
    picker = api(world["warehouse_user"], world["tenant3"])

    assert "total_net" in admin.get(base).json()["data"]["results"][0]
    row = picker.get(base).json()["data"]["results"][0]
    assert row["order_number"] == order.order_number
    assert not {"total_net", "total_vat", "total_gross"} & set(row)

    detail = picker.get(f"{base}{order.pk}/").json()["data"]
    assert detail["lines"], detail
    for line in detail["lines"]:
        assert not {"unit_price", "amount_net", "amount_vat", "discount_percent"} & set(line)
        assert "quantity" in line
    assert "unit_price" in admin.get(f"{base}{order.pk}/").json()["data"]["lines"][0]

    export = picker.get(f"{base}export/", {"format": "csv"})
    body = b"".join(export.streaming_content) if export.streaming else export.content
    header = next(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert "Order number" in header and not {"Net", "VAT", "Gross"} & set(header)

    # sorting by an amount would reveal the order of the amounts: ignored
    assert picker.get(base, {"ordering": "total_gross"}).status_code in (200, 400)
