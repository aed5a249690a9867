"""Sign-in, token refresh with rotation, sign-out (blacklist), lockout, deactivated users."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clean_throttles():
    cache.clear()


def login(client, username, password):
    return client.post("/api/users/login/", {"username": username, "password": password}, format="json")


def test_login_answers_tokens_and_the_user(tenant3, make_user):
    make_user(tenant3, username="anna", visma_owner_id="77", name="Anna")
    response = login(APIClient(), "anna", "demo1234")
    assert response.status_code == 200
    body = response.json()
    assert body["code"] == 200 and body["message"] == "success"
    assert set(body["data"]) == {"access", "refresh", "user"}
    user = body["data"]["user"]
    assert user["username"] == "anna" and user["visma_owner_id"] == "77"
    assert user["user_type"] == "internal"
    assert user["tenants"] == [{"id": "3", "name": tenant3.name}]
    for field in (
        "profile_name",
        "visma_id",
        "visma_code",
        "address",
        "city",
        "country",
        "post_code",
        "is_supplier",
        "is_warehouse",
        "parent_vendor",
    ):
        assert field in user


@pytest.mark.parametrize("username,password", [("anna", "wrong-password"), ("nobody", "demo1234")])
def test_failed_login_does_not_tell_which_part_was_wrong(tenant3, make_user, username, password):
    make_user(tenant3, username="anna")
    response = login(APIClient(), username, password)
    assert response.status_code == 401
    assert response.json() == {
        "code": 401,
        "message": "Invalid username or password",
        "error": "invalid_credentials",
        "data": None,
    }


def test_repeated_failures_lock_the_account(tenant3, make_user, settings):
    make_user(tenant3, username="anna")
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "anna", "bad").status_code == 401
    locked = login(client, "anna", "bad")
    assert locked.status_code == 429
    assert locked.json()["error"] == "account_locked"
    # Even the right password is refused while locked.
    assert login(client, "anna", "demo1234").json()["error"] == "account_locked"


def test_login_validates_its_body():
    response = APIClient().post("/api/users/login/", {"username": ""}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert set(body["data"]) == {"username", "password"}


def test_refresh_rotates_and_blacklists_the_old_token(tenant3, make_user):
    make_user(tenant3, username="anna")
    client = APIClient()
    refresh = login(client, "anna", "demo1234").json()["data"]["refresh"]
    first = client.post("/api/users/refresh/", {"refresh": refresh}, format="json")
    assert first.status_code == 200
    data = first.json()["data"]
    assert data["access"] and data["refresh"] and data["refresh"] != refresh
    reused = client.post("/api/users/refresh/", {"refresh": refresh}, format="json")
    assert reused.status_code == 401
    assert reused.json()["error"] == "token_not_valid"


def test_logout_blacklists_the_refresh_token(tenant3, make_user):
    make_user(tenant3, username="anna")
    client = APIClient()
    refresh = login(client, "anna", "demo1234").json()["data"]["refresh"]
    out = client.post("/api/users/logout/", {"refresh": refresh}, format="json")
    assert out.status_code == 200 and out.json()["data"] is None
    again = client.post("/api/users/refresh/", {"refresh": refresh}, format="json")
    assert again.status_code == 401


def test_access_token_works_and_a_deactivated_users_tokens_stop_working(tenant3, make_user):
    user = make_user(tenant3, username="anna")
    client = APIClient()
    data = login(client, "anna", "demo1234").json()["data"]
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {data['access']}")
    assert client.get("/api/users/me/").status_code == 200
    user.is_active = False
    user.save()
    response = client.get("/api/users/me/")
    assert response.status_code == 401
    assert response.json()["code"] == 401
    refreshed = APIClient().post("/api/users/refresh/", {"refresh": data["refresh"]}, format="json")
    assert refreshed.status_code == 401


def test_me_with_a_tenant_lists_the_permissions_held_there(tenant2, tenant3, make_user, roles, in_tenant):
    from apps.tenancy.models import Membership

    user = make_user(tenant3, role="Sales", username="anna")
    membership = Membership.objects.create(user=user, tenant=tenant2)
    with in_tenant(tenant2):
        membership.roles.set([roles(tenant2, "Purchasing")])
    client = APIClient()
    client.force_authenticate(user)
    perms3 = client.get("/api/users/me/?tenant_id=3").json()["data"]["permissions"]
    perms2 = client.get("/api/users/me/?tenant_id=2").json()["data"]["permissions"]
    assert "salesorders.view_salesorder" in perms3 and "purchaseorders.add_purchaseorder" not in perms3
    assert "purchaseorders.add_purchaseorder" in perms2
    assert client.get("/api/users/me/").json()["data"]["permissions"] is None


def test_tenant_list_shows_only_the_users_tenants(tenant2, tenant3, make_user):
    user = make_user(tenant3)
    client = APIClient()
    client.force_authenticate(user)
    response = client.get("/api/tenants/")
    assert response.json()["data"] == [{"id": "3", "name": tenant3.name}]


@pytest.fixture
def demo_like_supplier(tenant2, tenant3, in_tenant, make_user):
    """A supplier user of tenant 3 with a parent vendor there, as in the demo data; tenant 2 also has a
    vendor (ids interleaved) so a wrong tenant would show."""
    from apps.suppliers.models import ParentVendor

    with in_tenant(tenant2):
        ParentVendor.objects.create(name="Other Tenant Vendor", cname="别的")
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(
            name="Shanghai Evergreen Packaging", cname="上海常青包装", code="PV-SEP"
        )
    user = make_user(tenant3, role="Supplier", username="supplier", is_supplier=True, parent_vendor=vendor)
    return user, vendor


def test_login_answers_the_parent_vendor_of_a_supplier_user(demo_like_supplier):
    # On PostgreSQL the parent vendor is a row-level-security table and sign-in runs outside any tenant:
    # the vendor must still be read (under its own tenant), not come back as null.
    _, vendor = demo_like_supplier
    response = login(APIClient(), "supplier", "demo1234")
    assert response.status_code == 200
    assert response.json()["data"]["user"]["parent_vendor"] == {
        "id": vendor.pk,
        "name": "Shanghai Evergreen Packaging",
        "cname": "上海常青包装",
    }


def test_me_without_a_tenant_answers_the_parent_vendor(demo_like_supplier, api, tenant3):
    user, vendor = demo_like_supplier
    expected = {"id": vendor.pk, "name": vendor.name, "cname": vendor.cname}
    assert api(user).get("/api/users/me/").json()["data"]["parent_vendor"] == expected
    assert api(user, tenant3).get("/api/users/me/").json()["data"]["parent_vendor"] == expected


def test_the_parent_vendor_is_not_read_from_a_tenant_the_user_is_not_a_member_of(
    tenant2, tenant3, in_tenant, make_user, api
):
    from apps.suppliers.models import ParentVendor

    with in_tenant(tenant2):
        foreign = ParentVendor.objects.create(name="Foreign Vendor")
    user = make_user(tenant3, role="Supplier", username="stray", is_supplier=True, parent_vendor=foreign)
    assert api(user).get("/api/users/me/").json()["data"]["parent_vendor"] is None
