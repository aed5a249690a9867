"""Comments on suppliers (/api/common/comments/, content type "supplier"): only those who may view the
supplier read, add or download; another parent vendor's supplier user and another tenant get nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db

URL = "/api/common/comments/"


@pytest.fixture
def commented(world, api, tenant3):
    client = api(world["admin"], tenant3)
    comment = client.post(
        URL,
        {"content_type": "supplier", "object_id": world["a1"].pk, "content": "Audit passed"},
        format="json",
    ).json()["data"]
    upload = SimpleUploadedFile("audit.pdf", b"%PDF-1.4 audit", content_type="application/pdf")
    attachment = client.post(f"{URL}{comment['id']}/add_attachment/", {"file": upload}, format="multipart")
    assert attachment.status_code == 201, attachment.json()
    return comment, attachment.json()["data"]


def test_own_vendor_supplier_user_reads_comments_and_downloads(world, api, tenant3, commented):
    _comment, attachment = commented
    client = api(world["supplier_a"], tenant3)
    listed = client.get(f"{URL}?content_type=supplier&object_id={world['a1'].pk}").json()["data"]
    assert listed["count"] == 1 and listed["results"][0]["attachments"][0]["size"] == len(b"%PDF-1.4 audit")
    assert client.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 200


def test_other_vendor_supplier_user_cannot_read_add_or_download(world, api, tenant3, commented):
    comment, attachment = commented
    client = api(world["supplier_b"], tenant3)
    listed = client.get(f"{URL}?content_type=supplier&object_id={world['a1'].pk}").json()["data"]
    assert listed["count"] == 0
    assert client.get(f"{URL}{comment['id']}/").status_code == 404
    added = client.post(
        URL, {"content_type": "supplier", "object_id": world["a1"].pk, "content": "Let me in"}, format="json"
    )
    assert added.status_code in (400, 403, 404)
    assert client.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 404


def test_other_tenant_cannot_read_add_or_download(world, api, tenant2, commented):
    comment, attachment = commented
    client = api(world["other_admin"], tenant2)
    assert client.get(f"{URL}?content_type=supplier&object_id={world['a1'].pk}").json()["data"]["count"] == 0
    assert client.get(f"{URL}{comment['id']}/").status_code == 404
    added = client.post(
        URL, {"content_type": "supplier", "object_id": world["a1"].pk, "content": "Hello"}, format="json"
    )
    assert added.status_code in (400, 403, 404)
    assert client.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 404


def test_role_without_supplier_view_cannot_see_supplier_comments(world, api, tenant3, commented):
    client = api(world["sales"], tenant3)
    assert client.get(f"{URL}?content_type=supplier&object_id={world['a1'].pk}").json()["data"]["count"] == 0
