"""Records kept five years: once a statement is filed or its reference recorded, the delivery and what it
rests on cannot be deleted or changed; "delete" becomes archive or void with who, when and why. Every
refusal on PostgreSQL under row-level security."""

import pytest
from django.db import transaction
from django.db.models import ProtectedError

from apps.duediligence.errors import RecordsKept
from apps.duediligence.models import RecordArchive, RetentionHold
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tests import factories

from .helpers import DD, RAW, REFERENCE, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def filed(eudr_world, api, in_tenant):
    """A delivery from a low-risk country (simplified due diligence) whose reference is recorded."""
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
    client = api(eudr_world.admin, eudr_world.tenant3)
    assert record(client, delivery.pk).status_code == 200
    return delivery


def test_recording_a_reference_places_a_five_year_hold(eudr_world, filed, in_tenant):
    with in_tenant(eudr_world.tenant3):
        hold = RetentionHold.objects.get(delivery=filed)
    assert hold.reason == "recorded"
    assert hold.reference_number == REFERENCE
    assert (hold.keep_until - hold.started_at).days >= 5 * 365


def test_a_kept_delivery_cannot_be_deleted_but_can_be_archived(eudr_world, api, filed, in_tenant):
    client = api(eudr_world.admin, eudr_world.tenant3)
    refused = client.delete(f"{RAW}{filed.pk}/", HTTP_ACCEPT_LANGUAGE="zh")
    assert refused.status_code == 409
    assert refused.json()["error"] == "records_kept"
    assert "不能删除" in refused.json()["message"]
    assert client.get(f"{RAW}{filed.pk}/").status_code == 200

    assert client.post(f"{DD}deliveries/{filed.pk}/archive/", {"reason": "  "}).status_code == 400
    archived = client.post(f"{DD}deliveries/{filed.pk}/archive/", {"reason": "Supplier stopped trading"})
    assert archived.status_code == 201, archived.content
    assert archived.json()["data"]["by"] == eudr_world.admin.username
    with in_tenant(eudr_world.tenant3):
        assert RawMaterialDelivery.objects.get(pk=filed.pk).status == "inactive"
        assert RecordArchive.objects.get(delivery=filed).reason == "Supplier stopped trading"


def test_documents_of_a_kept_delivery_cannot_be_removed_or_replaced(eudr_world, api, in_tenant):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = api(eudr_world.admin, eudr_world.tenant3)
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
    pdf = SimpleUploadedFile(
        "cert.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n%%EOF\n", "application/pdf"
    )
    uploaded = client.post(f"{RAW}{delivery.pk}/files/vendor_certificate/", {"file": pdf}, format="multipart")
    assert uploaded.status_code in (200, 201), uploaded.content
    assert record(client, delivery.pk).status_code == 200

    removed = client.delete(f"{RAW}{delivery.pk}/files/vendor_certificate/")
    assert removed.status_code == 409 and removed.json()["error"] == "records_kept"
    again = SimpleUploadedFile("cert2.pdf", b"%PDF-1.4\n%%EOF\n", "application/pdf")
    replaced = client.post(
        f"{RAW}{delivery.pk}/files/vendor_certificate/", {"file": again}, format="multipart"
    )
    assert replaced.status_code == 409
    # The supplier cannot delete it either.
    supplier = api(eudr_world.supplier_a, eudr_world.tenant3)
    assert supplier.delete(f"{RAW}{delivery.pk}/files/vendor_certificate/").status_code == 409


def test_what_the_statement_declared_cannot_change(eudr_world, api, filed):
    client = api(eudr_world.admin, eudr_world.tenant3)
    changed = client.patch(f"{RAW}{filed.pk}/", {"forest_supplier_name": "Someone else"}, format="json")
    assert changed.status_code == 409, changed.content
    assert changed.json()["error"] == "records_kept"
    assert changed.json()["data"]["fields"] == ["forest_supplier_name"]
    # What it did not declare still changes (e.g. the description).
    described = client.patch(f"{RAW}{filed.pk}/", {"description": "Kraftliner, reel 4"}, format="json")
    assert described.status_code == 200, described.content


def test_every_delete_path_is_refused_at_the_model(eudr_world, filed, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = RawMaterialDelivery.objects.get(pk=filed.pk)
        # The hold's protected key refuses even a delete that skips the services.
        with pytest.raises((RecordsKept, ProtectedError)), transaction.atomic():
            delivery.delete()
        with pytest.raises(RecordsKept), transaction.atomic():
            delivery.lines.first().delete()
        with pytest.raises(RecordsKept), transaction.atomic():
            delivery.lines.all().delete()
        with pytest.raises(RecordsKept), transaction.atomic():
            RetentionHold.objects.get(delivery=delivery).delete()
        assert RawMaterialDelivery.objects.filter(pk=filed.pk).exists()


def test_a_statement_filed_through_the_product_holds_its_delivery(eudr_world, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
        submission = DdsSubmission.objects.create(
            delivery=delivery, internal_reference="DN-1-abc", environment="acceptance"
        )
        assert not RetentionHold.objects.filter(delivery=delivery).exists()  # only queued
        submission.uuid = "3f1b7f3e-2d6a-4d9e-9d7e-2b1c1b9e0a11"
        submission.status = "submitted"
        submission.save()
        hold = RetentionHold.objects.get(delivery=delivery)
        assert hold.reason == "filed"
        with pytest.raises(RecordsKept), transaction.atomic():
            submission.delete()


def test_a_delivery_without_a_statement_is_still_deleted(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a, draft=True)
    client = api(eudr_world.admin, eudr_world.tenant3)
    assert client.delete(f"{RAW}{delivery.pk}/").status_code in (200, 204)


def test_another_tenant_cannot_archive_or_void(eudr_world, api, filed):
    outsider = api(eudr_world.admin_x, eudr_world.tenant2)
    assert outsider.post(f"{DD}deliveries/{filed.pk}/archive/", {"reason": "x"}).status_code == 404
    assert outsider.post(f"{DD}deliveries/{filed.pk}/void-statement/", {"reason": "x"}).status_code == 404
    supplier = api(eudr_world.supplier_a, eudr_world.tenant3)
    assert supplier.post(f"{DD}deliveries/{filed.pk}/archive/", {"reason": "x"}).status_code == 403
    # A body of any shape is a 4xx.
    client = api(eudr_world.admin, eudr_world.tenant3)
    for body in ([], {"reason": {"a": 1}}, {"reason": "x" * 5000}, "text"):
        answer = client.post(f"{DD}deliveries/{filed.pk}/archive/", body, format="json")
        assert 400 <= answer.status_code < 500, (body, answer.content)
