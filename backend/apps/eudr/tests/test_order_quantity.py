"""Cartons beyond a purchase order line's ordered quantity: refused past the ordered quantity plus the
supplier policy's tolerance, over every delivery of the line, with its own error key; voided labels give
their place back. Concurrency on PostgreSQL: test_concurrency.py."""

from decimal import Decimal

import pytest

from apps.eudr import services
from apps.eudr.errors import OrderQuantityExceeded
from apps.eudr.models import CartonLabel, SupplierPolicy

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"


@pytest.fixture
def small_line(eudr_world, in_tenant):
    """A line of 100 cartons, two deliveries with weight for far more."""
    w = eudr_world
    with in_tenant(w.tenant3):
        w.line_a.order_qty = Decimal("100")
        w.line_a.save()
        w.first = factories.delivery(w.vendor_a, weight="1000")
        w.second = factories.delivery(w.vendor_a, weight="1000")
    return w


def test_default_tolerance_is_ten_percent_over_every_delivery(small_line, in_tenant):
    w = small_line
    with in_tenant(w.tenant3):
        assert Decimal("10") == services.DEFAULT_ORDER_TOLERANCE_PERCENT
        factories.generate(w.first, w.line_a, 60)
        factories.generate(w.second, w.line_a, 50, code="20261121B")  # 110 = 100 + 10 %
        with pytest.raises(OrderQuantityExceeded) as refused:
            factories.generate(w.second, w.line_a, 1, code="20261121B")
        assert refused.value.error == "order_quantity_exceeded"
        assert refused.value.status_code == 409
        assert refused.value.data == {
            "ordered": "100",
            "tolerance": "10",
            "limit": 110,
            "issued": 110,
            "remaining": 0,
            # the one limit the generate dialog shows (test_generation_limit.py)
            "max_cartons": 0,
            "binding": "order_line",
        }
        assert CartonLabel.objects.filter(purchase_order_line=w.line_a).count() == 110
        w.first.refresh_from_db()
        assert w.first.issued_cartons == 60  # nothing of the refused request was written


def test_the_policy_sets_the_tolerance(small_line, in_tenant):
    w = small_line
    with in_tenant(w.tenant3):
        factories.policy(w.vendor_a, order_tolerance_percent=Decimal("0"))
        delivery = factories.delivery(w.vendor_a, weight="1000")
        assert delivery.policy is not None
        with pytest.raises(OrderQuantityExceeded) as refused:
            factories.generate(delivery, w.line_a, 101)
        assert refused.value.data["limit"] == 100 and refused.value.data["remaining"] == 100
        factories.generate(delivery, w.line_a, 100)
        SupplierPolicy.objects.filter(pk=delivery.policy_id).update(order_tolerance_percent=Decimal("2.5"))
        factories.generate(delivery, w.line_a, 2)  # floor(102.5) = 102
        with pytest.raises(OrderQuantityExceeded):
            factories.generate(delivery, w.line_a, 1)


def test_voided_labels_give_their_place_back(small_line, in_tenant):
    w = small_line
    with in_tenant(w.tenant3):
        factories.generate(w.first, w.line_a, 110)
        ids = list(CartonLabel.objects.values_list("pk", flat=True)[:5])
        services.cartons_delete(ids=ids, queryset=CartonLabel.objects.all())
        factories.generate(w.first, w.line_a, 5, code="20261121C")
        with pytest.raises(OrderQuantityExceeded):
            factories.generate(w.first, w.line_a, 1, code="20261121C")


def test_api_answers_409_with_the_error_key_and_message(small_line, api, in_tenant):
    w = small_line
    client = api(w.supplier_a, w.tenant3)
    payload = {
        "count": 111,
        "production_batch_code": "20261121A",
        "product": w.line_a.product_id,
        "purchase_order_line": w.line_a.pk,
    }
    response = client.post(f"{RAW}{w.first.pk}/generate-cartons/", payload, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "order_quantity_exceeded"
    assert body["message"] == (
        "The purchase order line allows 110 cartons (100 ordered plus 10% tolerance); 0 are labelled, "
        "so at most 110 more."
    )
    zh = client.post(
        f"{RAW}{w.first.pk}/generate-cartons/", payload, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert zh.json()["error"] == "order_quantity_exceeded" and "110" in zh.json()["message"]
    payload["count"] = 110
    assert client.post(f"{RAW}{w.first.pk}/generate-cartons/", payload, format="json").status_code == 201


def test_policy_api_reads_and_validates_the_tolerance(eudr_world, api):
    w = eudr_world
    client = api(w.admin, w.tenant3)
    created = client.post(
        "/api/eudr/supplier-policies/",
        {"parent_vendor": w.vendor_a.pk, "min_consumption_per_carton": "0.2", "order_tolerance_percent": "5"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["data"]["order_tolerance_percent"] == "5.00"
    refused = client.patch(
        f"/api/eudr/supplier-policies/{created.json()['data']['id']}/",
        {"order_tolerance_percent": "-1"},
        format="json",
    )
    assert refused.status_code == 400 and "order_tolerance_percent" in refused.json()["data"]


def test_each_line_counts_its_active_labels_through_generation_and_voiding(small_line, in_tenant):
    """`PurchaseOrderLine.cartons_issued` (what the purchase order list adds up) follows every
    generation and every void, and always equals the line's active labels."""
    from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine
    from apps.purchaseorders.selectors import order_list_queryset

    w = small_line

    def counted() -> tuple[int, int, int]:
        line = PurchaseOrderLine.objects.get(pk=w.line_a.pk)
        active = CartonLabel.objects.filter(purchase_order_line=line, status="active").count()
        listed = order_list_queryset(PurchaseOrder.objects.filter(pk=line.order_id)).get().cartons_issued
        return line.cartons_issued, active, listed

    with in_tenant(w.tenant3):
        assert counted() == (0, 0, 0)
        factories.generate(w.first, w.line_a, 7)
        factories.generate(w.first, w.line_a, 3)
        assert counted() == (10, 10, 10)
        ids = list(CartonLabel.objects.order_by("pk").values_list("pk", flat=True)[:4])
        services.cartons_delete(ids=ids, queryset=CartonLabel.objects.all())
        assert counted() == (6, 6, 6)
        # Voiding labels already voided (a repeated request) changes nothing.
        services.cartons_delete(ids=ids[:2], queryset=CartonLabel.objects.all())
        assert counted() == (6, 6, 6)
        # A refused generation leaves the counter as it was.
        with pytest.raises(OrderQuantityExceeded):
            factories.generate(w.first, w.line_a, 1000)
        assert counted() == (6, 6, 6)
