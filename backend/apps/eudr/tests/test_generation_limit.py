"""The generate dialog's one limit: the smallest of the remaining weight, the order line, the carton cap
and the request size, with the rule that binds; every refusal carries the same number; today's code is the
first one free in the whole company."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.eudr import generation
from apps.eudr.models import RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"


def _limit(client, delivery, line=None, product=None):
    params = {}
    if line is not None:
        params["purchase_order_line"] = line.pk
    if product is not None:
        params["product"] = product.pk
    response = client.get(f"{RAW}{delivery.pk}/generation-limit/", params)
    assert response.status_code == 200, response.json()
    return response.json()["data"]


@pytest.fixture
def world(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        w.line_a.order_qty = Decimal("100")
        w.line_a.weight_per_carton = Decimal("2.000")
        w.line_a.save()
        w.delivery = factories.delivery(w.vendor_a, weight="1000")  # 1000 kg / 2 kg = 500 cartons of paper
    return w


def test_the_order_line_binds_below_the_weight(world, api):
    data = _limit(api(world.admin, world.tenant3), world.delivery, world.line_a)
    assert data["limits"]["weight"] == 500
    assert data["limits"]["order_line"] == 110  # 100 ordered + 10 % tolerance
    assert data["limits"]["request"] == generation.MAX_CARTONS_PER_REQUEST
    assert data["max_cartons"] == 110 and data["binding"] == "order_line"
    assert data["net_weight_per_carton_kg"] == "2.000"


def test_the_weight_binds_when_the_paper_runs_short(world, api, in_tenant):
    with in_tenant(world.tenant3):
        world.line_a.order_qty = Decimal("10000")
        world.line_a.save()
    data = _limit(api(world.admin, world.tenant3), world.delivery, world.line_a)
    assert data["max_cartons"] == 500 and data["binding"] == "weight"


def test_the_carton_cap_binds_and_a_refusal_says_the_same_number(world, api, in_tenant):
    with in_tenant(world.tenant3):
        RawMaterialDelivery.objects.filter(pk=world.delivery.pk).update(allowed_carton_cap=40)
    client = api(world.admin, world.tenant3)
    data = _limit(client, world.delivery, world.line_a)
    assert data["limits"]["carton_cap"] == 40
    assert data["max_cartons"] == 40 and data["binding"] == "carton_cap"

    refused = client.post(
        f"{RAW}{world.delivery.pk}/generate-cartons/",
        {
            "count": 41,
            "production_batch_code": data["next_batch_code"],
            "product": world.line_a.product_id,
            "purchase_order_line": world.line_a.pk,
        },
        format="json",
    )
    assert refused.status_code == 409
    body = refused.json()
    assert body["data"]["max_cartons"] == 40 and body["data"]["binding"] == "carton_cap"


def test_a_weight_refusal_names_the_same_limit_as_the_dialog(world, api, in_tenant):
    with in_tenant(world.tenant3):
        world.line_a.order_qty = Decimal("10000")
        world.line_a.save()
    client = api(world.admin, world.tenant3)
    shown = _limit(client, world.delivery, world.line_a)
    refused = client.post(
        f"{RAW}{world.delivery.pk}/generate-cartons/",
        {
            "count": shown["max_cartons"] + 1,
            "production_batch_code": shown["next_batch_code"],
            "product": world.line_a.product_id,
            "purchase_order_line": world.line_a.pk,
        },
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["error"] == "insufficient_weight"
    assert refused.json()["data"]["max_cartons"] == shown["max_cartons"] == 500


def test_without_a_product_or_line_only_the_code_is_proposed(world, api):
    data = _limit(api(world.admin, world.tenant3), world.delivery)
    assert data["max_cartons"] is None and data["binding"] is None and data["limits"] is None
    assert data["next_batch_code"] == timezone.localdate().strftime("%Y%m%d") + "A"


def test_todays_code_skips_codes_other_deliveries_use(world, api, in_tenant):
    today = timezone.localdate().strftime("%Y%m%d")
    with in_tenant(world.tenant3):
        other = factories.delivery(world.vendor_a, weight="1000")
        factories.generate(other, world.line_a, 1, code=today + "A")  # another delivery's batch
        factories.generate(world.delivery, world.line_a, 1, code=today + "B")
    assert _limit(api(world.admin, world.tenant3), world.delivery)["next_batch_code"] == today + "C"


def test_next_code_after_z_stays_z_for_the_server_to_refuse(world, in_tenant):
    with in_tenant(world.tenant3):
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            factories.generate(world.delivery, world.line_a, 1, code=f"20261126{letter}")
        assert generation.next_batch_code(date(2026, 11, 26)) == "20261126Z"


def test_bad_parameters_are_refused_in_words(world, api):
    client = api(world.admin, world.tenant3)
    response = client.get(f"{RAW}{world.delivery.pk}/generation-limit/", {"purchase_order_line": "x"})
    assert response.status_code == 400 and response.json()["error"] == "validation_error"
    response = client.get(f"{RAW}{world.delivery.pk}/generation-limit/", {"product": 999999})
    assert response.status_code == 400


def test_other_companies_and_other_vendors_suppliers_cannot_read_it(world, api, in_tenant):
    assert (
        api(world.admin_x, world.tenant2).get(f"{RAW}{world.delivery.pk}/generation-limit/").status_code
        == 404
    )
    assert (
        api(world.supplier_b, world.tenant3).get(f"{RAW}{world.delivery.pk}/generation-limit/").status_code
        == 404
    )
    assert (
        api(world.supplier_a, world.tenant3).get(f"{RAW}{world.delivery.pk}/generation-limit/").status_code
        == 200
    )
    # a line of another company is not found there
    response = api(world.admin, world.tenant3).get(
        f"{RAW}{world.delivery.pk}/generation-limit/", {"purchase_order_line": world.line_x.pk}
    )
    assert response.status_code == 400
