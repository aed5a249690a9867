"""Setting up a real installation: `create_tenant` and `create_admin` (docs/operations.md)."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership, Tenant
from apps.tenancy.services import tenant_sequence_reset
from apps.users.models import Role, User
from apps.users.roles import DEFAULT_ROLES

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def create_tenant(*args) -> Tenant:
    call_command("create_tenant", *args, stdout=StringIO())
    return Tenant.objects.order_by("-pk").first()


def test_create_tenant_makes_the_tenant_with_its_default_roles():
    tenant = create_tenant("Acme Packaging BV", "--country", "nl", "--vat-number", "NL1")
    assert (tenant.name, tenant.code, tenant.country, tenant.vat_number) == (
        "Acme Packaging BV",
        "acme-packaging-bv",
        "NL",
        "NL1",
    )
    with tenant_context(tenant):
        assert set(Role.objects.values_list("name", flat=True)) == set(DEFAULT_ROLES)
        assert Role.objects.get(name="Administrator").permissions.filter(codename="change_user").exists()


def test_create_tenant_refuses_a_name_in_use_and_picks_a_free_code():
    create_tenant("Acme")
    with pytest.raises(CommandError, match="already exists"):
        create_tenant("acme")
    assert create_tenant("Acme!").code == "acme-2"


def test_a_tenant_can_be_created_after_tenants_with_explicit_ids():
    # The demo loader inserts tenants 1-3 with their ids; the id sequence must follow them.
    Tenant.objects.create(pk=40, name="Explicit", code="explicit")
    tenant_sequence_reset()
    assert create_tenant("After").pk > 40


def test_create_admin_makes_an_internal_user_with_all_roles_who_can_work(monkeypatch):
    tenant = create_tenant("Acme")
    other = create_tenant("Other")
    monkeypatch.setenv("ADMIN_PASSWORD", "a-Long-enough-pass-42")
    call_command(
        "create_admin", "alice", "--tenant", str(tenant.pk), "--email", "a@example.com", "--no-input"
    )
    user = User.objects.get(username="alice")
    assert user.user_type == "internal" and user.email == "a@example.com" and not user.is_staff
    membership = Membership.objects.get(user=user)
    assert membership.tenant == tenant
    with tenant_context(tenant):
        assert set(membership.roles.values_list("name", flat=True)) == set(DEFAULT_ROLES)

    client = APIClient()
    login = client.post(
        "/api/users/login/", {"username": "alice", "password": "a-Long-enough-pass-42"}, format="json"
    )
    assert login.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {login.json()['data']['access']}")
    me = client.get(f"/api/users/me/?tenant_id={tenant.pk}").json()["data"]
    assert "users.change_user" in me["permissions"]
    assert client.get(f"/api/suppliers/?tenant_id={tenant.pk}").status_code == 200
    # Only the tenant named: not the other one.
    assert client.get(f"/api/suppliers/?tenant_id={other.pk}").status_code == 403


def test_create_admin_adds_an_existing_admin_to_another_tenant_keeping_the_password(monkeypatch):
    first, second = create_tenant("First"), create_tenant("Second")
    monkeypatch.setenv("ADMIN_PASSWORD", "a-Long-enough-pass-42")
    call_command("create_admin", "alice", "--tenant", str(first.pk), "--no-input")
    monkeypatch.setenv("ADMIN_PASSWORD", "ignored-other-pass-43")
    call_command("create_admin", "alice", "--tenant", str(second.pk), "--no-input")
    user = User.objects.get(username="alice")
    assert user.check_password("a-Long-enough-pass-42")
    assert set(Membership.objects.filter(user=user).values_list("tenant_id", flat=True)) == {
        first.pk,
        second.pk,
    }


def test_create_admin_refuses_bad_input(monkeypatch):
    tenant = create_tenant("Acme")
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="ADMIN_PASSWORD"):
        call_command("create_admin", "alice", "--tenant", str(tenant.pk), "--no-input")
    with pytest.raises(CommandError, match="No active tenant"):
        call_command("create_admin", "alice", "--tenant", "999999", "--no-input")
    monkeypatch.setenv("ADMIN_PASSWORD", "123")
    with pytest.raises(CommandError, match="password"):
        call_command("create_admin", "alice", "--tenant", str(tenant.pk), "--no-input")
    assert not User.objects.filter(username="alice").exists()
    User.objects.create_user(username="factory", password="x", is_supplier=True)
    with pytest.raises(CommandError, match="not an internal user"):
        call_command("create_admin", "factory", "--tenant", str(tenant.pk), "--no-input")


def test_create_admin_prompts_for_the_password(monkeypatch):
    tenant = create_tenant("Acme")
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    answers = iter(["a-Long-enough-pass-42", "a-Long-enough-pass-42"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("create_admin", "bob", "--tenant", str(tenant.pk), stdout=StringIO())
    assert User.objects.get(username="bob").check_password("a-Long-enough-pass-42")
