"""The public trace answers from a cache of the finished payload per carton, and forgets it when
anything it shows changes (apps/eudr/trace_cache.py)."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.eudr import services, trace_cache
from apps.eudr.models import CartonLabel
from apps.eudr.tests.trace_data import make_cartons, make_delivery

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cartons(tenant3, in_tenant):
    with in_tenant(tenant3):
        return make_cartons(make_delivery(), count=2)


def trace(code):
    return APIClient().get(f"/api/eudrtrack/{code}/")


def reads(queries) -> list[str]:
    """The statements that read rows (the request's transaction adds savepoints, and on PostgreSQL the
    tenant setting: neither reads anything)."""
    return [q["sql"] for q in queries.captured_queries if "SELECT" in q["sql"].upper()]


def test_a_second_scan_reads_no_database(cartons):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as first_queries:
        first = trace(cartons[0].code)
    assert first.status_code == 200
    assert reads(first_queries)  # the first scan reads the carton
    with CaptureQueriesContext(connection) as queries:
        again = trace(cartons[0].code.lower())
    assert reads(queries) == []
    assert again.json() == first.json()
    assert again["ETag"] == first["ETag"]
    assert "public" in again["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        not_modified = APIClient().get(f"/api/eudrtrack/{cartons[0].code}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304
    assert reads(queries) == []


def test_a_change_to_the_delivery_is_shown_at_once(
    cartons, tenant3, in_tenant, django_capture_on_commit_callbacks
):
    before = trace(cartons[0].code)
    assert before.json()["data"]["origin"]["forest_supplier_name"] == "Metsä Forest Oy"
    with django_capture_on_commit_callbacks(execute=True), in_tenant(tenant3):
        delivery = cartons[0].raw_material
        delivery.forest_supplier_name = "Stora Enso Forest"
        delivery.save()
    after = trace(cartons[0].code)
    assert after.json()["data"]["origin"]["forest_supplier_name"] == "Stora Enso Forest"
    assert after["ETag"] != before["ETag"]


@pytest.mark.parametrize("what", ["product", "vendor", "line"])
def test_a_change_to_the_product_vendor_or_species_is_shown(
    what, cartons, tenant3, in_tenant, django_capture_on_commit_callbacks
):
    code = cartons[0].code
    assert trace(code).status_code == 200
    with django_capture_on_commit_callbacks(execute=True), in_tenant(tenant3):
        label = CartonLabel.objects.select_related("product", "raw_material__parent_vendor").get(
            pk=cartons[0].pk
        )
        if what == "product":
            label.product.name = "Renamed carton"
            label.product.save()
        elif what == "vendor":
            label.raw_material.parent_vendor.name = "Renamed vendor"
            label.raw_material.parent_vendor.save()
        else:
            line = label.raw_material.lines.first()
            line.scientific_names = ["Betula pendula"]
            line.common_names = ["Silver birch"]
            line.save()
    data = trace(code).json()["data"]
    if what == "product":
        assert data["product_name"] == "Renamed carton"
    elif what == "vendor":
        assert data["supplier"]["name"] == "Renamed vendor"
    else:
        assert {"scientific_name": "Betula pendula", "common_name": "Silver birch"} in data["origin"][
            "species"
        ]


def test_a_voided_carton_is_gone_from_the_cache(
    cartons, tenant3, in_tenant, django_capture_on_commit_callbacks
):
    assert trace(cartons[0].code).status_code == 200
    with django_capture_on_commit_callbacks(execute=True), in_tenant(tenant3):
        services.cartons_delete(ids=[cartons[0].pk], queryset=CartonLabel.objects.all())
    assert trace(cartons[0].code).status_code == 404
    assert trace(cartons[1].code).status_code == 200


def test_a_payload_built_while_a_change_commits_is_not_kept(cartons):
    """The entry goes under the generation read before the payload was built: a change committed
    meanwhile leaves it unread."""
    code = cartons[0].code.upper()
    generation = trace_cache.current_generation()
    trace_cache._bump()
    trace_cache.put(code, {"stale": True}, '"x"', generation=generation)
    assert trace_cache.get(code) is None
    assert trace(code).json()["data"]["code"] == cartons[0].code


def test_unknown_codes_are_not_cached(cartons):
    assert trace("NOSUCHCODE123").status_code == 404
    assert trace_cache.get("NOSUCHCODE123") is None
