# ruff: noqa: F811 (the fixtures of test_dds_filing, imported by name)
"""Statements around the placing (docs/eudr.md, "Statements around the placing"): a statement covers the
cartons of an import's containers, declares their HS headings and net mass, the producers and plots of
every delivery behind them and those deliveries' upstream references; a carton is covered once; documents
and the trace show per carton the statement that covered it; an imported carton ships only once covered
(or as the company allows, said on the documents); filed against a local server that answers as the EU
information system."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.eudr.filing_models import DdsCoveredCarton, DdsSubmission
from apps.eudr.models import CartonLabel, RawMaterialDelivery
from apps.eudr.placing import carton_statements, statements_of_labels
from apps.eudr.tests.trace_data import UPSTREAM_REFERENCE, make_cartons, make_delivery
from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
from apps.products.models import Product
from apps.purchaseorders.models import PurchaseOrder
from apps.tenancy.models import Tenant

from .test_dds_filing import account, server, world  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

URL = "/api/eudr/placing-statements/"
CONTAINER = "MSKU1234565"


@pytest.fixture
def imported(world, in_tenant):
    """One container carrying two orders: 2 cartons of delivery A (HS 481910) and 3 of delivery B (HS
    481920, its paper under another operator's statement)."""
    with in_tenant(world.tenant3):
        a = make_delivery()
        labels_a = make_cartons(a, count=2)
        b = make_delivery(suffix="-B")
        labels_b = make_cartons(b, count=3, batch_code="20261121B", suffix="-B")
        Product.objects.filter(article_number="CT-4711-B").update(hs_code="4819 20")
        shipment = ShipmentInfo.objects.create(container_number=CONTAINER)
        for order in PurchaseOrder.objects.filter(order_number__startswith="PO-SECRET-4711"):
            ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
    return {"a": a, "b": b, "labels_a": labels_a, "labels_b": labels_b, "shipment": shipment}


def _file(client, shipment, **extra):
    return client.post(
        URL,
        {
            "shipments": [shipment.pk],
            "customs_declaration_number": "26NL00000012345678",
            "customs_declaration_date": "2026-11-25",
            **extra,
        },
        format="json",
    )


def _available(world, in_tenant):
    from apps.eudr.tasks import read_due_statuses

    with in_tenant(world.tenant3):
        DdsSubmission.objects.exclude(status_due_at=None).update(
            status_due_at=timezone.now() - timedelta(seconds=1)
        )
    read_due_statuses()


def test_the_preview_declares_the_cartons_of_the_container_per_hs_heading(world, api, imported):
    client = api(world.admin, world.tenant3)
    data = client.get(f"{URL}preview/?shipments={imported['shipment'].pk}").json()["data"]
    assert (data["cartons"], data["cartons_covered"]) == (5, 0)
    assert [(c["hs_heading"], c["cartons"], c["net_weight_kg"]) for c in data["commodities"]] == [
        ("481910", 2, "1.700"),
        ("481920", 3, "2.550"),
    ]
    assert [d["delivery_number"] for d in data["deliveries"]] == ["DLV-2026-001", "DLV-2026-001-B"]
    assert data["statements"] == []


def test_filing_covers_every_carton_once_with_the_producers_and_upstream_statements_behind_them(
    world, api, account, server, imported, in_tenant
):
    client = api(world.admin, world.tenant3)
    response = _file(client, imported["shipment"])
    assert response.status_code == 202, response.content
    filed = response.json()["data"]
    assert filed["status"] == "submitted" and filed["cartons"] == 5 and filed["net_weight_kg"] == "4.250"
    assert filed["customs_declaration_number"] == "26NL00000012345678"
    assert [s["container_number"] for s in filed["shipments"]] == [CONTAINER]
    # the upstream statements it groups are verified first, then it is filed once
    assert server.actions().count("submitDds") == 1
    body = next(b for _p, action, b in server.requests if action == "submitDds").decode()
    assert body.count("<dds:hsHeading>") == 2
    assert "<dds:hsHeading>481910</dds:hsHeading>" in body and "<dds:hsHeading>481920</dds:hsHeading>" in body
    assert re.findall(r"netWeight>([0-9.]+)<", body) == ["1.7", "2.55"]
    assert re.findall(r"groupedDeclaration>([0-9A-Z]+)<", body) == [UPSTREAM_REFERENCE]
    assert "26NL00000012345678" in body and CONTAINER in body
    # while it is not available, the cartons are covered but have no reference to give
    labels = [label.pk for label in imported["labels_a"] + imported["labels_b"]]
    with in_tenant(world.tenant3):
        assert {s.kind for s in carton_statements(labels).values()} == {"pending"}
    _available(world, in_tenant)
    detail = client.get(f"{URL}{filed['id']}/").json()["data"]
    assert (detail["status"], detail["reference_number"], detail["verification_number"]) == (
        "available",
        "26NLX7TVCZAQ2S",
        "SFFCB4Y3",
    )
    with in_tenant(world.tenant3):
        found = carton_statements(labels)
        assert {(s.kind, s.reference, s.verification) for s in found.values()} == {
            ("own", "26NLX7TVCZAQ2S", "SFFCB4Y3")
        }
        [row] = statements_of_labels(labels)
        assert row["cartons"] == 5 and row["deliveries"] == ["DLV-2026-001", "DLV-2026-001-B"]
        # the statement rests on both deliveries: they are kept
        from apps.duediligence.models import RetentionHold

        assert set(RetentionHold.objects.values_list("delivery_id", flat=True)) == {
            imported["a"].pk,
            imported["b"].pk,
        }
    # the same cartons are not declared twice
    again = _file(client, imported["shipment"])
    assert again.status_code == 409 and again.json()["error"] == "cartons_already_covered"
    assert "26NLX7TVCZAQ2S" in again.json()["message"]
    preview = client.get(f"{URL}preview/?shipments={imported['shipment'].pk}").json()["data"]
    assert (preview["cartons"], preview["cartons_covered"]) == (0, 5)
    assert [s["reference_number"] for s in preview["statements"]] == ["26NLX7TVCZAQ2S"]


def test_a_carton_labelled_after_the_statement_is_not_under_it(
    world, api, account, server, imported, in_tenant
):
    client = api(world.admin, world.tenant3)
    assert _file(client, imported["shipment"]).status_code == 202
    _available(world, in_tenant)
    with in_tenant(world.tenant3):
        late = CartonLabel.objects.get(pk=imported["labels_a"][0].pk)
        late.pk = None
        late.code = "LATE0000CARTON01"
        late.batch_sequence = 99
        late.created_at = timezone.now()
        late.save()
        assert carton_statements([late.pk])[late.pk].kind == "upstream"
    preview = client.get(f"{URL}preview/?shipments={imported['shipment'].pk}").json()["data"]
    assert (preview["cartons"], preview["cartons_covered"]) == (1, 5)
    # a second statement covers just that carton
    second = _file(client, imported["shipment"])
    assert second.status_code == 202, second.content
    assert second.json()["data"]["cartons"] == 1


def test_a_delivery_statement_covers_only_the_cartons_labelled_before_it_was_filed(world, in_tenant):
    with in_tenant(world.tenant3):
        delivery = make_delivery(
            dds_reference_number="26NLABCDEF1234",
            dds_verification_number="VERIF1",
            dds_filed_at=timezone.now() - timedelta(days=1),
        )
        labels = make_cartons(delivery, count=2)
        CartonLabel.objects.filter(pk=labels[0].pk).update(created_at=timezone.now() - timedelta(days=2))
        found = carton_statements([label.pk for label in labels])
    assert (found[labels[0].pk].kind, found[labels[0].pk].reference) == ("own", "26NLABCDEF1234")
    assert found[labels[1].pk].kind == "upstream" and found[labels[1].pk].verification == ""


def test_withdrawing_releases_the_cartons(world, api, account, server, imported, in_tenant):
    client = api(world.admin, world.tenant3)
    filed = _file(client, imported["shipment"]).json()["data"]
    _available(world, in_tenant)
    withdrawn = client.post(f"{URL}{filed['id']}/withdraw/")
    assert withdrawn.status_code == 202, withdrawn.content
    assert withdrawn.json()["data"]["status"] == "withdrawn"
    with in_tenant(world.tenant3):
        assert DdsCoveredCarton.objects.filter(active=True).count() == 0
        assert DdsCoveredCarton.objects.count() == 5  # the record of what it declared stays
    assert _file(client, imported["shipment"]).status_code == 202


def test_a_declared_cartons_label_cannot_be_voided(world, api, account, server, imported, in_tenant):
    client = api(world.admin, world.tenant3)
    assert _file(client, imported["shipment"]).status_code == 202
    refused = client.post(
        "/api/eudr/cartons/bulk-delete/", {"ids": [imported["labels_a"][0].pk]}, format="json"
    )
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"] == "carton_covered"
    with in_tenant(world.tenant3):
        assert CartonLabel.objects.get(pk=imported["labels_a"][0].pk).status == "active"


def _received_and_picked(world, in_tenant, labels, shipment):
    from apps.inventory.models import WarehouseCarton

    with in_tenant(world.tenant3):
        for label in labels:
            WarehouseCarton.objects.create(
                label=label,
                product_id=label.product_id,
                status=WarehouseCarton.Status.PICKED,
                inbound_shipment=shipment,
                received_at=timezone.now(),
            )


def test_an_imported_carton_ships_only_once_a_statement_covers_it(
    world, api, account, server, imported, in_tenant
):
    from apps.common.exceptions import DomainError
    from apps.inventory.services import cartons_shipped

    labels = imported["labels_a"]
    _received_and_picked(world, in_tenant, labels, imported["shipment"])
    ids = [label.pk for label in labels]
    with in_tenant(world.tenant3):
        with pytest.raises(DomainError) as refused:
            cartons_shipped(label_ids=ids, reference="SH-1", customer_id=None, user=world.admin)
    assert refused.value.error == "carton_not_covered"
    assert labels[0].code in str(refused.value.message)
    # a company that allows it ships them; the documents then say they are not covered
    Tenant.objects.filter(pk=world.tenant3.pk).update(allow_uncovered_shipping=True)
    with in_tenant(world.tenant3):
        cartons_shipped(label_ids=ids[:1], reference="SH-1", customer_id=None, user=world.admin)
        [row] = statements_of_labels(ids[:1])
        assert row["kind"] == "upstream"  # another operator's reference only: ours is missing
    Tenant.objects.filter(pk=world.tenant3.pk).update(allow_uncovered_shipping=False)
    client = api(world.admin, world.tenant3)
    assert _file(client, imported["shipment"]).status_code == 202
    with in_tenant(world.tenant3):
        with pytest.raises(DomainError):  # filed, but not available yet
            cartons_shipped(label_ids=ids[1:], reference="SH-2", customer_id=None, user=world.admin)
    _available(world, in_tenant)
    with in_tenant(world.tenant3):
        cartons_shipped(label_ids=ids[1:], reference="SH-2", customer_id=None, user=world.admin)
        [row] = statements_of_labels(ids[1:])
    assert (row["kind"], row["reference"], row["verification"]) == ("own", "26NLX7TVCZAQ2S", "SFFCB4Y3")
    assert row["codes"] == [labels[1].code]


def test_a_company_that_does_not_import_is_not_held_by_the_gate_and_cannot_file(
    world, api, account, server, imported, in_tenant
):
    from apps.inventory.services import cartons_shipped

    Tenant.objects.filter(pk=world.tenant3.pk).update(eudr_import_role="none")
    _received_and_picked(world, in_tenant, imported["labels_a"], imported["shipment"])
    with in_tenant(world.tenant3):
        cartons_shipped(
            label_ids=[label.pk for label in imported["labels_a"]],
            reference="SH-1",
            customer_id=None,
            user=None,
        )
    refused = _file(api(world.admin, world.tenant3), imported["shipment"])
    assert refused.status_code == 409 and refused.json()["error"] == "dds_filing_not_allowed"


def test_the_trace_page_shows_the_statement_that_covered_the_carton(
    world, api, account, server, imported, in_tenant, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    code = imported["labels_b"][0].code
    public = APIClient()
    before = public.get(f"/api/eudrtrack/{code}/").json()["data"]
    assert (before["dds_reference_number"], before["dds_reference_kind"]) == (UPSTREAM_REFERENCE, "upstream")
    with django_capture_on_commit_callbacks(execute=True):  # the stored answers are rebuilt on commit
        _file(api(world.admin, world.tenant3), imported["shipment"])
        _available(world, in_tenant)
    after = public.get(f"/api/eudrtrack/{code}/").json()["data"]
    assert (after["dds_reference_number"], after["dds_reference_kind"]) == ("26NLX7TVCZAQ2S", "own")
    assert "SFFCB4Y3" not in str(after)


def test_bad_requests_are_refused_with_a_clear_error(world, api, account, server, imported):
    client = api(world.admin, world.tenant3)
    for body in (
        {},
        {"shipments": []},
        {"shipments": ["x"]},
        {"shipments": [imported["shipment"].pk], "customs_declaration_number": "26NL-00 1"},
        {"shipments": [imported["shipment"].pk], "customs_declaration_number": "26NL1"},  # no date
    ):
        response = client.post(URL, body, format="json")
        assert response.status_code == 400, (body, response.content)
    assert client.post(URL, {"shipments": [999999]}, format="json").status_code == 404
    assert client.get(f"{URL}preview/").status_code == 400
    assert client.get(f"{URL}preview/?shipments=a,b").status_code == 400
    with_no_cartons = ShipmentInfo.objects  # an empty container
    from apps.tenancy.context import tenant_context

    with tenant_context(world.tenant3):
        empty = with_no_cartons.create(container_number="TGHU0000016")
    refused = client.post(URL, {"shipments": [empty.pk]}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "placing_no_cartons"


def test_another_tenant_and_suppliers_cannot_see_or_file(world, api, account, server, imported, in_tenant):
    shipment = imported["shipment"]
    other = api(world.admin_x, world.tenant2)
    assert other.get(f"{URL}preview/?shipments={shipment.pk}").status_code == 404
    assert _file(other, shipment).status_code == 404
    with in_tenant(world.tenant2):
        assert DdsSubmission.objects.count() == 0
    supplier = api(world.supplier_a, world.tenant3)
    assert supplier.get(f"{URL}preview/?shipments={shipment.pk}").status_code == 403
    assert _file(supplier, shipment).status_code == 403
    filed = _file(api(world.admin, world.tenant3), shipment).json()["data"]
    assert other.get(f"{URL}{filed['id']}/").status_code == 404
    assert supplier.get(f"{URL}{filed['id']}/").status_code == 403
    assert api(world.warehouse, world.tenant3).post(f"{URL}{filed['id']}/withdraw/").status_code == 403
    with in_tenant(world.tenant3):
        assert RawMaterialDelivery.objects.count() == 2
        assert DdsCoveredCarton.objects.filter(active=True).count() == 5


def test_a_delivery_whose_cartons_an_import_declares_files_no_statement_of_its_own(
    world, api, account, server, imported
):
    client = api(world.admin, world.tenant3)
    assert _file(client, imported["shipment"]).status_code == 202
    refused = client.post(f"/api/eudr/raw-materials/{imported['a'].pk}/dds-filing/submit/")
    assert refused.status_code == 409 and refused.json()["error"] == "dds_filing_not_allowed"
    assert "inbound shipment" in refused.json()["message"]


def test_the_preview_reads_in_a_fixed_number_of_queries(world, api, imported, in_tenant):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api(world.admin, world.tenant3)
    url = f"{URL}preview/?shipments={imported['shipment'].pk}"

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    count()  # the first request also reads what a signed-in user's requests then keep in the cache
    before = count()
    with in_tenant(world.tenant3):
        more = make_delivery(suffix="-C")
        make_cartons(more, count=4, batch_code="20261121C", suffix="-C")
        order = PurchaseOrder.objects.get(order_number="PO-SECRET-4711-C")
        ShipmentPurchaseOrder.objects.create(shipment=imported["shipment"], purchase_order=order)
    assert client.get(url).json()["data"]["cartons"] == 9
    assert count() == before
