"""Stock moves keep stock equal to their sum; the read-only endpoints are scoped and count-stable."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.inventory import services
from apps.inventory.models import Location, Stock, StockMove

pytestmark = pytest.mark.django_db


def post(world, in_tenant, *moves, kind="transfer"):
    with in_tenant(world["tenant3"]):
        return services.stock_moves_post(moves=list(moves), kind=kind, reference="TEST", user=world["admin"])


def test_moves_update_stock_and_refuse_negative(world, in_tenant):
    receiving = world["receiving"]
    with in_tenant(world["tenant3"]):
        shelf = Location.objects.get(code="A-01")
    carton = world["carton"]
    post(
        world,
        in_tenant,
        services.MoveSpec(product_id=carton.pk, quantity=Decimal("10"), to_location=receiving),
    )
    post(
        world,
        in_tenant,
        services.MoveSpec(
            product_id=carton.pk, quantity=Decimal("4"), from_location=receiving, to_location=shelf
        ),
    )
    with in_tenant(world["tenant3"]):
        assert Stock.objects.get(location=receiving, product=carton).quantity == Decimal("6")
        assert Stock.objects.get(location=shelf, product=carton).quantity == Decimal("4")
        with pytest.raises(services.InsufficientStock):
            services.stock_moves_post(
                moves=[
                    services.MoveSpec(product_id=carton.pk, quantity=Decimal("7"), from_location=receiving)
                ],
                kind="issue",
                reference="TOO-MUCH",
            )
        assert StockMove.objects.filter(reference="TOO-MUCH").count() == 0
        assert Stock.objects.get(location=receiving, product=carton).quantity == Decimal("6")


def test_endpoints_roles_isolation_and_query_counts(world, api, in_tenant, count_queries):
    post(
        world,
        in_tenant,
        services.MoveSpec(
            product_id=world["carton"].pk, quantity=Decimal("3"), to_location=world["receiving"]
        ),
        kind="receipt",
    )
    client = api(world["warehouse_user"], world["tenant3"])
    for url in ("/api/inventory/warehouses/", "/api/inventory/stock/", "/api/inventory/moves/"):
        client.get(url)
        one = count_queries(lambda url=url: client.get(url))
        post(
            world,
            in_tenant,
            services.MoveSpec(
                product_id=world["box"].pk, quantity=Decimal("2"), to_location=world["receiving"]
            ),
            kind="receipt",
        )
        assert count_queries(lambda url=url: client.get(url)) == one
        assert api(world["other_admin"], world["tenant2"]).get(url).json()["data"]["count"] == 0
        assert api(world["supplier_user_a"], world["tenant3"]).get(url).status_code == 403
    warehouses = client.get("/api/inventory/warehouses/").json()["data"]["results"]
    assert warehouses[0]["code"] == "RTM" and {loc["kind"] for loc in warehouses[0]["locations"]} >= {
        "receiving"
    }
    stock = client.get(f"/api/inventory/stock/?product={world['carton'].pk}").json()["data"]["results"]
    assert stock[0]["quantity"] == "3.000" and stock[0]["location_code"] == "RECV"
    assert client.post("/api/inventory/stock/", {}, format="json").status_code == 405
