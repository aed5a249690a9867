"""Outbound dispatches: created by the warehouse, listed by carrier and date, the loading list PDF;
tenant isolation, roles and query counts."""

from __future__ import annotations

from datetime import date
from io import BytesIO

import pytest
from pypdf import PdfReader

from apps.logistics.models import Dispatch, ShipmentCompany
from apps.salesorders.models import Shipment

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 24)


@pytest.fixture
def outbound(sales_world, bare_order, in_tenant):
    w = sales_world
    made = []
    for n in range(2):
        order = bare_order([(w["carton"], "10")])
        with in_tenant(w["tenant3"]):
            made.append(
                Shipment.objects.create(
                    shipment_number=f"SH-T-{n}", sales_order=order, warehouse=w["warehouse"]
                )
            )
    with in_tenant(w["tenant3"]):
        carrier = ShipmentCompany.objects.create(name="DHL Freight")
    return {"shipments": made, "carrier": carrier}


def body(outbound, n=0, **extra):
    return {
        "sales_shipment": outbound["shipments"][n].pk,
        "carrier": outbound["carrier"].pk,
        "pickup_date": DAY.isoformat(),
        "vehicle": "BX-123-Z",
        "tracking_number": f"JJD000{n}",
        "packages": 3,
        "weight_kg": "412.5",
        **extra,
    }


def test_warehouse_plans_dispatches_and_prints_the_loading_list(sales_world, api, outbound, in_tenant):
    client = api(sales_world["warehouse_user"], sales_world["tenant3"])
    created = client.post("/api/logistics/dispatches/", body(outbound), format="json")
    assert created.status_code == 201, created.json()
    data = created.json()["data"]
    assert data["carrier_name"] == "DHL Freight" and data["customer_name"] == "Bakkerij de Vries BV"
    again = client.post("/api/logistics/dispatches/", body(outbound), format="json")
    assert again.status_code == 400
    for junk in (
        {},
        [],
        {**body(outbound, 1), "packages": -1},
        {**body(outbound, 1), "weight_kg": "-2"},
        {**body(outbound, 1), "pickup_date": "tomorrow"},
        {**body(outbound, 1), "carrier": 99999},
    ):
        assert client.post("/api/logistics/dispatches/", junk, format="json").status_code == 400
    client.post("/api/logistics/dispatches/", body(outbound, 1, carrier=None, packages=2), format="json")
    listed = client.get(f"/api/logistics/dispatches/?pickup_date={DAY.isoformat()}").json()["data"]
    assert listed["count"] == 2
    assert (
        client.get(f"/api/logistics/dispatches/?carrier={outbound['carrier'].pk}").json()["data"]["count"]
        == 1
    )

    pdf = client.get(f"/api/logistics/dispatches/loading-list/?date={DAY.isoformat()}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(pdf.content)).pages)
    for expected in (
        "Loading list 24 Nov 2026",  # the day as the web app prints it
        "DHL Freight",
        "SH-T-0",
        "SH-T-1",
        "BX-123-Z",
        "JJD0000",
        "Bakkerij de Vries BV",
        "Total: 5 packages, 825.0 kg",
    ):
        assert expected in text, expected
    assert "2026-11-24" not in text
    assert 'filename="loading-list-2026-11-24.pdf"' in pdf["Content-Disposition"]  # a file name stays ISO
    assert client.get("/api/logistics/dispatches/loading-list/?date=x").status_code == 400
    empty = client.get("/api/logistics/dispatches/loading-list/?date=2020-01-01")
    assert "No dispatches" in "".join(p.extract_text() for p in PdfReader(BytesIO(empty.content)).pages)


def test_dispatches_isolated_role_checked_and_count_stable(
    sales_world, api, outbound, in_tenant, count_queries
):
    w = sales_world
    client = api(w["warehouse_user"], w["tenant3"])
    client.post("/api/logistics/dispatches/", body(outbound), format="json")
    url = "/api/logistics/dispatches/"
    one = count_queries(lambda: client.get(url))
    client.post(url, body(outbound, 1), format="json")
    assert count_queries(lambda: client.get(url)) == one
    assert api(w["other_admin"], w["tenant2"]).get(url).json()["data"]["count"] == 0
    assert api(w["supplier_user_a"], w["tenant3"]).get(url).status_code == 403
    other = api(w["other_admin"], w["tenant2"]).post(url, body(outbound, 1), format="json")
    assert other.status_code == 400
    with in_tenant(w["tenant3"]):
        assert Dispatch.objects.count() == 2
