"""Roles (with the permission matrix) and departments of the current tenant."""

import pytest

from apps.tenancy.models import Membership
from apps.users.models import Department, Role
from apps.users.selectors import permission_matrix

pytestmark = pytest.mark.django_db

ROLES = "/api/users/roles/"
DEPARTMENTS = "/api/users/departments/"


def test_permission_matrix_lists_areas_by_model_and_action(people, api, tenant3):
    response = api(people["admin3"], tenant3).get(f"{ROLES}permission-matrix/")
    assert response.status_code == 200
    areas = {area["app_label"]: area for area in response.json()["data"]["areas"]}
    assert {"suppliers", "users", "purchaseorders"} <= set(areas)
    supplier = next(m for m in areas["suppliers"]["models"] if m["model"] == "supplier")
    assert supplier["permissions"] == {
        "view": "suppliers.view_supplier",
        "add": "suppliers.add_supplier",
        "change": "suppliers.change_supplier",
        "delete": "suppliers.delete_supplier",
    }
    assert "auth" not in areas and "admin" not in areas


def test_role_permissions_round_trip(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    created = client.post(ROLES, {"name": "Auditor", "description": "Reads suppliers"}, format="json")
    assert created.status_code == 201, created.json()
    role_id = created.json()["data"]["id"]
    wanted = ["suppliers.view_parentvendor", "suppliers.view_supplier", "purchaseorders.view_purchaseorder"]
    response = client.put(f"{ROLES}{role_id}/permissions/", {"permissions": wanted}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["permissions"] == sorted(wanted)
    assert client.get(f"{ROLES}{role_id}/").json()["data"]["permissions"] == sorted(wanted)
    # every label of the matrix is accepted, and the result is exactly what was sent
    every = [
        label
        for area in permission_matrix()
        for model in area["models"]
        for label in [*model["permissions"].values(), *(e["codename"] for e in model["extra"])]
        if label
    ]
    assert (
        client.put(f"{ROLES}{role_id}/permissions/", {"permissions": every}, format="json").status_code == 200
    )
    assert sorted(client.get(f"{ROLES}{role_id}/").json()["data"]["permissions"]) == sorted(set(every))


def test_unknown_permission_is_refused(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    role_id = client.post(ROLES, {"name": "R"}, format="json").json()["data"]["id"]
    for bad in (["auth.add_user"], ["nonsense"], ["suppliers.fly_supplier"]):
        response = client.put(f"{ROLES}{role_id}/permissions/", {"permissions": bad}, format="json")
        assert response.status_code == 400 and "permissions" in response.json()["data"]


def test_taking_away_your_own_role_management_is_refused(people, api, tenant3, roles):
    client = api(people["admin3"], tenant3)
    admin_role = roles(tenant3, "Administrator")
    response = client.put(
        f"{ROLES}{admin_role.pk}/permissions/", {"permissions": ["suppliers.view_supplier"]}, format="json"
    )
    assert response.status_code == 409
    assert admin_role.permissions.filter(codename="change_role").exists()


def test_role_name_unique_per_tenant(people, api, tenant3, tenant2):
    assert api(people["admin3"], tenant3).post(ROLES, {"name": "sales"}, format="json").status_code == 400
    assert api(people["admin2"], tenant2).post(ROLES, {"name": "Quality"}, format="json").status_code == 201
    assert api(people["admin3"], tenant3).post(ROLES, {"name": "Quality"}, format="json").status_code == 201


def test_roles_are_tenant_scoped(people, api, tenant3, tenant2, roles):
    names = [r["name"] for r in api(people["admin2"], tenant2).get(ROLES).json()["data"]["results"]]
    assert "Administrator" in names
    foreign = roles(tenant3, "Sales")
    client = api(people["admin2"], tenant2)
    assert client.get(f"{ROLES}{foreign.pk}/").status_code == 404
    assert (
        client.put(f"{ROLES}{foreign.pk}/permissions/", {"permissions": []}, format="json").status_code == 404
    )


@pytest.mark.parametrize("who", ["buyer3", "sales3", "supplier3"])
def test_roles_need_role_permissions(people, api, tenant3, who):
    assert api(people[who], tenant3).get(ROLES).status_code == 403
    assert api(people[who], tenant3).get(f"{ROLES}permission-matrix/").status_code == 403


def test_role_held_by_users_cannot_be_deleted(people, api, tenant3, roles, in_tenant):
    client = api(people["admin3"], tenant3)
    response = client.delete(f"{ROLES}{roles(tenant3, 'Purchasing').pk}/")
    assert response.status_code == 409 and response.json()["error"] == "role_in_use"
    with in_tenant(tenant3):
        spare = Role.objects.create(name="Spare")
    assert client.delete(f"{ROLES}{spare.pk}/").status_code == 200


def test_roles_list_query_count(people, api, tenant3, in_tenant, django_assert_max_num_queries):
    client = api(people["admin3"], tenant3)
    with django_assert_max_num_queries(15) as few:
        client.get(f"{ROLES}?page_size=1")
    with in_tenant(tenant3):
        for n in range(20):
            Role.objects.create(name=f"Role {n}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(f"{ROLES}?page_size=50")


# --- departments ----------------------------------------------------------------------------------


def test_department_crud_and_tree(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    parent = client.post(DEPARTMENTS, {"name": "Operations"}, format="json").json()["data"]
    child = client.post(DEPARTMENTS, {"name": "Inbound", "parent": parent["id"]}, format="json")
    assert child.status_code == 201 and child.json()["data"]["parent_name"] == "Operations"
    # a department cannot sit under its own child
    loop = client.patch(
        f"{DEPARTMENTS}{parent['id']}/", {"parent": child.json()["data"]["id"]}, format="json"
    )
    assert loop.status_code == 400
    # the parent with a child cannot be deleted; the child can
    blocked = client.delete(f"{DEPARTMENTS}{parent['id']}/")
    assert blocked.status_code == 409
    assert client.delete(f"{DEPARTMENTS}{child.json()['data']['id']}/").status_code == 200
    assert client.delete(f"{DEPARTMENTS}{parent['id']}/").status_code == 200


def test_department_validation_and_isolation(people, api, tenant3, tenant2, in_tenant):
    client = api(people["admin3"], tenant3)
    assert client.post(DEPARTMENTS, {"name": "Ops"}, format="json").status_code == 201
    dup = client.post(DEPARTMENTS, {"name": "ops"}, format="json")
    assert dup.status_code == 400 and dup.json()["data"]["name"]
    assert client.post(DEPARTMENTS, {"name": ""}, format="json").status_code == 400
    with in_tenant(tenant2):
        foreign = Department.objects.create(name="Foreign")
    assert client.post(DEPARTMENTS, {"name": "Child", "parent": foreign.pk}, format="json").status_code == 400
    assert client.get(f"{DEPARTMENTS}{foreign.pk}/").status_code == 404
    assert [d["name"] for d in api(people["admin2"], tenant2).get(DEPARTMENTS).json()["data"]["results"]] == [
        "Foreign"
    ]


def test_department_member_count_and_members_survive_delete(people, api, tenant3, in_tenant):
    with in_tenant(tenant3):
        dept = Department.objects.create(name="Buying")
    membership = Membership.objects.get(user=people["buyer3"], tenant=tenant3)
    membership.department = dept
    membership.save()
    client = api(people["admin3"], tenant3)
    rows = client.get(DEPARTMENTS).json()["data"]["results"]
    assert rows[0]["member_count"] == 1
    assert client.delete(f"{DEPARTMENTS}{dept.pk}/").status_code == 200
    membership.refresh_from_db()
    assert membership.department is None


def test_departments_need_permissions(people, api, tenant3):
    assert api(people["sales3"], tenant3).get(DEPARTMENTS).status_code == 403
    assert api(people["supplier3"], tenant3).get(DEPARTMENTS).status_code == 403


def test_departments_list_query_count(people, api, tenant3, in_tenant, django_assert_max_num_queries):
    client = api(people["admin3"], tenant3)
    with django_assert_max_num_queries(12) as few:
        client.get(f"{DEPARTMENTS}?page_size=1")
    with in_tenant(tenant3):
        top = Department.objects.create(name="Top")
        for n in range(20):
            Department.objects.create(name=f"Dept {n}", parent=top)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(f"{DEPARTMENTS}?page_size=50")
