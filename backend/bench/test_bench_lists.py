"""List endpoints at scale: a 50-row page of a 100,000-row table, against PostgreSQL's own time for it.

Run with `make bench` (DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace for PostgreSQL).
The figures are reported by pytest-benchmark; nothing here asserts a time.
"""

from __future__ import annotations

import pytest
from django.db import connection

from apps.products.models import Product
from apps.tenancy.context import tenant_context

ROWS = 100_000


@pytest.fixture(scope="module")
def big_catalogue(django_db_setup, django_db_blocker):
    from apps.tenancy.models import Tenant
    from apps.users.models import User

    with django_db_blocker.unblock():
        tenant, _ = Tenant.objects.get_or_create(pk=90, defaults={"name": "Bench", "code": "bench"})
        with tenant_context(tenant):
            if Product.objects.count() < ROWS:
                Product.objects.bulk_create(
                    [
                        Product(article_number=f"B{i:07d}", name=f"Carton {i}", weight_per_carton_kg="0.350")
                        for i in range(ROWS)
                    ],
                    batch_size=5000,
                )
            if connection.vendor == "postgresql":
                # statistics as autovacuum would have them by now: the planner sees 100,000 rows
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE products_product")
        from apps.tenancy.models import Membership
        from apps.users.roles import roles_ensure_defaults

        user, _ = User.objects.get_or_create(username="bench-admin")
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([roles_ensure_defaults()["Administrator"]])
        yield tenant, user


@pytest.mark.django_db
def test_bench_products_page_of_50(benchmark, big_catalogue, api):
    tenant, user = big_catalogue
    client = api(user, tenant)

    def page():
        response = client.get("/api/products/?page=1000&page_size=50&ordering=article_number")
        assert response.status_code == 200
        return response

    benchmark(page)


@pytest.mark.django_db
def test_bench_products_page_of_50_database_only(benchmark, big_catalogue):
    """What the database itself needs for the same page (count + page), for comparison."""
    tenant, _ = big_catalogue

    def query():
        with tenant_context(tenant), connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM products_product WHERE tenant_id = %s", [tenant.pk])
            cursor.execute(
                "SELECT * FROM products_product WHERE tenant_id = %s ORDER BY article_number LIMIT 50 OFFSET 49950",
                [tenant.pk],
            )
            return cursor.fetchall()

    benchmark(query)


SEARCH = "B00123"  # 100 of the 100,000 article numbers (B0012300 to B0012399)


@pytest.mark.django_db
def test_bench_products_search(benchmark, big_catalogue, api):
    """A search over 100,000 products (seven OR-ed `icontains` fields, count and page), through the API."""
    tenant, user = big_catalogue
    client = api(user, tenant)

    def search():
        response = client.get("/api/products/", {"search": SEARCH, "page_size": 50})
        assert response.status_code == 200
        assert response.json()["data"]["count"] == 100
        return response

    benchmark(search)


@pytest.mark.django_db
def test_bench_products_search_database_only(benchmark, big_catalogue, api):
    """PostgreSQL's own time for the SQL the search runs (its count and its page, captured from the
    request), the reference for the search: with the trigram indexes the two stay close."""
    from django.test.utils import CaptureQueriesContext

    tenant, user = big_catalogue
    client = api(user, tenant)
    with CaptureQueriesContext(connection) as captured:
        client.get("/api/products/", {"search": SEARCH, "page_size": 50})
    statements = [q["sql"] for q in captured.captured_queries if "products_product" in q["sql"]]
    assert len(statements) == 2, statements  # the count and the page

    def query():
        with tenant_context(tenant), connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
                cursor.fetchall()

    benchmark(query)
