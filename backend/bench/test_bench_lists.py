"""List endpoints at scale: a 50-row page of a 100,000-row table, against PostgreSQL's own time for it.
`make bench-1m` runs them over 10,000 and over 1,000,000 products and prints how each figure grew
(scripts/bench-growth.py): the page, the search and its term are the same at every size from 10,000 rows.

Run with `make bench` (DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace for PostgreSQL).
The figures are reported by pytest-benchmark; nothing here asserts a time.
"""

from __future__ import annotations

import os

import pytest
from django.db import connection

from apps.products.models import Product
from apps.tenancy.context import tenant_context

# 100,000 by default; `make bench-1m` sets 10,000 and then 1,000,000
ROWS = int(os.environ.get("BENCH_ROWS", "100000"))
PAGE = 100  # rows 4,951 to 5,000 in article order: a page that every size from 10,000 rows has


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


PAGE_URL = f"/api/products/?page={PAGE}&page_size=50&ordering=article_number"


@pytest.mark.django_db
def test_bench_products_page_of_50(measure_requests, big_catalogue, api):
    tenant, user = big_catalogue
    client = api(user, tenant)

    def page():
        response = client.get(PAGE_URL)
        assert response.status_code == 200
        return response

    measure_requests(page)


@pytest.mark.django_db
def test_bench_products_page_of_50_database_only(benchmark, big_catalogue, api):
    """PostgreSQL's own time for the statements the same page runs, captured from the request: its count,
    which stops at `LIST_COUNT_LIMIT` + 1 rows, and its page."""
    tenant, user = big_catalogue
    statements = _statements(api(user, tenant), PAGE_URL, {})
    assert len(statements) == 2, statements  # the count and the page
    benchmark(_run_statements, tenant, statements)


SEARCH = "B00012"  # 100 article numbers (B0001200 to B0001299) at every size from 10,000 rows


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


def _search_statements(client, term: str = SEARCH, again: bool = False) -> list[str]:
    """The SQL of one search request after the tenant is set: the candidates from the grams (when the
    search reads them), then the count and the page (one statement when the page lies within the counted
    matches: docs/performance.md, "A search's count and page in one statement"). `again`: of the same
    search's second request (a term found too common is remembered: no candidates' statement)."""
    params = {"search": term, "page_size": 50}
    if again:
        client.get("/api/products/", params)
    return _statements(client, "/api/products/", params)


def _statements(client, url: str, params: dict) -> list[str]:
    """The SQL of one request on the products and their grams (what follows the membership read)."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, params).status_code == 200
    return [
        q["sql"]
        for q in captured.captured_queries
        if "products_product" in q["sql"] or "common_searchgram" in q["sql"]
    ]


def _scan_statements(client, term: str, monkeypatch) -> list[str]:
    """The SQL the same search ran before the grams: every term scans (no candidates), the count and the
    page each a statement of its own (the list's ORM way, which still serves a filtered list)."""
    from apps.common import search_index
    from apps.products.api import views

    search_index.verdicts_forget()
    with monkeypatch.context() as patch:
        patch.setattr(search_index, "CANDIDATE_LIMIT", -1)  # no candidates: every term scans
        patch.setattr(views, "compiled_page", lambda view, limit: None)
        # the candidates query still runs (and finds too many): left out, it is not part of the scan
        statements = [sql for sql in _search_statements(client, term) if "common_searchgram" not in sql]
    search_index.verdicts_forget()  # "too common" under the limit of -1: not for the other benchmarks
    assert len(statements) == 2, statements  # the count and the page
    return statements


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
        assert len(statements) == 2, statements  # the candidates from the grams, the counted page
    benchmark(_run_statements, tenant, statements)


@pytest.mark.django_db
def test_bench_products_search_scan_database_only(benchmark, big_catalogue, api, monkeypatch):
    """PostgreSQL's own time for the same search without the grams (the LIKE scan every term falls back
    to, and what the search ran before): count and page."""
    tenant, user = big_catalogue
    benchmark(_run_statements, tenant, _scan_statements(api(user, tenant), SEARCH, monkeypatch))


COMMON = "B001"  # 10,000 article numbers (B0010000 to B0019999): a tenth of 100,000, a hundredth of 1,000,000


def _common_needs_its_rows():
    if ROWS < 20_000:
        pytest.skip("the common term's 10,000 matches need at least 20,000 products")


@pytest.mark.django_db
def test_bench_products_search_common_database_only(benchmark, big_catalogue, api):
    """PostgreSQL's own time for the SQL a search for a common term runs once the term is known to be
    too common (the same search again, its next page, within `search_index.VERDICT_SECONDS`): the scan
    it falls back to, the page and its count in one statement."""
    _common_needs_its_rows()
    tenant, user = big_catalogue
    statements = _search_statements(api(user, tenant), COMMON, again=True)
    if connection.vendor == "postgresql":
        assert len(statements) == 1, statements  # the counted page
    benchmark(_run_statements, tenant, statements)


@pytest.mark.django_db
def test_bench_products_search_common_first_database_only(benchmark, big_catalogue, api):
    """The same for the term's first search in a process: the test of the gram counts (and the probe of
    the grams, stopped at `CANDIDATE_LIMIT` candidates, when the counts do not tell), then the scan."""
    from apps.common import search_index

    _common_needs_its_rows()
    tenant, user = big_catalogue
    search_index.verdicts_forget()
    statements = _search_statements(api(user, tenant), COMMON)
    if connection.vendor == "postgresql":
        assert len(statements) == 2, statements  # the candidates' statement, the counted page
    benchmark(_run_statements, tenant, statements)


@pytest.mark.django_db
def test_bench_products_search_common_scan_database_only(benchmark, big_catalogue, api, monkeypatch):
    """The same common term as the plain LIKE scan, without the probe, its count and its page each a
    statement (what the search ran before the grams): the reference for "common words no slower than the
    scan they replaced"."""
    _common_needs_its_rows()
    tenant, user = big_catalogue
    benchmark(_run_statements, tenant, _scan_statements(api(user, tenant), COMMON, monkeypatch))


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
