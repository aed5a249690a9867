"""The products list read through its compiled statements (apps/products/api/list_page.py) answers what the
ORM's way answers, key for key: every ordering the list offers, every page, searches of every shape (terms
with candidates from their grams, terms too short for grams, several terms, a group's name, LIKE's own
characters), internal, warehouse and supplier users, the count past its limit; the requests it does not
serve go the ORM's way; its SQL is compiled once per shape, not per tenant or term."""

from datetime import date
from decimal import Decimal

import pytest

from apps.common.tests import compiled_pages
from apps.products.api import list_page, views
from apps.products.models import Product
from apps.suppliers.models import ParentVendor
from apps.tenancy.compiled import CompiledOnce

from .factories import make_group, make_product

pytestmark = pytest.mark.django_db

URL = "/api/products/"


@pytest.fixture(autouse=True)
def no_statements_kept(monkeypatch):
    """Each test starts with no compiled statement kept, so the cap on them is never the test's."""
    monkeypatch.setattr(list_page, "_PAGES", {})
    monkeypatch.setattr(list_page, "_COUNTS", {})


@pytest.fixture
def catalogue(tenant2, tenant3, in_tenant, make_user):
    """Products in every state the list writes differently, some on each vendor's purchase orders, and
    products of another tenant that the same searches would find."""
    from apps.purchaseorders import services as purchasing
    from apps.suppliers.models import Supplier

    with in_tenant(tenant3):
        boxes = make_group("Boxes 50%", code="BX")
        single = make_group("Single_wall", code="SW", parent=boxes)
        rows = [
            make_product(
                "CT-100", name="Mailer box", group=single, name_zh="邮寄箱", barcode="4006381333931"
            ),
            make_product("CT-101", name="Mailer box large", group=boxes, visma_code="3010"),
            make_product("CT-102", name="50% recycled_board", group=None, is_active=False),
            make_product("CT-103", name=r"Back\slash tray", weight_per_carton_kg=None, purchase_price=None),
            make_product("KW-1", name="Frying pan", hs_code="732393", sales_price=None, currency="USD"),
            make_product("KW-2", name="Frying pan lid", carton_length_mm=400, carton_width_mm=300),
            make_product("ZZ-9", name="Pallet wrap", unit="kg", description="Stretch film, 23 µm"),
        ]
        same = Product.objects.get(pk=rows[0].pk).created_at  # two products created at the same moment
        Product.objects.filter(pk=rows[1].pk).update(created_at=same, updated_at=same)
        vendor_a = ParentVendor.objects.create(name="Vendor A")
        vendor_b = ParentVendor.objects.create(name="Vendor B")
        for vendor, products, number in ((vendor_a, rows[:3], "S-A"), (vendor_b, rows[3:5], "S-B")):
            purchasing.purchase_order_create(
                supplier=Supplier.objects.create(parent_vendor=vendor, number=number, name=number),
                order_date=date(2026, 3, 1),
                lines=[
                    purchasing.LineInput(product=product, order_qty=Decimal("10"), unit_cost=Decimal("1"))
                    for product in products
                ],
            )
    with in_tenant(tenant2):
        make_product("CT-100", name="Mailer box of another tenant")
        make_product("CT-900", name="Frying pan of another tenant")

    class World:
        pass

    world = World()
    world.tenant2, world.tenant3, world.rows = tenant2, tenant3, rows
    world.admin = make_user(tenant3, username="products-admin")
    world.warehouse = make_user(tenant3, "Warehouse", username="products-warehouse")
    world.supplier_a = make_user(
        tenant3, "Supplier", username="products-supplier-a", is_supplier=True, parent_vendor=vendor_a
    )
    world.supplier_b = make_user(
        tenant3, "Supplier", username="products-supplier-b", is_supplier=True, parent_vendor=vendor_b
    )
    world.other = make_user(tenant2, username="products-other")
    return world


def _orm_way(monkeypatch):
    compiled_pages.orm_way(monkeypatch, views)


def _served(monkeypatch) -> list:
    return compiled_pages.served(monkeypatch, views)


def _pages(client, params: dict) -> list:
    return compiled_pages.pages(client, URL, params, 9)


def _both_ways(client, monkeypatch, params: dict) -> tuple[list, list]:
    with monkeypatch.context() as patch:
        served = _served(patch)
        compiled = _pages(client, params)
    assert served and all(served), params
    with monkeypatch.context() as patch:
        _orm_way(patch)
        orm = _pages(client, params)
    return compiled, orm


ORDERINGS = [
    None,
    *[f"{sign}{field}" for field in views.ProductViewSet.all_ordering_fields for sign in ("", "-")],
    "is_active,-name",
    "not_a_field",
    "unit,not_a_field",
]

SEARCHES = [
    "CT-10",  # its grams name candidates
    "ct",  # too short for grams: the scan
    "mailer box",  # two terms
    "pan, lid",  # two terms, a comma between
    "Single_wall",  # a group's name, with LIKE's own `_`
    "50%",  # LIKE's own `%`, in a name and in a group's name
    "_",  # nothing but LIKE's `_`: matches only an underscore
    "back\\slash",  # a backslash
    "邮寄",  # a Chinese name
    "4006381333931",  # a barcode
    "3010",  # an accounting code
    "no such product",
]


@pytest.mark.parametrize("who", ["admin", "warehouse", "supplier_a", "supplier_b"])
def test_every_ordering_and_page_is_the_orms_answer(catalogue, api, monkeypatch, who):
    client = api(getattr(catalogue, who), catalogue.tenant3)
    for ordering in ORDERINGS:
        params = {"page_size": 2} if ordering is None else {"page_size": 2, "ordering": ordering}
        compiled, orm = _both_ways(client, monkeypatch, params)
        assert compiled == orm, ordering
        assert orm[0][0] == 200 and orm[-1][0] == 404
    # what each user sees: the tenant's products, a supplier those on its vendor's orders, without prices
    rows = client.get(URL, {"page_size": 50}).json()["data"]["results"]
    expected = {
        "admin": {"CT-100", "CT-101", "CT-102", "CT-103", "KW-1", "KW-2", "ZZ-9"},
        "warehouse": {"CT-100", "CT-101", "CT-102", "CT-103", "KW-1", "KW-2", "ZZ-9"},
        "supplier_a": {"CT-100", "CT-101", "CT-102"},
        "supplier_b": {"CT-103", "KW-1"},
    }[who]
    assert {row["article_number"] for row in rows} == expected
    assert all(("sales_price" in row) == (who == "admin") for row in rows)


@pytest.mark.parametrize("who", ["admin", "warehouse", "supplier_a"])
def test_every_search_is_the_orms_answer(catalogue, api, monkeypatch, who):
    client = api(getattr(catalogue, who), catalogue.tenant3)
    for search in SEARCHES:
        for ordering in (None, "-name", "group__name"):
            params = {"page_size": 2, "search": search}
            if ordering:
                params["ordering"] = ordering
            compiled, orm = _both_ways(client, monkeypatch, params)
            assert compiled == orm, (search, ordering)


def test_the_searches_find_what_they_name(catalogue, api):
    client = api(catalogue.admin, catalogue.tenant3)

    def found(search: str) -> list[str]:
        rows = client.get(URL, {"search": search, "ordering": "article_number"}).json()["data"]["results"]
        return [row["article_number"] for row in rows]

    assert found("CT-10") == ["CT-100", "CT-101", "CT-102", "CT-103"]
    assert found("mailer box") == ["CT-100", "CT-101"]
    assert found("50%") == ["CT-101", "CT-102"]  # one in the group "Boxes 50%", one by its name
    assert found("_") == ["CT-100", "CT-102"]  # "Single_wall" and "recycled_board"
    assert found("back\\slash") == ["CT-103"]
    assert found("邮寄") == ["CT-100"]
    assert found("no such product") == []
    row = client.get(URL, {"search": "CT-100"}).json()["data"]["results"][0]
    assert row["group_path"] == "Boxes 50% / Single_wall" and row["group_name"] == "Single_wall"
    assert row["weight_per_carton_kg"] == "0.320" and row["purchase_price"] == "0.4200"
    bare = client.get(URL, {"search": "CT-103"}).json()["data"]["results"][0]
    assert bare["weight_per_carton_kg"] is None and bare["purchase_price"] is None
    assert bare["group"] is None and bare["group_name"] is None and bare["group_path"] is None


def test_a_count_past_its_limit_is_the_orms_answer(catalogue, api, monkeypatch, settings):
    settings.LIST_COUNT_LIMIT = 4
    settings.SEARCH_COUNT_LIMIT = 2
    client = api(catalogue.admin, catalogue.tenant3)
    for params in ({"page_size": 2}, {"page_size": 1, "search": "CT-10"}):
        compiled, orm = _both_ways(client, monkeypatch, params)
        assert compiled == orm
        assert compiled[0][1]["data"]["count_more"] is True


@pytest.mark.parametrize(
    "params",
    [
        {"is_active": "true"},
        {"group": "1"},
        {"hs_code": "4819"},
        {"has_weight": "true"},
        {"search": "a b c d e"},  # more terms than the compiled statements serve
    ],
)
def test_a_filter_or_a_long_search_goes_the_orms_way(catalogue, api, monkeypatch, params):
    client = api(catalogue.admin, catalogue.tenant3)
    with monkeypatch.context() as patch:
        served = _served(patch)
        answer = client.get(URL, params)
    assert served == [False]
    assert answer.status_code == 200


def test_another_tenant_and_a_supplier_without_vendor_see_none_of_the_rows(catalogue, api, make_user):
    other = api(catalogue.other, catalogue.tenant2)
    names = [row["name"] for row in other.get(URL, {"search": "mailer"}).json()["data"]["results"]]
    assert names == ["Mailer box of another tenant"]
    assert other.get(URL).json()["data"]["count"] == 2
    supplier_b = api(catalogue.supplier_b, catalogue.tenant3)
    assert supplier_b.get(URL, {"search": "mailer"}).json()["data"]["count"] == 0  # vendor A's products
    lost = make_user(catalogue.tenant3, "Supplier", username="products-supplier-none", is_supplier=True)
    assert api(lost, catalogue.tenant3).get(URL, {"search": "CT"}).json()["data"]["count"] == 0


def test_the_sql_is_compiled_once_per_ordering_shape_and_user_kind(catalogue, api, monkeypatch):
    compiled = []
    original = CompiledOnce._compile
    monkeypatch.setattr(
        CompiledOnce, "_compile", lambda self, using: compiled.append(1) or original(self, using)
    )
    client = api(catalogue.admin, catalogue.tenant3)
    client.get(URL)
    assert len(compiled) == 2  # the count and the page
    client.get(URL, {"page": 2, "page_size": 2})
    api(catalogue.other, catalogue.tenant2).get(URL)
    assert len(compiled) == 2
    client.get(URL, {"ordering": "name"})
    assert len(compiled) == 3  # a page in another order; the same count
    client.get(URL, {"search": "CT-10"})  # a search's page counts its rows: no count compiled
    client.get(URL, {"search": "KW-"})  # another term of the same shape: candidates from its grams
    api(catalogue.other, catalogue.tenant2).get(URL, {"search": "mailer"})
    assert len(compiled) == 4
    client.get(URL, {"search": "ct"})  # too short for grams: another shape
    assert len(compiled) == 5
    client.get(URL, {"search": "ct", "page": "last"})  # a page not named by its number: the count too
    assert len(compiled) == 6
    api(catalogue.supplier_a, catalogue.tenant3).get(URL)
    assert len(compiled) == 8


def _product_statements(client, params: dict) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(URL, params).status_code == 200
    return [q["sql"] for q in captured.captured_queries if '"products_product"' in q["sql"]]


def test_a_searchs_count_and_page_are_one_statement(catalogue, api, settings):
    settings.SEARCH_COUNT_LIMIT = 3
    client = api(catalogue.admin, catalogue.tenant3)
    # the page and the row after it within the counted rows: one statement reads, counts and keeps them
    for params in ({"search": "CT-10", "page_size": 2}, {"search": "ct", "page": 2, "page_size": 1}):
        statements = _product_statements(client, params)
        assert len(statements) == 1 and "count(*) OVER ()" in statements[0], params
    # a page past the counted rows: the count, then the page
    statements = _product_statements(client, {"search": "ct", "page": 2, "page_size": 2})
    assert len(statements) == 2 and "COUNT(*)" in statements[0] and "OVER" not in statements[1]
    # a list without a search counts its ids and reads its page, as before
    assert len(_product_statements(client, {"page_size": 2})) == 2


@pytest.mark.parametrize("page", ["last", "0", "-1", "two", "3", "99999999999999999999", ""])
def test_a_searchs_odd_page_numbers_are_the_orms_answer(catalogue, api, monkeypatch, settings, page):
    settings.SEARCH_COUNT_LIMIT = 3
    client = api(catalogue.admin, catalogue.tenant3)
    answers = []
    for way in ("compiled", "orm"):
        with monkeypatch.context() as patch:
            if way == "orm":
                _orm_way(patch)
            for size in (1, 2, 5):
                response = client.get(URL, {"search": "ct", "page": page, "page_size": size})
                answers.append((way, response.status_code, response.json()))
    compiled, orm = answers[:3], answers[3:]
    assert [answer[1:] for answer in compiled] == [answer[1:] for answer in orm]


def test_past_the_statements_kept_a_request_goes_the_orms_way(catalogue, api, monkeypatch):
    monkeypatch.setattr(list_page, "MAX_STATEMENTS", 3)
    client = api(catalogue.admin, catalogue.tenant3)
    served = _served(monkeypatch)
    first = client.get(URL, {"ordering": "name"})
    second = client.get(URL, {"ordering": "-name"})  # the same count, one more page: three
    third = client.get(URL, {"ordering": "unit"})
    again = client.get(URL, {"ordering": "name"})
    assert served == [True, True, False, True]
    assert {first.status_code, second.status_code, third.status_code, again.status_code} == {200}


@pytest.mark.parametrize("search", ["a\x00b", "\x00", "x" * 5000, "%%%%", "ct ct ct ct"])
def test_odd_terms_answer_as_the_orms_way_does(catalogue, api, monkeypatch, search):
    client = api(catalogue.admin, catalogue.tenant3)
    with monkeypatch.context() as patch:
        _orm_way(patch)
        orm = client.get(URL, {"search": search})
    compiled = client.get(URL, {"search": search})
    assert compiled.status_code == orm.status_code and compiled.status_code < 500
    assert compiled.json() == orm.json()
