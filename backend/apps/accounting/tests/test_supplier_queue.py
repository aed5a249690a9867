"""Suppliers and parent vendors are queued for the accounting system when they are created or changed
(at the level the connection pushes), through the same API the pages use: an edit queues exactly one
entry, an unchanged save queues nothing, nothing is sent twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounting import outbox
from apps.accounting.models import AccountingConnection, Mapping, SyncEntry
from apps.suppliers.models import Supplier

pytestmark = pytest.mark.django_db

SUPPLIERS = "/api/suppliers/"
VENDORS = "/api/suppliers/parent-vendors/"


def _entries(in_tenant, tenant, **filters):
    with in_tenant(tenant):
        return list(SyncEntry.objects.filter(**filters).order_by("pk"))


def _new_supplier(client, vendor, **extra):
    body = {
        "number": "S-NEW",
        "name": "New Carton Mill",
        "parent_vendor": vendor.pk,
        "country": "CN",
        "address": "88 Harbour Road, Ningbo",
        "email": "info@mill.example",
        "currency": "USD",
        "notes": "FSC certified",
        **extra,
    }
    response = client.post(SUPPLIERS, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["data"]


def test_supplier_create_edit_and_unchanged_save(
    fake, net_connection, sales_world, api, in_tenant, django_capture_on_commit_callbacks
):
    w = sales_world
    client = api(w["admin"], w["tenant3"])
    with django_capture_on_commit_callbacks() as kicks:
        created = _new_supplier(client, w["vendor_a"])
    assert len(kicks) == 1  # the worker is started after the commit
    [entry] = _entries(in_tenant, w["tenant3"], kind="supplier")
    assert (entry.record_id, entry.action, entry.status) == (created["id"], "create", "pending")
    outbox.process_outbox(w["tenant3"].pk)
    [entry] = _entries(in_tenant, w["tenant3"], kind="supplier")
    assert entry.status == "sent" and fake.net["supplier"]["S-NEW"]["name"] == {"value": "New Carton Mill"}
    posts = len(fake.calls("POST", "/v1/supplier"))

    # an unchanged save and a change of a field the accounting system does not get: nothing queued
    url = f"{SUPPLIERS}{created['id']}/"
    assert client.patch(url, {"name": "New Carton Mill"}, format="json").status_code == 200
    assert client.patch(url, {"notes": "Not FSC any more"}, format="json").status_code == 200
    assert len(_entries(in_tenant, w["tenant3"], kind="supplier")) == 1

    # an edit: exactly one entry, an update, sent once
    body = {"name": "Ningbo Carton Mill", "email": "sales@mill.example"}
    assert client.patch(url, body, format="json").status_code == 200
    assert client.patch(url, body, format="json").status_code == 200  # saved twice: still one entry
    outbox.process_outbox(w["tenant3"].pk)
    entries = _entries(in_tenant, w["tenant3"], kind="supplier")
    assert len(entries) == 2
    assert (entries[1].action, entries[1].status) == ("update", "sent")
    assert fake.net["supplier"]["S-NEW"]["name"] == {"value": "Ningbo Carton Mill"}
    assert len(fake.calls("PUT", "/v1/supplier/S-NEW")) == 1
    assert len(fake.calls("POST", "/v1/supplier")) == posts
    # sync now finds nothing left to send for it
    with in_tenant(w["tenant3"]):
        plan = outbox.sync_plan(AccountingConnection.objects.get())
    assert not [m for m in plan["masters"] if m["kind"] == "supplier" and m["record_id"] == created["id"]]


def test_edits_before_the_worker_runs_make_one_entry_sending_the_latest(
    fake, net_connection, sales_world, api, in_tenant, django_capture_on_commit_callbacks
):
    w = sales_world
    client = api(w["admin"], w["tenant3"])
    url = f"{SUPPLIERS}{w['supplier_a'].pk}/"
    with django_capture_on_commit_callbacks() as kicks:
        for name in ("Evergreen One", "Evergreen Two", "Evergreen Three"):
            assert client.patch(url, {"name": name}, format="json").status_code == 200
    [entry] = _entries(in_tenant, w["tenant3"], kind="supplier")
    assert (entry.status, entry.record_label) == ("pending", "Evergreen Three")
    assert len(kicks) == 1  # the worker is asked once, by the save that queued

    outbox.process_outbox(w["tenant3"].pk)

    assert fake.net["supplier"]["S-1001"]["name"] == {"value": "Evergreen Three"}
    assert len(fake.calls("POST", "/v1/supplier")) == 1 and fake.calls("PUT", "/v1/supplier/S-1001") == []


def test_an_edit_while_a_worker_holds_the_entry_gets_its_own(fake, net_connection, sales_world, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        supplier = Supplier.objects.get(pk=w["supplier_a"].pk)
        first = outbox.enqueue_supplier(supplier, "supplier")
        SyncEntry.objects.filter(pk=first.pk).update(leased_until=timezone.now() + timedelta(minutes=5))
        supplier.name = "Changed meanwhile"
        supplier.save()
        second = outbox.enqueue_supplier(supplier, "supplier")
        assert second.pk != first.pk
        # and once more with the same content: nothing new
        assert outbox.enqueue_supplier(supplier, "supplier").pk == second.pk
    assert len(_entries(in_tenant, w["tenant3"], kind="supplier")) == 2


def test_back_to_an_earlier_content_is_queued_again(fake, net_connection, sales_world, in_tenant):
    w = sales_world
    tenant = w["tenant3"].pk
    with in_tenant(w["tenant3"]):
        supplier = Supplier.objects.get(pk=w["supplier_a"].pk)
        outbox.enqueue_supplier(supplier, "supplier")
    outbox.process_outbox(tenant)
    for name in ("Renamed", "Evergreen No.1"):
        with in_tenant(w["tenant3"]):
            supplier.name = name
            supplier.save()
            assert outbox.enqueue_supplier(supplier, "supplier") is not None
        outbox.process_outbox(tenant)
    entries = _entries(in_tenant, w["tenant3"], kind="supplier")
    assert [e.status for e in entries] == ["sent", "sent", "sent"]
    assert len({e.idempotency_key for e in entries}) == 3
    assert fake.net["supplier"]["S-1001"]["name"] == {"value": "Evergreen No.1"}
    with in_tenant(w["tenant3"]):
        supplier.save()
        assert outbox.enqueue_supplier(supplier, "supplier") is None  # unchanged against the mapping


def test_parent_vendor_level(fake, net_connection, sales_world, api, in_tenant):
    w = sales_world
    with in_tenant(w["tenant3"]):
        AccountingConnection.objects.update(supplier_level="parent_vendor")
    client = api(w["admin"], w["tenant3"])
    assert client.patch(f"{SUPPLIERS}{w['supplier_a'].pk}/", {"name": "X"}, format="json").status_code == 200
    assert _entries(in_tenant, w["tenant3"]) == []  # suppliers are not what this company pushes
    response = client.patch(
        f"{VENDORS}{w['vendor_a'].pk}/", {"code": "PV-SEP", "email": "hq@evergreen.example"}, format="json"
    )
    assert response.status_code == 200, response.json()
    outbox.process_outbox(w["tenant3"].pk)
    [entry] = _entries(in_tenant, w["tenant3"])
    assert (entry.kind, entry.status) == ("parent_vendor", "sent")
    assert fake.net["supplier"]["PV-SEP"]["mainContact"]["value"]["email"] == {
        "value": "hq@evergreen.example"
    }
    assert client.patch(f"{VENDORS}{w['vendor_a'].pk}/", {"code": "PV-SEP"}, format="json").status_code == 200
    assert len(_entries(in_tenant, w["tenant3"])) == 1
    with in_tenant(w["tenant3"]):
        assert Mapping.objects.get(kind="parent_vendor").external_id == "PV-SEP"


def test_no_connection_disabled_or_inactive_queues_nothing(sales_world, api, in_tenant, fake, net_connection):
    w = sales_world
    client = api(w["admin"], w["tenant3"])
    with in_tenant(w["tenant3"]):
        AccountingConnection.objects.update(enabled=False)
    assert client.patch(f"{SUPPLIERS}{w['supplier_a'].pk}/", {"name": "A"}, format="json").status_code == 200
    with in_tenant(w["tenant3"]):
        AccountingConnection.objects.update(enabled=True)
    assert (
        client.patch(
            f"{SUPPLIERS}{w['supplier_a'].pk}/", {"is_active": False, "name": "B"}, format="json"
        ).status_code
        == 200
    )
    assert _entries(in_tenant, w["tenant3"]) == []
    # another company (without a connection) editing its own supplier queues nothing anywhere
    other = api(w["other_admin"], w["tenant2"])
    assert other.patch(f"{SUPPLIERS}{w['supplier_x'].pk}/", {"name": "Y"}, format="json").status_code == 200
    assert _entries(in_tenant, w["tenant2"]) == [] and _entries(in_tenant, w["tenant3"]) == []
    # and cannot touch tenant 3's supplier (so cannot queue it)
    assert other.patch(f"{SUPPLIERS}{w['supplier_a'].pk}/", {"name": "Z"}, format="json").status_code == 404
    # nor can a supplier user of another parent vendor
    vendor_b_user = api(w["supplier_user_b"], w["tenant3"])
    assert vendor_b_user.patch(
        f"{SUPPLIERS}{w['supplier_a'].pk}/", {"name": "Z"}, format="json"
    ).status_code in (
        403,
        404,
    )
    assert _entries(in_tenant, w["tenant3"]) == []


def test_unchanged_save_without_connection_costs_one_query(sales_world, in_tenant, django_assert_num_queries):
    w = sales_world
    with in_tenant(w["tenant3"]):
        supplier = Supplier.objects.get(pk=w["supplier_a"].pk)
        with django_assert_num_queries(1):
            assert outbox.enqueue_supplier(supplier, "supplier") is None
