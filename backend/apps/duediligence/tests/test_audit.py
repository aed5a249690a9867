"""The audit trail: every change to the records a statement rests on, with who, when, field, old and new;
it cannot be changed or deleted; a delivery and a statement each show theirs; row-level security keeps it
in its tenant."""

import pytest
from django.db import connection

from apps.duediligence.errors import AuditImmutable
from apps.duediligence.models import AuditEntry
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.tests import factories

from .helpers import DD, RAW, record

pytestmark = pytest.mark.django_db


def test_changes_are_recorded_with_who_field_old_and_new(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    assert client.patch(f"{RAW}{delivery.pk}/", {"description": "Reel 7"}, format="json").status_code == 200
    assert record(client, delivery.pk).status_code == 200
    # Once kept, the materials cannot be replaced.
    line = {"material_type": "paper", "weight_kg": "900", "pulp_type": "virgin"}
    assert client.patch(f"{RAW}{delivery.pk}/", {"lines": [line]}, format="json").status_code == 409

    trail = client.get(f"{DD}deliveries/{delivery.pk}/audit/", {"page_size": 200}).json()["data"]["results"]
    by_field = {(e["record_type"], e["field"]): e for e in trail if e["action"] == "change"}
    description = by_field[("eudr.rawmaterialdelivery", "description")]
    assert (description["old_value"], description["new_value"]) == ("Kraftliner 140 g/m2", "Reel 7")
    assert description["username"] == eudr_world.purchaser.username
    reference = by_field[("eudr.rawmaterialdelivery", "dds_reference_number")]
    assert reference["old_value"] == "" and reference["new_value"] == "26NLQ8M3ZP41TK"
    lines = [e for e in trail if e["field"] == "lines"]
    assert len(lines) == 1 and '"weight_kg":"1000.000"' in lines[0]["new_value"], (
        "the materials are in the trail"
    )
    assert any(e["record_type"] == "duediligence.retentionhold" for e in trail)


def test_the_trail_cannot_be_changed_or_deleted(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
        entry = AuditEntry.objects.filter(delivery_id=delivery.pk).first()
        entry.new_value = "forged"
        with pytest.raises(AuditImmutable):
            entry.save()
        with pytest.raises(AuditImmutable):
            entry.delete()
    client = api(eudr_world.admin, eudr_world.tenant3)
    url = f"{DD}deliveries/{delivery.pk}/audit/"
    assert client.delete(url).status_code == 405
    assert client.post(url, {}).status_code == 405


def test_a_statement_shows_its_own_trail(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
        submission = DdsSubmission.objects.create(
            delivery=delivery, internal_reference="DN-9-abc", environment="acceptance"
        )
        submission.status = "available"
        submission.uuid = "3f1b7f3e-2d6a-4d9e-9d7e-2b1c1b9e0a11"
        submission.save()
    client = api(eudr_world.admin, eudr_world.tenant3)
    trail = client.get(f"{DD}statements/{submission.pk}/audit/", {"page_size": 200}).json()["data"]["results"]
    status = [e for e in trail if e["field"] == "status" and e["action"] == "change"]
    assert status and status[0]["old_value"] == "draft" and status[0]["new_value"] == "available"
    assert all(e["submission_id"] == submission.pk for e in trail)
    assert (
        api(eudr_world.admin_x, eudr_world.tenant2).get(f"{DD}statements/{submission.pk}/audit/").status_code
        == 404
    )


def test_row_level_security_keeps_the_trail_in_its_tenant(eudr_world, in_tenant, pg_role_check):
    if connection.vendor != "postgresql":
        pytest.skip("row-level security is PostgreSQL's")
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)
        assert AuditEntry.objects.filter(delivery_id=delivery.pk).exists()
    with in_tenant(eudr_world.tenant2):
        assert not AuditEntry.unscoped.filter(delivery_id=delivery.pk).exists()
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM duediligence_auditentry")
            assert cursor.fetchone()[0] == 0
