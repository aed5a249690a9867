"""The lists' bounded count (apps/common/api/pagination.py, docs/performance.md "Counts of big lists"): exact
up to LIST_COUNT_LIMIT, above it a lower bound with count_more, and the pages past the limit still reached."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.products.tests.factories import make_product

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(tenant3, make_user, api, in_tenant):
    with in_tenant(tenant3):
        for n in range(7):
            make_product(article_number=f"CT-{n}", name=f"Carton {n}")
    return api(make_user(tenant3), tenant3)


def page(client, **params):
    response = client.get("/api/products/", params)
    assert response.status_code == 200, response.content
    return response.json()["data"]


def test_under_the_limit_the_count_is_exact(client, settings):
    settings.LIST_COUNT_LIMIT = 7
    data = page(client, page_size=3)
    assert (data["count"], data["count_more"]) == (7, False)
    assert data["next"].endswith("page=2&page_size=3") or "page=2" in data["next"]
    assert data["previous"] is None
    last = page(client, page_size=3, page=3)
    assert [row["article_number"] for row in last["results"]] == ["CT-6"]
    assert (last["count"], last["count_more"], last["next"]) == (7, False, None)
    assert "page=2" in last["previous"]
    assert page(client, page_size=3, page="last")["results"] == last["results"]


def test_the_default_limit_counts_exactly(client):
    data = page(client)
    assert (data["count"], data["count_more"], data["next"]) == (7, False, None)


def test_above_the_limit_the_count_is_a_lower_bound(client, settings):
    settings.LIST_COUNT_LIMIT = 4
    first = page(client, page_size=2)
    assert (first["count"], first["count_more"]) == (4, True)
    assert [row["article_number"] for row in first["results"]] == ["CT-0", "CT-1"]
    assert "page=2" in first["next"] and first["previous"] is None
    # past the limit: the pages go on while rows follow, the count grows with the page reached
    third = page(client, page_size=2, page=3)
    assert [row["article_number"] for row in third["results"]] == ["CT-4", "CT-5"]
    assert (third["count"], third["count_more"]) == (6, True)
    assert "page=4" in third["next"] and "page=2" in third["previous"]
    last = page(client, page_size=2, page=4)
    assert [row["article_number"] for row in last["results"]] == ["CT-6"]
    assert (last["count"], last["count_more"], last["next"]) == (7, False, None)  # known at the end


def test_a_page_past_the_end_is_not_found(client, settings):
    settings.LIST_COUNT_LIMIT = 4
    response = client.get("/api/products/", {"page_size": 2, "page": 5})
    assert response.status_code == 404
    for bad in ("0", "x", "-1"):
        assert client.get("/api/products/", {"page_size": 2, "page": bad}).status_code == 404
    settings.LIST_COUNT_LIMIT = 100
    assert client.get("/api/products/", {"page_size": 2, "page": 5}).status_code == 404


def test_the_count_reads_at_most_the_limit_and_does_not_sort(client, settings):
    settings.LIST_COUNT_LIMIT = 4
    with CaptureQueriesContext(connection) as captured:
        page(client, page_size=2, ordering="-name")
    count = next(q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT COUNT(*) FROM"))
    assert "LIMIT 5" in count, count
    assert "ORDER BY" not in count.upper(), count


def test_the_filters_apply_to_the_bounded_count(client, settings):
    settings.LIST_COUNT_LIMIT = 4
    data = page(client, page_size=2, search="Carton 3")
    assert (data["count"], data["count_more"]) == (1, False)


def test_a_search_counts_up_to_the_search_limit(client, settings):
    """A search's count stops at SEARCH_COUNT_LIMIT + 1 matches; the same list unsearched keeps
    LIST_COUNT_LIMIT, and the pages of a search still go on to its last match."""
    settings.SEARCH_COUNT_LIMIT = 3
    first = page(client, page_size=2, search="Carton")
    assert (first["count"], first["count_more"]) == (3, True)
    assert [row["article_number"] for row in first["results"]] == ["CT-0", "CT-1"]
    last = page(client, page_size=2, search="Carton", page=4)
    assert [row["article_number"] for row in last["results"]] == ["CT-6"]
    assert (last["count"], last["count_more"], last["next"]) == (7, False, None)
    assert (page(client, page_size=2)["count"], page(client, page_size=2)["count_more"]) == (7, False)
    # a search with no term (blanks, commas) is no search: the list's own limit
    assert page(client, page_size=2, search=" , ")["count_more"] is False
    # the first page within the counted matches: read and counted in one statement
    with CaptureQueriesContext(connection) as captured:
        page(client, page_size=2, search="Carton")
    counted = next(q["sql"] for q in captured.captured_queries if "count(*) OVER ()" in q["sql"])
    assert "LIMIT 4) bounded OFFSET 0 LIMIT 3" in counted, counted
    # a page past them: the count of its own
    with CaptureQueriesContext(connection) as captured:
        page(client, page_size=2, search="Carton", page=3)
    count = next(q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT COUNT(*) FROM"))
    assert "LIMIT 4" in count, count


def test_the_search_limit_never_exceeds_the_list_limit(client, settings):
    settings.LIST_COUNT_LIMIT = 4
    settings.SEARCH_COUNT_LIMIT = 100
    data = page(client, page_size=2, search="Carton")
    assert (data["count"], data["count_more"]) == (4, True)


def test_under_the_search_limit_a_search_counts_exactly(client, settings):
    settings.SEARCH_COUNT_LIMIT = 7
    data = page(client, page_size=2, search="Carton")
    assert (data["count"], data["count_more"]) == (7, False)
