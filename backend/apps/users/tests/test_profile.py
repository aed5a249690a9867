"""The own profile: PATCH /api/users/me/ and POST /api/users/me/change-password/."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

ME = "/api/users/me/"


def test_patch_own_profile_answers_the_user_object(people, api):
    client = api(people["buyer3"])
    response = client.patch(
        ME,
        {
            "name": "Bea Buyer",
            "profile_name": "Bea",
            "email": "bea@example.com",
            "phone": "+31 6 1234",
            "address": "Havenweg 12",
            "city": "Rotterdam",
            "country": "Netherlands",
            "post_code": "3089 JA",
            "language": "zh",
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["profile_name"] == "Bea" and data["language"] == "zh" and data["city"] == "Rotterdam"
    # the same object as GET /me/ (the web app stores it)
    assert set(data) == set(client.get(ME).json()["data"])


def test_patch_with_tenant_includes_permissions(people, api, tenant3):
    data = api(people["buyer3"], tenant3).patch(ME, {"city": "Delft"}, format="json").json()["data"]
    assert "suppliers.view_supplier" in data["permissions"]


def test_profile_cannot_change_privileged_fields(people, api):
    client = api(people["buyer3"])
    client.patch(
        ME, {"is_staff": True, "is_supplier": True, "username": "root", "visma_owner_id": "9"}, format="json"
    )
    people["buyer3"].refresh_from_db()
    assert not people["buyer3"].is_staff and not people["buyer3"].is_supplier
    assert people["buyer3"].username == "buyer3" and people["buyer3"].visma_owner_id == ""


def test_profile_validation(people, api):
    client = api(people["buyer3"])
    assert client.patch(ME, {"email": "bad"}, format="json").json()["data"]["email"]
    assert client.patch(ME, {"language": "fr"}, format="json").status_code == 400


def test_profile_needs_sign_in():
    assert APIClient().patch(ME, {"name": "x"}, format="json").status_code == 401


def test_change_password(people, api):
    client = api(people["buyer3"])
    url = f"{ME}change-password/"
    wrong = client.post(url, {"old_password": "nope", "new_password": "Fresh-Carton-42"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["data"]["old_password"] == ["Your current password is incorrect."]
    weak = client.post(url, {"old_password": "demo1234", "new_password": "1234"}, format="json")
    assert weak.status_code == 400 and weak.json()["data"]["new_password"]
    same = client.post(url, {"old_password": "demo1234", "new_password": "demo1234"}, format="json")
    assert same.status_code == 400
    ok = client.post(url, {"old_password": "demo1234", "new_password": "Fresh-Carton-42"}, format="json")
    assert ok.status_code == 200
    login = APIClient().post(
        "/api/users/login/", {"username": "buyer3", "password": "Fresh-Carton-42"}, format="json"
    )
    assert login.status_code == 200
