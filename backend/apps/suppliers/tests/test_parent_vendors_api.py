"""Parent vendors API: name and Chinese name, uniqueness per tenant, supplier users see only their own,
delete refused while suppliers or users belong to the vendor, query counts."""

import pytest

from apps.suppliers.models import ParentVendor

pytestmark = pytest.mark.django_db

URL = "/api/suppliers/parent-vendors/"


def test_create_with_chinese_name(world, api, tenant3):
    response = api(world["purchaser"], tenant3).post(
        URL,
        {
            "name": "Guangzhou Sunrise Paper",
            "cname": "广州日出纸业",
            "code": "pv-gsp",
            "country": "cn",
            "contact": "Liu Yang",
            "email": "liu@sunrise.example",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["cname"] == "广州日出纸业" and data["code"] == "PV-GSP" and data["country"] == "CN"
    assert data["supplier_count"] == 0 and data["is_active"] is True


def test_list_counts_suppliers(world, api, tenant3):
    rows = api(world["admin"], tenant3).get(URL).json()["data"]["results"]
    assert {(r["name"], r["supplier_count"]) for r in rows} == {("Vendor A", 2), ("Vendor B", 1)}


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": "vendor a"}, "name", "A parent vendor with this name already exists."),
        ({"name": "New", "code": "pv-a"}, "code", "A parent vendor with this code already exists."),
        ({"name": ""}, "name", None),
        ({"name": "New", "country": "China"}, "country", None),
        ({"name": "New", "email": "nope"}, "email", None),
    ],
)
def test_validation(world, api, tenant3, data, field, message):
    response = api(world["admin"], tenant3).post(URL, data, format="json")
    assert response.status_code == 400
    errors = response.json()["data"]
    assert field in errors
    if message:
        assert errors[field] == [message]


def test_same_name_allowed_in_another_tenant(world, api, tenant2):
    response = api(world["other_admin"], tenant2).post(
        URL, {"name": "Vendor A", "code": "PV-A"}, format="json"
    )
    assert response.status_code == 201


def test_other_tenant_isolation(world, api, tenant2):
    client = api(world["other_admin"], tenant2)
    assert [r["name"] for r in client.get(URL).json()["data"]["results"]] == ["Vendor X"]
    assert client.get(f"{URL}{world['vendor_a'].pk}/").status_code == 404
    assert client.delete(f"{URL}{world['vendor_a'].pk}/").status_code == 404


def test_supplier_user_sees_only_own_vendor_read_only(world, api, tenant3):
    client = api(world["supplier_a"], tenant3)
    assert [r["name"] for r in client.get(URL).json()["data"]["results"]] == ["Vendor A"]
    assert client.get(f"{URL}{world['vendor_a'].pk}/").status_code == 200
    assert client.get(f"{URL}{world['vendor_b'].pk}/").status_code == 404
    assert client.patch(f"{URL}{world['vendor_a'].pk}/", {"name": "x"}, format="json").status_code == 403
    assert client.post(URL, {"name": "Mine"}, format="json").status_code == 403


@pytest.mark.parametrize(
    ("who", "read", "write"), [("sales", 403, 403), ("warehouse", 403, 403), ("purchaser", 200, 201)]
)
def test_permissions_per_role(world, api, tenant3, who, read, write):
    client = api(world[who], tenant3)
    assert client.get(URL).status_code == read
    assert client.post(URL, {"name": f"By {who}"}, format="json").status_code == write


def test_delete_refused_while_suppliers_belong_to_it(world, api, tenant3, in_tenant):
    response = api(world["admin"], tenant3).delete(f"{URL}{world['vendor_b'].pk}/")
    assert response.status_code == 409
    assert response.json()["error"] == "parent_vendor_in_use"
    assert "1 supplier(s)" in response.json()["message"]


def test_delete_refused_while_users_belong_to_it(world, api, tenant3, in_tenant):
    with in_tenant(tenant3):
        world["b1"].delete()
    response = api(world["admin"], tenant3).delete(f"{URL}{world['vendor_b'].pk}/")
    assert response.status_code == 409
    assert "1 user(s)" in response.json()["message"]


def test_delete_unused_vendor(world, api, tenant3, in_tenant):
    with in_tenant(tenant3):
        empty = ParentVendor.objects.create(name="Empty")
    assert api(world["admin"], tenant3).delete(f"{URL}{empty.pk}/").status_code == 200


def test_protected_error_anywhere_becomes_a_409_envelope(world, api, tenant3, in_tenant, monkeypatch):
    """The exception handler's safety net: a PROTECT foreign key refusing a delete is a 409, not a 500."""
    from apps.suppliers import services

    def plain_delete(*, vendor):
        ParentVendor.objects.get(pk=vendor.pk).delete()

    monkeypatch.setattr(services, "parent_vendor_delete", plain_delete)
    response = api(world["admin"], tenant3).delete(f"{URL}{world['vendor_a'].pk}/")
    assert response.status_code == 409
    assert response.json() == {
        "code": 409,
        "message": "This record is still used by other records and cannot be deleted.",
        "error": "record_in_use",
        "data": None,
    }


def test_list_query_count_is_constant(world, api, tenant3, in_tenant, django_assert_max_num_queries):
    client = api(world["admin"], tenant3)
    with in_tenant(tenant3):
        for n in range(25):
            ParentVendor.objects.create(name=f"Vendor Z{n:02}")
    with django_assert_max_num_queries(10) as many:
        assert client.get(f"{URL}?page_size=50").json()["data"]["count"] == 27
    with django_assert_max_num_queries(len(many.captured_queries)):
        client.get(f"{URL}?page_size=1")
