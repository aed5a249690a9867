"""The sales datasets against hand-computed figures, and amounts only for users who may see prices."""

from decimal import Decimal

import pytest

from apps.salesorders import services
from apps.salesorders.tests import conftest as sales

# The sales fixtures (the purchasing world, customers, stock, orders through the services).
world = sales.world
sales_world = sales.sales_world
put_stock = sales.put_stock
make_sales_order = sales.make_sales_order

pytestmark = pytest.mark.django_db
RUN = "/api/reports/run/"


@pytest.fixture
def sold(sales_world, put_stock, make_sales_order, in_tenant):
    """100 cartons at 2.50 and 10 boxes at 12.00 ordered; 40 cartons shipped and invoiced (posted)."""
    w = sales_world
    put_stock(w["carton"], "500")
    put_stock(w["box"], "500")
    order = make_sales_order(lines=[(w["carton"], "100", "2.50"), (w["box"], "10", "12.00")])
    with in_tenant(w["tenant3"]):
        carton_line = order.lines.get(product=w["carton"])
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=carton_line, quantity=Decimal("40"))],
        )
        services.shipment_ship(shipment=shipment)
        services.invoice_post(invoice=services.invoice_create(sales_order=order))
    return order


def test_sales_lines_shipments_and_invoices(api, sales_world, sold):
    w = sales_world
    client = api(w["admin"], w["tenant3"])
    lines = client.post(
        RUN,
        {
            "dataset": "sales_lines",
            "group_by": ["product"],
            "measures": [
                {"field": "quantity", "agg": "sum"},
                {"field": "quantity_shipped", "agg": "sum"},
                {"field": "amount_net", "agg": "sum"},
            ],
        },
        format="json",
    ).json()["data"]
    by_product = {r["product"]: r for r in lines["rows"]}
    carton = by_product[w["carton"].article_number]
    assert (carton["quantity__sum"], carton["quantity_shipped__sum"], carton["amount_net__sum"]) == (
        "100",
        "40",
        "250",
    )
    assert lines["totals"]["amount_net__sum"] == "370"  # 250 + 120

    shipments = client.post(
        RUN,
        {
            "dataset": "shipments",
            "measures": [
                {"field": "quantity", "agg": "sum"},
                {"field": "shipments", "agg": "count_distinct"},
            ],
        },
        format="json",
    ).json()["data"]
    assert shipments["totals"] == {"quantity__sum": "40", "shipments__count_distinct": 1}

    invoices = client.post(
        RUN,
        {"dataset": "invoices", "group_by": ["kind"], "measures": [{"field": "total_net", "agg": "sum"}]},
        format="json",
    ).json()["data"]
    assert invoices["rows"] == [{"kind": "invoice", "total_net__sum": "100"}]  # 40 x 2.50


def test_amounts_only_for_users_who_may_see_prices(api, sales_world, sold, in_tenant, make_user):
    from django.contrib.auth.models import Permission

    from apps.users.models import Role

    w = sales_world
    with in_tenant(w["tenant3"]):
        role = Role.objects.create(name="Report reader")
        role.permissions.set(
            Permission.objects.filter(
                content_type__app_label__in=["reports", "salesorders"], codename__startswith="view_"
            )
        )
    reader = make_user(w["tenant3"], None, username="reader")
    with in_tenant(w["tenant3"]):
        reader.memberships.get().roles.set([role])
    client = api(reader, w["tenant3"])
    datasets = {d["name"]: d for d in client.get("/api/reports/datasets/").json()["data"]}
    assert "amount_net" not in {m["name"] for m in datasets["sales_lines"]["measures"]}
    assert "quantity" in {m["name"] for m in datasets["sales_lines"]["measures"]}
    refused = client.post(
        RUN, {"dataset": "sales_lines", "measures": [{"field": "amount_net", "agg": "sum"}]}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"] == "prices_hidden"
    drill = client.post("/api/reports/drill/", {"dataset": "sales_lines", "cell": {}}, format="json").json()[
        "data"
    ]
    assert "amount_net" not in {c["key"] for c in drill["columns"]}
    assert all("amount_net" not in row for row in drill["results"])
    # The administrator sees them.
    admin = (
        api(w["admin"], w["tenant3"])
        .post("/api/reports/drill/", {"dataset": "sales_lines", "cell": {}}, format="json")
        .json()["data"]
    )
    assert "amount_net" in {c["key"] for c in admin["columns"]}
