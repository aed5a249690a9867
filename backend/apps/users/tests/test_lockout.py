"""Sign-in lockout per user name AND client address (django-axes, AXES_LOCKOUT_PARAMETERS): an attacker
guessing a user's password is locked out at their address; the owner still signs in from theirs."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

OWNER = {"REMOTE_ADDR": "198.51.100.10"}
ATTACKER = {"REMOTE_ADDR": "203.0.113.66"}


@pytest.fixture(autouse=True)
def _clean_throttles():
    cache.clear()


def login(password, where, **extra):
    return APIClient().post(
        "/api/users/login/", {"username": "anna", "password": password}, format="json", **where, **extra
    )


def test_an_attacker_cannot_lock_the_owner_out(tenant3, make_user, settings):
    make_user(tenant3, username="anna")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login("guess", ATTACKER).status_code == 401
    locked = login("guess", ATTACKER)
    assert locked.status_code == 429 and locked.json()["error"] == "account_locked"
    # The attacker stays locked at their address, even with the right password ...
    assert login("demo1234", ATTACKER).json()["error"] == "account_locked"
    # ... and a forged X-Forwarded-For does not make them someone else (no trusted proxy).
    assert login("guess", ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.1").json()["error"] == "account_locked"
    # The owner signs in from their own address.
    assert login("demo1234", OWNER).status_code == 200


def test_the_owner_guessing_wrong_is_locked_at_their_address(tenant3, make_user, settings):
    make_user(tenant3, username="anna")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login("guess", OWNER)
    assert login("demo1234", OWNER).status_code == 429
    assert login("demo1234", {"REMOTE_ADDR": "198.51.100.11"}).status_code == 200


def test_the_lockout_follows_the_trusted_proxy_address(tenant3, make_user, settings):
    """Behind one declared proxy the lockout is keyed by the address the proxy saw."""
    settings.TRUSTED_PROXY_COUNT = 1
    make_user(tenant3, username="anna")
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login("guess", proxy, HTTP_X_FORWARDED_FOR="203.0.113.66")
    assert login("demo1234", proxy, HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.66").status_code == 429
    assert login("demo1234", proxy, HTTP_X_FORWARDED_FOR="198.51.100.10").status_code == 200
