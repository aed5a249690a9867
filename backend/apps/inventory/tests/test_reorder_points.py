"""Reorder points (one per product): setting and changing them, validation, who may, tenant isolation,
the list's query count, and the stock's "below reorder point" filter following them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import services
from apps.inventory.models import ReorderPoint

pytestmark = pytest.mark.django_db
URL = "/api/inventory/reorder-points/"


def stock(world, in_tenant, product, qty):
    with in_tenant(world["tenant3"]):
        services.stock_moves_post(
            moves=[
                services.MoveSpec(
                    product_id=product.pk, quantity=Decimal(qty), to_location=world["receiving"]
                )
            ],
            kind="receipt",
            reference="IN",
        )


def below(client) -> set[str]:
    rows = client.get("/api/inventory/stock/?below_reorder_point=true").json()["data"]["results"]
    return {row["article_number"] for row in rows}


def test_set_change_and_clear_a_reorder_point_drives_the_below_filter(world, api, in_tenant):
    stock(world, in_tenant, world["carton"], "30")
    stock(world, in_tenant, world["box"], "5")
    client = api(world["warehouse_user"], world["tenant3"])
    assert below(client) == set()

    created = client.post(URL, {"product": world["carton"].pk, "reorder_point": "50"}, format="json")
    assert created.status_code == 201, created.content
    point = created.json()["data"]
    assert (point["article_number"], point["reorder_point"]) == ("CT-6040", "50.000")
    assert below(client) == {"CT-6040"}
    totals = client.get("/api/inventory/stock/totals/").json()["data"]["results"]
    assert {t["article_number"]: t["reorder_point"] for t in totals} == {"CT-6040": "50.000", "CT-3020": None}

    # POST again for the same product changes it (still one row)
    again = client.post(URL, {"product": world["carton"].pk, "reorder_point": "10"}, format="json")
    assert again.status_code == 201 and again.json()["data"]["id"] == point["id"]
    assert below(client) == set()

    changed = client.patch(f"{URL}{point['id']}/", {"reorder_point": "31"}, format="json")
    assert changed.status_code == 200 and changed.json()["data"]["reorder_point"] == "31.000"
    assert below(client) == {"CT-6040"}
    # the product stays the same
    moved = client.patch(f"{URL}{point['id']}/", {"product": world["box"].pk}, format="json")
    assert moved.status_code == 400 and "product" in moved.json()["data"]

    listed = client.get(f"{URL}?product={world['carton'].pk}").json()["data"]
    assert listed["count"] == 1
    assert client.delete(f"{URL}{point['id']}/").status_code == 200
    assert below(client) == set()
    with in_tenant(world["tenant3"]):
        assert not ReorderPoint.objects.exists()


def test_reorder_point_input_is_validated(world, api):
    client = api(world["warehouse_user"], world["tenant3"])
    for junk in (
        {},
        [],
        "x",
        {"product": world["carton"].pk},
        {"product": world["carton"].pk, "reorder_point": "-1"},
        {"product": world["carton"].pk, "reorder_point": "abc"},
        {"product": world["carton"].pk, "reorder_point": "1" * 20},
        {"product": world["carton"].pk, "reorder_point": "1.0001"},
        {"product": "x", "reorder_point": "1"},
        {"product": 10**12, "reorder_point": "1"},
        {"product": world["product_x"].pk, "reorder_point": "1"},  # another tenant's product
    ):
        answer = client.post(URL, junk, format="json")
        assert answer.status_code == 400, (junk, answer.content)
        assert answer.json()["error"] in ("validation_error", "parse_error")


def test_who_may_read_and_change_reorder_points(world, api, in_tenant):
    with in_tenant(world["tenant3"]):
        point = ReorderPoint.objects.create(product=world["carton"], reorder_point=Decimal("5"))
    body = {"product": world["box"].pk, "reorder_point": "3"}
    # sales reads the warehouse but changes nothing of it
    sales = api(world["sales"], world["tenant3"])
    assert sales.get(URL).status_code == 200
    assert sales.post(URL, body, format="json").status_code == 403
    assert sales.patch(f"{URL}{point.pk}/", {"reorder_point": "1"}, format="json").status_code == 403
    assert sales.delete(f"{URL}{point.pk}/").status_code == 403
    # a supplier of either vendor: nothing
    for supplier in ("supplier_user_a", "supplier_user_b"):
        client = api(world[supplier], world["tenant3"])
        assert client.get(URL).status_code == 403
        assert client.post(URL, body, format="json").status_code == 403
        assert client.patch(f"{URL}{point.pk}/", {"reorder_point": "1"}, format="json").status_code == 403
    # another tenant's administrator: does not see it, cannot change or delete it
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(URL).json()["data"]["count"] == 0
    assert stranger.patch(f"{URL}{point.pk}/", {"reorder_point": "1"}, format="json").status_code == 404
    assert stranger.delete(f"{URL}{point.pk}/").status_code == 404
    assert (
        stranger.post(URL, {"product": world["carton"].pk, "reorder_point": "1"}, format="json").status_code
        == 400
    )
    with in_tenant(world["tenant3"]):
        point.refresh_from_db()
        assert point.reorder_point == Decimal("5")
    # the administrator and the warehouse may
    assert api(world["admin"], world["tenant3"]).post(URL, body, format="json").status_code == 201


def test_reorder_point_list_query_count_is_stable(world, api, in_tenant, count_queries):
    from apps.products.models import Product

    client = api(world["warehouse_user"], world["tenant3"])

    def grow(n):
        with in_tenant(world["tenant3"]):
            for i in range(3):
                product = Product.objects.create(article_number=f"RP-{n}-{i}", name=f"Reorder {n}/{i}")
                ReorderPoint.objects.create(product=product, reorder_point=Decimal(i))

    grow(0)
    client.get(URL)
    first = count_queries(lambda: client.get(URL))
    grow(1)
    assert count_queries(lambda: client.get(URL)) == first
    assert client.get(URL).json()["data"]["count"] == 6
