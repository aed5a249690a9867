"""List search through the trigram table (apps/common/search_index.py, apps/common/api/search.py).

The answers must be exactly those of plain `icontains` over the same fields (accents, Chinese, digits,
punctuation, LIKE's own wildcards, terms shorter than a gram or longer than any field); every kind of
write keeps the grams equal to those of the rows; nothing of another tenant is found or readable; the
gram table is read through its index under row-level security.
"""

from __future__ import annotations

import operator
import re
from decimal import Decimal
from functools import reduce
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection, models
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from rest_framework.filters import search_smart_split

from apps.common import search_index
from apps.common.models import SearchGram
from apps.common.tests.import_helpers import import_job
from apps.products.models import Product, ProductGroup

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PRODUCTS = "/api/products/"
PRODUCT_KIND = 1
SEARCH_FIELDS = ["article_number", "name", "name_zh", "hs_code", "barcode", "visma_code", "group__name"]

ROWS = [
    # article_number, name, name_zh, hs_code, barcode, visma_code, group
    (
        "CT-6040",
        "Carton 600x400",
        "单瓦楞运输纸箱 600x400",
        "48191000",
        "8712345678901",
        "V-77",
        "Double wall",
    ),
    ("B0012345", "Café crème box", "", "", "", "", None),
    ("A-1/B_2%", "Straße carton", "纸箱包装 大号", "4819", "", "", "纸箱组"),
    ("ÉCOLE-7", "Ölfass", "", "", "", "V-78", None),
    ("100%-X", "İstanbul ﬁne ǅ", "", "", "", "", "Double wall"),
    ("BACK\\SLASH", "under_score", "运输", "", "", "", None),
    ("X", "ab", "纸", "", "", "", None),
    ("CAFE-2", "cafe plain", "", "", "", "", None),
]
TERMS = [
    "caf",
    "CAFÉ",
    "café",
    "afé",
    "crème box",
    "straße",
    "STRASSE",
    "strasse",
    "纸箱",
    "纸箱包",
    "箱包装",
    "运输纸",
    "纸",
    "123",
    "2345",
    "-1/",
    "_2%",
    "%",
    "100%",
    "_",
    "\\",
    "\\sl",
    "a",
    "ab",
    "é",
    "zz",
    "zzz",
    "8712345678901",
    "48191",
    "v-7",
    "double",
    "ouble wa",
    "纸箱组",
    "ölf",
    "ÖLF",
    "istanbul",
    "İST",
    "ﬁne",
    "FINE",
    "ǆ",
    "ǅ",
    "ct-6040 600x",
    "carton 6040",
    "x" * 400,
    "Carton 600x400 and then much longer",
    '"crème box"',
    "600x400,ct",
    "0",
    "00",
    "000",
]


@pytest.fixture
def catalogue(tenant2, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        groups = {}
        for row in ROWS:
            name = row[6]
            if name and name not in groups:
                groups[name] = ProductGroup.objects.create(name=name, code=f"G{len(groups)}")
        for article, name, name_zh, hs_code, barcode, visma, group in ROWS:
            Product.objects.create(
                article_number=article,
                name=name,
                name_zh=name_zh,
                hs_code=hs_code,
                barcode=barcode,
                visma_code=visma,
                group=groups.get(group),
                weight_per_carton_kg=Decimal("0.5"),
            )
    with in_tenant(tenant2):
        # the same words in another tenant: never found from tenant 3
        Product.objects.create(article_number="CT-6040", name="Café crème box", name_zh="纸箱包装")
    return {"admin": make_user(tenant3, "Administrator", username="boss"), "tenant": tenant3}


def _icontains_ids(terms: list[str]) -> set[int]:
    conditions = [
        reduce(operator.or_, (Q(**{f"{field}__icontains": term}) for field in SEARCH_FIELDS))
        for term in terms
    ]
    return set(Product.objects.filter(reduce(operator.and_, conditions)).values_list("pk", flat=True))


def _found(client, search: str) -> tuple[set[int], int]:
    response = client.get(PRODUCTS, {"search": search, "page_size": 200})
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    return {row["id"] for row in data["results"]}, data["count"]


def _stored(kind: int) -> set[tuple[int, str]]:
    return set(SearchGram.objects.filter(kind=kind).values_list("object_id", "gram"))


def _expected(model, kind: int) -> set[tuple[int, str]]:
    """The grams of the rows as `search_grams()` computes them (the function the search uses for terms)."""
    fields = next(entry.fields for entry in search_index.INDEXED if entry.kind == kind)
    table = model._meta.db_table
    arrays = " || ".join(f"search_grams({model._meta.get_field(f).column}::text)" for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, unnest({arrays}) FROM {table}")
        return set(cursor.fetchall())


def test_search_answers_exactly_what_icontains_answers(catalogue, api, in_tenant):
    client = api(catalogue["admin"], catalogue["tenant"])
    with in_tenant(catalogue["tenant"]):
        for search in TERMS:
            expected = _icontains_ids(search_smart_split(search))
            found, count = _found(client, search)
            assert found == expected, search
            assert count == len(expected), search
    # the cases above are not all empty: accents, Chinese, digits and wildcards match something
    with in_tenant(catalogue["tenant"]):
        for search in ["café", "纸箱包", "2345", "_2%", "\\sl", "straße", "ölf"]:
            assert _icontains_ids(search_smart_split(search)), search


def test_terms_of_three_characters_read_the_grams_and_shorter_ones_scan(catalogue, api):
    client = api(catalogue["admin"], catalogue["tenant"])
    with CaptureQueriesContext(connection) as captured:
        assert _found(client, "纸箱包")[1] == 1
    grams = [q["sql"] for q in captured.captured_queries if "common_searchgram" in q["sql"]]
    assert len(grams) == 1
    page = [q["sql"] for q in captured.captured_queries if 'FROM "products_product"' in q["sql"]]
    assert page and all('"products_product"."id" = ANY(' in sql for sql in page)
    with CaptureQueriesContext(connection) as captured:
        assert _found(client, "纸箱")[1] == 2
    assert not [q for q in captured.captured_queries if "common_searchgram" in q["sql"]]


def test_the_candidates_are_one_constant_array_of_bigint_in_the_plan(catalogue, api, in_tenant):
    """The ids go to the driver unprepared (no per-id field preparation); PostgreSQL still plans them as
    one bigint[] constant, whatever the narrowest integer type psycopg chose for the literal."""
    from apps.common.api.search import EqualsAny, _ids

    client = api(catalogue["admin"], catalogue["tenant"])
    with CaptureQueriesContext(connection) as captured:
        assert _found(client, "carton")[1] == 2
    # the page and its count in one statement (apps/common/api/compiled_list.py)
    page = next(q["sql"] for q in captured.captured_queries if 'FROM "products_product"' in q["sql"])
    assert re.search(r"ANY\('\{[0-9,]+\}'::int[248]\[\]::bigint\[\]\)", page), page  # the narrowest, cast
    with in_tenant(catalogue["tenant"]), connection.cursor() as cursor:
        cursor.execute("EXPLAIN (VERBOSE, COSTS OFF) " + page)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "'::bigint[]" in plan and not re.search(r"int[248]\[\]", plan), plan
        # ids past int4 and an empty list: the literal takes the type that holds them
        first = Product.objects.order_by("pk").first().pk
        big = Product.objects.filter(EqualsAny(models.F("pk"), _ids([first, 5_000_000_000])))
        assert list(big.values_list("pk", flat=True)) == [first]
        assert not Product.objects.filter(EqualsAny(models.F("pk"), _ids([]))).exists()


def test_query_count_of_a_search_is_pinned(catalogue, api, count_queries):
    client = api(catalogue["admin"], catalogue["tenant"])
    client.get(PRODUCTS)  # the first request of a user reads what later ones find cached
    # found rows without a group, so that no query for the groups of the page differs
    short = count_queries(lambda: client.get(PRODUCTS, {"search": "ab"}))  # under three characters: a scan
    assert short == 4  # savepoint, membership with the tenant setting, the page and its count, release
    # one query for the candidates of each term of three characters or more, then the page and its count
    assert count_queries(lambda: client.get(PRODUCTS, {"search": "café"})) == short + 1
    assert count_queries(lambda: client.get(PRODUCTS, {"search": "café box"})) == short + 2


def test_another_tenants_rows_and_grams_stay_hidden(catalogue, api, in_tenant, tenant2):
    client = api(catalogue["admin"], catalogue["tenant"])
    found, _ = _found(client, "crème box")
    with in_tenant(tenant2):
        theirs = Product.objects.get()
        assert _stored(PRODUCT_KIND) == _expected(Product, PRODUCT_KIND)
        assert {object_id for object_id, _gram in _stored(PRODUCT_KIND)} == {theirs.pk}
    assert theirs.pk not in found and len(found) == 1
    with connection.cursor() as cursor:  # outside a tenant: no gram at all
        cursor.execute("SELECT set_config('app.tenant_id', '', true)")
        cursor.execute("SELECT count(*) FROM common_searchgram")
        assert cursor.fetchone()[0] == 0


def test_every_write_keeps_the_grams_of_its_rows(catalogue, api, in_tenant):
    tenant = catalogue["tenant"]
    client = api(catalogue["admin"], tenant)

    def check():
        assert _stored(PRODUCT_KIND) == _expected(Product, PRODUCT_KIND)

    with in_tenant(tenant):
        check()
        product = Product.objects.create(article_number="NEW-1", name="Fresh wave", weight_per_carton_kg=None)
        check()
        product.name = "Stale wave"
        product.save()
        check()
        product.save()  # nothing searched changed
        check()
        Product.objects.bulk_create(
            [Product(article_number=f"BULK-{i}", name=f"Bulk {i}") for i in range(30)]
        )
        check()
        Product.objects.filter(article_number__startswith="BULK-").update(name="Renamed in bulk")
        check()
        Product.objects.filter(article_number__startswith="BULK-1").update(is_active=False)
        check()
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE products_product SET name_zh = '新名' || id, article_number = 'R' || id WHERE name = 'Renamed in bulk'"
            )
        check()
        Product.objects.filter(article_number__startswith="R").delete()
        check()
        product.delete()
        check()
    assert _found(client, "stale wave")[1] == 0
    assert _found(client, "renamed")[1] == 0

    upload = SimpleUploadedFile(
        "products.csv",
        "Article number,Name,Chinese name\nIMP-1,Imported crate,进口箱\nCT-6040,Carton renamed by import,\n".encode(),
        content_type="text/csv",
    )
    job = import_job(client, PRODUCTS, upload)
    assert job["status"] == "done", job
    with in_tenant(tenant):
        check()
    assert _found(client, "进口箱")[1] == 1
    assert _found(client, "renamed by imp")[1] == 1
    assert _found(client, "600x400")[1] == 0  # CT-6040's old name is no longer found


def test_the_gram_table_is_read_through_its_index_under_row_level_security(catalogue, in_tenant):
    with in_tenant(catalogue["tenant"]), connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone()[0] is False
        # a handful of rows: without this the planner would rightly read the table itself
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = search_index._candidates_sql(PRODUCT_KIND, "crème box", catalogue["tenant"].pk)
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert (
        "Index Only Scan using common_searchgram_pkey" in plan
        or "Index Scan using common_searchgram_pkey" in plan
    ), plan
    assert "Seq Scan" not in plan, plan


def test_more_candidates_than_the_limit_fall_back_to_the_scan(catalogue, api, in_tenant, monkeypatch):
    client = api(catalogue["admin"], catalogue["tenant"])
    monkeypatch.setattr(search_index, "CANDIDATE_LIMIT", 1)
    with in_tenant(catalogue["tenant"]):
        expected = _icontains_ids(["car"])
        assert len(expected) > 1
        assert search_index.candidates({PRODUCT_KIND}, "car") == {PRODUCT_KIND: None}
    assert _found(client, "car")[0] == expected


def test_sync_is_idempotent_and_rebuild_restores_the_grams(catalogue, in_tenant):
    assert search_index.sync() == set()
    with in_tenant(catalogue["tenant"]):
        expected = _expected(Product, PRODUCT_KIND)
        SearchGram.objects.filter(kind=PRODUCT_KIND).delete()
        assert _stored(PRODUCT_KIND) == set()
    search_index.rebuild({PRODUCT_KIND})
    with in_tenant(catalogue["tenant"]):
        assert _stored(PRODUCT_KIND) == expected
    with connection.cursor() as cursor:
        for entry in search_index.INDEXED:
            cursor.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgname LIKE %s AND tgrelid = %s::regclass",
                [f"{search_index.FUNCTION_PREFIX}{entry.kind}_%", entry.model_class()._meta.db_table],
            )
            assert cursor.fetchone()[0] == 3, entry


def test_rebuild_command_restores_the_grams_of_every_tenant_and_only_the_kinds_asked(
    catalogue, in_tenant, tenant2
):
    tenant = catalogue["tenant"]
    expected = {}
    for each in (tenant, tenant2):
        with in_tenant(each):
            expected[each.pk] = _expected(Product, PRODUCT_KIND)
            assert expected[each.pk]
            # lost and wrong grams of products, and a stray gram of another kind that --model leaves alone
            SearchGram.objects.filter(kind=PRODUCT_KIND).exclude(gram__startswith="C").delete()
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO common_searchgram (tenant_id, kind, gram, object_id) VALUES "
                    "(%s, %s, 'QQQ', 1), (%s, %s, 'QQQ', 1)",
                    [each.pk, PRODUCT_KIND, each.pk, 9],
                )
            assert _stored(PRODUCT_KIND) != expected[each.pk]
    out = StringIO()
    call_command("rebuild_search_index", "--model", "products.product", stdout=out)
    for each in (tenant, tenant2):
        with in_tenant(each):
            assert _stored(PRODUCT_KIND) == expected[each.pk]
            assert SearchGram.objects.filter(kind=9, gram="QQQ").count() == 1
        assert f"{each.name}: {len(expected[each.pk])} grams" in out.getvalue()
    # every kind, one tenant: the stray gram of that tenant goes, the other tenant's stays
    call_command("rebuild_search_index", "--tenant", str(tenant.pk), stdout=StringIO())
    with in_tenant(tenant):
        assert not SearchGram.objects.filter(gram="QQQ").exists()
    with in_tenant(tenant2):
        assert SearchGram.objects.filter(kind=9, gram="QQQ").count() == 1
    call_command("rebuild_search_index", "--kind", "9", stdout=StringIO())
    with in_tenant(tenant2):
        assert not SearchGram.objects.filter(gram="QQQ").exists()
    with pytest.raises(CommandError, match="no search grams"):
        call_command("rebuild_search_index", "--model", "CartonLabel", stdout=StringIO())
    with pytest.raises(CommandError, match="unknown kind"):
        call_command("rebuild_search_index", "--kind", "999", stdout=StringIO())
