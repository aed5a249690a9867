"""Statements per request, pinned for the main lists (docs/performance.md, "Per-request overhead").

A list request reads the membership and enters its tenant in the same statement, reads the roles'
permissions, counts and reads the page: no statement only sets the tenant, and no savepoint besides the
request's own transaction (inside a test's transaction, that transaction is a savepoint itself).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.products.tests.factories import make_product

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/products/",
    "/api/purchaseorders/orders/",
    "/api/salesorders/orders/",
    "/api/salesorders/deliveries/",
    "/api/eudr/raw-materials/",
]


def statements(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return [query["sql"] for query in captured.captured_queries]


@pytest.mark.parametrize("url", LISTS)
def test_an_empty_list_costs_membership_permissions_and_count(url, tenant3, make_user, api):
    client = api(make_user(tenant3), tenant3)
    sql = statements(client, url)
    assert len([s for s in sql if "SAVEPOINT" in s.upper()]) == 2, sql  # the request's own transaction
    work = [s for s in sql if "SAVEPOINT" not in s.upper()]
    # the membership read carries the tenant setting; nothing else sets it
    assert len([s for s in work if "set_config" in s]) == 1, work
    assert "tenancy_membership" in next(s for s in work if "set_config" in s)
    assert len(work) == 3, work  # membership + setting, the roles' permissions, the count


def test_a_product_page_reads_its_rows_in_one_statement(tenant3, make_user, api, in_tenant):
    client = api(make_user(tenant3), tenant3)
    with in_tenant(tenant3):
        for n in range(3):
            make_product(article_number=f"CT-{n}", name=f"Carton {n}")
    work = [s for s in statements(client, "/api/products/") if "SAVEPOINT" not in s.upper()]
    assert len(work) == 4, work  # membership + setting, permissions, count, rows
    assert len([s for s in work if "set_config" in s]) == 1


@pytest.mark.postgres
def test_a_delivery_page_counts_without_grouping_and_reads_lines_per_page(tenant3, make_user, api, in_tenant):
    """The deliveries list: count, page (line counts as a subquery per listed row), the page's material types."""
    from apps.eudr.tests import factories

    client = api(make_user(tenant3), tenant3)
    with in_tenant(tenant3):
        vendor = factories.vendor()
        for _ in range(3):
            factories.delivery(vendor)
    work = [s for s in statements(client, "/api/eudr/raw-materials/") if "SAVEPOINT" not in s.upper()]
    assert len(work) == 5, work  # membership + setting, permissions, count, rows, the rows' material types
    count = next(s for s in work if "COUNT(" in s.upper() and "eudr_rawmaterialdelivery" in s)
    assert "GROUP BY" not in count.upper() and "JOIN" not in count.upper(), count
    page = next(
        s
        for s in work
        if "LIMIT" in s and 'FROM "eudr_rawmaterialdelivery"' in s and not s.startswith("SELECT COUNT(*)")
    )
    assert "GROUP BY" not in page.split('FROM "eudr_rawmaterialdelivery"', 1)[1].rsplit("ORDER BY", 1)[0], (
        page
    )
    # only the columns the page shows: not the plots, the files or the filing's details
    for column in ("location_geojson", "files_meta", "delivery_file", "upstream_verification_message"):
        assert f'"eudr_rawmaterialdelivery"."{column}"' not in page, column


def test_a_non_member_enters_no_tenant(tenant2, tenant3, make_user, api):
    client = api(make_user(tenant2), tenant3)
    response = client.get("/api/products/")
    assert response.status_code == 403
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.tenant_id', true)")
        assert cursor.fetchone()[0] in ("", None)
