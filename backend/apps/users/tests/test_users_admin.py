"""Users admin: scoped to the current tenant, memberships only in administered companies, account-wide
changes only by administrators of all the user's companies, supplier users' parent vendor, deactivation
(tokens stop working), password reset, query counts."""

import pytest
from rest_framework.test import APIClient

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership
from apps.users.models import Department, Role, User

pytestmark = pytest.mark.django_db

URL = "/api/users/"


def usernames(response):
    return sorted(row["username"] for row in response.json()["data"]["results"])


def test_list_only_users_of_the_current_tenant(people, api, tenant3, tenant2):
    listed = usernames(api(people["admin3"], tenant3).get(URL))
    assert listed == ["admin3", "admin_all", "both", "buyer3", "sales3", "supplier3"]
    assert "only2" not in listed
    listed2 = usernames(api(people["admin2"], tenant2).get(URL))
    assert "admin3" not in listed2 and "only2" in listed2


def test_list_rows_show_roles_and_department_of_this_tenant(people, api, tenant3, in_tenant):
    with in_tenant(tenant3):
        dept = Department.objects.create(name="Purchasing")
        membership = Membership.objects.get(user=people["buyer3"], tenant=tenant3)
        membership.department = dept
        membership.save()
    rows = api(people["admin3"], tenant3).get(f"{URL}?search=buyer3").json()["data"]["results"]
    assert rows[0]["roles"][0]["name"] == "Purchasing"
    assert rows[0]["department"] == {"id": dept.pk, "name": "Purchasing"}
    assert rows[0]["user_type"] == "internal" and rows[0]["membership_active"] is True


def test_filters(people, api, tenant3, roles):
    client = api(people["admin3"], tenant3)
    assert usernames(client.get(f"{URL}?user_type=supplier")) == ["supplier3"]
    purchasing = roles(tenant3, "Purchasing")
    assert usernames(client.get(f"{URL}?role={purchasing.pk}")) == ["buyer3"]


def test_user_of_another_tenant_only_is_invisible(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    url = f"{URL}{people['only2'].pk}/"
    assert client.get(url).status_code == 404
    assert client.patch(url, {"name": "Hacked"}, format="json").status_code == 404
    assert (
        client.post(f"{url}reset-password/", {"password": "N3w-passw0rd!"}, format="json").status_code == 404
    )
    assert client.post(f"{url}deactivate/").status_code == 404


@pytest.mark.parametrize(("who", "status"), [("buyer3", 403), ("sales3", 403), ("supplier3", 403)])
def test_non_admins_cannot_use_the_users_admin(people, api, tenant3, who, status):
    assert api(people[who], tenant3).get(URL).status_code == status


def test_create_internal_user_with_roles_and_department(people, api, tenant3, roles, in_tenant):
    with in_tenant(tenant3):
        dept = Department.objects.create(name="Sales")
    response = api(people["admin3"], tenant3).post(
        URL,
        {
            "username": "newbie",
            "name": "New Bie",
            "email": "newbie@example.com",
            "password": "Carton-Trace-2026",
            "user_type": "internal",
            "role_ids": [roles(tenant3, "Sales").pk],
            "department_id": dept.pk,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["roles"] == [{"id": roles(tenant3, "Sales").pk, "name": "Sales"}]
    assert data["department"]["name"] == "Sales"
    assert "password" not in data
    assert (
        APIClient()
        .post("/api/users/login/", {"username": "newbie", "password": "Carton-Trace-2026"}, format="json")
        .status_code
        == 200
    )


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"password": "123"}, "password"),
        ({"password": "password"}, "password"),
        ({"username": "buyer3"}, "username"),
        ({"username": ""}, "username"),
        ({"email": "nope"}, "email"),
        ({"user_type": "robot"}, "user_type"),
        ({"user_type": "supplier"}, "parent_vendor"),
        ({"role_ids": [999999]}, "role_ids"),
        ({"department_id": 999999}, "department_id"),
    ],
)
def test_create_validation(people, api, tenant3, extra, field):
    data = {"username": "x1", "password": "Carton-Trace-2026", **extra}
    response = api(people["admin3"], tenant3).post(URL, data, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["data"]


def test_create_refuses_roles_and_vendors_of_another_tenant(people, api, tenant3, roles):
    client = api(people["admin3"], tenant3)
    foreign_role = roles(people["admin2"].memberships.first().tenant, "Sales")
    response = client.post(
        URL, {"username": "x2", "password": "Carton-Trace-2026", "role_ids": [foreign_role.pk]}, format="json"
    )
    assert response.status_code == 400 and "role_ids" in response.json()["data"]
    response = client.post(
        URL,
        {
            "username": "x3",
            "password": "Carton-Trace-2026",
            "user_type": "supplier",
            "parent_vendor": people["vendor2"].pk,
        },
        format="json",
    )
    assert response.status_code == 400 and "parent_vendor" in response.json()["data"]


def test_create_supplier_user_with_own_tenant_vendor(people, api, tenant3):
    response = api(people["admin3"], tenant3).post(
        URL,
        {
            "username": "factory",
            "password": "Carton-Trace-2026",
            "user_type": "supplier",
            "parent_vendor": people["vendor3"].pk,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["user_type"] == "supplier" and data["parent_vendor_detail"]["name"] == "Vendor Three"


def test_update_account_fields_and_type(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    url = f"{URL}{people['buyer3'].pk}/"
    response = client.patch(
        url, {"name": "Bea Buyer", "city": "Rotterdam", "user_type": "warehouse"}, format="json"
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["name"] == "Bea Buyer" and data["user_type"] == "warehouse" and data["is_warehouse"] is True
    assert data["can_manage_account"] is True
    # back to internal; supplier without a vendor is refused
    assert client.patch(url, {"user_type": "supplier"}, format="json").status_code == 400
    response = client.patch(
        url, {"user_type": "supplier", "parent_vendor": people["vendor3"].pk}, format="json"
    )
    assert response.status_code == 200 and response.json()["data"]["parent_vendor"] == people["vendor3"].pk
    response = client.patch(url, {"user_type": "internal"}, format="json")
    assert response.json()["data"]["parent_vendor"] is None


def test_account_changes_need_admin_rights_in_all_the_users_companies(people, api, tenant3):
    """`both` works in tenants 2 and 3: the admin of tenant 3 alone sees them but cannot change the
    account (a password reset would take over their access to tenant 2); an admin of both can."""
    url = f"{URL}{people['both'].pk}/"
    client = api(people["admin3"], tenant3)
    detail = client.get(url).json()["data"]
    assert detail["can_manage_account"] is False
    assert client.patch(url, {"name": "X"}, format="json").status_code == 403
    assert (
        client.post(f"{url}reset-password/", {"password": "Carton-Trace-2026"}, format="json").status_code
        == 403
    )
    assert client.post(f"{url}deactivate/").status_code == 403
    full = api(people["admin_all"], tenant3)
    assert full.get(url).json()["data"]["can_manage_account"] is True
    assert full.patch(url, {"name": "Both Worlds"}, format="json").status_code == 200


def test_deactivate_ends_every_session_for_good(people, api, tenant3):
    """Deactivation ends the user's sessions: the tokens stay refused after a later activation (the
    user signs in again)."""
    login = APIClient().post(
        "/api/users/login/", {"username": "buyer3", "password": "demo1234"}, format="json"
    )
    access = login.json()["data"]["access"]
    own = APIClient()
    own.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    assert own.get("/api/users/me/").status_code == 200

    admin = api(people["admin3"], tenant3)
    response = admin.post(f"{URL}{people['buyer3'].pk}/deactivate/")
    assert response.status_code == 200 and response.json()["data"]["is_active"] is False
    assert own.get("/api/users/me/").status_code == 401
    refresh = APIClient().post(
        "/api/users/refresh/", {"refresh": login.json()["data"]["refresh"]}, format="json"
    )
    assert refresh.status_code == 401

    assert admin.post(f"{URL}{people['buyer3'].pk}/activate/").json()["data"]["is_active"] is True
    assert own.get("/api/users/me/").status_code == 401
    again = APIClient().post(
        "/api/users/login/", {"username": "buyer3", "password": "demo1234"}, format="json"
    )
    assert again.status_code == 200


def test_cannot_deactivate_yourself(people, api, tenant3):
    response = api(people["admin3"], tenant3).post(f"{URL}{people['admin3'].pk}/deactivate/")
    assert response.status_code == 409 and response.json()["error"] == "own_account"


def test_reset_password_uses_the_password_rules(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    url = f"{URL}{people['buyer3'].pk}/reset-password/"
    weak = client.post(url, {"password": "12345678"}, format="json")
    assert weak.status_code == 400 and weak.json()["data"]["password"]
    assert client.post(url, {"password": "Fresh-Carton-42"}, format="json").status_code == 200
    people["buyer3"].refresh_from_db()
    assert people["buyer3"].check_password("Fresh-Carton-42")


def test_users_are_never_deleted(people, api, tenant3):
    assert api(people["admin3"], tenant3).delete(f"{URL}{people['buyer3'].pk}/").status_code == 405


# --- memberships ----------------------------------------------------------------------------------


def test_memberships_show_administered_companies_with_their_choices(people, api, tenant3, tenant2):
    data = api(people["admin_all"], tenant3).get(f"{URL}{people['buyer3'].pk}/memberships/").json()["data"]
    tenants = {row["tenant"]["id"]: row for row in data["memberships"]}
    assert set(tenants) == {"2", "3"}
    assert tenants["3"]["is_member"] is True and tenants["2"]["is_member"] is False
    assert {r["name"] for r in tenants["2"]["available_roles"]} >= {"Administrator", "Sales"}
    # admin of tenant 3 only: tenant 2 is only named, never detailed
    data = api(people["admin3"], tenant3).get(f"{URL}{people['both'].pk}/memberships/").json()["data"]
    assert [row["tenant"]["id"] for row in data["memberships"]] == ["3"]
    assert data["other_tenants"] == [{"id": "2", "name": tenant2.name}]


def test_grant_membership_in_administered_company(people, api, tenant3, tenant2, roles):
    sales2 = roles(tenant2, "Sales")
    purchasing3 = roles(tenant3, "Purchasing")
    response = api(people["admin_all"], tenant3).put(
        f"{URL}{people['buyer3'].pk}/memberships/",
        {
            "memberships": [
                {"tenant": 3, "roles": [purchasing3.pk], "department": None, "is_active": True},
                {"tenant": 2, "roles": [sales2.pk], "department": None, "is_active": True},
            ]
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert set(Membership.objects.filter(user=people["buyer3"]).values_list("tenant_id", flat=True)) == {2, 3}
    with tenant_context(tenant2):
        assert list(Membership.objects.get(user=people["buyer3"], tenant=tenant2).roles.all()) == [sales2]


def test_cannot_grant_membership_in_a_company_you_do_not_administer(people, api, tenant3, roles):
    response = api(people["admin3"], tenant3).put(
        f"{URL}{people['buyer3'].pk}/memberships/",
        {"memberships": [{"tenant": 3, "roles": []}, {"tenant": 2, "roles": []}]},
        format="json",
    )
    assert response.status_code == 403
    assert not Membership.objects.filter(user=people["buyer3"], tenant_id=2).exists()


def test_roles_of_another_company_are_refused_in_a_membership(people, api, tenant3, tenant2, roles):
    response = api(people["admin3"], tenant3).put(
        f"{URL}{people['buyer3'].pk}/memberships/",
        {"memberships": [{"tenant": 3, "roles": [roles(tenant2, "Sales").pk]}]},
        format="json",
    )
    assert response.status_code == 400 and "roles" in response.json()["data"]


def test_memberships_of_a_user_of_other_companies_follow_the_account_rule(people, api, tenant3, tenant2):
    """One rule (selectors.can_manage_account): the administrator of only some of the user's companies
    can neither change the account nor its memberships, not even in their own company."""
    response = api(people["admin3"], tenant3).put(
        f"{URL}{people['both'].pk}/memberships/", {"memberships": [{"tenant": 3, "roles": []}]}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"] == "account_not_manageable"
    with tenant_context(tenant3):
        assert Membership.objects.get(user=people["both"], tenant=tenant3).roles.exists()
    assert Membership.objects.filter(user=people["both"], tenant_id=2).exists()


def test_a_tenant_admin_cannot_remove_a_group_administrator(people, api, tenant2, tenant3):
    """PUT /api/users/{admin_all}/memberships/?tenant_id=2 {"memberships": []} by tenant 2's own
    administrator: refused like a change or a reset of the same user."""
    target = people["admin_all"]
    client = api(people["admin2"], tenant2)
    url = f"{URL}{target.pk}/"
    removed = client.put(f"{url}memberships/", {"memberships": []}, format="json")
    assert removed.status_code == 403 and removed.json()["error"] == "account_not_manageable"
    paused = client.put(
        f"{url}memberships/", {"memberships": [{"tenant": 2, "roles": [], "is_active": False}]}, format="json"
    )
    assert paused.status_code == 403
    assert client.patch(url, {"name": "X"}, format="json").status_code == 403
    reset = client.post(f"{url}reset-password/", {"password": "Carton-Trace-2026"}, format="json")
    assert reset.status_code == 403
    assert client.post(f"{url}deactivate/").status_code == 403
    assert client.get(url).json()["data"]["can_manage_account"] is False
    assert set(
        Membership.objects.filter(user=target, is_active=True).values_list("tenant_id", flat=True)
    ) == {
        2,
        3,
    }
    # The group administrator can change the tenant administrator (who works in tenant 2 only).
    group = api(target, tenant2)
    assert (
        group.put(f"{URL}{people['admin2'].pk}/memberships/", {"memberships": []}, format="json").status_code
        == 200
    )


def test_a_paused_membership_elsewhere_still_counts(people, api, tenant2, tenant3):
    """A user whose membership in another company is paused still belongs to it: not manageable by the
    administrator of tenant 3 alone."""
    Membership.objects.filter(user=people["both"], tenant=tenant2).update(is_active=False)
    client = api(people["admin3"], tenant3)
    reset = client.post(
        f"{URL}{people['both'].pk}/reset-password/", {"password": "Carton-Trace-2026"}, format="json"
    )
    assert reset.status_code == 403


def test_supplier_user_keeps_the_company_of_their_parent_vendor(people, api, tenant3):
    response = api(people["admin_all"], tenant3).put(
        f"{URL}{people['supplier3'].pk}/memberships/",
        {"memberships": [{"tenant": 2, "roles": []}]},
        format="json",
    )
    assert response.status_code == 400 and "parent_vendor" in response.json()["data"]
    assert Membership.objects.filter(user=people["supplier3"], tenant_id=3).exists()


def test_cannot_change_own_memberships(people, api, tenant3):
    response = api(people["admin3"], tenant3).put(
        f"{URL}{people['admin3'].pk}/memberships/", {"memberships": []}, format="json"
    )
    assert response.status_code == 409


def test_removing_the_membership_hides_the_user(people, api, tenant3):
    client = api(people["admin3"], tenant3)
    assert (
        client.put(f"{URL}{people['sales3'].pk}/memberships/", {"memberships": []}, format="json").status_code
        == 200
    )
    assert client.get(f"{URL}{people['sales3'].pk}/").status_code == 404


# --- export and query counts ----------------------------------------------------------------------


def test_export(people, api, tenant3):
    response = api(people["admin3"], tenant3).get(f"{URL}export/?format=csv&user_type=internal")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "buyer3" in text and "supplier3" not in text and "only2" not in text


def test_list_query_count_is_constant(people, api, tenant3, make_user, django_assert_max_num_queries):
    client = api(people["admin3"], tenant3)
    with django_assert_max_num_queries(15) as few:
        client.get(f"{URL}?page_size=2")
    for n in range(25):
        make_user(tenant3, role="Sales", username=f"bulk{n:02}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(f"{URL}?page_size=50")
    assert response.json()["data"]["count"] == 31
    assert User.objects.count() >= 31 and Role.unscoped.count() > 0
