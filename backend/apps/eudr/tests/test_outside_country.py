"""Plots outside their declared country of production (POST raw-materials/{id}/confirm-outside-country/):
an error of the statement and hidden from the public trace until an internal user confirms them with a
reason (kept with who and when, audited) or the plot is corrected; a confirmation holds for the plots as
they were confirmed. Suppliers, other tenants and deliveries without such plots are refused."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.duediligence.models import AuditEntry
from apps.eudr.dds.package import check_delivery
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tests.trace_data import make_cartons

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"


def plots(*points):
    return {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"ProducerName": "Gaofeng Forest Farm", "ProducerCountry": "CN", "Area": 2.0},
                "geometry": {"type": "Point", "coordinates": list(point)},
            }
            for point in points
        ],
    }


NANNING = (108.412311, 22.951211)  # in China
ULAANBAATAR = (106.917222, 47.918611)  # in Mongolia, inside China's bounding box


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def outside(eudr_world, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a, location_geojson=plots(NANNING, ULAANBAATAR))
        label = make_cartons(delivery, count=1)[0]
    return delivery, label


def codes(delivery, in_tenant, tenant):
    with in_tenant(tenant):
        _facts, found = check_delivery(RawMaterialDelivery.objects.get(pk=delivery.pk))
    return {(check.code, check.severity) for check in found}


def trace(code):
    return APIClient().get(f"/api/eudrtrack/{code}/").json()["data"]


def test_a_plot_outside_is_an_error_and_hidden_until_an_internal_user_confirms_it(
    eudr_world, api, outside, in_tenant, django_capture_on_commit_callbacks
):
    w = eudr_world
    delivery, label = outside
    client = api(w.purchaser, w.tenant3)
    detail = client.get(f"{RAW}{delivery.pk}/").json()["data"]
    assert detail["outside_country"] == {
        "plots": [1],
        "confirmed": False,
        "confirmed_at": None,
        "confirmed_by_name": "",
        "reason": "",
    }
    assert ("geolocation_outside_country", "error") in codes(delivery, in_tenant, w.tenant3)
    public = trace(label.code)
    assert public["plots_under_review"] is True and public["plots"] is None

    with django_capture_on_commit_callbacks(execute=True):  # the stored public answer is rebuilt on commit
        answer = client.post(
            f"{RAW}{delivery.pk}/confirm-outside-country/",
            {"reason": "The farm's compartment lies on the border; surveyed by GPS on site."},
            format="json",
        )
    assert answer.status_code == 200, answer.content
    confirmed = answer.json()["data"]["outside_country"]
    assert confirmed["plots"] == [1] and confirmed["confirmed"] is True
    assert confirmed["confirmed_by_name"] == w.purchaser.username
    assert confirmed["reason"].startswith("The farm's compartment")
    found = codes(delivery, in_tenant, w.tenant3)
    assert ("geolocation_outside_country", "error") not in found
    assert ("geolocation_outside_country_confirmed", "warning") in found
    # the public trace is asked again (the delivery's change invalidated its cache) and shows the plots
    public = trace(label.code)
    assert public["plots_under_review"] is False
    assert len(public["plots"]["features"]) == 2
    with in_tenant(w.tenant3):
        trail = AuditEntry.objects.filter(delivery_id=delivery.pk, field="outside_confirmed_reason")
        assert trail.get().new_value.startswith("The farm's compartment")


def test_changed_plots_are_checked_again(eudr_world, api, outside, in_tenant):
    w = eudr_world
    delivery, label = outside
    client = api(w.admin, w.tenant3)
    assert (
        client.post(
            f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "Border plot"}, format="json"
        ).status_code
        == 200
    )
    with in_tenant(w.tenant3):
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
        stored.location_geojson = plots(ULAANBAATAR, NANNING)
        stored.save()
    detail = client.get(f"{RAW}{delivery.pk}/").json()["data"]["outside_country"]
    assert detail["plots"] == [0] and detail["confirmed"] is False and detail["reason"] == ""
    assert ("geolocation_outside_country", "error") in codes(delivery, in_tenant, w.tenant3)
    assert trace(label.code)["plots_under_review"] is True


def test_a_reason_is_required_and_plots_inside_need_no_confirmation(eudr_world, api, outside, in_tenant):
    w = eudr_world
    delivery, _label = outside
    client = api(w.admin, w.tenant3)
    blank = client.post(f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "  "}, format="json")
    assert blank.status_code == 400
    assert "reason" in blank.json()["data"]
    with in_tenant(w.tenant3):
        inside = factories.delivery(w.vendor_a, location_geojson=plots(NANNING))
    refused = client.post(f"{RAW}{inside.pk}/confirm-outside-country/", {"reason": "x"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"] == "no_plot_outside_country"
    assert client.get(f"{RAW}{inside.pk}/").json()["data"]["outside_country"]["plots"] == []


def test_suppliers_and_other_tenants_cannot_confirm(eudr_world, api, outside, in_tenant):
    w = eudr_world
    delivery, _label = outside
    own_supplier = api(w.supplier_a, w.tenant3).post(
        f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "mine"}, format="json"
    )
    assert own_supplier.status_code == 403
    other_supplier = api(w.supplier_b, w.tenant3).post(
        f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "theirs"}, format="json"
    )
    assert other_supplier.status_code in (403, 404)
    other_tenant = api(w.admin_x, w.tenant2).post(
        f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "other"}, format="json"
    )
    assert other_tenant.status_code == 404
    warehouse = api(w.warehouse, w.tenant3).post(
        f"{RAW}{delivery.pk}/confirm-outside-country/", {"reason": "w"}, format="json"
    )
    assert warehouse.status_code in (403, 404)
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=delivery.pk).outside_confirmed_at is None
