"""A delivery number is unique per parent vendor, also when two requests create it at the same moment:
the second one gets the validation error, never a 500 from the unique constraint."""

import threading

import pytest
from django.db import connection, transaction

from apps.common.exceptions import FieldErrors
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.services import deliveries as services
from apps.tenancy.context import tenant_context

from . import factories

DUPLICATE = {"delivery_number": ["This parent vendor already has a delivery with this number."]}


def _check_passes_once(monkeypatch):
    """The pre-check answers "no clash" the first time, as it does for two requests that both check
    before either has inserted; later calls (after the constraint fired) see the truth."""
    real = services._number_clashes
    calls = {"n": 0}

    def racing(delivery):
        calls["n"] += 1
        return False if calls["n"] == 1 else real(delivery)

    monkeypatch.setattr(services, "_number_clashes", racing)
    return calls


@pytest.mark.django_db
@pytest.mark.parametrize("draft", [False, True])
def test_the_unique_constraint_becomes_the_validation_error(eudr_world, in_tenant, monkeypatch, draft):
    w = eudr_world
    with in_tenant(w.tenant3), transaction.atomic():
        factories.delivery(w.vendor_a, delivery_number="DN-RACE-1")
        calls = _check_passes_once(monkeypatch)
        with pytest.raises(FieldErrors) as info:
            factories.delivery(w.vendor_a, delivery_number="DN-RACE-1", draft=draft)
        assert info.value.data == DUPLICATE
        assert calls["n"] == 2
        # the savepoint kept the surrounding transaction usable
        assert RawMaterialDelivery.objects.filter(delivery_number="DN-RACE-1").count() == 1


@pytest.mark.django_db
def test_over_the_api_the_race_answers_400_not_500(eudr_world, api, monkeypatch, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        factories.delivery(w.vendor_a, delivery_number="DN-RACE-2")
    _check_passes_once(monkeypatch)
    client = api(w.purchaser, w.tenant3)
    data = factories.delivery_data(None, delivery_number="DN-RACE-2")
    payload = {
        **{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in data.items()},
        "parent_vendor": w.vendor_a.pk,
        "lines": [{**factories.paper_line("500"), "weight_kg": "500"}],
    }
    response = client.post("/api/eudr/raw-materials/", payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "validation_error"
    assert response.json()["data"] == DUPLICATE


@pytest.mark.django_db
def test_renaming_a_draft_onto_a_used_number_is_the_validation_error(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        factories.delivery(w.vendor_a, delivery_number="DN-TAKEN")
        draft = factories.delivery(w.vendor_a, delivery_number="DN-DRAFT", draft=True)
    response = api(w.purchaser, w.tenant3).patch(
        f"/api/eudr/raw-materials/{draft.pk}/", {"delivery_number": "DN-TAKEN"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["data"] == DUPLICATE


@pytest.mark.django_db
def test_another_integrity_error_is_not_hidden(eudr_world, in_tenant, monkeypatch):
    """Only a clash of the delivery number becomes the validation error; any other constraint failure
    still surfaces."""
    from django.db import IntegrityError

    w = eudr_world

    def broken_save(self, *args, **kwargs):
        raise IntegrityError("some other constraint")

    with in_tenant(w.tenant3):
        monkeypatch.setattr(RawMaterialDelivery, "save", broken_save)
        with pytest.raises(IntegrityError):
            factories.delivery(w.vendor_a, delivery_number="DN-OTHER")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_creating_the_same_number_at_once(eudr_world, monkeypatch, pg_role_check):
    """Both threads pass the pre-check (held at a barrier after it), then both insert: the unique index
    makes the second wait for the first to commit, fail, and answer the validation error."""
    w = eudr_world
    barrier = threading.Barrier(2)
    real = services._number_clashes

    waited = set()

    def check_then_wait(delivery):
        clash = real(delivery)
        if threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            barrier.wait(timeout=10)
        return clash

    monkeypatch.setattr(services, "_number_clashes", check_then_wait)
    results: list = [None, None]

    def work(index):
        try:
            with transaction.atomic(), tenant_context(w.tenant3):
                factories.delivery(w.vendor_a, delivery_number="DN-RACE-PG")
            results[index] = "created"
        except FieldErrors as exc:
            results[index] = exc.data
        except Exception as exc:  # the test reports whatever else happened
            results[index] = repr(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results, key=str) == sorted(["created", DUPLICATE], key=str)
    with tenant_context(w.tenant3):
        assert RawMaterialDelivery.objects.filter(delivery_number="DN-RACE-PG").count() == 1
