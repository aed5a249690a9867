"""Foreign-key list filters choose among the request tenant's rows; out-of-range numbers are a 400."""

import django_filters
import pytest

from apps.common.api.filters import TenantFilterBackend, names_none_of
from apps.eudr.api.filters import CartonLabelFilter
from apps.suppliers.models import ParentVendor

pytestmark = pytest.mark.django_db


@pytest.fixture
def vendors(tenant2, tenant3, in_tenant):
    with in_tenant(tenant3):
        own = ParentVendor.objects.create(name="Own vendor")
    with in_tenant(tenant2):
        other = ParentVendor.objects.create(name="Other tenant's vendor")
    return own, other


def test_a_foreign_key_filter_accepts_the_tenants_own_row(vendors, api, tenant3, make_user):
    own, _ = vendors
    response = api(make_user(tenant3), tenant3).get(f"/api/eudr/supplier-policies/?parent_vendor={own.pk}")
    assert response.status_code == 200, response.json()


def test_a_foreign_key_filter_refuses_another_tenants_row(vendors, api, tenant3, make_user):
    _, other = vendors
    response = api(make_user(tenant3), tenant3).get(f"/api/eudr/raw-materials/?parent_vendor={other.pk}")
    assert response.status_code == 400
    assert response.json()["error"] == "validation_error"
    assert "parent_vendor" in response.json()["data"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/users/?parent_vendor=-7.192203543883825e%2B61",
        "/api/inventory/stock/?warehouse=99999999999999999999999999",
        "/api/eudr/raw-materials/?parent_vendor=99999999999999999999999999",
    ],
)
def test_an_out_of_range_number_is_bad_input_not_a_server_error(path, api, tenant3, make_user):
    """The same answer on SQLite and PostgreSQL: a number filter refuses what no integer column holds."""
    response = api(make_user(tenant3), tenant3).get(path)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "validation_error"


def test_an_export_with_an_out_of_range_filter_answers_before_it_streams(api, tenant3, make_user):
    response = api(make_user(tenant3), tenant3).get(
        "/api/purchaseorders/orders/export/?format=csv&supplier=99999999999999999999999999"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "validation_error"


def test_a_patch_answers_with_the_whole_record(api, tenant3, make_user):
    """DRF leaves a field out of a partial serializer's output when its source crosses an empty relation."""
    client = api(make_user(tenant3), tenant3)
    created = client.post("/api/users/departments/", {"name": "Quality"}, format="json")
    assert created.status_code == 201, created.content
    response = client.patch(
        f"/api/users/departments/{created.json()['data']['id']}/", {"description": "QC"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["data"]["parent_name"] is None
    assert response.json()["data"]["description"] == "QC"


@pytest.mark.parametrize(
    ("ordering", "expected"),
    [
        (["name"], ["name", "id"]),
        (["-created_at"], ["-created_at", "-id"]),
        (["-order_date", "-id"], ["-order_date", "-id"]),
        (["name", "pk"], ["name", "pk"]),
    ],
)
def test_every_ordering_ends_on_the_unique_key_in_the_direction_of_its_last_term(ordering, expected):
    from apps.common.api.filters import with_tie_breaker

    assert with_tie_breaker(ordering) == expected


@pytest.mark.parametrize(
    ("ordering", "expected"),
    [
        (["order_number"], ["order_number"]),  # unique within a tenant: its constraint's index serves it
        (["-order_number"], ["-order_number"]),
        (["status"], ["status", "id"]),
        (["customer__number"], ["customer__number", "id"]),  # a related field is not unique here
    ],
)
def test_an_ordering_already_unique_within_a_tenant_needs_no_tie_breaker(ordering, expected):
    from apps.common.api.filters import with_tie_breaker
    from apps.salesorders.models import SalesOrder

    assert with_tie_breaker(ordering, SalesOrder) == expected


def test_an_expression_ordering_ends_on_the_unique_key_in_its_direction():
    from django.db.models import F

    from apps.common.api.filters import with_tie_breaker

    assert with_tie_breaker([F("name").desc()])[-1] == "-id"
    assert with_tie_breaker([F("name").asc()])[-1] == "id"


@pytest.mark.parametrize(
    ("query", "expected_order"),
    [("?ordering=country", [0, 1, 2]), ("?ordering=-country", [2, 1, 0]), ("?ordering=-cname", [2, 1, 0])],
)
def test_rows_that_tie_on_the_sort_column_come_in_the_order_of_their_key(
    query, expected_order, api, tenant3, make_user, in_tenant
):
    """Three vendors of one country and no Chinese name: the list answers them in id order, reversed when
    the ordering is descending, whatever plan the database picks; the SQL ends on the key."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with in_tenant(tenant3):
        vendors = [ParentVendor.objects.create(name=f"Tied {i}", country="NL") for i in range(3)]
    client = api(make_user(tenant3), tenant3)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/suppliers/parent-vendors/{query}")
    assert response.status_code == 200, response.json()
    ids = [row["id"] for row in response.json()["data"]["results"]]
    assert ids == [vendors[i].pk for i in expected_order]
    listing = next(
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "suppliers_parentvendor"' in q["sql"]
        and "LIMIT" in q["sql"]
        and not q["sql"].startswith("SELECT COUNT(")
    )
    direction = "DESC" if "=-" in query else "ASC"
    assert listing.rstrip().split("ORDER BY", 1)[1].split("LIMIT")[0].strip().endswith(f'"id" {direction}')


def test_a_field_that_may_be_empty_is_ordered_as_postgresql_orders_it():
    from apps.common.api.filters import may_be_null, nulls_as_postgresql
    from apps.eudr.models import SupplierPolicy

    assert may_be_null(SupplierPolicy, "parent_vendor__name")  # reached through a nullable relation
    assert not may_be_null(SupplierPolicy, "material_type")
    assert not may_be_null(SupplierPolicy, "no_such_field")
    ascending, descending, plain, key = nulls_as_postgresql(
        ["parent_vendor__name", "-parent_vendor__name", "material_type", "id"], SupplierPolicy
    )
    assert (ascending.descending, ascending.nulls_last, ascending.nulls_first) == (False, True, None)
    assert (descending.descending, descending.nulls_first, descending.nulls_last) == (True, True, None)
    assert (plain, key) == ("material_type", "id")


@pytest.mark.parametrize(
    ("ordering", "default_first"), [("parent_vendor__name", False), ("-parent_vendor__name", True)]
)
def test_the_tenant_default_policy_comes_where_postgresql_puts_an_empty_name(
    ordering, default_first, api, tenant3, make_user, in_tenant
):
    """The policy for every parent vendor (no vendor, so no vendor's name) comes last by vendor name and
    first by vendor name descending, on SQLite as on PostgreSQL, so the list looks the same on both."""
    from apps.eudr.models import SupplierPolicy

    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Ningbo Bluewave Cartons")
        named = SupplierPolicy.objects.create(parent_vendor=vendor, min_consumption_per_carton="0.3")
        default = SupplierPolicy.objects.create(parent_vendor=None, min_consumption_per_carton="0.1")
    response = api(make_user(tenant3), tenant3).get(f"/api/eudr/supplier-policies/?ordering={ordering}")
    assert response.status_code == 200, response.json()
    ids = [row["id"] for row in response.json()["data"]["results"]]
    assert ids == ([default.pk, named.pk] if default_first else [named.pk, default.pk])


class _Ranged(django_filters.FilterSet):
    created = django_filters.DateFromToRangeFilter()
    status = django_filters.CharFilter()


class _Required(django_filters.FilterSet):
    status = django_filters.CharFilter(required=True)


@pytest.mark.parametrize(
    ("filterset", "params", "expected"),
    [
        (_Ranged, {}, True),
        (_Ranged, {"page": "2", "page_size": "50", "search": "x", "ordering": "-id", "tenant_id": "3"}, True),
        (_Ranged, {"status": ""}, False),
        (_Ranged, {"created_after": "2026-01-01"}, False),
        (_Required, {}, False),
        (CartonLabelFilter, {}, False),
    ],
)
def test_a_filter_set_is_skipped_only_when_it_would_change_nothing(filterset, params, expected):
    """No parameter of its own: nothing to filter. A range's halves, a required filter, or a filter set that
    filters by default (the carton list hides voided labels) are always built."""
    assert names_none_of(filterset, params) is expected


def test_an_unfiltered_list_builds_no_filter_set_and_a_filtered_one_does(
    api, tenant3, make_user, monkeypatch
):
    built = []
    original = TenantFilterBackend.get_filterset

    def counting(self, request, queryset, view):
        built.append(view.basename)
        return original(self, request, queryset, view)

    monkeypatch.setattr(TenantFilterBackend, "get_filterset", counting)
    client = api(make_user(tenant3), tenant3)
    assert (
        client.get("/api/eudr/raw-materials/", {"page_size": 5, "ordering": "-created_at"}).status_code == 200
    )
    assert built == []
    assert client.get("/api/eudr/raw-materials/", {"status": "nonsense"}).status_code == 400
    assert client.get("/api/eudr/cartons/").status_code == 200
    assert len(built) == 2
