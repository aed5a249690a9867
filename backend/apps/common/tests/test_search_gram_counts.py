"""The counts of common search grams (SearchGramCount, search_index.counts_refresh): a term whose grams
the counts call too common is not probed and scans; the counts steer, the answers stay exact however
stale they are; each tenant's counts are its own."""

from __future__ import annotations

import pytest
from django.db import ProgrammingError, connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.common import search_index
from apps.common.models import SearchGramCount
from apps.common.tasks import count_search_grams
from apps.products.models import Product

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PRODUCTS = "/api/products/"
PRODUCT_KIND = 1


@pytest.fixture
def small_limits(monkeypatch):
    # a gram of 3 rows is counted; a probe of more than 5 candidates gives up
    monkeypatch.setattr(search_index, "COUNTED_GRAM_MIN", 3)
    monkeypatch.setattr(search_index, "CANDIDATE_LIMIT", 5)


@pytest.fixture
def mailers(tenant2, tenant3, in_tenant, make_user, small_limits):
    with in_tenant(tenant3):
        Product.objects.bulk_create(
            [Product(article_number=f"M-{i:02d}", name=f"Mailer box {i}") for i in range(12)]
            + [
                Product(article_number="P-1", name="Maple crate"),
                Product(article_number="P-2", name="Pallet"),
            ]
        )
    with in_tenant(tenant2):
        Product.objects.bulk_create([Product(article_number=f"N-{i}", name=f"Mailer {i}") for i in range(2)])
    return {"admin": make_user(tenant3, "Administrator", username="counter"), "tenant": tenant3}


def _counts() -> dict[str, int]:
    return dict(SearchGramCount.objects.filter(kind=PRODUCT_KIND).values_list("gram", "postings"))


def _found(client, search: str) -> set[str]:
    response = client.get(PRODUCTS, {"search": search, "page_size": 200})
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["count"] == len(data["results"])
    return {row["article_number"] for row in data["results"]}


def test_refresh_counts_the_grams_held_by_enough_rows_and_the_rows_of_each_kind(mailers, in_tenant):
    written = search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(mailers["tenant"]):
        counts = _counts()
        assert counts[""] == 14  # the products of the tenant
        # MAI, AIL, ILE, LER and BOX of the 12 mailers
        assert counts["MAI"] == counts["LER"] == 12
        assert counts["BOX"] == 12
        assert "MAP" not in counts and "PAL" not in counts  # held by one row each: rare, not counted
        assert all(postings >= 3 for gram, postings in counts.items() if gram)
        assert written[mailers["tenant"].pk] == len(counts)
    # refreshing again replaces the counts: nothing doubles, nothing fails
    search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(mailers["tenant"]):
        assert _counts() == counts


def test_a_term_the_counts_call_common_is_not_probed_and_still_answers_exactly(mailers, api, in_tenant):
    client = api(mailers["admin"], mailers["tenant"])
    tenant = mailers["tenant"]
    with in_tenant(tenant):
        # no counts yet: the probe runs and finds the 12 mailers, more than the limit of 5
        assert search_index.candidates({PRODUCT_KIND}, "mailer") == {PRODUCT_KIND: None}
        maple = Product.objects.get(article_number="P-1").pk
    search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(tenant):
        # 14 rows x (12/14)^4 for MAI, AIL, ILE, LER: about 7.6 rows expected, over the limit
        assert search_index.candidates({PRODUCT_KIND}, "mailer") == {PRODUCT_KIND: None}
        # a term with a rare gram (MAP: one row) is probed: its postings bound the candidates
        assert search_index.candidates({PRODUCT_KIND}, "maple") == {PRODUCT_KIND: [maple]}
        # stale counts: ten mailers go, the counts still say 12; the probe would find 2, but is skipped
        Product.objects.filter(article_number__in=[f"M-{i:02d}" for i in range(2, 12)]).delete()
        assert search_index.candidates({PRODUCT_KIND}, "mailer") == {PRODUCT_KIND: None}
    # the search scans instead, and answers exactly
    with CaptureQueriesContext(connection) as captured:
        assert _found(client, "mailer") == {"M-00", "M-01"}
    page = [q["sql"] for q in captured.captured_queries if 'FROM "products_product"' in q["sql"]]
    assert page and not any('"products_product"."id" = ANY(' in sql for sql in page)
    search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(tenant):
        mailer_ids = sorted(Product.objects.filter(name__startswith="Mailer").values_list("pk", flat=True))
        found = search_index.candidates({PRODUCT_KIND}, "mailer")[PRODUCT_KIND]
        assert sorted(found or []) == mailer_ids
    assert _found(client, "mailer") == {"M-00", "M-01"}
    assert _found(client, "maple") == {"P-1"}


def test_the_probe_is_not_run_when_the_counts_call_the_term_common(mailers, in_tenant):
    search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(mailers["tenant"]), connection.cursor() as cursor:
        sql, params = search_index._candidates_sql(
            PRODUCT_KIND, "mailer", mailers["tenant"].pk, "AND NOT EXISTS (SELECT FROM common) "
        )
        common, common_params = search_index._common_sql(PRODUCT_KIND, "mailer", mailers["tenant"].pk)
        cursor.execute(
            f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) WITH common AS MATERIALIZED ({common}) {sql}",
            [*common_params, *params],
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "common_searchgram_pkey" in plan, plan
    assert "(never executed)" in plan, plan


def test_each_tenant_has_its_own_counts(mailers, api, in_tenant, tenant2, make_user):
    search_index.counts_refresh({PRODUCT_KIND})
    with in_tenant(tenant2):
        # tenant 2's two mailers are under the counted minimum of 3: it counts its rows, no gram
        assert _counts() == {"": 2}
        ids = sorted(Product.objects.values_list("pk", flat=True))
        # tenant 3's counts call "mailer" common; tenant 2's do not: its probe runs
        assert sorted(search_index.candidates({PRODUCT_KIND}, "mailer")[PRODUCT_KIND] or []) == ids
    theirs = api(make_user(tenant2, "Administrator", username="other"), tenant2)
    assert _found(theirs, "mailer") == {"N-0", "N-1"}
    with connection.cursor() as cursor:  # outside a tenant: no count at all
        cursor.execute("SELECT set_config('app.tenant_id', '', true)")
        cursor.execute("SELECT count(*) FROM common_searchgramcount")
        assert cursor.fetchone()[0] == 0
        # a count written for another tenant is refused by the policy
        cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant2.pk)])
        with pytest.raises(ProgrammingError, match="row-level security"), transaction.atomic():
            with connection.cursor() as inner:
                inner.execute(
                    "INSERT INTO common_searchgramcount (tenant_id, kind, gram, postings) VALUES (%s, 1, 'XYZ', 9)",
                    [mailers["tenant"].pk],
                )


def test_rebuild_and_the_hourly_task_count_again(mailers, in_tenant):
    with in_tenant(mailers["tenant"]):
        assert _counts() == {}
    assert count_search_grams.apply().get() > 0
    with in_tenant(mailers["tenant"]):
        counts = _counts()
        assert counts[""] == 14
        SearchGramCount.objects.filter(kind=PRODUCT_KIND).delete()
    search_index.rebuild({PRODUCT_KIND})
    with in_tenant(mailers["tenant"]):
        assert _counts() == counts


def _gram_statements(captured) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "common_searchgram" in q["sql"]]


def test_a_term_found_too_common_is_not_asked_again_for_a_while(mailers, api, in_tenant, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(search_index, "_clock", lambda: now[0])
    client = api(mailers["admin"], mailers["tenant"])
    with CaptureQueriesContext(connection) as captured:
        assert len(_found(client, "mailer")) == 12  # the probe finds more than 5: the scan
    assert len(_gram_statements(captured)) == 1
    # the same search again, its next page, the other kinds' answer: no statement on the grams
    with CaptureQueriesContext(connection) as captured:
        assert len(_found(client, "mailer")) == 12
        assert client.get(PRODUCTS, {"search": "mailer", "page_size": 5, "page": 2}).status_code == 200
    assert _gram_statements(captured) == []
    with in_tenant(mailers["tenant"]), CaptureQueriesContext(connection) as captured:
        assert search_index.candidates({PRODUCT_KIND}, "mailer") == {PRODUCT_KIND: None}
    assert captured.captured_queries == []
    # the rows change: the remembered verdict costs a scan, never a wrong answer
    with in_tenant(mailers["tenant"]):
        Product.objects.filter(article_number__in=[f"M-{i:02d}" for i in range(2, 12)]).delete()
    assert _found(client, "mailer") == {"M-00", "M-01"}
    # once VERDICT_SECONDS have passed the term is probed again, and has candidates now
    now[0] += search_index.VERDICT_SECONDS + 1
    with in_tenant(mailers["tenant"]):
        found = search_index.candidates({PRODUCT_KIND}, "mailer")[PRODUCT_KIND]
        assert sorted(found or []) == sorted(
            Product.objects.filter(name__startswith="Mailer").values_list("pk", flat=True)
        )


def test_a_verdict_is_the_tenants_own_and_a_refresh_forgets_it(mailers, api, in_tenant, tenant2, make_user):
    client = api(mailers["admin"], mailers["tenant"])
    assert len(_found(client, "mailer")) == 12  # too common in tenant 3: remembered
    with in_tenant(tenant2):  # tenant 2's two mailers: probed, with their candidates
        ids = sorted(Product.objects.values_list("pk", flat=True))
        assert sorted(search_index.candidates({PRODUCT_KIND}, "mailer")[PRODUCT_KIND] or []) == ids
    theirs = api(make_user(tenant2, "Administrator", username="verdicts"), tenant2)
    assert _found(theirs, "mailer") == {"N-0", "N-1"}
    search_index.counts_refresh({PRODUCT_KIND})  # new counts: what was remembered is asked again
    with in_tenant(mailers["tenant"]), CaptureQueriesContext(connection) as captured:
        assert search_index.candidates({PRODUCT_KIND}, "mailer") == {PRODUCT_KIND: None}
    assert len(_gram_statements(captured)) == 1


def test_the_verdicts_kept_are_bounded(mailers, in_tenant, monkeypatch):
    monkeypatch.setattr(search_index, "VERDICTS_KEPT", 2)
    with in_tenant(mailers["tenant"]):
        for term in ("mailer", "ailer", "box"):
            assert search_index.candidates({PRODUCT_KIND}, term) == {PRODUCT_KIND: None}
            assert len(search_index._verdicts) <= 2
