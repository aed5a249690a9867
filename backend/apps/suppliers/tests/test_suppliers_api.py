"""Suppliers API: fields, validation, uniqueness per tenant, permissions per role, tenant and parent
vendor isolation, protected delete, export, query counts."""

import csv
import io

import pytest

from apps.suppliers.models import Supplier

pytestmark = pytest.mark.django_db

URL = "/api/suppliers/"


def payload(vendor, **extra):
    data = {
        "number": "S-NEW",
        "name": "New Carton Mill",
        "parent_vendor": vendor.pk,
        "country": "cn",
        "address": "88 Harbour Road, Ningbo",
        "contacts": [
            {"name": "Wang Fang", "email": "wang@mill.example", "phone": "+86 574 1234", "role": "Sales"}
        ],
        "email": "info@mill.example",
        "phone": "+86 574 0000",
        "visma_code": "V-3001",
        "payment_terms": "30 days net",
        "currency": "usd",
        "notes": "FSC certified",
    }
    data.update(extra)
    return data


def test_create_and_read_back_every_field(world, api, tenant3):
    client = api(world["purchaser"], tenant3)
    response = client.post(URL, payload(world["vendor_a"]), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["country"] == "CN" and data["currency"] == "USD"
    assert data["contacts"][0]["name"] == "Wang Fang"
    assert data["parent_vendor_detail"] == {
        "id": world["vendor_a"].pk,
        "name": "Vendor A",
        "cname": "甲",
        "code": "PV-A",
    }
    detail = client.get(f"{URL}{data['id']}/").json()["data"]
    assert detail["visma_code"] == "V-3001" and detail["payment_terms"] == "30 days net"


def test_update_and_partial_update(world, api, tenant3):
    client = api(world["purchaser"], tenant3)
    url = f"{URL}{world['a1'].pk}/"
    response = client.patch(url, {"name": "Renamed", "is_active": False}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["name"] == "Renamed" and response.json()["data"]["is_active"] is False


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"number": ""}, "number"),
        ({"name": "  "}, "name"),
        ({"country": "XX"}, "country"),
        ({"currency": "EURO"}, "currency"),
        ({"email": "not-an-email"}, "email"),
        ({"contacts": [{"email": "x@y.example"}]}, "contacts"),
        ({"contacts": [{"name": "A", "email": "bad"}]}, "contacts"),
        ({"parent_vendor": None}, "parent_vendor"),
        ({"parent_vendor": 999999}, "parent_vendor"),
    ],
)
def test_validation_errors_name_the_field(world, api, tenant3, extra, field):
    response = api(world["admin"], tenant3).post(URL, payload(world["vendor_a"], **extra), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error" and field in body["data"]


def test_number_unique_per_tenant_but_free_in_another(world, api, tenant3, tenant2):
    response = api(world["admin"], tenant3).post(
        URL, payload(world["vendor_a"], number="s-a1"), format="json"
    )
    assert response.status_code == 400
    assert response.json()["data"]["number"] == ["A supplier with this number already exists."]
    # Tenant 2 may use the same number.
    other = api(world["other_admin"], tenant2).post(
        URL, payload(world["vendor_x"], number="S-A1"), format="json"
    )
    assert other.status_code == 201, other.json()


def test_foreign_parent_vendor_id_is_refused(world, api, tenant3):
    """FK injection: tenant 2's parent vendor id answers "does not exist" in tenant 3."""
    response = api(world["admin"], tenant3).post(URL, payload(world["vendor_x"]), format="json")
    assert response.status_code == 400
    assert "parent_vendor" in response.json()["data"]
    patch = api(world["admin"], tenant3).patch(
        f"{URL}{world['a1'].pk}/", {"parent_vendor": world["vendor_x"].pk}, format="json"
    )
    assert patch.status_code == 400


def test_other_tenant_sees_nothing(world, api, tenant2):
    client = api(world["other_admin"], tenant2)
    numbers = [row["number"] for row in client.get(URL).json()["data"]["results"]]
    assert numbers == ["S-X"]
    assert client.get(f"{URL}{world['a1'].pk}/").status_code == 404
    assert client.patch(f"{URL}{world['a1'].pk}/", {"name": "x"}, format="json").status_code == 404
    assert client.delete(f"{URL}{world['a1'].pk}/").status_code == 404


def test_non_member_of_tenant_is_forbidden(world, api, tenant3):
    assert api(world["other_admin"], tenant3).get(URL).status_code == 403


@pytest.mark.parametrize(
    ("who", "read", "write"),
    [("admin", 200, 201), ("purchaser", 200, 201), ("sales", 403, 403), ("warehouse", 403, 403)],
)
def test_permissions_per_role(world, api, tenant3, who, read, write):
    client = api(world[who], tenant3)
    assert client.get(URL).status_code == read
    assert client.post(URL, payload(world["vendor_a"]), format="json").status_code == write


def test_supplier_user_reads_only_own_vendor_and_never_writes(world, api, tenant3):
    client = api(world["supplier_a"], tenant3)
    numbers = sorted(row["number"] for row in client.get(URL).json()["data"]["results"])
    assert numbers == ["S-A1", "S-A2"]
    assert client.get(f"{URL}{world['a1'].pk}/").status_code == 200
    assert client.get(f"{URL}{world['b1'].pk}/").status_code == 404
    assert client.patch(f"{URL}{world['a1'].pk}/", {"name": "x"}, format="json").status_code == 403
    assert client.post(URL, payload(world["vendor_a"]), format="json").status_code == 403
    assert client.delete(f"{URL}{world['a1'].pk}/").status_code == 403


def test_search_filter_and_ordering(world, api, tenant3):
    client = api(world["admin"], tenant3)
    results = client.get(f"{URL}?search=A2").json()["data"]["results"]
    assert [row["number"] for row in results] == ["S-A2"]
    results = client.get(f"{URL}?search=乙").json()["data"]["results"]
    assert [row["number"] for row in results] == ["S-B1"]
    results = client.get(f"{URL}?country=vn").json()["data"]["results"]
    assert [row["number"] for row in results] == ["S-A2"]
    results = client.get(f"{URL}?parent_vendor={world['vendor_b'].pk}").json()["data"]["results"]
    assert [row["number"] for row in results] == ["S-B1"]
    results = client.get(f"{URL}?ordering=-number").json()["data"]["results"]
    assert [row["number"] for row in results] == ["S-B1", "S-A2", "S-A1"]


def test_delete_unused_supplier(world, api, tenant3, in_tenant):
    assert api(world["admin"], tenant3).delete(f"{URL}{world['b1'].pk}/").status_code == 200
    with in_tenant(tenant3):
        assert not Supplier.objects.filter(pk=world["b1"].pk).exists()


def test_delete_supplier_with_purchase_orders_is_a_409(world, api, tenant3, in_tenant):
    from apps.purchaseorders.models import PurchaseOrder

    with in_tenant(tenant3):
        PurchaseOrder.objects.create(order_number="PO-1", order_date="2026-01-05", supplier=world["a1"])
    response = api(world["admin"], tenant3).delete(f"{URL}{world['a1'].pk}/")
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "supplier_in_use" and "purchase order" in body["message"]
    with in_tenant(tenant3):
        assert Supplier.objects.filter(pk=world["a1"].pk).exists()


def test_export_csv_with_filters(world, api, tenant3):
    response = api(world["admin"], tenant3).get(
        f"{URL}export/?format=csv&parent_vendor={world['vendor_a'].pk}"
    )
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0][:3] == ["Number", "Name", "Parent vendor"]
    assert sorted(row[0] for row in rows[1:]) == ["S-A1", "S-A2"]


def test_list_query_count_is_constant(world, api, tenant3, in_tenant, django_assert_max_num_queries):
    client = api(world["admin"], tenant3)
    with django_assert_max_num_queries(12):
        client.get(URL)
    with in_tenant(tenant3):
        for n in range(30):
            Supplier.objects.create(parent_vendor=world["vendor_b"], number=f"S-Z{n:02}", name=f"Z{n}")
    with django_assert_max_num_queries(12) as captured:
        response = client.get(f"{URL}?page_size=50")
    assert response.json()["data"]["count"] == 33
    few = len(captured.captured_queries)
    with django_assert_max_num_queries(few):
        client.get(f"{URL}?page_size=2")
