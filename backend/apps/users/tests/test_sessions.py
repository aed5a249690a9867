"""How sessions end (apps/users/tokens.py): password change, administrator's reset, deactivation,
refresh-token reuse, sign-out. Each is checked on the access AND the refresh token, over HTTP."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken

from apps.users.models import User

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "Carton-Trace-Spring-2026"


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()


def sign_in(username="anna", password="demo1234") -> dict:
    response = APIClient().post(
        "/api/users/login/", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.json()
    return response.json()["data"]


def me(access: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    return client.get("/api/users/me/").status_code


def refresh(token: str):
    return APIClient().post("/api/users/refresh/", {"refresh": token}, format="json")


def test_tokens_carry_the_session_and_version(tenant3, make_user):
    make_user(tenant3, username="anna")
    session = sign_in()
    assert me(session["access"]) == 200
    rotated = refresh(session["refresh"])
    assert rotated.status_code == 200
    assert me(rotated.json()["data"]["access"]) == 200


def test_password_change_ends_every_session_and_answers_a_new_one(tenant3, make_user):
    make_user(tenant3, username="anna")
    laptop, phone = sign_in(), sign_in()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {laptop['access']}")
    response = client.post(
        "/api/users/me/change-password/",
        {"old_password": "demo1234", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.json()
    fresh = response.json()["data"]
    for old in (laptop, phone):
        assert me(old["access"]) == 401
        assert refresh(old["refresh"]).status_code == 401
    body = APIClient()
    body.credentials(HTTP_AUTHORIZATION=f"Bearer {laptop['access']}")
    assert body.get("/api/users/me/").json()["error"] == "session_ended"
    # The device that made the change goes on with the answered pair.
    assert me(fresh["access"]) == 200
    assert refresh(fresh["refresh"]).status_code == 200
    user = User.objects.get(username="anna")
    # Only the pair answered after the change (and its rotation) is still outstanding.
    assert OutstandingToken.objects.filter(user=user, blacklistedtoken__isnull=True).count() == 1


def test_an_administrators_reset_ends_every_session(tenant3, make_user, api):
    admin = make_user(tenant3, username="boss")
    user = make_user(tenant3, role="Sales", username="anna")
    session = sign_in()
    response = api(admin, tenant3).post(
        f"/api/users/{user.pk}/reset-password/", {"password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert me(session["access"]) == 401
    assert refresh(session["refresh"]).status_code == 401
    # every refresh token issued before the reset is blacklisted in the database too
    assert not OutstandingToken.objects.filter(user=user, blacklistedtoken__isnull=True).exists()
    assert me(sign_in(password=NEW_PASSWORD)["access"]) == 200


def test_deactivation_ends_every_session(tenant3, make_user, api):
    admin = make_user(tenant3, username="boss")
    user = make_user(tenant3, role="Sales", username="anna")
    session = sign_in()
    assert api(admin, tenant3).post(f"/api/users/{user.pk}/deactivate/").status_code == 200
    assert api(admin, tenant3).post(f"/api/users/{user.pk}/activate/").status_code == 200
    assert me(session["access"]) == 401
    assert refresh(session["refresh"]).status_code == 401


def test_reusing_a_rotated_refresh_token_revokes_the_whole_chain(tenant3, make_user):
    make_user(tenant3, username="anna")
    stolen = sign_in()
    other_device = sign_in()
    rotated = refresh(stolen["refresh"]).json()["data"]
    assert me(rotated["access"]) == 200
    # The old refresh token is used again (by whoever copied it): refused, and its chain ends.
    reuse = refresh(stolen["refresh"])
    assert reuse.status_code == 401 and reuse.json()["error"] == "token_not_valid"
    assert me(rotated["access"]) == 401
    assert me(stolen["access"]) == 401
    assert refresh(rotated["refresh"]).status_code == 401
    # Another sign-in (another chain) is not touched.
    assert me(other_device["access"]) == 200
    assert refresh(other_device["refresh"]).status_code == 200


def test_the_chain_stays_revoked_in_the_database(tenant3, make_user):
    """The revocation list is in the cache; the refresh tokens of the chain are also blacklisted in the
    database, so a lost cache does not bring the chain back."""
    make_user(tenant3, username="anna")
    first = sign_in()
    rotated = refresh(first["refresh"]).json()["data"]
    refresh(first["refresh"])
    cache.clear()
    assert refresh(rotated["refresh"]).status_code == 401
    assert BlacklistedToken.objects.count() == 2


def test_sign_out_ends_the_access_token_too(tenant3, make_user):
    make_user(tenant3, username="anna")
    session, other = sign_in(), sign_in()
    out = APIClient().post("/api/users/logout/", {"refresh": session["refresh"]}, format="json")
    assert out.status_code == 200
    assert me(session["access"]) == 401
    assert refresh(session["refresh"]).status_code == 401
    assert me(other["access"]) == 200


def test_a_token_without_the_session_claims_is_refused(tenant3, make_user):
    """Tokens issued before sessions were tracked (or crafted without the claims) do not authenticate."""
    from rest_framework_simplejwt.tokens import RefreshToken

    user = make_user(tenant3, username="anna")
    plain = RefreshToken.for_user(user)
    assert me(str(plain.access_token)) == 401
    assert refresh(str(plain)).status_code == 401


def test_authentication_reads_no_more_than_before(tenant3, make_user, django_assert_max_num_queries):
    """The session checks use the user row the authentication reads anyway (and the cache)."""
    make_user(tenant3, username="anna")
    access = sign_in()["access"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    client.get("/api/users/me/")
    with django_assert_max_num_queries(6):
        assert client.get("/api/users/me/").status_code == 200
