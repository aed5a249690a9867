"""The tenant's own filed due diligence statement on a delivery (POST/DELETE raw-materials/{id}/filed-dds/):
recorded by internal users, validated, shown in the API, and on the public trace as the reference number
only (never the verification number)."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from apps.eudr import references
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tests.trace_data import UPSTREAM_REFERENCE, VERIFICATION, make_cartons

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"
OWN_REFERENCE = "26NLQ8M3ZP41TK"
OWN_VERIFICATION = "K7R8LA90XQ"


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def delivery(eudr_world, in_tenant):
    with in_tenant(eudr_world.tenant3):
        return factories.delivery(
            eudr_world.vendor_a,
            upstream_dds_reference=UPSTREAM_REFERENCE,
            upstream_dds_verification=VERIFICATION,
        )


def record(client, delivery_id, **body):
    payload = {"dds_reference_number": OWN_REFERENCE, "dds_verification_number": OWN_VERIFICATION, **body}
    return client.post(f"{RAW}{delivery_id}/filed-dds/", payload, format="json")


def test_an_internal_user_records_the_filed_statement(eudr_world, api, delivery, in_tenant):
    w = eudr_world
    client = api(w.purchaser, w.tenant3)
    before = client.get(f"{RAW}{delivery.pk}/").json()["data"]
    assert (before["dds_reference_number"], before["dds_verification_number"], before["dds_filed_at"]) == (
        "",
        "",
        None,
    )
    filed_at = (timezone.now() - timedelta(hours=2)).replace(microsecond=0)
    response = record(
        client,
        delivery.pk,
        dds_reference_number=" 26nlq8m3zp41tk ",
        dds_filed_at=filed_at.isoformat(),
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["dds_reference_number"] == OWN_REFERENCE
    assert data["dds_verification_number"] == OWN_VERIFICATION
    assert data["dds_filed_by_name"] == w.purchaser.username
    assert data["dds_filed_at"].startswith(filed_at.strftime("%Y-%m-%dT%H:%M:%S"))
    # the upstream statement is kept beside it
    assert data["upstream_dds_reference"] == UPSTREAM_REFERENCE
    listed = client.get(RAW).json()["data"]["results"]
    assert next(row for row in listed if row["id"] == delivery.pk)["dds_reference_number"] == OWN_REFERENCE
    with in_tenant(w.tenant3):
        stored = RawMaterialDelivery.objects.get(pk=delivery.pk)
        assert stored.dds_filed_by_id == w.purchaser.pk
        assert stored.dds_filed_at == filed_at


def test_filed_at_defaults_to_now_and_a_new_record_replaces_the_old(eudr_world, api, delivery):
    client = api(eudr_world.admin, eudr_world.tenant3)
    first = record(client, delivery.pk).json()["data"]
    assert abs(timezone.datetime.fromisoformat(first["dds_filed_at"]) - timezone.now()) < timedelta(minutes=1)
    second = record(
        client, delivery.pk, dds_reference_number="26NLAAAAAAAAAA", dds_verification_number="ABCDE"
    )
    assert second.status_code == 200
    data = second.json()["data"]
    assert (data["dds_reference_number"], data["dds_verification_number"]) == ("26NLAAAAAAAAAA", "ABCDE")


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        (
            {"dds_reference_number": "26NLQ8M3ZP41TKX"},
            "dds_reference_number",
            str(references.MSG_REFERENCE_FORMAT),
        ),
        (
            {"dds_reference_number": "25FI-KGLE 0Q7R"},
            "dds_reference_number",
            str(references.MSG_REFERENCE_FORMAT),
        ),
        (
            {"dds_reference_number": "NL26Q8M3ZP41TK"},
            "dds_reference_number",
            str(references.MSG_REFERENCE_FORMAT),
        ),
        (
            {"dds_reference_number": "26NLQ8M3ZP41T"},
            "dds_reference_number",
            str(references.MSG_REFERENCE_FORMAT),
        ),
        (
            {"dds_reference_number": "26-NL/Q8"},
            "dds_reference_number",
            str(references.MSG_REFERENCE_FORMAT),
        ),
        ({"dds_reference_number": ""}, "dds_reference_number", "Enter the statement's reference number."),
        (
            {"dds_verification_number": "K7R8"},
            "dds_verification_number",
            str(references.MSG_VERIFICATION_FORMAT),
        ),
        (
            {"dds_verification_number": "K" * 36},
            "dds_verification_number",
            str(references.MSG_VERIFICATION_FORMAT),
        ),
        (
            {"dds_verification_number": "K7R8-LA90"},
            "dds_verification_number",
            str(references.MSG_VERIFICATION_FORMAT),
        ),
        (
            {"dds_verification_number": ""},
            "dds_verification_number",
            "Enter the statement's verification number.",
        ),
        (
            {"dds_filed_at": (timezone.now() + timedelta(days=1)).isoformat()},
            "dds_filed_at",
            "The filing time cannot be in the future.",
        ),
    ],
)
def test_malformed_numbers_are_refused(eudr_world, api, delivery, in_tenant, body, field, message):
    response = record(api(eudr_world.purchaser, eudr_world.tenant3), delivery.pk, **body)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "validation_error"
    assert response.json()["data"] == {field: [message]}
    with in_tenant(eudr_world.tenant3):
        assert RawMaterialDelivery.objects.get(pk=delivery.pk).dds_reference_number == ""


def test_both_numbers_are_required(eudr_world, api, delivery):
    response = api(eudr_world.purchaser, eudr_world.tenant3).post(
        f"{RAW}{delivery.pk}/filed-dds/", {}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["data"]) == {"dds_reference_number", "dds_verification_number"}


def test_a_draft_cannot_have_a_filed_statement(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        draft = factories.delivery(w.vendor_a, draft=True)
    response = record(api(w.purchaser, w.tenant3), draft.pk)
    assert response.status_code == 409
    assert response.json()["error"] == "raw_material_draft"


def test_supplier_users_cannot_record_and_do_not_see_the_verification_number(eudr_world, api, delivery):
    w = eudr_world
    supplier = api(w.supplier_a, w.tenant3)
    refused = record(supplier, delivery.pk)
    assert refused.status_code == 403
    assert supplier.delete(f"{RAW}{delivery.pk}/filed-dds/").status_code == 403
    assert record(api(w.purchaser, w.tenant3), delivery.pk).status_code == 200
    seen = supplier.get(f"{RAW}{delivery.pk}/").json()["data"]
    assert seen["dds_reference_number"] == OWN_REFERENCE
    assert seen["dds_verification_number"] == ""
    listed = supplier.get(RAW).content.decode()
    assert OWN_VERIFICATION not in listed
    # another vendor's supplier does not even find the delivery
    assert record(api(w.supplier_b, w.tenant3), delivery.pk).status_code in (403, 404)


@pytest.mark.parametrize("who", ["sales", "warehouse"])
def test_users_without_the_change_permission_are_refused(eudr_world, api, delivery, in_tenant, who):
    w = eudr_world
    response = record(api(getattr(w, who), w.tenant3), delivery.pk)
    assert response.status_code == 403
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=delivery.pk).dds_reference_number == ""


def test_another_tenant_cannot_record(eudr_world, api, delivery, in_tenant):
    w = eudr_world
    assert record(api(w.admin_x, w.tenant3), delivery.pk).status_code == 403
    assert record(api(w.admin_x, w.tenant2), delivery.pk).status_code == 404
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=delivery.pk).dds_reference_number == ""


def test_a_recorded_statement_is_voided_with_a_reason_not_cleared(eudr_world, api, delivery):
    """Once recorded, the statement is kept (docs/duediligence.md): DELETE is refused, the void keeps
    who, when, why and the old numbers."""
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    assert record(client, delivery.pk).status_code == 200
    cleared = client.delete(f"{RAW}{delivery.pk}/filed-dds/")
    assert cleared.status_code == 409, cleared.content
    assert cleared.json()["error"] == "records_kept"
    voided = client.post(
        f"/api/duediligence/deliveries/{delivery.pk}/void-statement/", {"reason": "Typed the wrong number"}
    )
    assert voided.status_code == 201, voided.content
    assert voided.json()["data"]["details"]["reference_number"] == OWN_REFERENCE
    data = client.get(f"{RAW}{delivery.pk}/").json()["data"]
    assert (data["dds_reference_number"], data["dds_verification_number"], data["dds_filed_at"]) == (
        "",
        "",
        None,
    )


def test_public_trace_shows_the_own_reference_but_no_verification_number(
    eudr_world, api, delivery, in_tenant, django_capture_on_commit_callbacks
):
    w = eudr_world
    with in_tenant(w.tenant3):
        label = make_cartons(delivery, count=1)[0]
    trace_url = f"/api/eudrtrack/{label.code}/"
    before = APIClient().get(trace_url)
    assert before.json()["data"]["dds_reference_number"] == UPSTREAM_REFERENCE  # the fallback
    with django_capture_on_commit_callbacks(execute=True):  # the stored answer is rebuilt on commit
        assert record(api(w.purchaser, w.tenant3), delivery.pk).status_code == 200
    after = APIClient().get(trace_url)
    assert after.status_code == 200
    assert after.json()["data"]["dds_reference_number"] == OWN_REFERENCE
    text = after.content.decode()
    assert OWN_VERIFICATION not in text and VERIFICATION not in text
    assert "verification" not in text.lower()
    assert before["ETag"] != after["ETag"]


def test_a_delivery_deleted_meanwhile_is_a_404_not_a_500(eudr_world, delivery, in_tenant):
    """The view found the delivery, another request deleted it before the service locked it: the
    service's lock answers 404 (Http404), as the lookup would have."""
    from django.http import Http404

    from apps.eudr import services

    with in_tenant(eudr_world.tenant3):
        gone = delivery.pk
        RawMaterialDelivery.objects.filter(pk=gone).delete()
        with pytest.raises(Http404):
            services.raw_material_clear_dds(delivery_id=gone)
