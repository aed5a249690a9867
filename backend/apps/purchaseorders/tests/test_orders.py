"""Purchase orders: numbering, totals, lines, status transitions, permissions, tenant isolation."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine
from apps.purchaseorders.services import TRANSITIONS
from apps.suppliers.models import Supplier

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"


def order_payload(world, **overrides):
    payload = {
        "order_date": "2026-03-02",
        "supplier": world["supplier_a"].pk,
        "currency": "EUR",
        "type": "standard",
        "description": "Spring carton run",
        "promise_date": "2026-04-15",
        "lines": [
            {"product": world["carton"].pk, "order_qty": "100", "unit_cost": "1.25"},
            {
                "product": world["box"].pk,
                "order_qty": "3",
                "unit_cost": "0.3333",
                "weight_per_carton": "0.420",
            },
        ],
    }
    payload.update(overrides)
    return payload


def test_create_generates_number_and_computes_total(world, api):
    client = api(world["purchasing"], world["tenant3"])
    response = client.post(URL, order_payload(world), format="json")
    assert response.status_code == 201, response.json()
    order = response.json()["data"]
    assert order["order_number"] == "PO-2026-00001"
    assert order["status"] == "draft"  # a new order is a draft: nothing is received or e-mailed yet
    # 100 x 1.25 = 125.00; 3 x 0.3333 = 0.9999 -> 1.00 (each line rounded to cents)
    assert order["total_amount"] == "126.00"
    assert order["owner_name"] == "buyer"
    assert [line["line_number"] for line in order["lines"]] == [1, 2]
    first, second = order["lines"]
    assert first["product_number"] == "CT-6040"
    assert first["line_description"] == "Carton 600x400"
    assert first["weight_per_carton"] == "0.850"  # default from the product
    assert second["weight_per_carton"] == "0.420"  # given explicitly
    assert first["amount"] == "125.00"
    assert order["allowed_transitions"] == ["confirmed", "cancelled"]

    second_order = client.post(URL, order_payload(world), format="json").json()["data"]
    assert second_order["order_number"] == "PO-2026-00002"


def test_typed_number_is_kept_and_skipped_by_the_sequence(world, api):
    client = api(world["purchasing"], world["tenant3"])
    typed = client.post(URL, order_payload(world, order_number="PO-2026-00001"), format="json")
    assert typed.status_code == 201
    generated = client.post(URL, order_payload(world), format="json").json()["data"]
    assert generated["order_number"] == "PO-2026-00002"
    duplicate = client.post(URL, order_payload(world, order_number="PO-2026-00002"), format="json")
    assert duplicate.status_code == 400
    assert "order_number" in duplicate.json()["data"]
    bad = client.post(URL, order_payload(world, order_number="PO 1/2"), format="json")
    assert bad.status_code == 400 and "order_number" in bad.json()["data"]


def test_numbers_are_per_tenant(world, api, make_order):
    make_order()
    with_other = api(world["other_admin"], world["tenant2"]).post(
        URL,
        {
            "order_date": "2026-03-02",
            "supplier": world["supplier_x"].pk,
            "lines": [{"product": world["product_x"].pk, "order_qty": "1", "unit_cost": "1"}],
        },
        format="json",
    )
    assert with_other.status_code == 201
    assert with_other.json()["data"]["order_number"] == "PO-2026-00001"


@pytest.mark.parametrize(
    "change, field",
    [
        ({"lines": []}, "lines"),
        ({"supplier": 999999}, "supplier"),
        ({"currency": "euro"}, "currency"),
        ({"type": "weird"}, "type"),
        ({"promise_date": "2026-01-01"}, "promise_date"),
        ({"lines": [{"product": 1, "order_qty": "0", "unit_cost": "1"}]}, "lines"),
        ({"lines": [{"order_qty": "1", "unit_cost": "1"}]}, "lines"),
    ],
)
def test_validation(world, api, change, field):
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, order_payload(world, **change), format="json"
    )
    assert response.status_code == 400
    assert field in response.json()["data"]


def test_foreign_tenant_records_are_refused(world, api):
    client = api(world["purchasing"], world["tenant3"])
    response = client.post(URL, order_payload(world, supplier=world["supplier_x"].pk), format="json")
    assert response.status_code == 400 and "supplier" in response.json()["data"]
    lines = [{"product": world["product_x"].pk, "order_qty": "1", "unit_cost": "1"}]
    response = client.post(URL, order_payload(world, lines=lines), format="json")
    assert response.status_code == 400 and "lines" in response.json()["data"]


def test_update_lines_recomputes_total(world, api, make_order):
    order = make_order(lines=[(world["carton"], "100", "1.25"), (world["box"], "10", "2")])
    client = api(world["purchasing"], world["tenant3"])
    detail = client.get(f"{URL}{order.pk}/").json()["data"]
    assert detail["total_amount"] == "145.00"
    first = detail["lines"][0]
    response = client.patch(
        f"{URL}{order.pk}/",
        {
            "description": "Changed",
            "lines": [
                {"id": first["id"], "product": world["carton"].pk, "order_qty": "200", "unit_cost": "1.25"},
                {"product": world["box"].pk, "order_qty": "5", "unit_cost": "1.10"},
            ],
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["description"] == "Changed"
    assert data["total_amount"] == "255.50"
    assert [line["line_number"] for line in data["lines"]] == [1, 3]
    assert data["lines"][0]["id"] == first["id"]


def test_header_only_update_keeps_lines(world, api, make_order):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).patch(
        f"{URL}{order.pk}/", {"promise_date": "2026-05-01"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["data"]["lines_count"] == 1
    assert response.json()["data"]["total_amount"] == "125.00"


def test_order_number_cannot_change(world, api, make_order):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).patch(
        f"{URL}{order.pk}/", {"order_number": "OTHER-1"}, format="json"
    )
    assert response.status_code == 400 and "order_number" in response.json()["data"]


def test_line_of_another_order_is_refused(world, api, make_order):
    order = make_order()
    other = make_order()
    with_tenant = world["tenant3"]
    from apps.tenancy.context import tenant_context

    with tenant_context(with_tenant):
        foreign_line = other.lines.get()
    response = api(world["purchasing"], with_tenant).patch(
        f"{URL}{order.pk}/",
        {
            "lines": [
                {"id": foreign_line.pk, "product": world["carton"].pk, "order_qty": "1", "unit_cost": "1"}
            ]
        },
        format="json",
    )
    assert response.status_code == 400


ALL_STATUSES = PurchaseOrder.Status.values
PAIRS = [(a, b) for a in ALL_STATUSES for b in ALL_STATUSES]
LEGAL = {
    ("draft", "confirmed"),
    ("draft", "cancelled"),
    ("confirmed", "sent"),
    ("confirmed", "cancelled"),
    ("sent", "sent"),  # sending again
    ("sent", "cancelled"),
    ("partly_received", "closed"),  # closing short
    ("received", "closed"),
}
# the refusals that say more than "illegal transition"
REFUSAL = {
    ("draft", "sent"): "order_not_confirmed",
    ("partly_received", "cancelled"): "order_has_receipts",
    ("received", "cancelled"): "order_has_receipts",
}


def test_transition_table_is_as_documented():
    assert {(a, b) for a, targets in TRANSITIONS.items() for b in targets} == LEGAL


def _put_in_status(order, status, in_tenant, tenant):
    with in_tenant(tenant):
        PurchaseOrder.objects.filter(pk=order.pk).update(status=status)


@pytest.mark.parametrize("from_status, to_status", PAIRS)
def test_every_transition(world, api, make_order, in_tenant, from_status, to_status):
    with in_tenant(world["tenant3"]):
        Supplier.objects.filter(pk=world["supplier_a"].pk).update(email="orders@evergreen.example")
    order = make_order()
    _put_in_status(order, from_status, in_tenant, world["tenant3"])
    response = api(world["purchasing"], world["tenant3"]).post(
        f"{URL}{order.pk}/transition/", {"status": to_status}, format="json"
    )
    if (from_status, to_status) in LEGAL:
        assert response.status_code == 200, response.json()
        assert response.json()["data"]["status"] == to_status
    else:
        assert response.status_code == 409
        body = response.json()
        assert body["error"] == REFUSAL.get((from_status, to_status), "illegal_transition")
        if body["error"] == "illegal_transition":
            assert "cannot go from" in body["message"]
        with in_tenant(world["tenant3"]):
            assert PurchaseOrder.objects.get(pk=order.pk).status == from_status


def test_unknown_status_is_a_validation_error(world, api, make_order):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).post(
        f"{URL}{order.pk}/transition/", {"status": "shipped"}, format="json"
    )
    assert response.status_code == 400


@pytest.mark.parametrize("status", ["received", "closed", "cancelled"])
def test_lines_are_read_only_when_final(world, api, make_order, in_tenant, status):
    order = make_order()
    _put_in_status(order, status, in_tenant, world["tenant3"])
    client = api(world["purchasing"], world["tenant3"])
    response = client.patch(
        f"{URL}{order.pk}/",
        {"lines": [{"product": world["carton"].pk, "order_qty": "1", "unit_cost": "1"}]},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["error"] == "order_read_only"
    assert client.patch(f"{URL}{order.pk}/", {"description": "x"}, format="json").status_code == 409
    detail = client.get(f"{URL}{order.pk}/").json()["data"]
    assert detail["lines_editable"] is False
    assert detail["allowed_transitions"] == (["closed"] if status == "received" else [])


@pytest.mark.parametrize("status", ["draft", "confirmed", "sent", "partly_received"])
def test_order_stays_editable_until_received(world, api, make_order, in_tenant, status):
    order = make_order()
    _put_in_status(order, status, in_tenant, world["tenant3"])
    response = api(world["purchasing"], world["tenant3"]).patch(
        f"{URL}{order.pk}/", {"description": "Waiting for artwork"}, format="json"
    )
    assert response.status_code == 200


def test_list_query_count_is_constant(world, api, make_order, django_assert_max_num_queries, count_queries):
    client = api(world["purchasing"], world["tenant3"])
    make_order()
    client.get(URL)  # warm the per-user permission cache
    one = count_queries(lambda: client.get(URL))
    for _ in range(6):
        make_order(lines=[(world["carton"], "5", "1"), (world["box"], "7", "2")])
    many = count_queries(lambda: client.get(URL))
    assert one == many
    with django_assert_max_num_queries(one):
        body = client.get(URL).json()["data"]
    assert body["count"] == 7
    assert body["results"][0]["lines_count"] == 2
    assert body["results"][0]["ordered_qty"] == "12.000"


def test_detail_query_count_does_not_grow_with_lines(world, api, make_order, count_queries):
    client = api(world["purchasing"], world["tenant3"])
    small = make_order()
    big = make_order(lines=[(world["carton"], str(n), "1") for n in range(1, 12)])
    client.get(f"{URL}{small.pk}/")  # warm the per-user permission cache
    assert count_queries(lambda: client.get(f"{URL}{small.pk}/")) == count_queries(
        lambda: client.get(f"{URL}{big.pk}/")
    )


def test_filters_search_sort_and_summary(world, api, make_order, in_tenant):
    first = make_order(description="Blue boxes")
    second = make_order(supplier=world["supplier_b"])
    _put_in_status(second, "sent", in_tenant, world["tenant3"])
    client = api(world["purchasing"], world["tenant3"])
    assert client.get(f"{URL}?status=sent").json()["data"]["count"] == 1
    assert client.get(f"{URL}?status=confirmed,sent").json()["data"]["count"] == 2
    assert client.get(f"{URL}?parent_vendor={world['vendor_b'].pk}").json()["data"]["count"] == 1
    assert client.get(f"{URL}?search=blue boxes").json()["data"]["results"][0]["id"] == first.pk
    assert client.get(f"{URL}?search=CT-6040").json()["data"]["count"] == 2
    assert client.get(f"{URL}?product={world['carton'].pk}").json()["data"]["count"] == 2
    ordered = client.get(f"{URL}?ordering=order_number").json()["data"]["results"]
    assert [o["order_number"] for o in ordered] == ["PO-2026-00001", "PO-2026-00002"]
    summary = client.get(f"{URL}summary/?status=confirmed").json()["data"]
    assert summary["statuses"]["confirmed"]["count"] == 1
    assert summary["statuses"]["sent"]["count"] == 1
    assert summary["total"] == {"count": 2, "amounts": {"EUR": "250.00"}}
    assert client.get(f"{URL}?order_date_from=not-a-date").status_code == 400


def test_by_number(world, api, make_order):
    order = make_order(order_number="PO-TEST.1")
    client = api(world["purchasing"], world["tenant3"])
    response = client.get(f"{URL}by-number/PO-TEST.1/")
    assert response.status_code == 200 and response.json()["data"]["id"] == order.pk
    assert client.get(f"{URL}by-number/NOPE/").status_code == 404


def test_export(world, api, make_order):
    make_order()
    response = api(world["purchasing"], world["tenant3"]).get(f"{URL}export/?format=csv&status=confirmed")
    assert response.status_code == 200
    content = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "Order number" in content and "PO-2026-00001" in content and "125.00" in content


def test_delete_only_unused_orders(world, api, make_order, in_tenant):
    order = make_order()
    client = api(world["purchasing"], world["tenant3"])
    assert client.delete(f"{URL}{order.pk}/").status_code == 200
    with in_tenant(world["tenant3"]):
        assert not PurchaseOrder.objects.filter(pk=order.pk).exists()
        assert not PurchaseOrderLine.objects.filter(order_id=order.pk).exists()


def test_tenant_isolation(world, api, make_order):
    order = make_order()
    client = api(world["other_admin"], world["tenant2"])
    assert client.get(URL).json()["data"]["count"] == 0
    assert client.get(f"{URL}{order.pk}/").status_code == 404
    assert client.get(f"{URL}by-number/{order.order_number}/").status_code == 404
    assert (
        client.post(f"{URL}{order.pk}/transition/", {"status": "cancelled"}, format="json").status_code == 404
    )
    assert api(world["other_admin"], world["tenant3"]).get(URL).status_code == 403


@pytest.mark.parametrize(
    "role, can_read, can_write",
    [
        ("admin", True, True),
        ("purchasing", True, True),
        ("sales", False, False),
        ("warehouse_user", True, False),
    ],
)
def test_permissions_per_role(world, api, make_order, role, can_read, can_write):
    order = make_order()
    client = api(world[role], world["tenant3"])
    assert (client.get(URL).status_code == 200) is can_read
    assert (client.get(f"{URL}{order.pk}/").status_code == 200) is can_read
    created = client.post(URL, order_payload(world), format="json")
    assert (created.status_code == 201) is can_write
    if not can_write:
        assert created.status_code == 403
    transition = client.post(f"{URL}{order.pk}/transition/", {"status": "cancelled"}, format="json")
    assert (transition.status_code == 200) is can_write


def test_anonymous_is_refused(world, api):
    assert api(None, world["tenant3"]).get(URL).status_code == 401


def test_decimal_total_is_exact(world, make_order):
    order = make_order(lines=[(world["carton"], "3", "0.1"), (world["box"], "3", "0.2")])
    assert order.total_amount == Decimal("0.90")
