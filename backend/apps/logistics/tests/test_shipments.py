"""Inbound shipments and carriers: validation, transitions, orders carried, scoping, permissions."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.logistics.models import ShipmentCompany, ShipmentInfo
from apps.logistics.services import TRANSITIONS

pytestmark = pytest.mark.django_db

URL = "/api/logistics/shipments/"
CARRIERS = "/api/logistics/shipment-companies/"


@pytest.fixture
def carrier(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return ShipmentCompany.objects.create(
            name="Maersk", tracking_url_template="https://www.maersk.com/tracking/{container}"
        )


def shipment_payload(carrier, orders=(), **overrides):
    payload = {
        "container_number": "mscu 123456-6",
        "seal_number": "SL-778899",
        "shipment_company": carrier.pk,
        "vessel": "MAERSK EINDHOVEN",
        "voyage": "412W",
        "port_of_loading": "cnsha",
        "port_of_discharge": "NLRTM",
        "etd": "2026-03-10",
        "eta": "2026-04-14",
        "purchase_orders": [order.pk for order in orders],
    }
    payload.update(overrides)
    return payload


def test_create_normalizes_and_links_orders(world, api, carrier, make_order):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, shipment_payload(carrier, [order]), format="json"
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["container_number"] == "MSCU1234566"
    assert data["port_of_loading"] == "CNSHA"
    assert data["status"] == "planned"
    assert data["tracking_url"] == "https://www.maersk.com/tracking/MSCU1234566"
    assert data["purchase_orders"] == [order.pk]
    assert data["purchase_orders_detail"][0]["order_number"] == order.order_number
    assert data["cartons_count"] == 0
    assert data["allowed_transitions"] == ["in_transit"]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"container_number": "MSCU1234567"}, "container_number"),
        ({"container_number": "ABC"}, "container_number"),
        ({"port_of_loading": "SHANGHAI"}, "port_of_loading"),
        ({"eta": "2026-03-01"}, "eta"),
        ({"shipment_company": 99999}, "shipment_company"),
        ({"purchase_orders": [99999]}, "purchase_orders"),
    ],
)
def test_validation(world, api, carrier, change, field):
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, shipment_payload(carrier, **change), format="json"
    )
    assert response.status_code == 400
    assert field in response.json()["data"]


def test_orders_of_another_tenant_are_refused(world, api, carrier, make_order):
    foreign = make_order(
        tenant=world["tenant2"], supplier=world["supplier_x"], lines=[(world["product_x"], "1", "1")]
    )
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, shipment_payload(carrier, [foreign]), format="json"
    )
    assert response.status_code == 400 and "purchase_orders" in response.json()["data"]


def test_update_replaces_orders(world, api, carrier, make_order):
    first, second = make_order(), make_order()
    client = api(world["purchasing"], world["tenant3"])
    shipment = client.post(URL, shipment_payload(carrier, [first]), format="json").json()["data"]
    updated = client.patch(
        f"{URL}{shipment['id']}/", {"purchase_orders": [second.pk], "vessel": "X"}, format="json"
    )
    assert updated.status_code == 200
    assert updated.json()["data"]["purchase_orders"] == [second.pk]
    assert client.get(f"{URL}?purchase_order={first.pk}").json()["data"]["count"] == 0
    assert client.get(f"{URL}?purchase_order={second.pk}").json()["data"]["count"] == 1


PAIRS = [(a, b) for a in ShipmentInfo.Status.values for b in ShipmentInfo.Status.values]
LEGAL = {
    ("planned", "in_transit"),
    ("in_transit", "arrived"),
    ("in_transit", "planned"),
    ("arrived", "received"),
    ("arrived", "in_transit"),
}


def test_transition_table_is_as_documented():
    assert {(a, b) for a, targets in TRANSITIONS.items() for b in targets} == LEGAL


@pytest.mark.parametrize("from_status, to_status", PAIRS)
def test_every_transition(world, api, carrier, in_tenant, from_status, to_status):
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number="MSCU1234566", status=from_status)
    response = api(world["warehouse_user"], world["tenant3"]).post(
        f"{URL}{shipment.pk}/transition/", {"status": to_status}, format="json"
    )
    if (from_status, to_status) in LEGAL:
        assert response.status_code == 200
        assert response.json()["data"]["status"] == to_status
    else:
        assert response.status_code == 409 and response.json()["error"] == "illegal_transition"


def test_received_shipment_is_read_only_and_only_planned_deletes(world, api, carrier, in_tenant):
    with in_tenant(world["tenant3"]):
        received = ShipmentInfo.objects.create(container_number="MSCU1234566", status="received")
        in_transit = ShipmentInfo.objects.create(container_number="MSCU1234566", status="in_transit")
        planned = ShipmentInfo.objects.create(container_number="MSCU1234566")
    client = api(world["purchasing"], world["tenant3"])
    assert client.patch(f"{URL}{received.pk}/", {"vessel": "X"}, format="json").status_code == 409
    assert client.delete(f"{URL}{in_transit.pk}/").status_code == 409
    assert client.delete(f"{URL}{planned.pk}/").status_code == 200


def test_list_query_count_and_filters(world, api, carrier, make_order, count_queries):
    client = api(world["purchasing"], world["tenant3"])
    order = make_order()
    client.post(URL, shipment_payload(carrier, [order]), format="json")
    client.get(URL)
    one = count_queries(lambda: client.get(URL))
    for _ in range(5):
        client.post(URL, shipment_payload(carrier, [make_order(), make_order()]), format="json")
    assert count_queries(lambda: client.get(URL)) == one
    assert client.get(f"{URL}?status=planned").json()["data"]["count"] == 6
    assert client.get(f"{URL}?status=in_transit").json()["data"]["count"] == 0
    assert client.get(f"{URL}?search={order.order_number}").json()["data"]["count"] == 1
    assert client.get(f"{URL}?shipment_company={carrier.pk}").json()["data"]["count"] == 6
    export = client.get(f"{URL}export/?format=csv")
    assert "MSCU1234566" in b"".join(export.streaming_content).decode("utf-8-sig")


def test_supplier_sees_shipments_of_own_orders_only(world, api, carrier, make_order):
    mine, theirs = make_order(supplier=world["supplier_a"]), make_order(supplier=world["supplier_b"])
    admin = api(world["admin"], world["tenant3"])
    shared = admin.post(URL, shipment_payload(carrier, [mine, theirs]), format="json").json()["data"]
    other = admin.post(URL, shipment_payload(carrier, [theirs]), format="json").json()["data"]
    client = api(world["supplier_user_a"], world["tenant3"])
    body = client.get(URL).json()["data"]
    assert [s["id"] for s in body["results"]] == [shared["id"]]
    # the shared container shows only the supplier's own order
    assert body["results"][0]["purchase_orders"] == [mine.pk]
    assert body["results"][0]["allowed_transitions"] == []
    assert client.get(f"{URL}{other['id']}/").status_code == 404
    assert client.get(f"{URL}?purchase_order={theirs.pk}").json()["data"]["count"] == 0
    assert client.get(f"{URL}?search={theirs.order_number}").json()["data"]["count"] == 0
    assert (
        client.post(f"{URL}{shared['id']}/transition/", {"status": "in_transit"}, format="json").status_code
        == 403
    )
    assert client.patch(f"{URL}{shared['id']}/", {"vessel": "X"}, format="json").status_code == 403

    # comments and attachments on the other vendor's shipment are out of reach
    comment = admin.post(
        "/api/common/comments/",
        {"content_type": "shipmentinfo", "object_id": other["id"], "content": "Customs hold"},
        format="json",
    ).json()["data"]
    upload = SimpleUploadedFile("bl.pdf", b"%PDF-1.4 bill of lading", content_type="application/pdf")
    attachment = admin.post(
        f"/api/common/comments/{comment['id']}/add_attachment/", {"file": upload}, format="multipart"
    ).json()["data"]
    listed = client.get(f"/api/common/comments/?content_type=shipment&object_id={other['id']}")
    assert listed.json()["data"]["count"] == 0
    assert client.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 404
    sneaky = client.post(
        "/api/common/comments/",
        {"content_type": "shipmentinfo", "object_id": other["id"], "content": "Sneaky"},
        format="json",
    )
    assert sneaky.status_code in (400, 403, 404)
    # the dashboard counts each visible shipment once
    counts = client.get("/api/common/dashboard/").json()["data"]["counts"]
    assert counts["shipments"] == 1


def test_tenant_isolation_and_roles(world, api, carrier, make_order):
    shipment = (
        api(world["admin"], world["tenant3"])
        .post(URL, shipment_payload(carrier), format="json")
        .json()["data"]
    )
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(URL).json()["data"]["count"] == 0
    assert stranger.get(f"{URL}{shipment['id']}/").status_code == 404
    assert stranger.get(CARRIERS).json()["data"]["count"] == 0
    sales = api(world["sales"], world["tenant3"])
    assert sales.get(URL).status_code == 200  # sales may view shipments
    assert sales.post(URL, shipment_payload(carrier), format="json").status_code == 403
    warehouse = api(world["warehouse_user"], world["tenant3"])
    assert warehouse.post(URL, shipment_payload(carrier), format="json").status_code == 403
    assert (
        warehouse.patch(f"{URL}{shipment['id']}/", {"seal_number": "NEW"}, format="json").status_code == 200
    )


# ---------------------------------------------------------------------------------------------- carriers


def test_carrier_crud_and_lookup_by_name(world, api):
    client = api(world["purchasing"], world["tenant3"])
    created = client.post(
        CARRIERS,
        {
            "name": "Hapag-Lloyd",
            "contact_name": "Jan Peters",
            "email": "desk@hlag.example",
            "phone": "+49 40 3001 0",
            "website": "https://www.hapag-lloyd.com",
            "tracking_url_template": "https://www.hapag-lloyd.com/en/online-business/track/track-by-container-solution.html?container={container}",
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    by_name = client.get(f"{CARRIERS}by-name/hapag-lloyd/")
    assert by_name.status_code == 200 and by_name.json()["data"]["id"] == created.json()["data"]["id"]
    assert client.get(f"{CARRIERS}?name=Hapag-Lloyd").json()["data"]["count"] == 1
    assert client.get(f"{CARRIERS}by-name/Nobody/").status_code == 404
    duplicate = client.post(CARRIERS, {"name": "hapag-lloyd"}, format="json")
    assert duplicate.status_code == 400 and "name" in duplicate.json()["data"]
    spaced = client.post(CARRIERS, {"name": "COSCO Shipping Lines"}, format="json")
    assert spaced.status_code == 201
    assert client.get(f"{CARRIERS}by-name/COSCO%20Shipping%20Lines/").status_code == 200
    company_id = created.json()["data"]["id"]
    assert client.patch(f"{CARRIERS}{company_id}/", {"phone": "+49 1"}, format="json").status_code == 200
    assert client.delete(f"{CARRIERS}{company_id}/").status_code == 200


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"name": ""}, "name"),
        ({"name": "A/B"}, "name"),
        ({"name": "X", "tracking_url_template": "https://x.example/track"}, "tracking_url_template"),
        ({"name": "X", "email": "not-an-email"}, "email"),
        ({"name": "X", "website": "nope"}, "website"),
    ],
)
def test_carrier_validation(world, api, payload, field):
    response = api(world["purchasing"], world["tenant3"]).post(CARRIERS, payload, format="json")
    assert response.status_code == 400 and field in response.json()["data"]


def test_carrier_in_use_cannot_be_deleted(world, api, carrier):
    client = api(world["purchasing"], world["tenant3"])
    client.post(URL, shipment_payload(carrier), format="json")
    response = client.delete(f"{CARRIERS}{carrier.pk}/")
    assert response.status_code == 409 and response.json()["error"] == "company_in_use"


def test_carrier_list_query_count_and_roles(world, api, in_tenant, count_queries):
    client = api(world["purchasing"], world["tenant3"])
    with in_tenant(world["tenant3"]):
        ShipmentCompany.objects.create(name="MSC")
    client.get(CARRIERS)
    one = count_queries(lambda: client.get(CARRIERS))
    with in_tenant(world["tenant3"]):
        for name in ("COSCO", "Maersk", "ONE", "Evergreen Line"):
            ShipmentCompany.objects.create(name=name)
    assert count_queries(lambda: client.get(CARRIERS)) == one
    assert api(world["supplier_user_a"], world["tenant3"]).get(CARRIERS).status_code == 403
    assert api(world["warehouse_user"], world["tenant3"]).get(CARRIERS).status_code == 200
    assert (
        api(world["warehouse_user"], world["tenant3"])
        .post(CARRIERS, {"name": "Y"}, format="json")
        .status_code
        == 403
    )


def test_carriers_of_another_tenant_are_invisible_and_untouchable(world, api, carrier, in_tenant):
    """Another tenant's user neither reads nor changes nor deletes a carrier, and may use the same name."""
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(CARRIERS).json()["data"]["count"] == 0
    assert stranger.get(f"{CARRIERS}{carrier.pk}/").status_code == 404
    assert stranger.get(f"{CARRIERS}by-name/Maersk/").status_code == 404
    assert stranger.patch(f"{CARRIERS}{carrier.pk}/", {"phone": "+1"}, format="json").status_code == 404
    assert stranger.delete(f"{CARRIERS}{carrier.pk}/").status_code == 404
    same_name = stranger.post(CARRIERS, {"name": "Maersk"}, format="json")
    assert same_name.status_code == 201, same_name.json()
    # a shipment of tenant 3 cannot name tenant 2's carrier
    foreign = api(world["admin"], world["tenant3"]).post(
        URL, shipment_payload(carrier, shipment_company=same_name.json()["data"]["id"]), format="json"
    )
    assert foreign.status_code == 400 and "shipment_company" in foreign.json()["data"]
    with in_tenant(world["tenant3"]):
        carrier.refresh_from_db()
    assert carrier.phone == ""


def test_carrier_export_holds_the_filtered_rows(world, api, in_tenant, carrier):
    with in_tenant(world["tenant3"]):
        ShipmentCompany.objects.create(name="COSCO Shipping Lines", contact_name="Li Na")
    client = api(world["purchasing"], world["tenant3"])
    response = client.get(f"{CARRIERS}export/", {"format": "csv", "search": "cosco"})
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8-sig")
    assert "COSCO Shipping Lines" in text and "Li Na" in text
    assert "Maersk" not in text
