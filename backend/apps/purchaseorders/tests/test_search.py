"""List search across related tables (apps/common/api/search.py): a field of another table is searched
through the ids that table matches, so each row is listed once, nothing of another tenant or another
parent vendor is found, and on PostgreSQL the condition is one an index answers."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.products.models import Product, ProductGroup

pytestmark = pytest.mark.django_db

ORDERS = "/api/purchaseorders/orders/"
PRODUCTS = "/api/products/"


def _numbers(response) -> list[str]:
    assert response.status_code == 200, response.json()
    return sorted(row["order_number"] for row in response.json()["data"]["results"])


def test_orders_by_supplier_name_and_line_product_once_each(world, api, make_order):
    two_lines = make_order(lines=[(world["carton"], "100", "1.25"), (world["carton"], "50", "1.25")])
    other = make_order(supplier=world["supplier_b"], lines=[(world["box"], "10", "2.00")])
    client = api(world["purchasing"], world["tenant3"])

    by_supplier = client.get(ORDERS, {"search": "bluewave"})
    assert _numbers(by_supplier) == [other.order_number]
    # two lines match: the order is listed once, and counted once
    by_line = client.get(ORDERS, {"search": "ct-6040"})
    assert _numbers(by_line) == [two_lines.order_number]
    assert by_line.json()["data"]["count"] == 1
    # both terms must match (one through the supplier, one through a line)
    assert _numbers(client.get(ORDERS, {"search": "evergreen 6040"})) == [two_lines.order_number]
    assert _numbers(client.get(ORDERS, {"search": "bluewave 6040"})) == []


def test_search_finds_nothing_of_another_tenant_or_parent_vendor(world, api, make_order):
    make_order(
        supplier=world["supplier_x"], lines=[(world["product_x"], "5", "1.00")], tenant=world["tenant2"]
    )
    make_order(supplier=world["supplier_b"], lines=[(world["box"], "10", "2.00")])
    # "Factory X" and "X-1" are tenant 2's supplier and product
    client = api(world["admin"], world["tenant3"])
    assert _numbers(client.get(ORDERS, {"search": "factory x"})) == []
    assert _numbers(client.get(ORDERS, {"search": "X-1"})) == []
    # a supplier of vendor A does not find vendor B's order by B's supplier name
    supplier_a = api(world["supplier_user_a"], world["tenant3"])
    assert _numbers(supplier_a.get(ORDERS, {"search": "bluewave"})) == []


def test_products_by_group_name_stay_in_the_tenant(world, api, in_tenant):
    with in_tenant(world["tenant3"]):
        walls = ProductGroup.objects.create(name="Double wall")
        Product.objects.create(
            article_number="DW-1", name="Strong", group=walls, weight_per_carton_kg=Decimal("1")
        )
    with in_tenant(world["tenant2"]):
        theirs = ProductGroup.objects.create(name="Double wall")
        Product.objects.create(article_number="DW-9", name="Theirs", group=theirs)
    client = api(world["admin"], world["tenant3"])
    response = client.get(PRODUCTS, {"search": "double"})
    assert response.status_code == 200
    assert [row["article_number"] for row in response.json()["data"]["results"]] == ["DW-1"]


@pytest.mark.postgres
def test_related_fields_are_searched_through_matching_ids(world, api, make_order):
    make_order()
    client = api(world["purchasing"], world["tenant3"])
    with CaptureQueriesContext(connection) as captured:
        assert client.get(ORDERS, {"search": "evergreen"}).status_code == 200
    page = [q["sql"] for q in captured.captured_queries if 'FROM "purchaseorders_purchaseorder"' in q["sql"]]
    assert page and all("= ANY(ARRAY(" in sql for sql in page)
    assert not any("DISTINCT" in sql for sql in page)


@pytest.mark.postgres
def test_order_search_through_grams_keeps_the_parent_vendor_scope(world, api, make_order, in_tenant):
    """Orders, their lines and suppliers are found through their grams (apps/common/search_index.py): a
    supplier user still finds only the orders of their own parent vendor."""
    mine = make_order(lines=[(world["carton"], "100", "1.25")], description="Spring run")
    theirs = make_order(
        supplier=world["supplier_b"], lines=[(world["box"], "10", "2.00")], description="Spring run"
    )
    admin = api(world["admin"], world["tenant3"])
    supplier_a = api(world["supplier_user_a"], world["tenant3"])
    with CaptureQueriesContext(connection) as captured:
        assert _numbers(admin.get(ORDERS, {"search": "spring"})) == sorted(
            [mine.order_number, theirs.order_number]
        )
    assert [q for q in captured.captured_queries if "common_searchgram" in q["sql"]]
    assert _numbers(supplier_a.get(ORDERS, {"search": "spring"})) == [mine.order_number]
    assert _numbers(supplier_a.get(ORDERS, {"search": "ct-3020"})) == []  # a line of vendor B's order
    assert _numbers(supplier_a.get(ORDERS, {"search": "bluewave"})) == []
    assert _numbers(admin.get(ORDERS, {"search": "ct-3020"})) == [theirs.order_number]
    # a changed line and a changed supplier are found by their new text only
    with in_tenant(world["tenant3"]):
        theirs.lines.update(product_number="ZX-990")
        type(world["supplier_b"]).objects.filter(pk=world["supplier_b"].pk).update(name="Renamed Works")
    assert _numbers(admin.get(ORDERS, {"search": "ct-3020"})) == []
    assert _numbers(admin.get(ORDERS, {"search": "zx-99"})) == [theirs.order_number]
    assert _numbers(admin.get(ORDERS, {"search": "renamed works"})) == [theirs.order_number]
    assert _numbers(supplier_a.get(ORDERS, {"search": "renamed"})) == []
