"""Supplier portal: a supplier user sees only their parent vendor's orders, read-only, whatever the URL,
filter or side door (comments, attachments)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"


@pytest.fixture
def orders(world, make_order):
    return {
        "mine": make_order(supplier=world["supplier_a"]),
        "theirs": make_order(supplier=world["supplier_b"]),
    }


def test_list_shows_only_own_vendor(world, api, orders):
    client = api(world["supplier_user_a"], world["tenant3"])
    body = client.get(URL).json()["data"]
    assert [o["id"] for o in body["results"]] == [orders["mine"].pk]
    assert body["results"][0]["allowed_transitions"] == []


@pytest.mark.parametrize(
    "query",
    [
        "parent_vendor={vendor_b}",
        "supplier={supplier_b}",
        "search={theirs_number}",
        "order_number={theirs_number}",
        "status=confirmed&parent_vendor={vendor_b}",
    ],
)
def test_filters_never_reach_another_vendor(world, api, orders, query):
    client = api(world["supplier_user_a"], world["tenant3"])
    query = query.format(
        vendor_b=world["vendor_b"].pk,
        supplier_b=world["supplier_b"].pk,
        theirs_number=orders["theirs"].order_number,
    )
    results = client.get(f"{URL}?{query}").json()["data"]["results"]
    assert orders["theirs"].pk not in [o["id"] for o in results]


def test_detail_of_another_vendor_is_not_found(world, api, orders):
    client = api(world["supplier_user_a"], world["tenant3"])
    theirs = orders["theirs"]
    assert client.get(f"{URL}{theirs.pk}/").status_code == 404
    assert client.get(f"{URL}by-number/{theirs.order_number}/").status_code == 404
    own = client.get(f"{URL}{orders['mine'].pk}/")
    assert own.status_code == 200
    line = own.json()["data"]["lines"][0]
    assert line["product_number"] == "CT-6040" and line["cartons_issued"] == 0
    assert line["weight_per_carton"] == "0.850"


def test_summary_counts_only_own_vendor(world, api, orders):
    summary = api(world["supplier_user_a"], world["tenant3"]).get(f"{URL}summary/").json()["data"]
    assert summary["total"]["count"] == 1


def test_supplier_is_read_only(world, api, orders):
    client = api(world["supplier_user_a"], world["tenant3"])
    mine = orders["mine"]
    assert client.post(URL, {}, format="json").status_code == 403
    assert client.patch(f"{URL}{mine.pk}/", {"description": "x"}, format="json").status_code == 403
    assert (
        client.post(f"{URL}{mine.pk}/transition/", {"status": "cancelled"}, format="json").status_code == 403
    )
    assert client.delete(f"{URL}{mine.pk}/").status_code == 403


def test_supplier_without_parent_vendor_sees_nothing(world, api, orders, make_user):
    lost = make_user(world["tenant3"], "Supplier", username="lost", is_supplier=True)
    assert api(lost, world["tenant3"]).get(URL).json()["data"]["count"] == 0


def test_comments_of_another_vendors_order(world, api, orders):
    admin = api(world["admin"], world["tenant3"])
    theirs, mine = orders["theirs"], orders["mine"]
    comment = admin.post(
        "/api/common/comments/",
        {"content_type": "purchaseorder", "object_id": theirs.pk, "content": "Artwork approved"},
        format="json",
    ).json()["data"]
    upload = SimpleUploadedFile("artwork.pdf", b"%PDF-1.4 artwork", content_type="application/pdf")
    attachment = admin.post(
        f"/api/common/comments/{comment['id']}/add_attachment/", {"file": upload}, format="multipart"
    ).json()["data"]

    supplier_a = api(world["supplier_user_a"], world["tenant3"])
    listed = supplier_a.get(f"/api/common/comments/?content_type=purchaseorder&object_id={theirs.pk}")
    assert listed.json()["data"]["count"] == 0
    assert supplier_a.get(f"/api/common/comments/{comment['id']}/").status_code == 404
    added = supplier_a.post(
        "/api/common/comments/",
        {"content_type": "purchaseorder", "object_id": theirs.pk, "content": "Sneaky"},
        format="json",
    )
    assert added.status_code in (400, 403, 404)
    assert supplier_a.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 404

    # the other vendor's own user does see it; and a supplier may comment on its own order
    supplier_b = api(world["supplier_user_b"], world["tenant3"])
    assert (
        supplier_b.get(f"/api/common/comments/?content_type=purchaseorder&object_id={theirs.pk}").json()[
            "data"
        ]["count"]
        == 1
    )
    assert supplier_b.get(f"/api/common/attachments/{attachment['id']}/download/").status_code == 200
    own = supplier_a.post(
        "/api/common/comments/",
        {"content_type": "purchaseorder", "object_id": mine.pk, "content": "Production starts Monday"},
        format="json",
    )
    assert own.status_code == 201


def test_cartons_issued_per_line_are_counted(world, api, orders, issue_labels, make_order, in_tenant):
    """The portal shows how many carton labels were issued per line: active ones of that line only."""
    mine = make_order(lines=[(world["carton"], "100", "1.25"), (world["box"], "50", "0.80")])
    with in_tenant(world["tenant3"]):
        first, second = mine.lines.order_by("line_number")
    issue_labels(first, count=3)
    issue_labels(second, count=2)
    issue_labels(second, count=4, status="voided")
    client = api(world["supplier_user_a"], world["tenant3"])
    lines = client.get(f"{URL}{mine.pk}/").json()["data"]["lines"]
    assert [line["cartons_issued"] for line in lines] == [3, 2]
    other = client.get(f"{URL}{orders['mine'].pk}/").json()["data"]["lines"]
    assert [line["cartons_issued"] for line in other] == [0]
    listed = {o["id"]: o["cartons_issued"] for o in client.get(URL).json()["data"]["results"]}
    assert listed == {mine.pk: 5, orders["mine"].pk: 0}
