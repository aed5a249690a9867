"""The cartons a shipment carries: the EUDR carton list filtered by the shipment's container number
(what the shipment drawer pages through) agrees with `cartons_count`, scoped like everything else."""

from __future__ import annotations

import pytest

from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders.models import PurchaseOrderLine

pytestmark = pytest.mark.django_db

SHIPMENTS = "/api/logistics/shipments/"
CARTONS = "/api/eudr/cartons/"
CONTAINER = "MSCU1234566"


@pytest.fixture
def shipment(world, in_tenant, make_order, issue_labels):
    mine, theirs = make_order(supplier=world["supplier_a"]), make_order(supplier=world["supplier_b"])
    with in_tenant(world["tenant3"]):
        shipment = ShipmentInfo.objects.create(container_number=CONTAINER)
        for order in (mine, theirs):
            ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
        mine_line = PurchaseOrderLine.objects.get(order=mine)
        theirs_line = PurchaseOrderLine.objects.get(order=theirs)
    issue_labels(mine_line, count=3, container=CONTAINER)
    issue_labels(mine_line, count=2, container=CONTAINER, status="voided")
    issue_labels(theirs_line, count=2, container=CONTAINER)
    issue_labels(theirs_line, count=4, container="TGHU1234562")  # another container
    shipment.mine_number = mine.order_number
    return shipment


def test_cartons_of_the_container_match_the_count(world, api, shipment):
    client = api(world["purchasing"], world["tenant3"])
    count = client.get(f"{SHIPMENTS}{shipment.pk}/").json()["data"]["cartons_count"]
    page = client.get(f"{CARTONS}?container={CONTAINER}&page_size=2").json()["data"]
    assert count == page["count"] == 5
    assert len(page["results"]) == 2
    first = page["results"][0]
    assert first["container"] == CONTAINER
    assert first["qr_url"].endswith(f"/eudrtrace/{first['code']}")
    assert {"code", "production_batch_code", "batch_sequence", "article_number", "purchase_order"} <= set(
        first
    )


def test_a_supplier_sees_only_their_own_cartons_of_a_shared_container(world, api, shipment):
    client = api(world["supplier_user_a"], world["tenant3"])
    count = client.get(f"{SHIPMENTS}{shipment.pk}/").json()["data"]["cartons_count"]
    cartons = client.get(f"{CARTONS}?container={CONTAINER}").json()["data"]
    assert count == cartons["count"] == 3
    assert {c["purchase_order"] for c in cartons["results"]} == {shipment.mine_number}


def test_another_tenant_sees_no_cartons(world, api, shipment):
    client = api(world["other_admin"], world["tenant2"])
    assert client.get(f"{SHIPMENTS}{shipment.pk}/").status_code == 404
    assert client.get(f"{CARTONS}?container={CONTAINER}").json()["data"]["count"] == 0
