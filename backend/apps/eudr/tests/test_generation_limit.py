"""The generate dialog's one limit: the smallest of the weight left, the order line left and the cap left,
which of them binds, the same number in the refusal; and today's next free production batch code."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.eudr import services
from apps.eudr.models import RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"


@pytest.fixture
def limits(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        w.line_a.order_qty = Decimal("100")
        w.line_a.save()
        w.big = factories.delivery(w.vendor_a, weight="1000")
        RawMaterialDelivery.objects.filter(pk=w.big.pk).update(allowed_carton_cap=None)
    return w


def _limit(client, delivery, line=None):
    url = f"{RAW}{delivery.pk}/generation-limit/" + (f"?purchase_order_line={line.pk}" if line else "")
    answer = client.get(url)
    assert answer.status_code == 200, answer.content
    return answer.json()["data"]


def test_the_order_line_binds_then_the_cap_and_the_refusal_says_the_same(limits, api, in_tenant):
    w = limits
    client = api(w.admin, w.tenant3)
    limit = _limit(client, w.big, w.line_a)
    assert limit["binding"] == "order_line" and limit["max_cartons"] == 110 == limit["line_cartons"]
    assert limit["cap_cartons"] is None and limit["weight_cartons"] > 110
    assert _limit(client, w.big)["max_cartons"] is None  # without a line nothing is known to limit

    with in_tenant(w.tenant3):
        RawMaterialDelivery.objects.filter(pk=w.big.pk).update(allowed_carton_cap=50)
    limit = _limit(client, w.big, w.line_a)
    assert (limit["binding"], limit["max_cartons"], limit["line_cartons"]) == ("cap", 50, 110)
    refused = client.post(
        f"{RAW}{w.big.pk}/generate-cartons/",
        {
            "count": 60,
            "production_batch_code": "20261121A",
            "product": w.line_a.product_id,
            "purchase_order_line": w.line_a.pk,
        },
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["error"] == "weight_limit_exceeded"
    assert refused.json()["data"]["max_cartons"] == 50 and refused.json()["data"]["binding"] == "cap"


def test_the_weight_binds_and_the_refusal_uses_the_same_number(limits, api, in_tenant):
    w = limits
    with in_tenant(w.tenant3):
        light = factories.delivery(w.vendor_a, weight="40")
        RawMaterialDelivery.objects.filter(pk=light.pk).update(allowed_carton_cap=None)
    client = api(w.admin, w.tenant3)
    limit = _limit(client, light, w.line_a)
    assert limit["binding"] == "weight" and limit["max_cartons"] == limit["weight_cartons"] < 110
    assert Decimal(limit["net_weight_per_carton_kg"]) > 0
    refused = client.post(
        f"{RAW}{light.pk}/generate-cartons/",
        {
            "count": 109,
            "production_batch_code": "20261121A",
            "product": w.line_a.product_id,
            "purchase_order_line": w.line_a.pk,
        },
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["error"] == "insufficient_weight"
    assert refused.json()["data"]["max_cartons"] == limit["max_cartons"]
    # the limit is what may be generated: exactly that many pass
    ok = client.post(
        f"{RAW}{light.pk}/generate-cartons/",
        {
            "count": limit["max_cartons"],
            "production_batch_code": "20261121A",
            "product": w.line_a.product_id,
            "purchase_order_line": w.line_a.pk,
        },
        format="json",
    )
    assert ok.status_code == 201, ok.content


def test_todays_code_skips_a_code_taken_by_another_delivery(limits, api, in_tenant):
    w = limits
    today = timezone.localdate().strftime("%Y%m%d")
    with in_tenant(w.tenant3):
        other = factories.delivery(w.vendor_a, weight="1000")
        RawMaterialDelivery.objects.filter(pk=other.pk).update(allowed_carton_cap=None)
        factories.generate(other, w.line_a, 1, code=f"{today}A")
        assert services.next_batch_code(today=date(2026, 1, 2)) == "20260102A"
    client = api(w.admin, w.tenant3)
    # the dialog of another delivery knows none of that delivery's batches: the server still skips A
    assert _limit(client, w.big)["next_batch_code"] == f"{today}B"


def test_other_companies_other_vendors_and_bad_lines_are_refused(limits, api):
    w = limits
    url = f"{RAW}{w.big.pk}/generation-limit/"
    assert api(w.supplier_b, w.tenant3).get(url).status_code == 404
    assert api(w.supplier_a, w.tenant3).get(url).status_code == 200
    assert api(w.admin_x, w.tenant2).get(url).status_code in (
        403,
        404,
    )
    client = api(w.supplier_a, w.tenant3)
    wrong = client.get(f"{url}?purchase_order_line={w.line_b.pk}")
    assert wrong.status_code == 400 and "purchase_order_line" in str(wrong.json())
    for bad in ("abc", "-1", "999999", str(w.line_x.pk)):
        assert client.get(f"{url}?purchase_order_line={bad}").status_code == 400, bad
