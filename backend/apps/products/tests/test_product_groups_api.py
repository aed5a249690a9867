"""Product groups: tree, cycle prevention, delete refused while used, isolation, permissions, queries."""

import csv
import io

import pytest

from apps.products.models import ProductGroup

from .factories import make_group, make_product

pytestmark = pytest.mark.django_db

URL = "/api/products/groups/"


@pytest.fixture
def client(api, tenant3, make_user):
    return api(make_user(tenant3, username="boss"), tenant3)


@pytest.fixture
def tree(tenant3, in_tenant):
    with in_tenant(tenant3):
        cartons = make_group("Corrugated cartons", code="CC")
        single = make_group("Single wall", code="CC-SW", parent=cartons)
        flute = make_group("B flute", code="CC-SW-B", parent=single)
        goods = make_group("Goods", code="GD")
        make_product("CT-1", group=single)
    return {"cartons": cartons, "single": single, "flute": flute, "goods": goods}


def test_create_with_parent_and_paths(client, tree):
    created = client.post(
        URL, {"name": "Double wall", "code": "CC-DW", "parent": tree["cartons"].pk}, format="json"
    )
    assert created.status_code == 201, created.json()
    data = created.json()["data"]
    assert data["path"] == "Corrugated cartons / Double wall" and data["depth"] == 1
    listed = {g["name"]: g for g in client.get(f"{URL}?page_size=50").json()["data"]["results"]}
    assert listed["B flute"]["path"] == "Corrugated cartons / Single wall / B flute"
    assert listed["Single wall"]["product_count"] == 1 and listed["Single wall"]["children_count"] == 1
    assert listed["Corrugated cartons"]["parent"] is None


def test_tree_endpoint(client, tree):
    response = client.get(f"{URL}tree/")
    assert response.status_code == 200
    roots = response.json()["data"]
    assert [r["name"] for r in roots] == ["Corrugated cartons", "Goods"]
    single = roots[0]["children"][0]
    assert single["name"] == "Single wall" and single["depth"] == 1 and single["product_count"] == 1
    assert single["children"][0]["name"] == "B flute"


@pytest.mark.parametrize("target", ["cartons", "single"])
def test_cycle_is_refused(client, tree, target):
    # Corrugated cartons under B flute (its grandchild) or Single wall under itself... both cycles.
    moving = tree[target]
    new_parent = tree["flute"] if target == "cartons" else tree["single"]
    response = client.patch(f"{URL}{moving.pk}/", {"parent": new_parent.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["data"]["parent"] == [
        "A group cannot be placed under itself or one of its subgroups."
    ]


def test_service_refuses_cycle_too(tree, tenant3, in_tenant):
    from django.core.exceptions import ValidationError

    from apps.products.services import product_group_update

    with in_tenant(tenant3), pytest.raises(ValidationError):
        product_group_update(group=tree["cartons"], data={"parent": tree["flute"]})


def test_move_to_another_branch_is_fine(client, tree):
    response = client.patch(f"{URL}{tree['single'].pk}/", {"parent": tree["goods"].pk}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["path"] == "Goods / Single wall"


def test_delete_refused_while_products_or_children_exist(client, tree, tenant3, in_tenant):
    with_children = client.delete(f"{URL}{tree['cartons'].pk}/")
    assert with_children.status_code == 409
    assert with_children.json()["error"] == "product_group_not_empty"
    assert "1 subgroup" in with_children.json()["message"]
    with_products = client.delete(f"{URL}{tree['single'].pk}/")
    assert with_products.status_code == 409
    assert "1 product" in with_products.json()["message"]
    assert client.delete(f"{URL}{tree['goods'].pk}/").status_code == 200
    with in_tenant(tenant3):
        assert not ProductGroup.objects.filter(pk=tree["goods"].pk).exists()


def test_name_and_code_unique_per_tenant(client, api, tree, tenant2, make_user):
    same_name = client.post(URL, {"name": "goods"}, format="json")
    assert same_name.json()["data"]["name"] == ["A product group with this name already exists."]
    same_code = client.post(URL, {"name": "Other", "code": "CC"}, format="json")
    assert same_code.json()["data"]["code"] == ["A product group with this code already exists."]
    other_tenant = api(make_user(tenant2, username="nordic"), tenant2)
    assert other_tenant.post(URL, {"name": "Goods", "code": "CC"}, format="json").status_code == 201


def test_tenant_isolation_and_foreign_parent(client, tree, tenant2, in_tenant):
    with in_tenant(tenant2):
        foreign = make_group("Foreign")
    assert all(g["name"] != "Foreign" for g in client.get(URL).json()["data"]["results"])
    assert client.get(f"{URL}{foreign.pk}/").status_code == 404
    assert client.delete(f"{URL}{foreign.pk}/").status_code == 404
    response = client.post(URL, {"name": "Sneaky", "parent": foreign.pk}, format="json")
    assert response.status_code == 400 and "parent" in response.json()["data"]
    assert all(node["name"] != "Foreign" for node in client.get(f"{URL}tree/").json()["data"])


def test_permissions(api, tree, tenant3, make_user):
    sales = api(make_user(tenant3, role="Sales", username="seller"), tenant3)
    assert sales.get(URL).status_code == 200
    assert sales.post(URL, {"name": "X"}, format="json").status_code == 403
    warehouse = api(make_user(tenant3, role="Warehouse", username="wh", is_warehouse=True), tenant3)
    assert warehouse.get(f"{URL}tree/").status_code == 200
    assert warehouse.post(URL, {"name": "X"}, format="json").status_code == 403
    from apps.suppliers.models import ParentVendor
    from apps.tenancy.context import tenant_context

    with tenant_context(tenant3):
        vendor = ParentVendor.objects.create(name="Vendor A")
    supplier = api(
        make_user(tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor), tenant3
    )
    assert supplier.get(URL).status_code == 403


def test_filters_and_export(client, tree):
    roots = client.get(f"{URL}?root=true").json()["data"]["results"]
    assert {g["name"] for g in roots} == {"Corrugated cartons", "Goods"}
    children = client.get(f"{URL}?parent={tree['cartons'].pk}").json()["data"]["results"]
    assert [g["name"] for g in children] == ["Single wall"]
    response = client.get(f"{URL}export/?format=csv&search=wall")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows == [
        {"Name": "Single wall", "Code": "CC-SW", "Parent group": "CC", "Description": "", "Products": "1"}
    ]


def test_list_query_count_is_constant(client, tenant3, in_tenant, count_queries):
    with in_tenant(tenant3):
        root = make_group("Root")
    client.get(URL)
    one = count_queries(lambda: client.get(URL))
    with in_tenant(tenant3):
        for i in range(25):
            group = make_group(f"G{i}", parent=root)
            make_product(f"P{i}", group=group)
    assert count_queries(lambda: client.get(f"{URL}?page_size=50")) == one
    assert count_queries(lambda: client.get(f"{URL}tree/")) <= one
