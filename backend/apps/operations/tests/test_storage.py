"""Files in S3-compatible object storage (a real SeaweedFS server): what one node stores, another serves;
every path is under its tenant; local files move into the bucket verified; the readiness check sees the
bucket."""

from __future__ import annotations

import io

import pytest
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command

from apps.common.models import ImportJob
from apps.common.tests.test_comments import add_comment, upload
from apps.common.tests.test_comments import setup as comments_setup  # noqa: F401  (fixture)
from apps.operations import health
from apps.tenancy.context import TenantNotSet, tenant_context

pytestmark = pytest.mark.django_db


def _keys(s3_server, bucket: str) -> list[str]:
    listed = s3_server.client().list_objects_v2(Bucket=bucket)
    return sorted(item["Key"] for item in listed.get("Contents", []))


def test_a_file_uploaded_through_one_node_downloads_through_another(
    comments_setup,  # noqa: F811  (the fixture imported above)
    api,
    tenant3,
    s3_server,
    s3_storage,
    settings,
    tmp_path,
):
    settings.MEDIA_ROOT = tmp_path / "node-a-media"
    client = api(comments_setup["admin"], tenant3)
    comment = add_comment(client, comments_setup["supplier_a_obj"]).json()["data"]
    attachment = upload(client, comment["id"]).json()["data"]

    (key,) = _keys(s3_server, s3_storage)
    assert key.startswith(f"tenants/{tenant3.pk}/comments/") and key.endswith(".pdf")
    assert not (tmp_path / "node-a-media").exists()  # nothing on the node's own disk

    settings.MEDIA_ROOT = tmp_path / "node-b-media"  # the other node: another media folder, same bucket
    download = api(comments_setup["admin"], tenant3).get(attachment["url"])
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == b"%PDF-1.4 test"


def test_files_saved_before_their_row_go_under_the_tenant(tenant2, s3_server, s3_storage):
    with tenant_context(tenant2):
        job = ImportJob(kind="products", file_name="products.csv")
        job.file.save("products.csv", ContentFile(b"sku,name\n"), save=False)
    assert job.file.name.startswith(f"tenants/{tenant2.pk}/imports/")
    assert _keys(s3_server, s3_storage) == [job.file.name]


def test_a_file_outside_any_tenant_is_refused_not_stored_under_none(db):
    job = ImportJob(kind="products", file_name="products.csv")
    with pytest.raises(TenantNotSet):
        job.file.save("products.csv", ContentFile(b"x"), save=False)


def test_e_mails_are_kept_under_their_tenant(tenant2):
    from apps.notifications.models import EmailAttachment, EmailMessage

    with tenant_context(tenant2):
        message = EmailMessage(subject="Invoice INV-1")
        message.raw.save("1.eml", ContentFile(b"Subject: x\r\n\r\nbody"), save=False)
        assert message.raw.name.startswith(f"tenants/{tenant2.pk}/notifications/raw/")
        attachment = EmailAttachment(message_id=41, file_name="INV-1.pdf")
        attachment.file.save("INV-1.pdf", ContentFile(b"%PDF"), save=False)
        assert attachment.file.name == f"tenants/{tenant2.pk}/notifications/41/INV-1.pdf"


def test_local_files_move_into_the_bucket_verified(s3_server, s3_storage, tmp_path):
    source = tmp_path / "old-media"
    (source / "tenants" / "2" / "comments").mkdir(parents=True)
    (source / "tenants" / "2" / "comments" / "a.pdf").write_bytes(b"%PDF-1.4 a")
    (source / "tenants" / "3" / "eudr" / "7" / "x").mkdir(parents=True)
    (source / "tenants" / "3" / "eudr" / "7" / "x" / "plots.geojson").write_bytes(
        b'{"type":"FeatureCollection"}'
    )

    out = io.StringIO()
    call_command("media_to_storage", str(source), stdout=out)
    assert "2 file(s) copied, 0 already there; every file verified." in out.getvalue()
    assert _keys(s3_server, s3_storage) == ["tenants/2/comments/a.pdf", "tenants/3/eudr/7/x/plots.geojson"]
    body = s3_server.client().get_object(Bucket=s3_storage, Key="tenants/2/comments/a.pdf")["Body"].read()
    assert body == b"%PDF-1.4 a"

    out = io.StringIO()
    call_command("media_to_storage", str(source), stdout=out)  # run again: nothing to copy
    assert "0 file(s) copied, 2 already there" in out.getvalue()

    s3_server.client().delete_object(Bucket=s3_storage, Key="tenants/2/comments/a.pdf")
    with pytest.raises(CommandError, match="1 problem"):
        call_command(
            "media_to_storage", str(source), "--verify-only", stdout=io.StringIO(), stderr=io.StringIO()
        )


def test_moving_a_folder_onto_itself_is_refused(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    (tmp_path / "media").mkdir()
    with pytest.raises(CommandError, match="S3_BUCKET"):
        call_command("media_to_storage", str(tmp_path / "media"))


def test_readiness_sees_the_bucket(s3_server, s3_storage, settings):
    assert health.check_storage().ok
    options = {**settings.STORAGES["default"]["OPTIONS"], "secret_key": "wrong"}
    settings.STORAGES = {**settings.STORAGES, "default": {**settings.STORAGES["default"], "OPTIONS": options}}
    check = health.check_storage()
    assert check.ok is False and "unreachable" in check.detail
