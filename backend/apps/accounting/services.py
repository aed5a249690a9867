"""Writes of the accounting integration: the connection, its tokens (renewed under a row lock) and the
connection test. The outbox lives in outbox.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.common import outbound
from apps.tenancy.context import tenant_context

from .adapters import adapter_for
from .adapters.base import AccountingError, Adapter, ConnectionConfig
from .errors import ConnectionMissing
from .models import AccountingConnection, Provider

EXPIRY_MARGIN = timedelta(seconds=60)  # an access token this close to its end is renewed first

CONNECTION_FIELDS = (
    "provider",
    "enabled",
    "base_url",
    "token_url",
    "client_id",
    "scope",
    "company_id",
    "supplier_level",
    "options",
)
SECRET_FIELDS = ("client_secret", "refresh_token")


def connection_get() -> AccountingConnection | None:
    return AccountingConnection.objects.first()


@transaction.atomic
def connection_save(*, data: dict[str, Any]) -> AccountingConnection:
    """Creates or updates the tenant's connection. A secret left out (or empty) keeps the stored one;
    `clear_refresh_token` forgets it. Changing the provider, the URLs, the client or the company drops
    the cached access token (it belongs to the old settings)."""
    connection = AccountingConnection.objects.select_for_update().first() or AccountingConnection()
    before = {
        name: getattr(connection, name)
        for name in ("provider", "base_url", "token_url", "client_id", "company_id", "scope")
    }
    for name in CONNECTION_FIELDS:
        if name in data:
            setattr(connection, name, data[name])
    for name in SECRET_FIELDS:
        if data.get(name):
            setattr(connection, name, data[name])
    if data.get("clear_refresh_token"):
        connection.refresh_token = ""
    after = {name: getattr(connection, name) for name in before}
    if connection.pk is None or before != after or data.get("client_secret") or data.get("refresh_token"):
        connection.access_token = ""
        connection.access_token_expires_at = None
    connection.save()
    return connection


def config_of(connection: AccountingConnection) -> ConnectionConfig:
    return ConnectionConfig(
        base_url=connection.base_url,
        token_url=connection.token_url,
        client_id=connection.client_id,
        client_secret=connection.client_secret or "",
        scope=connection.scope,
        company_id=connection.company_id,
        options=dict(connection.options or {}),
    )


class ConnectionTokens:
    """The access token of a stored connection. `get` uses the stored one while it is valid; a renewal
    locks the connection row (SELECT ... FOR UPDATE), looks again (another worker may have renewed it
    meanwhile: then its token is used, and its rotated refresh token is not spent twice), asks the token
    URL, and stores the new access token and the new refresh token before the lock is released."""

    def __init__(self, tenant_id: int, connection_id: int) -> None:
        self.tenant_id = tenant_id
        self.connection_id = connection_id
        self.adapter: Adapter | None = None
        self.renewals = 0

    def get(self) -> str:
        with tenant_context(self.tenant_id):
            row = (
                AccountingConnection.objects.filter(pk=self.connection_id)
                .only("access_token", "access_token_expires_at")
                .first()
            )
            if row is None:
                raise ConnectionMissing()
            if (
                row.access_token
                and row.access_token_expires_at
                and row.access_token_expires_at > timezone.now() + EXPIRY_MARGIN
            ):
                return row.access_token
        return self.renew(stale=row.access_token or "")

    def renew(self, stale: str) -> str:
        assert self.adapter is not None
        with transaction.atomic(), tenant_context(self.tenant_id):
            row = AccountingConnection.objects.select_for_update().get(pk=self.connection_id)
            if (
                row.access_token
                and row.access_token != stale
                and row.access_token_expires_at
                and row.access_token_expires_at > timezone.now() + EXPIRY_MARGIN
            ):
                return row.access_token  # renewed by another worker while this one waited for the lock
            payload = self.adapter.fetch_token(row.refresh_token or "")
            self.renewals += 1
            try:
                expires_in = int(payload.get("expires_in") or 3600)
            except (TypeError, ValueError):
                expires_in = 3600
            row.access_token = payload["access_token"]
            row.access_token_expires_at = timezone.now() + timedelta(seconds=max(expires_in, 0))
            fields = ["access_token", "access_token_expires_at", "updated_at"]
            if isinstance(payload.get("refresh_token"), str) and payload["refresh_token"]:
                row.refresh_token = payload["refresh_token"]
                fields.append("refresh_token")
            row.save(update_fields=fields)
            return row.access_token


def adapter_of(connection: AccountingConnection, *, transport=None) -> Adapter:
    tokens = ConnectionTokens(connection.tenant_id, connection.pk)
    adapter = adapter_for(connection.provider, config_of(connection), tokens)
    if transport is not None:
        adapter.client._transport = outbound.GuardedTransport(transport)
    tokens.adapter = adapter
    return adapter


def connection_test(*, connection: AccountingConnection) -> dict[str, Any]:
    """Gets a token and reads something harmless; says in words what is wrong, in fixed messages (never the
    remote's words: the addresses are the tenant's, docs/tenancy.md). Stores the outcome. Rate limited per
    company (OUTBOUND_TEST_RATE)."""
    outbound.test_rate_check()
    # The outcome is stored in English, the catalogue's msgid, and translated for whoever reads it
    # (`last_test_message_for_reader`): the user who ran the test and the one who reads it later may not
    # share a language.
    with translation.override("en"):
        if connection.provider == Provider.VISMA_NET and not connection.client_secret:
            ok, message = False, _("The client secret is missing.")
        else:
            adapter = adapter_of(connection)
            try:
                message = adapter.test()
                ok = True
            except AccountingError as exc:
                ok, message = False, exc.public_message
            finally:
                adapter.close()
    with tenant_context(connection.tenant_id):
        AccountingConnection.objects.filter(pk=connection.pk).update(
            last_test_at=timezone.now(), last_test_ok=ok, last_test_message=message[:1000]
        )
    return {"ok": ok, "message": last_test_message_for_reader(message)}


def last_test_message_for_reader(message: str) -> str:
    """A stored test outcome in the reader's language. The fixed messages are catalogue msgids and
    translate; one with a value in it (an HTTP status) has no entry and stays as stored."""
    return _(message) if message else ""
