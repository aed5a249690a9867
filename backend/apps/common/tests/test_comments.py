"""Comments and attachments: docs/specification.md section 7 endpoints, visibility by the commented record, limits."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.common.models import Comment
from apps.suppliers.models import ParentVendor, Supplier

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(tenant2, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        vendor_a = ParentVendor.objects.create(name="Vendor A", cname="甲")
        vendor_b = ParentVendor.objects.create(name="Vendor B", cname="乙")
        supplier_a = Supplier.objects.create(parent_vendor=vendor_a, number="S-A", name="Factory A")
        supplier_b = Supplier.objects.create(parent_vendor=vendor_b, number="S-B", name="Factory B")
    with in_tenant(tenant2):
        vendor_x = ParentVendor.objects.create(name="Vendor X")
        supplier_x = Supplier.objects.create(parent_vendor=vendor_x, number="S-X", name="Factory X")
    return {
        "admin": make_user(tenant3, username="boss"),
        "other_tenant_admin": make_user(tenant2, username="stranger"),
        "supplier_a": make_user(
            tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor_a
        ),
        "supplier_b": make_user(
            tenant3, role="Supplier", username="sb", is_supplier=True, parent_vendor=vendor_b
        ),
        "supplier_a_obj": supplier_a,
        "supplier_b_obj": supplier_b,
        "supplier_x_obj": supplier_x,
    }


def add_comment(client, obj, content="Checked the certificate", content_type="supplier"):
    return client.post(
        "/api/common/comments/",
        {"content_type": content_type, "object_id": obj.pk, "content": content},
        format="json",
    )


def test_content_types_list(setup, api, tenant3):
    body = api(setup["admin"], tenant3).get("/api/common/content-types/").json()
    labels = {(ct["app_label"], ct["model"]) for ct in body["data"]}
    for expected in [
        ("purchaseorders", "purchaseorder"),
        ("salesorders", "salesorder"),
        ("logistics", "shipmentinfo"),
        ("suppliers", "supplier"),
    ]:
        assert expected in labels
    only = api(setup["admin"], tenant3).get("/api/common/content-types/?app_label=suppliers").json()["data"]
    assert {ct["app_label"] for ct in only} == {"suppliers"}


def test_create_list_update_delete_by_the_author(setup, api, tenant3):
    client = api(setup["admin"], tenant3)
    created = add_comment(client, setup["supplier_a_obj"])
    assert created.status_code == 201, created.json()
    comment = created.json()["data"]
    assert comment["status"] == "normal" and comment["can_edit"] is True
    assert comment["author"]["username"] == "boss"
    listed = client.get(f"/api/common/comments/?content_type=supplier&object_id={setup['supplier_a_obj'].pk}")
    assert listed.json()["data"]["count"] == 1
    updated = client.patch(f"/api/common/comments/{comment['id']}/", {"content": "Edited"}, format="json")
    assert updated.json()["data"]["content"] == "Edited"
    assert client.delete(f"/api/common/comments/{comment['id']}/").status_code == 200
    assert client.get(f"/api/common/comments/{comment['id']}/").status_code == 404


def test_numeric_content_type_id_is_accepted(setup, api, tenant3):
    from django.contrib.contenttypes.models import ContentType

    ct = ContentType.objects.get(app_label="suppliers", model="supplier")
    created = add_comment(api(setup["admin"], tenant3), setup["supplier_a_obj"], content_type=ct.pk)
    assert created.status_code == 201
    assert created.json()["data"]["content_type"] == ct.pk


def test_only_the_author_can_edit_or_delete(setup, api, tenant3, make_user):
    comment = add_comment(api(setup["admin"], tenant3), setup["supplier_a_obj"]).json()["data"]
    colleague = api(make_user(tenant3, username="colleague"), tenant3)
    assert colleague.get(f"/api/common/comments/{comment['id']}/").json()["data"]["can_edit"] is False
    assert (
        colleague.patch(f"/api/common/comments/{comment['id']}/", {"content": "x"}, format="json").status_code
        == 403
    )
    assert colleague.delete(f"/api/common/comments/{comment['id']}/").status_code == 403


def test_another_tenant_cannot_see_comment_or_attach_to_foreign_records(setup, api, tenant2, tenant3):
    comment = add_comment(api(setup["admin"], tenant3), setup["supplier_a_obj"]).json()["data"]
    stranger = api(setup["other_tenant_admin"], tenant2)
    assert stranger.get(f"/api/common/comments/{comment['id']}/").status_code == 404
    assert stranger.get("/api/common/comments/").json()["data"]["count"] == 0
    assert (
        stranger.patch(f"/api/common/comments/{comment['id']}/", {"content": "x"}, format="json").status_code
        == 404
    )
    assert stranger.delete(f"/api/common/comments/{comment['id']}/").status_code == 404
    # FK injection: commenting on a record of tenant 3 while working in tenant 2.
    injected = add_comment(stranger, setup["supplier_a_obj"])
    assert injected.status_code == 400 and "object_id" in injected.json()["data"]
    # ... and the stranger cannot read tenant 3 by passing tenant 3.
    assert api(setup["other_tenant_admin"], tenant3).get("/api/common/comments/").status_code == 403


def test_supplier_users_see_only_comments_of_their_parent_vendor(setup, api, tenant3):
    admin = api(setup["admin"], tenant3)
    on_a = add_comment(admin, setup["supplier_a_obj"]).json()["data"]
    on_b = add_comment(admin, setup["supplier_b_obj"]).json()["data"]
    supplier_a = api(setup["supplier_a"], tenant3)
    ids = [c["id"] for c in supplier_a.get("/api/common/comments/").json()["data"]["results"]]
    assert ids == [on_a["id"]]
    assert supplier_a.get(f"/api/common/comments/{on_b['id']}/").status_code == 404
    filtered = supplier_a.get(
        f"/api/common/comments/?content_type=supplier&object_id={setup['supplier_b_obj'].pk}"
    )
    assert filtered.json()["data"]["count"] == 0
    assert add_comment(supplier_a, setup["supplier_b_obj"]).status_code == 400
    assert add_comment(supplier_a, setup["supplier_a_obj"]).status_code == 201


def upload(client, comment_id, content=b"%PDF-1.4 test", name="certificate.pdf"):
    return client.post(
        f"/api/common/comments/{comment_id}/add_attachment/",
        {"file": SimpleUploadedFile(name, content)},
        format="multipart",
    )


def test_attachments_upload_download_remove(setup, api, tenant3):
    client = api(setup["admin"], tenant3)
    comment = add_comment(client, setup["supplier_a_obj"]).json()["data"]
    uploaded = upload(client, comment["id"])
    assert uploaded.status_code == 201, uploaded.json()
    attachment = uploaded.json()["data"]
    assert attachment["file_name"] == "certificate.pdf" and attachment["size"] == 13
    assert attachment["is_image"] is False
    download = client.get(attachment["url"])
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == b"%PDF-1.4 test"
    image = upload(client, comment["id"], b"\x89PNG....", "photo.PNG").json()["data"]
    assert image["is_image"] is True
    listed = client.get(f"/api/common/comments/{comment['id']}/").json()["data"]
    assert len(listed["attachments"]) == 2
    removed = client.delete(f"/api/common/comments/{comment['id']}/remove_attachment/{attachment['id']}/")
    assert removed.status_code == 200
    assert client.get(attachment["url"]).status_code == 404


def test_attachment_size_limit_and_empty_file(setup, api, tenant3, settings):
    settings.ATTACHMENT_MAX_BYTES = 1024
    client = api(setup["admin"], tenant3)
    comment = add_comment(client, setup["supplier_a_obj"]).json()["data"]
    too_big = upload(client, comment["id"], b"x" * 1025)
    assert too_big.status_code == 400 and "file" in too_big.json()["data"]
    assert upload(client, comment["id"], b"").status_code == 400
    assert upload(client, comment["id"], b"x" * 1024).status_code == 201


def test_attachments_are_served_only_to_who_may_see_the_record(setup, api, tenant2, tenant3):
    admin = api(setup["admin"], tenant3)
    comment = add_comment(admin, setup["supplier_b_obj"]).json()["data"]
    attachment = upload(admin, comment["id"]).json()["data"]
    assert api(setup["supplier_a"], tenant3).get(attachment["url"]).status_code == 404
    assert api(setup["supplier_b"], tenant3).get(attachment["url"]).status_code == 200
    assert api(setup["other_tenant_admin"], tenant2).get(attachment["url"]).status_code == 404
    # Only the author may attach files to a comment.
    assert upload(api(setup["supplier_b"], tenant3), comment["id"]).status_code == 403


def test_comment_list_query_count_is_constant(setup, api, tenant3, in_tenant, count_queries):
    client = api(setup["admin"], tenant3)
    add_comment(client, setup["supplier_a_obj"])
    one = count_queries(lambda: client.get("/api/common/comments/?page_size=200"))
    for i in range(30):
        comment = add_comment(client, setup["supplier_a_obj"], content=f"note {i}").json()["data"]
        upload(client, comment["id"])
    with in_tenant(tenant3):
        assert Comment.objects.count() == 31
    many = count_queries(lambda: client.get("/api/common/comments/?page_size=200"))
    assert many == one <= 8
