"""Lost encryption keys: the settings pages still answer, say which secret to enter again, and accept it;
nothing is sent with a secret that cannot be read."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet

from apps.common.secrets import SecretUnreadable, UnreadableSecret, encrypt, readable
from apps.notifications.models import SmtpSettings
from apps.notifications.services import smtp_backend

pytestmark = pytest.mark.django_db

URL = "/api/core/smtp-settings/"


@pytest.fixture
def smtp(tenant2, in_tenant, settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    with in_tenant(tenant2):
        SmtpSettings.objects.create(
            host="smtp.example.com",
            port=587,
            username="mailer",
            password="old-password",
            from_email="a@example.com",
        )
    return settings.FIELD_ENCRYPTION_KEYS[0]


def test_a_secret_no_key_opens_reads_as_unreadable_not_as_an_error(smtp, tenant2, in_tenant, settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]  # the old key is gone
    with in_tenant(tenant2):
        row = SmtpSettings.objects.get()
    assert isinstance(row.password, UnreadableSecret) and row.password == ""
    with pytest.raises(SecretUnreadable, match="enter the secret again"):
        readable(row.password)
    with pytest.raises(SecretUnreadable):
        smtp_backend(row)  # never connects with an empty password in place of the real one


def test_the_settings_answer_and_accept_a_new_secret(smtp, tenant2, make_user, api, settings, in_tenant):
    old_key = smtp
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    client = api(make_user(tenant2), tenant2)

    shown = client.get(URL)
    assert shown.status_code == 200, shown.json()
    assert shown.json()["data"]["unreadable_secrets"] == ["password"]
    assert shown.json()["data"]["has_password"] is False

    # Saving other fields keeps the stored ciphertext: a key found again still opens it.
    renamed = client.put(URL, {**_fields(shown), "from_name": "Sales"}, format="json")
    assert renamed.status_code == 200, renamed.json()
    settings.FIELD_ENCRYPTION_KEYS = [settings.FIELD_ENCRYPTION_KEYS[0], old_key]
    with in_tenant(tenant2):
        assert SmtpSettings.objects.get().password == "old-password"

    settings.FIELD_ENCRYPTION_KEYS = [settings.FIELD_ENCRYPTION_KEYS[0]]
    entered = client.put(URL, {**_fields(shown), "password": "new-password"}, format="json")
    assert entered.status_code == 200, entered.json()
    assert entered.json()["data"]["unreadable_secrets"] == []
    assert entered.json()["data"]["has_password"] is True
    with in_tenant(tenant2):
        assert SmtpSettings.objects.get().password == "new-password"


def test_the_accounting_connection_says_which_secrets_to_enter_again(
    tenant2, make_user, api, settings, in_tenant
):
    from apps.accounting.models import AccountingConnection

    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    with in_tenant(tenant2):
        AccountingConnection.objects.create(
            provider="visma_net", client_id="cid", client_secret="cs", base_url="https://api.example.com"
        )
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    shown = api(make_user(tenant2), tenant2).get("/api/accounting/connection/")
    assert shown.status_code == 200, shown.json()
    assert shown.json()["data"]["unreadable_secrets"] == ["client_secret"]


def test_a_readable_secret_is_itself(settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    assert readable("plain") == "plain"
    assert encrypt("x") != "x"


def _fields(response) -> dict:
    data = response.json()["data"]
    return {
        key: data[key] for key in ("enabled", "host", "port", "security", "username", "from_email", "timeout")
    }
