"""The deliveries list read through its compiled statements (apps/eudr/api/list_page.py) answers what the
ORM's way answers, key for key: every ordering the list offers, every page, internal and supplier users,
the count past its limit; the requests it does not serve go the ORM's way; its SQL is compiled once."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from apps.common.tests import compiled_pages
from apps.eudr import services
from apps.eudr.api import list_page, views
from apps.eudr.models import RawMaterialDelivery
from apps.tenancy.compiled import CompiledOnce

from . import factories

pytestmark = pytest.mark.django_db

URL = "/api/eudr/raw-materials/"


@pytest.fixture
def varied(eudr_world, in_tenant):
    """Deliveries of both vendors in every state the list shows differently."""
    w = eudr_world
    past = date.today() - timedelta(days=3)
    with in_tenant(w.tenant3):
        rows = [factories.delivery(w.vendor_a, weight="1200.5") for _ in range(3)]
        rows += [factories.delivery(w.vendor_b, weight="800") for _ in range(3)]
        rows.append(factories.delivery(w.vendor_a, draft=True))
        rows.append(factories.delivery(None, draft=True, delivery_number="", description=""))
        rows.append(
            services.raw_material_create(
                data=factories.delivery_data(w.vendor_b),
                lines=[
                    factories.paper_line("300", material_type="board"),
                    factories.paper_line("200", material_type=""),
                    factories.paper_line("100"),
                    factories.paper_line("50", material_type="board"),
                ],
                user=None,
                as_draft=True,  # a line without its material type: a draft's
            )
        )
        pk = [row.pk for row in rows]
        RawMaterialDelivery.objects.filter(pk=pk[0]).update(fm_certificate_expiry=past)  # active, expired
        RawMaterialDelivery.objects.filter(pk=pk[1]).update(coc_certificate_expiry=past, status="inactive")
        RawMaterialDelivery.objects.filter(pk=pk[2]).update(
            allowed_carton_cap=None,
            dds_reference_number="26DEABCD1234",
            issued_cartons=7,
            used_kg=Decimal("3.5"),
        )
        RawMaterialDelivery.objects.filter(pk=pk[3]).update(
            allowed_carton_cap=10, approved_over_cap=4, issued_cartons=12, status="expired"
        )
        RawMaterialDelivery.objects.filter(pk=pk[4]).update(issued_cartons=500, allowed_carton_cap=100)
        # two deliveries created at the same moment: the tie-breaker orders them
        same = RawMaterialDelivery.objects.get(pk=pk[5]).created_at
        RawMaterialDelivery.objects.filter(pk=pk[6]).update(created_at=same, updated_at=same)
    return w


def _orm_way(monkeypatch):
    compiled_pages.orm_way(monkeypatch, views)


def _served(monkeypatch) -> list:
    return compiled_pages.served(monkeypatch, views)


def _pages(client, params: dict) -> list:
    return compiled_pages.pages(client, URL, params, 5)


ORDERINGS = [
    None,
    *[f"{sign}{field}" for field in views.RawMaterialDeliveryViewSet.ordering_fields for sign in ("", "-")],
    "status,-delivery_number",
    "-issued_cartons,created_at",
    "not_a_field",
    "issued_cartons,not_a_field",
]


@pytest.mark.parametrize("who", ["purchaser", "supplier_a", "supplier_b"])
def test_every_ordering_and_page_is_the_orms_answer(varied, api, monkeypatch, who):
    client = api(getattr(varied, who), varied.tenant3)
    for ordering in ORDERINGS:
        params = {"page_size": 3} if ordering is None else {"page_size": 3, "ordering": ordering}
        with monkeypatch.context() as patch:
            served = _served(patch)
            compiled = _pages(client, params)
        assert served and all(served)
        with monkeypatch.context() as patch:
            _orm_way(patch)
            orm = _pages(client, params)
        assert compiled == orm, ordering
        assert orm[0][0] == 200 and orm[-1][0] == 404
    # what each user sees: every delivery of the tenant inside, a supplier its own vendor's only
    everything = client.get(URL, {"page_size": 50}).json()["data"]
    vendors = {row["parent_vendor"] for row in everything["results"]}
    expected = {
        "purchaser": {varied.vendor_a.pk, varied.vendor_b.pk, None},
        "supplier_a": {varied.vendor_a.pk},
        "supplier_b": {varied.vendor_b.pk},
    }[who]
    assert vendors == expected


def test_the_rows_say_what_the_serializer_says_of_each_state(varied, api):
    rows = {
        row["id"]: row for row in api(varied.purchaser, varied.tenant3).get(URL).json()["data"]["results"]
    }
    statuses = sorted(row["status"] for row in rows.values())
    assert statuses.count("expired") == 2 and "inactive" in statuses and statuses.count("draft") == 3
    mixed = next(row for row in rows.values() if row["lines_count"] == 4)
    assert mixed["material_types"] == ["board", "paper"]
    assert mixed["weight"]["original_kg"] == "650.000"
    uncapped = next(row for row in rows.values() if row["dds_reference_number"] == "26DEABCD1234")
    assert uncapped["allowed_carton_cap"] is None and uncapped["remaining_cartons"] is None
    over = next(row for row in rows.values() if row["issued_cartons"] == 500)
    assert over["remaining_cartons"] == 0
    orphan = next(row for row in rows.values() if row["parent_vendor"] is None)
    assert orphan["parent_vendor_name"] == "" and orphan["is_draft"] is True


def test_a_count_past_its_limit_is_the_orms_answer(varied, api, monkeypatch, settings):
    settings.LIST_COUNT_LIMIT = 4
    client = api(varied.purchaser, varied.tenant3)
    with monkeypatch.context() as patch:
        served = _served(patch)
        compiled = _pages(client, {"page_size": 2})
    assert all(served)
    with monkeypatch.context() as patch:
        _orm_way(patch)
        orm = _pages(client, {"page_size": 2})
    assert compiled == orm
    assert compiled[0][1]["data"]["count_more"] is True


@pytest.mark.parametrize(
    "params",
    [
        {"status": "expired"},
        {"material_type": "board"},
        {"search": "DN"},
        {"country_code": "cn"},
        {"created_from": "2026-01-01"},
    ],
)
def test_a_filter_or_a_search_goes_the_orms_way(varied, api, monkeypatch, params):
    client = api(varied.purchaser, varied.tenant3)
    with monkeypatch.context() as patch:
        served = _served(patch)
        answer = client.get(URL, params)
    assert served == [False]
    assert answer.status_code == 200


def test_another_tenant_and_a_supplier_without_vendor_see_none_of_the_rows(varied, api, make_user):
    other = api(varied.admin_x, varied.tenant2).get(URL).json()["data"]
    assert other["count"] == 0 and other["results"] == []
    lost = make_user(varied.tenant3, "Supplier", username="eudr-supplier-none", is_supplier=True)
    assert api(lost, varied.tenant3).get(URL).json()["data"]["count"] == 0


def test_the_sql_is_compiled_once_per_ordering_and_user_kind(varied, api, monkeypatch):
    monkeypatch.setattr(list_page, "_PAGES", {})
    monkeypatch.setattr(list_page, "_COUNTS", {})
    compiled = []
    original = CompiledOnce._compile
    monkeypatch.setattr(
        CompiledOnce, "_compile", lambda self, using: compiled.append(1) or original(self, using)
    )
    client = api(varied.purchaser, varied.tenant3)
    client.get(URL)
    assert len(compiled) == 2  # the count and the page
    client.get(URL, {"page": 2, "page_size": 2})
    api(varied.admin_x, varied.tenant2).get(URL)
    assert len(compiled) == 2
    client.get(URL, {"ordering": "status"})
    assert len(compiled) == 3
    api(varied.supplier_a, varied.tenant3).get(URL)
    assert len(compiled) == 5


def test_past_the_orderings_kept_a_request_goes_the_orms_way(varied, api, monkeypatch):
    monkeypatch.setattr(list_page, "_PAGES", {})
    monkeypatch.setattr(list_page, "MAX_ORDERINGS", 1)
    client = api(varied.purchaser, varied.tenant3)
    served = _served(monkeypatch)
    first = client.get(URL, {"ordering": "status"})
    second = client.get(URL, {"ordering": "-status"})
    assert served == [True, False]
    assert first.status_code == second.status_code == 200
