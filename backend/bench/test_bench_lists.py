"""List endpoints at scale: a 50-row page of a 100,000-row table (1,000,000 with `make bench-1m`), against PostgreSQL's own time for it.

Run with `make bench` (DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace for PostgreSQL).
The figures are reported by pytest-benchmark; nothing here asserts a time.
"""

from __future__ import annotations

import os

import pytest
from django.db import connection

from apps.products.models import Product
from apps.tenancy.context import tenant_context

# 100,000 by default; `make bench-1m` sets 1,000,000
ROWS = int(os.environ.get("BENCH_ROWS", "100000"))


@pytest.fixture(scope="module")
def big_catalogue(django_db_setup, django_db_blocker):
    from apps.tenancy.models import Tenant
    from apps.users.models import User

    with django_db_blocker.unblock():
        tenant, _ = Tenant.objects.get_or_create(pk=90, defaults={"name": "Bench", "code": "bench"})
        with tenant_context(tenant):
            start = Product.objects.filter(article_number__startswith="B").count()
            for first in range(start, ROWS, 5000):  # in slices: a million instances never in memory at once
                Product.objects.bulk_create(
                    [
                        Product(article_number=f"B{i:07d}", name=f"Carton {i}", weight_per_carton_kg="0.350")
                        for i in range(first, min(first + 5000, ROWS))
                    ]
                )
        if connection.vendor == "postgresql":
            # The tables as autovacuum leaves them soon after a bulk insert (PostgreSQL vacuums a table
            # once inserts pass a fifth of its rows): statistics for the planner, and the visibility map
            # that lets the gram index answer without visiting the table. Without it every posting the
            # search reads costs a heap fetch, 45 instead of 7 ms for the probe of a common term.
            # VACUUM runs outside a transaction, hence outside the tenant context.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM (ANALYZE) products_product")
                cursor.execute("VACUUM (ANALYZE) common_searchgram")
            # and the counts of the common grams as the hourly `common.count_search_grams` leaves them
            from apps.common import search_index

            search_index.counts_refresh({search_index.indexed_fields(Product)[0]})
        from apps.tenancy.models import Membership
        from apps.users.roles import roles_ensure_defaults

        user, _ = User.objects.get_or_create(username="bench-admin")
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([roles_ensure_defaults()["Administrator"]])
        yield tenant, user


@pytest.mark.django_db
def test_bench_products_page_of_50(measure_requests, big_catalogue, api):
    tenant, user = big_catalogue
    client = api(user, tenant)

    def page():
        response = client.get("/api/products/?page=1000&page_size=50&ordering=article_number")
        assert response.status_code == 200
        return response

    measure_requests(page)


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
def test_bench_products_search(measure_requests, big_catalogue, api):
    """A search over 100,000 products (seven OR-ed `icontains` fields, count and page), through the API."""
    tenant, user = big_catalogue
    client = api(user, tenant)

    def search():
        response = client.get("/api/products/", {"search": SEARCH, "page_size": 50})
        assert response.status_code == 200
        return response

    # the answer read once, outside the rounds: decoding it is the client's work, not the server's
    assert measure_requests(search).json()["data"]["count"] == 100


def _search_statements(client, term: str = SEARCH) -> list[str]:
    """The SQL of one search request after the tenant is set: the candidates from the grams (when the
    search reads them), the count and the page."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get("/api/products/", {"search": term, "page_size": 50})
    return [
        q["sql"]
        for q in captured.captured_queries
        if "products_product" in q["sql"] or "common_searchgram" in q["sql"]
    ]


def _run_statements(tenant, statements):
    with tenant_context(tenant), connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
            cursor.fetchall()


@pytest.mark.django_db
def test_bench_products_search_database_only(benchmark, big_catalogue, api):
    """PostgreSQL's own time for the SQL the search runs (its candidates, count and page, captured from
    the request), the reference for the search through the API."""
    tenant, user = big_catalogue
    statements = _search_statements(api(user, tenant))
    if connection.vendor == "postgresql":
        assert len(statements) == 3, statements  # the candidates from the grams, the count and the page
    benchmark(_run_statements, tenant, statements)


@pytest.mark.django_db
def test_bench_products_search_scan_database_only(benchmark, big_catalogue, api, monkeypatch):
    """PostgreSQL's own time for the same search without the grams (the LIKE scan every term falls back
    to, and what the search ran before): count and page."""
    from apps.common import search_index

    tenant, user = big_catalogue
    monkeypatch.setattr(search_index, "CANDIDATE_LIMIT", -1)  # no candidates: every term scans
    # the candidates query still runs (and finds too many): left out, it is not part of the scan
    statements = [sql for sql in _search_statements(api(user, tenant)) if "common_searchgram" not in sql]
    assert len(statements) == 2, statements
    benchmark(_run_statements, tenant, statements)


COMMON = "B001"  # 10,000 article numbers (B0010000 to B0019999): a tenth of 100,000, a hundredth of 1,000,000


@pytest.mark.django_db
def test_bench_products_search_common_database_only(benchmark, big_catalogue, api):
    """PostgreSQL's own time for the SQL a search for a common term runs: the probe of the grams, which
    stops at `CANDIDATE_LIMIT` candidates, then the scan it falls back to (count and page)."""
    tenant, user = big_catalogue
    statements = _search_statements(api(user, tenant), COMMON)
    if connection.vendor == "postgresql":
        assert len(statements) == 3, statements  # the bounded probe, the count and the page
    benchmark(_run_statements, tenant, statements)


@pytest.mark.django_db
def test_bench_products_search_common_scan_database_only(benchmark, big_catalogue, api, monkeypatch):
    """The same common term as the plain LIKE scan, without the probe (what the search ran before the
    grams): the reference for "common words no slower than the scan they replaced"."""
    from apps.common import search_index

    tenant, user = big_catalogue
    monkeypatch.setattr(search_index, "CANDIDATE_LIMIT", -1)
    statements = [
        sql for sql in _search_statements(api(user, tenant), COMMON) if "common_searchgram" not in sql
    ]
    assert len(statements) == 2, statements
    benchmark(_run_statements, tenant, statements)


INSERTED = 10_000


def _bulk_insert(tenant, prefix: str, rounds: dict):
    rounds["n"] += 1
    with tenant_context(tenant):
        Product.objects.bulk_create(
            [
                Product(article_number=f"{prefix}{rounds['n']}-{i:05d}", name=f"Inserted carton {i}")
                for i in range(INSERTED)
            ],
            batch_size=5000,
        )


@pytest.mark.django_db
def test_bench_products_bulk_insert_10000(benchmark, big_catalogue):
    """bulk_create of 10,000 products into the 100,000, their grams written by the triggers."""
    tenant, _ = big_catalogue
    benchmark.pedantic(_bulk_insert, args=(tenant, "I", {"n": 0}), rounds=3, iterations=1)


@pytest.mark.django_db
def test_bench_products_bulk_insert_10000_without_grams(benchmark, big_catalogue):
    """The same insert with the gram triggers disabled (in the test's transaction): the reference."""
    tenant, _ = big_catalogue
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE products_product DISABLE TRIGGER search_gram_sync_1_insert")
    benchmark.pedantic(_bulk_insert, args=(tenant, "J", {"n": 0}), rounds=3, iterations=1)
