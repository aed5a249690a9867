"""Pairing: one-time, expiring codes; only hashes are stored; the token decides the tenant."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from apps.printing import services
from apps.printing.models import PairingCode, PrintAgent

pytestmark = pytest.mark.django_db

PAIR = "/api/printer/pair/"


def new_code(w, in_tenant, **kwargs) -> str:
    with in_tenant(w.tenant3):
        return services.pairing_code_create(name="Packing line", user=w.admin, **kwargs)[1]


def test_pairing_code_from_the_api_pairs_once(printing_world, api, client):
    w = printing_world
    response = api(w.admin, w.tenant3).post(
        "/api/printing/agents/pairing-code/", {"name": "Line 2"}, format="json"
    )
    assert response.status_code == 201, response.json()
    code = response.json()["data"]["code"]
    assert len(code) == 9 and code[4] == "-"
    first = client.post(PAIR, {"code": code.lower(), "hostname": "pi"}, content_type="application/json")
    assert first.status_code == 201, first.json()
    token = first.json()["data"]["token"]
    second = client.post(PAIR, {"code": code}, content_type="application/json")
    assert second.status_code == 400
    assert second.json()["error"] == "pairing_code_used"
    heartbeat = client.post(
        "/api/printer/heartbeat/", {}, content_type="application/json", HTTP_AUTHORIZATION=f"Agent {token}"
    )
    assert heartbeat.status_code == 200
    assert heartbeat.json()["data"]["name"] == "Line 2"


def test_expired_code_is_refused(printing_world, in_tenant, client):
    w = printing_world
    code = new_code(w, in_tenant)
    with in_tenant(w.tenant3):
        PairingCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.post(PAIR, {"code": code}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "pairing_code_expired"


@pytest.mark.parametrize("body", [{"code": "NOPE-NOPE"}, {"code": ""}, {}, [], {"code": ["x"]}, "text"])
def test_unknown_or_malformed_code_is_refused(printing_world, client, body):
    import json

    response = client.post(PAIR, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == 400


def test_only_hashes_are_stored(printing_world, in_tenant):
    w = printing_world
    code = new_code(w, in_tenant)
    agent, token = services.agent_pair(code=code)
    with in_tenant(w.tenant3):
        stored = PrintAgent.objects.get(pk=agent.pk)
        pairing = PairingCode.objects.get(agent=agent)
    assert token not in (stored.token_hash, stored.token_hint)
    assert stored.token_hash == services.secret_hash(token)
    assert pairing.code_hash == services.secret_hash(code.replace("-", ""))
    assert pairing.used_at is not None


def test_agent_gets_the_tenant_and_vendor_of_its_code(printing_world, in_tenant):
    w = printing_world
    code = new_code(w, in_tenant, parent_vendor=w.vendor_a)
    agent, _ = services.agent_pair(code=code)
    assert agent.tenant_id == w.tenant3.pk
    assert agent.parent_vendor_id == w.vendor_a.pk


@pytest.mark.postgres
def test_lookup_policy_admits_only_the_hash_asked_for(printing_world):
    """Outside a tenant, row-level security shows no agent rows, except the one whose hash is set."""
    w = printing_world
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM printing_printagent")
        assert cursor.fetchone()[0] == 0
    found = services.agent_tenant_for_token(w.token)
    assert found == (w.tenant3.pk, services.secret_hash(w.token))
    assert services.agent_tenant_for_token(w.token_x)[0] == w.tenant2.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM printing_printagent")
        assert cursor.fetchone()[0] == 0


def test_pairing_is_throttled(printing_world, client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "printer_pairing": "2/min",
        },
    }
    from django.core.cache import cache

    cache.clear()
    codes = [
        client.post(PAIR, {"code": "ZZZZ-ZZZZ"}, content_type="application/json").status_code
        for _ in range(3)
    ]
    assert codes == [400, 400, 429]
    cache.clear()


def test_renaming_an_agent_answers_every_field(printing_world, api):
    """A partial update (PATCH) answers the whole agent, as the schema says (parent_vendor_name included)."""
    client = api(printing_world.admin, printing_world.tenant3)
    response = client.patch(
        f"/api/printing/agents/{printing_world.agent.pk}/", {"name": "Line 1"}, format="json"
    )
    assert response.status_code == 200, response.json()
    agent = response.json()["data"]
    assert agent["name"] == "Line 1" and agent["parent_vendor_name"] == ""
    assert "printer_count" in agent
