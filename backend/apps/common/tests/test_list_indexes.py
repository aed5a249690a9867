"""Every list ordering a page offers is served by an index that matches it, for the tenant: the page's
own SQL (captured from the request, row-level security on) is planned with sorting and sequential scans
made prohibitively expensive, and the plan must read the named index in order, with no sort step.
Without the index the planner has no choice but to sort, so the test fails (docs/performance.md)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.eudr.tests import factories
from apps.tenancy.context import tenant_context

# Not here yet: the raw-material deliveries list groups its rows (per-delivery totals of the lines)
# before it orders them, so no index can give it its order; docs/performance.md.

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture
def rows(tenant3, in_tenant):
    with in_tenant(tenant3):
        vendor = factories.vendor()
        factories.order_line(vendor)
        factories.delivery(vendor)


def _page_sql(client, path: str, params: dict, table: str) -> str:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, params)
    assert response.status_code == 200, response.content
    pages = [
        q["sql"] for q in captured.captured_queries if f'FROM "{table}"' in q["sql"] and "LIMIT" in q["sql"]
    ]
    assert pages, [q["sql"] for q in captured.captured_queries]
    return pages[0]


def _plan(tenant, sql: str) -> str:
    with tenant_context(tenant), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_sort")
        cursor.execute("RESET enable_seqscan")
    return plan


@pytest.mark.parametrize(
    ("path", "params", "table", "index"),
    [
        ("/api/purchaseorders/orders/", {}, "purchaseorders_purchaseorder", "purchaseorder_tenant_date"),
        (
            "/api/purchaseorders/orders/",
            {"ordering": "order_date"},
            "purchaseorders_purchaseorder",
            "purchaseorder_tenant_date",
        ),
        ("/api/products/", {"ordering": "name"}, "products_product", "product_tenant_name"),
        ("/api/products/", {"ordering": "-name"}, "products_product", "product_tenant_name"),
        ("/api/products/", {}, "products_product", "product_tenant_article_unique"),
    ],
)
def test_list_ordering_reads_a_matching_index(rows, api, make_user, tenant3, path, params, table, index):
    client = api(make_user(tenant3), tenant3)
    plan = _plan(tenant3, _page_sql(client, path, {"page_size": 20, **params}, table))
    assert index in plan, plan
    assert "Sort" not in plan, plan
