"""Password rules (AUTH_PASSWORD_VALIDATORS): 12 characters at least, not common, not all digits, not
close to the user's own names; for new users, administrators' resets and own changes."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_minimum_length_is_twelve():
    assert settings.PASSWORD_MIN_LENGTH == 12


def test_a_new_user_with_passw0rd_is_refused_with_a_clear_message(tenant3, make_user, api):
    admin = make_user(tenant3, username="boss")
    response = api(admin, tenant3).post(
        "/api/users/", {"username": "newbie", "user_type": "internal", "password": "Passw0rd!"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert "This password is too short. It must contain at least 12 characters." in body["data"]["password"]


@pytest.mark.parametrize(
    "password,message",
    [
        ("Passw0rd!", "at least 12 characters"),
        ("password1234", "too common"),
        ("839201746625", "entirely numeric"),
        ("anna.k.smith!", "too similar"),
    ],
)
def test_an_administrators_reset_applies_the_rules(tenant3, make_user, api, password, message):
    admin = make_user(tenant3, username="boss")
    user = make_user(tenant3, role="Sales", username="anna.k.smith", email="anna.k.smith@example.com")
    response = api(admin, tenant3).post(
        f"/api/users/{user.pk}/reset-password/", {"password": password}, format="json"
    )
    assert response.status_code == 400
    assert any(message in text for text in response.json()["data"]["password"]), response.json()


def test_an_own_change_applies_the_rules(tenant3, make_user):
    user = make_user(tenant3, username="anna")
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(
        "/api/users/me/change-password/",
        {"old_password": "demo1234", "new_password": "Passw0rd!"},
        format="json",
    )
    assert response.status_code == 400 and "new_password" in response.json()["data"]
    good = client.post(
        "/api/users/me/change-password/",
        {"old_password": "demo1234", "new_password": "a long carton sentence"},
        format="json",
    )
    assert good.status_code == 200


def test_demo_users_keep_their_printed_password(tenant3):
    """The demo data seeds its sign-ins directly (not through the rules) with the password it prints,
    which the rules would refuse."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    from apps.tenancy import demo as tenancy_demo
    from apps.users import demo
    from apps.users.models import User

    ctx: dict = {}
    tenancy_demo.load(ctx)
    demo.load_sign_ins(ctx)
    with pytest.raises(ValidationError):
        validate_password(demo.DEMO_PASSWORD)
    response = APIClient().post(
        "/api/users/login/", {"username": "admin", "password": demo.DEMO_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert User.objects.get(username="admin").check_password(demo.DEMO_PASSWORD)


@pytest.mark.parametrize(
    "password",
    [
        "aaaaaaaaaaaa",
        "aaaaaaaaaaab",
        "abcabcabcabc",
        "Passw0rdPassw0rd",
        "abcdefghijkl",
        "987654321098",
        "qwertyuiopas",
        "zyxwvutsrqpo",
        "ababababcdcd",
    ],
)
def test_repeated_and_sequential_passwords_are_refused_for_new_users_and_changes(
    tenant3, make_user, api, password
):
    admin = make_user(tenant3, username="boss")
    created = api(admin, tenant3).post(
        "/api/users/", {"username": "newbie", "user_type": "internal", "password": password}, format="json"
    )
    assert created.status_code == 400 and "password" in created.json()["data"], (password, created.json())
    client = APIClient()
    client.force_authenticate(admin)
    changed = client.post(
        "/api/users/me/change-password/",
        {"old_password": "demo1234", "new_password": password},
        format="json",
    )
    assert changed.status_code == 400 and "new_password" in changed.json()["data"], password


@pytest.mark.parametrize(
    "password",
    ["a long carton sentence", "Tr4ce-Carton-Rotterdam", "xk3!Pq9#vL2m", "绿色纸箱追溯系统很安全的吧"],
)
def test_strong_passwords_pass_the_strength_check(password):
    from django.contrib.auth.password_validation import validate_password

    validate_password(password)
