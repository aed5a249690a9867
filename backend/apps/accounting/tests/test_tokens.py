"""Tokens and the connection test: the renewal lock on PostgreSQL (two workers renewing at once spend the
rotating refresh token once), and what "test connection" says in words."""

from __future__ import annotations

import threading

import pytest
from django.db import connection as db_connection

from apps.accounting import services
from apps.accounting.models import AccountingConnection
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant

from .fake_visma import FakeVisma


@pytest.fixture
def fake(settings):
    # The fake on 127.0.0.1 over http is reached through the operator's outbound settings.
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = FakeVisma()
    yield server
    server.close()


def _connection(tenant, fake, **fields):
    defaults = {
        "provider": "visma_eaccounting",
        "base_url": f"{fake.url}/v2/",
        "token_url": f"{fake.url}/token",
        "client_id": "cartontrace",
        "client_secret": "s3cret",
        "refresh_token": "rt-1",
        "company_id": "1234567",
    }
    defaults.update(fields)
    with tenant_context(tenant):
        return AccountingConnection.objects.create(**defaults)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_renewing_at_once_spend_the_refresh_token_once(fake):
    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(tenant, fake)
    fake.token_delay = 0.5  # the first renewal is still running when the second worker asks
    results: dict[str, str] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def worker(name: str) -> None:
        try:
            with tenant_context(tenant):
                row = AccountingConnection.objects.get(pk=conn.pk)
            adapter = services.adapter_of(row)
            barrier.wait()
            results[name] = adapter.tokens.get()
            adapter.close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            db_connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert not errors, errors
    assert fake.token_calls == 1
    assert results["a"] == results["b"] and results["a"] in fake.valid_tokens
    with tenant_context(tenant):
        stored = AccountingConnection.objects.get(pk=conn.pk)
        assert stored.refresh_token == fake.refresh_token != "rt-1"
    # the stored, rotated refresh token works for the next renewal
    fake.expire_tokens()
    adapter = services.adapter_of(stored)
    assert adapter.tokens.renew(stored.access_token) in fake.valid_tokens
    adapter.close()
    with tenant_context(tenant):
        AccountingConnection.objects.all().delete()


@pytest.mark.django_db
def test_a_renewal_after_another_workers_renewal_uses_its_token(fake):
    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(tenant, fake)
    first = services.adapter_of(conn)
    token = first.tokens.get()
    # a second worker saw an older token fail with 401: the stored one is newer, so it is used as is
    second = services.adapter_of(conn)
    assert second.tokens.renew("an-older-token") == token
    assert fake.token_calls == 1
    first.close()
    second.close()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, "Connected to Visma eAccounting, company Demo AB."),
        ({"client_secret": "wrong"}, "The client id or client secret is wrong"),
        ({"refresh_token": "rt-old"}, "The refresh token is no longer valid"),
        ({"company_id": "999"}, "not to 999"),
        ({"refresh_token": ""}, "There is no refresh token yet"),
    ],
)
def test_eaccounting_connection_test_says_what_is_wrong(fake, fields, expected):
    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(tenant, fake, **fields)
    with tenant_context(tenant):
        result = services.connection_test(connection=conn)
        conn.refresh_from_db()
    assert result["ok"] is (not fields)
    assert expected in result["message"]
    assert conn.last_test_ok is result["ok"] and conn.last_test_message == result["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, "Connected to Visma.net ERP, company 1234567."),
        ({"client_secret": "nope"}, "The client id or client secret is wrong"),
        ({"company_id": "7654321"}, "The company id is not one these credentials may use"),
        ({"client_secret": ""}, "The client secret is missing."),
        ({"token_url": "http://127.0.0.1:9/token"}, "The token service could not be reached"),
    ],
)
def test_visma_net_connection_test_says_what_is_wrong(fake, fields, expected):
    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(
        tenant, fake, provider="visma_net", base_url=f"{fake.url}/v1/", refresh_token="", **fields
    )
    with tenant_context(tenant):
        result = services.connection_test(connection=conn)
    assert result["ok"] is (not fields)
    assert expected in result["message"]


@pytest.mark.django_db
def test_unreachable_api_is_said_in_words(fake):
    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(tenant, fake, provider="visma_net", base_url="http://127.0.0.1:9/v1/")
    with tenant_context(tenant):
        result = services.connection_test(connection=conn)
    assert result == {"ok": False, "message": "The accounting system could not be reached (ConnectError)."}


def test_retry_after_parsing():
    from apps.accounting.adapters.base import retry_after_seconds

    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds(None) is None


@pytest.mark.django_db
def test_the_outcome_is_kept_in_english_and_read_in_the_readers_language(fake):
    """Whoever ran the test, the stored outcome is the catalogue's English and each reader sees it in their
    own language: a Chinese user no longer reads an English user's "could not be resolved", and the other
    way round."""
    from django.utils import translation

    from apps.accounting.api.serializers import ConnectionSerializer

    tenant = Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade")
    conn = _connection(tenant, fake, provider="visma_net", client_secret="")
    with tenant_context(tenant), translation.override("zh-hans"):
        result = services.connection_test(connection=conn)
        conn.refresh_from_db()
        read_in_chinese = ConnectionSerializer(conn).data["last_test_message"]
    assert conn.last_test_message == "The client secret is missing."
    assert result["message"] == read_in_chinese
    assert read_in_chinese != conn.last_test_message and "客户端密钥" in read_in_chinese
    with translation.override("en"):
        assert ConnectionSerializer(conn).data["last_test_message"] == "The client secret is missing."
