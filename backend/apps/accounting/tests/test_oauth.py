"""The eAccounting consent flow against the fake Visma identity server: the authorization URL, the
redirect back with code and state, the code exchanged (PKCE checked) and the tokens stored encrypted;
the state single-use, expiring, bound to the company and the user; access_denied and invalid_grant in
words; permissions; hostile bodies."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from django.db import connection as db
from django.utils import timezone

from apps.accounting.models import AccountingConnection, AuthorizationRequest
from apps.suppliers.models import ParentVendor
from apps.users.models import User

pytestmark = pytest.mark.django_db

CONNECTION = "/api/accounting/connection/"
START = "/api/accounting/oauth/start/"
CALLBACK = "/api/accounting/oauth/callback/"
REDIRECT = "/api/accounting/oauth/redirect-uri/"


@pytest.fixture
def acc(tenant2, tenant3, make_user, in_tenant):
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Shanghai Evergreen Packaging")
    return {
        "tenant2": tenant2,
        "tenant3": tenant3,
        "admin": make_user(tenant3, "Administrator", username="boss"),
        "admin2": make_user(tenant3, "Administrator", username="boss2"),
        "sales": make_user(tenant3, "Sales", username="seller"),
        "supplier": make_user(tenant3, "Supplier", username="vendor", is_supplier=True, parent_vendor=vendor),
        "warehouse": make_user(tenant3, "Administrator", username="stock", is_warehouse=True),
        "admin_x": make_user(tenant2, "Administrator", username="other"),
        "both": make_user(None, "Administrator", username="both", tenants=[tenant2, tenant3]),
    }


def _ea_body(fake, **extra):
    body = {
        "provider": "visma_eaccounting",
        "base_url": f"{fake.url}/v2/",
        "token_url": f"{fake.url}/token",
        "client_id": "cartontrace",
        "client_secret": "s3cret",
        "company_id": "1234567",
        "supplier_level": "supplier",
    }
    body.update(extra)
    return body


def _connect(client, fake, **extra):
    response = client.put(CONNECTION, _ea_body(fake, **extra), format="json")
    assert response.status_code == 200, response.json()


def _start(client) -> dict:
    response = client.post(START)
    assert response.status_code == 200, response.json()
    return response.json()["data"]


def _visit(url: str) -> dict[str, str]:
    """The browser at Visma's authorization page: follows nothing, reads where Visma sends it back."""
    answer = httpx.get(url, follow_redirects=False)
    assert answer.status_code == 302, answer.text
    location = urlparse(answer.headers["Location"])
    return {
        "base": location._replace(query="").geturl(),
        **{k: v[0] for k, v in parse_qs(location.query).items()},
    }


def test_consent_flow_stores_the_tokens_encrypted_and_they_work(acc, api, fake, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    redirect = client.get(REDIRECT).json()["data"]["redirect_uri"]
    assert redirect == "http://testserver/settings/accounting/callback"
    started = _start(client)
    assert started["redirect_uri"] == redirect
    url = urlparse(started["authorization_url"])
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert url.path == "/authorize"  # the token URL's sibling
    assert query["client_id"] == "cartontrace" and query["response_type"] == "code"
    assert query["redirect_uri"] == redirect
    assert set(query["scope"].split()) >= {"ea:api", "offline_access", "ea:sales"}
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) == 43
    assert len(query["state"]) >= 43
    back = _visit(started["authorization_url"])
    assert back["base"] == redirect and back["state"] == query["state"]

    response = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["data"] == {
        "ok": True,
        "message": "Connected to Visma eAccounting, company Demo AB.",
    }
    assert "rt-" not in response.content.decode() and "at-" not in response.content.decode()
    with in_tenant(acc["tenant3"]):
        stored = AccountingConnection.objects.get()
        assert stored.refresh_token == fake.refresh_token and stored.access_token in fake.valid_tokens
        assert stored.last_test_ok is True
        with db.cursor() as cursor:
            cursor.execute("SELECT refresh_token, access_token FROM accounting_accountingconnection")
            raw_refresh, raw_access = cursor.fetchone()
        assert fake.refresh_token not in raw_refresh and stored.access_token not in raw_access
        request = AuthorizationRequest.objects.get()
        assert request.outcome == "connected" and request.used_at is not None
        assert request.state_hash != back["state"] and back["state"] not in request.state_hash
    assert client.get(CONNECTION).json()["data"]["has_refresh_token"] is True
    # the refresh token works: an expired access token is renewed with it
    fake.expire_tokens()
    with in_tenant(acc["tenant3"]):
        AccountingConnection.objects.update(access_token_expires_at=timezone.now())
    assert client.post(f"{CONNECTION}test/").json()["data"]["ok"] is True
    assert len([r for r in fake.requests if r["path"] == "/token"]) == 2


def test_the_state_is_single_use(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    back = _visit(_start(client)["authorization_url"])
    assert (
        client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json").status_code
        == 200
    )
    again = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")
    assert again.status_code == 400
    assert again.json()["error"] == "accounting_state_used"
    assert "used already" in again.json()["message"]
    assert len(fake.calls("POST", "/token")) == 1  # the replay never reached Visma


def test_an_expired_state_is_refused_and_spent(acc, api, fake, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    back = _visit(_start(client)["authorization_url"])
    with in_tenant(acc["tenant3"]):
        AuthorizationRequest.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "accounting_state_expired"
    assert "10 minutes" in response.json()["message"]
    with in_tenant(acc["tenant3"]):
        assert AuthorizationRequest.objects.get().used_at is not None
        assert AccountingConnection.objects.get().refresh_token == ""
    assert fake.calls("POST", "/token") == []


def test_another_company_and_another_user_cannot_finish_it(acc, api, fake, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    _connect(api(acc["admin_x"], acc["tenant2"]), fake)
    back = _visit(_start(client)["authorization_url"])
    body = {"code": back["code"], "state": back["state"]}
    # tenant 2's administrator: the state is not found under tenant 2 (row-level security)
    other = api(acc["admin_x"], acc["tenant2"]).post(CALLBACK, body, format="json")
    assert other.status_code == 400 and other.json()["error"] == "accounting_state_unknown"
    # a member of both companies, calling as tenant 2: not found either
    both = api(acc["both"], acc["tenant2"]).post(CALLBACK, body, format="json")
    assert both.status_code == 400 and both.json()["error"] == "accounting_state_unknown"
    # another administrator of the same company
    colleague = api(acc["admin2"], acc["tenant3"]).post(CALLBACK, body, format="json")
    assert colleague.status_code == 403 and colleague.json()["error"] == "accounting_state_other_user"
    # none of them spent it: the user who started it still finishes it
    assert client.post(CALLBACK, body, format="json").status_code == 200
    with in_tenant(acc["tenant2"]):
        assert AccountingConnection.objects.get().refresh_token == ""
        assert AuthorizationRequest.objects.count() == 0


def test_access_denied_and_invalid_grant_are_said_in_words(acc, api, fake, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake, refresh_token="rt-1")
    fake.deny_next = True
    back = _visit(_start(client)["authorization_url"])
    assert back["error"] == "access_denied" and "code" not in back
    denied = client.post(CALLBACK, {"error": "access_denied", "state": back["state"]}, format="json")
    assert denied.status_code == 400 and denied.json()["error"] == "accounting_authorization_denied"
    assert "cancelled or refused in Visma" in denied.json()["message"]
    # a code Visma no longer accepts (here: used already by someone replaying it at the token URL)
    back = _visit(_start(client)["authorization_url"])
    fake.codes[back["code"]]["used"] = True
    failed = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")
    assert failed.status_code == 400 and failed.json()["error"] == "accounting_authorization_failed"
    assert "did not accept the authorisation code" in failed.json()["message"]
    # a code obtained for another redirect URI or without the verifier is refused the same way
    back = _visit(_start(client)["authorization_url"])
    fake.codes[back["code"]]["challenge"] = "x" * 43
    assert (
        client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json").status_code
        == 400
    )
    with in_tenant(acc["tenant3"]):
        assert AccountingConnection.objects.get().refresh_token == "rt-1"  # the old one is kept
        outcomes = sorted(AuthorizationRequest.objects.values_list("outcome", flat=True))
    assert outcomes == ["denied", "failed", "failed"]


def test_wrong_client_secret_and_unreachable_token_service(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake, client_secret="wrong")
    back = _visit(_start(client)["authorization_url"])
    response = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")
    assert response.status_code == 400 and "client secret is wrong" in response.json()["message"]
    fake.script("POST", "/token", (503, {"error": "temporarily_unavailable"}))
    client.put(CONNECTION, {"client_secret": "s3cret"}, format="json")
    back = _visit(_start(client)["authorization_url"])
    response = client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")
    assert response.status_code == 502 and response.json()["error"] == "accounting_token_service_unavailable"


def test_start_needs_an_eaccounting_connection_with_a_secret(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    assert client.post(START).status_code == 404
    client.put(
        CONNECTION,
        {**_ea_body(fake), "provider": "visma_net", "base_url": f"{fake.url}/v1/"},
        format="json",
    )
    refused = client.post(START)
    assert (
        refused.status_code == 409 and refused.json()["error"] == "accounting_authorization_not_eaccounting"
    )


def test_pkce_can_be_switched_off_and_the_authorize_url_configured(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake, options={"pkce": False, "authorize_url": f"{fake.url}/authorize?ui_locales=sv"})
    started = _start(client)
    query = parse_qs(urlparse(started["authorization_url"]).query)
    assert "code_challenge" not in query and query["ui_locales"] == ["sv"]
    back = _visit(started["authorization_url"])
    assert (
        client.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json").status_code
        == 200
    )
    token_call = fake.calls("POST", "/token")[0]
    assert b"code_verifier" not in token_call["raw"]


def test_redirect_uri_follows_public_base_url(acc, api, settings):
    settings.PUBLIC_BASE_URL = "https://trace.example.com/"
    response = api(acc["admin"], acc["tenant3"]).get(REDIRECT)
    assert response.json()["data"]["redirect_uri"] == "https://trace.example.com/settings/accounting/callback"


def test_permissions_internal_managers_only(acc, api, fake):
    _connect(api(acc["admin"], acc["tenant3"]), fake)
    for user in ("sales", "supplier", "warehouse"):
        client = api(acc[user], acc["tenant3"])
        assert client.post(START).status_code == 403, user
        assert client.get(REDIRECT).status_code == 403, user
        assert client.post(CALLBACK, {"code": "x", "state": "a" * 43}, format="json").status_code == 403
    assert api(None, acc["tenant3"]).post(START).status_code == 401
    assert api(acc["admin_x"], acc["tenant3"]).post(START).status_code == 403  # not a member


@pytest.mark.parametrize(
    "body",
    [
        [],
        "text",
        {},
        {"state": "a" * 43},
        {"code": "abc"},
        {"state": "short", "code": "abc"},
        {"state": "a" * 43 + "!", "code": "abc"},
        {"state": "a" * 300, "code": "abc"},
        {"state": {"$gt": ""}, "code": "abc"},
        {"state": "a" * 43, "code": ["abc"]},
        {"state": "a" * 43, "code": "a b"},
        {"state": "a" * 43, "code": "x" * 3000},
        {"state": "a" * 43, "error": "<script>"},
        {"state": "a" * 43, "error": None},
        {"state": "a" * 43, "code": "", "error_description": "x"},
    ],
)
def test_hostile_callback_bodies_are_400(acc, api, fake, body):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    response = client.post(CALLBACK, body, format="json")
    assert response.status_code == 400, response.content
    assert fake.calls("POST", "/token") == []


def test_unknown_state_is_400_in_words(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    response = client.post(CALLBACK, {"code": "abc", "state": "a" * 43}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "accounting_state_unknown"
    assert "Start the connection again" in response.json()["message"]


@pytest.mark.django_db(transaction=True)
def test_the_callback_outside_the_request_transaction_sees_the_users_permissions(acc, api, fake):
    """The callback view runs outside the request transaction; the permission check reads the user's
    roles under row-level security, whose tenant setting is transaction-local. With every request in its
    own transaction, as the server runs them (not inside a test's transaction), an administrator who is
    no superuser finishes the flow."""
    client = api(acc["admin"], acc["tenant3"])
    _connect(client, fake)
    back = _visit(_start(client)["authorization_url"])
    # the user as the server loads it for each request (the client's instance caches its permissions)
    fresh = api(User.objects.get(pk=acc["admin"].pk), acc["tenant3"])

    response = fresh.post(CALLBACK, {"code": back["code"], "state": back["state"]}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["data"]["ok"] is True
    assert client.get(CONNECTION).json()["data"]["has_refresh_token"] is True
    # and a user without accounting.manage is still refused there
    seller = api(User.objects.get(pk=acc["sales"].pk), acc["tenant3"])
    assert seller.post(CALLBACK, {"code": "x", "state": back["state"]}, format="json").status_code == 403
