"""The accounting API: the connection (secrets write-only), its test, mappings, the sync log with retry and
skip, dry run and sync; tenant isolation, permissions, supplier users, hostile bodies, query counts."""

from __future__ import annotations

import pytest

from apps.accounting.models import AccountingConnection, Mapping, SyncEntry
from apps.suppliers.models import ParentVendor

pytestmark = pytest.mark.django_db

CONNECTION = "/api/accounting/connection/"
MAPPINGS = "/api/accounting/mappings/"
LOG = "/api/accounting/sync-log/"


@pytest.fixture
def acc(tenant2, tenant3, make_user, in_tenant):
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Shanghai Evergreen Packaging")
    w = {
        "tenant2": tenant2,
        "tenant3": tenant3,
        "admin": make_user(tenant3, "Administrator", username="boss"),
        "sales": make_user(tenant3, "Sales", username="seller"),
        "supplier": make_user(tenant3, "Supplier", username="vendor", is_supplier=True, parent_vendor=vendor),
        "admin_x": make_user(tenant2, "Administrator", username="other"),
    }
    return w


def _body(fake, **extra):
    body = {
        "provider": "visma_net",
        "base_url": f"{fake.url}/v1/",
        "token_url": f"{fake.url}/token",
        "client_id": "cartontrace",
        "client_secret": "s3cret",
        "company_id": "1234567",
        "supplier_level": "supplier",
    }
    body.update(extra)
    return body


def _log_rows(in_tenant, tenant, n, status="failed"):
    with in_tenant(tenant):
        return [
            SyncEntry.objects.create(
                idempotency_key=f"invoice:{i}",
                kind="invoice",
                record_id=i,
                record_label=f"INV-2026-{i:05d}",
                status=status,
                attempts=1,
                error="Error: VAT code is not valid." if status == "failed" else "",
            )
            for i in range(1, n + 1)
        ]


def test_connection_save_read_and_secrets_never_returned(acc, api, fake, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    assert client.get(CONNECTION).status_code == 404
    response = client.put(CONNECTION, _body(fake), format="json")
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["has_client_secret"] is True and data["has_refresh_token"] is False
    assert "client_secret" not in data and "refresh_token" not in data and "access_token" not in data
    assert "s3cret" not in response.content.decode()
    # a PUT without the secret keeps it
    response = client.put(CONNECTION, {"company_id": "1234567", "enabled": True}, format="json")
    assert response.status_code == 200 and response.json()["data"]["has_client_secret"] is True
    with in_tenant(acc["tenant3"]):
        stored = AccountingConnection.objects.get()
        assert stored.client_secret == "s3cret"
    from django.db import connection

    with in_tenant(acc["tenant3"]), connection.cursor() as cursor:
        cursor.execute("SELECT client_secret FROM accounting_accountingconnection")
        assert cursor.fetchone()[0] not in ("", "s3cret")  # encrypted at rest
    test = client.post(f"{CONNECTION}test/")
    assert test.status_code == 200
    assert test.json()["data"] == {"ok": True, "message": "Connected to Visma.net ERP, company 1234567."}
    client.put(CONNECTION, {"client_secret": "wrong"}, format="json")
    test = client.post(f"{CONNECTION}test/").json()["data"]
    assert test["ok"] is False and "client secret is wrong" in test["message"]


@pytest.mark.parametrize(
    "body",
    [
        [],
        "text",
        {"provider": "sage"},
        {"base_url": "javascript:alert(1)"},
        {"base_url": "ftp://x/"},
        {"client_id": ""},
        {"client_id": "x" * 5000},
        {"client_secret": "x" * 5000},
        {"options": "not an object"},
        {"options": {"documents_from": "yesterday"}},
        {"options": {"unit_id": {"$gt": 1}}},
        {"supplier_level": None},
        {"enabled": "maybe"},
    ],
)
def test_hostile_connection_bodies_are_400(acc, api, fake, body):
    client = api(acc["admin"], acc["tenant3"])
    if isinstance(body, dict):
        body = {**_body(fake), **body}
    response = client.put(CONNECTION, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] != 0


def test_another_tenant_and_other_users_cannot_read_or_change(acc, api, fake, in_tenant):
    api(acc["admin"], acc["tenant3"]).put(CONNECTION, _body(fake), format="json")
    [row] = _log_rows(in_tenant, acc["tenant3"], 1)
    with in_tenant(acc["tenant3"]):
        mapping = Mapping.objects.create(
            kind="customer", local_key="1", local_label="C-1001", external_id="C-1001"
        )
    other = api(acc["admin_x"], acc["tenant2"])
    assert other.get(CONNECTION).status_code == 404
    assert other.post(f"{CONNECTION}test/").status_code == 404
    assert other.get(MAPPINGS).json()["data"]["results"] == []
    assert other.get(LOG).json()["data"]["results"] == []
    assert other.get(f"{LOG}{row.pk}/").status_code == 404
    assert other.post(f"{LOG}{row.pk}/retry/").status_code == 404
    assert other.post(f"{LOG}{row.pk}/skip/").status_code == 404
    assert other.patch(f"{MAPPINGS}{mapping.pk}/", {"external_id": "X"}, format="json").status_code == 404
    assert other.delete(f"{MAPPINGS}{mapping.pk}/").status_code == 404
    # another tenant's PUT creates its own connection, never touches tenant 3's
    assert other.put(CONNECTION, _body(fake, company_id="999"), format="json").status_code == 200
    with in_tenant(acc["tenant3"]):
        assert AccountingConnection.objects.get().company_id == "1234567"
    # a user of tenant 2 naming tenant 3 is not a member
    assert api(acc["admin_x"], acc["tenant3"]).get(CONNECTION).status_code == 403
    for user in (acc["supplier"], acc["sales"]):
        client = api(user, acc["tenant3"])
        assert client.get(CONNECTION).status_code == 403
        assert client.put(CONNECTION, _body(fake), format="json").status_code == 403
        assert client.get(LOG).status_code == 403
        assert client.get(MAPPINGS).status_code == 403
        assert client.post(f"{LOG}{row.pk}/retry/").status_code == 403
        assert client.post("/api/accounting/sync/").status_code == 403
        assert client.get("/api/accounting/dry-run/").status_code == 403


def test_sync_log_list_filters_search_and_actions(acc, api, in_tenant, fake):
    api(acc["admin"], acc["tenant3"]).put(CONNECTION, _body(fake, enabled=False), format="json")
    rows = _log_rows(in_tenant, acc["tenant3"], 3)
    with in_tenant(acc["tenant3"]):
        SyncEntry.objects.filter(pk=rows[2].pk).update(status="sent", external_id="INV-2026-00003", error="")
    client = api(acc["admin"], acc["tenant3"])
    response = client.get(LOG, {"status": "failed"})
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["count"] == 2
    assert client.get(LOG, {"search": "00003"}).json()["data"]["count"] == 1
    assert client.get(LOG, {"status": "bogus"}).status_code == 400
    assert client.get(LOG, {"record_id": "99999999999999999999999"}).status_code == 400
    assert [r["id"] for r in client.get(LOG, {"ordering": "created_at"}).json()["data"]["results"]] == [
        r.pk for r in rows
    ]
    retried = client.post(f"{LOG}{rows[0].pk}/retry/")
    assert retried.status_code == 200 and retried.json()["data"]["status"] == "pending"
    skipped = client.post(f"{LOG}{rows[1].pk}/skip/")
    assert skipped.status_code == 200 and skipped.json()["data"]["status"] == "skipped"
    refused = client.post(f"{LOG}{rows[2].pk}/retry/")
    assert refused.status_code == 409 and refused.json()["error"] == "sync_entry_not_retryable"
    assert client.post(f"{LOG}{rows[2].pk}/skip/").status_code == 409


def test_mappings_by_hand_edit_and_delete(acc, api, in_tenant):
    client = api(acc["admin"], acc["tenant3"])
    created = client.post(
        MAPPINGS, {"kind": "vat_code", "local_key": "21", "external_id": "3"}, format="json"
    )
    assert created.status_code in (200, 201), created.json()
    row = created.json()["data"]
    assert row["local_key"] == "21.00"
    again = client.post(
        MAPPINGS, {"kind": "vat_code", "local_key": "21.0", "external_id": "4"}, format="json"
    )
    assert again.status_code == 400
    for body in (
        {"kind": "customer", "local_key": "1", "external_id": "x"},
        {"kind": "vat_code", "local_key": "abc", "external_id": "x"},
        {"kind": "vat_code", "local_key": "150", "external_id": "x"},
        {"kind": "payment_term", "local_key": "-3", "external_id": "x"},
        {"kind": "payment_term", "local_key": "30", "external_id": ""},
        {"kind": "payment_term", "local_key": "30", "external_id": "a\nb"},
        {"kind": "nonsense"},
        [],
    ):
        assert client.post(MAPPINGS, body, format="json").status_code == 400, body
    assert client.post(
        MAPPINGS, {"kind": "payment_term", "local_key": "30", "external_id": "30D"}, format="json"
    ).status_code in (200, 201)
    assert client.get(MAPPINGS, {"kind": "payment_term"}).json()["data"]["count"] == 1
    assert client.get(MAPPINGS, {"search": "30D"}).json()["data"]["count"] == 1
    patched = client.patch(f"{MAPPINGS}{row['id']}/", {"external_id": "5"}, format="json")
    assert patched.status_code == 200 and patched.json()["data"]["external_id"] == "5"
    assert client.patch(f"{MAPPINGS}{row['id']}/", {"local_key": "9"}, format="json").status_code == 400
    assert client.delete(f"{MAPPINGS}{row['id']}/").status_code in (200, 204)
    assert client.get(MAPPINGS, {"kind": "vat_code"}).json()["data"]["count"] == 0


def test_dry_run_and_sync_need_a_connection(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    assert client.get("/api/accounting/dry-run/").json()["error"] == "accounting_connection_missing"
    client.put(CONNECTION, _body(fake, enabled=False), format="json")
    plan = client.get("/api/accounting/dry-run/")
    assert plan.status_code == 200 and plan.json()["data"] == {"masters": [], "documents": []}
    assert client.post("/api/accounting/sync/").status_code == 409


@pytest.mark.parametrize("path", [LOG, MAPPINGS])
def test_list_query_counts_are_pinned(acc, api, in_tenant, django_assert_num_queries, path):
    client = api(acc["admin"], acc["tenant3"])
    client.get(path)  # warm the permission cache of nothing: each request is a new user object anyway
    _log_rows(in_tenant, acc["tenant3"], 2)
    with in_tenant(acc["tenant3"]):
        for i in range(2):
            Mapping.objects.create(kind="article", local_key=str(i), local_label=f"A{i}", external_id=f"A{i}")
    expected = 5  # PostgreSQL's row-level-security setting travels with the membership read
    with django_assert_num_queries(expected):
        assert len(client.get(path).json()["data"]["results"]) == 2
    _log_rows_more = 30
    with in_tenant(acc["tenant3"]):
        for i in range(10, 10 + _log_rows_more):
            SyncEntry.objects.create(idempotency_key=f"invoice:{i}", kind="invoice", record_id=i)
            Mapping.objects.create(kind="article", local_key=str(i), local_label=f"A{i}", external_id=f"A{i}")
    with django_assert_num_queries(expected):
        assert len(client.get(path, {"page_size": 100}).json()["data"]["results"]) == 32


def test_payment_status_run_needs_an_enabled_connection(acc, api, fake):
    client = api(acc["admin"], acc["tenant3"])
    assert client.post("/api/accounting/payment-status/").status_code == 404
    client.put(CONNECTION, _body(fake, enabled=False), format="json")
    assert client.post("/api/accounting/payment-status/").status_code == 409
    client.put(CONNECTION, {"enabled": True}, format="json")
    response = client.post("/api/accounting/payment-status/")
    assert response.status_code == 200
    assert response.json()["data"] == {"read": 0, "changed": 0, "failed": 0}
