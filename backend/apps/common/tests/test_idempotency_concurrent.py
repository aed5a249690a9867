"""`Idempotency-Key` under concurrency, on PostgreSQL: two carton generations with the same key at the
same moment (two threads, each with its own database connection and its own request transaction). The
second arrives while the first is inside its transaction, after its write: it waits on the key's unique
index, then answers the first one's answer; the cartons are generated once. When the first fails
instead, the second does the write, once. A key whose first request is still running as far as the
database shows answers 409 `idempotency_key_in_progress`, never an empty answer."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections

from apps.common.models import IdempotentRequest
from apps.eudr import services as eudr_services
from apps.eudr.errors import InsufficientWeight
from apps.eudr.models import CartonLabel, RawMaterialDelivery
from apps.eudr.tests import factories
from apps.eudr.tests.test_cartons_api import RAW, generate_payload

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not django_settings.IS_POSTGRES, reason="needs PostgreSQL (DATABASE_URL): concurrent transactions"
    ),
    pytest.mark.django_db(transaction=True),
]

DEADLINE = 60


@pytest.fixture
def setup(tenant3, tenant2, in_tenant, make_user):
    w = factories.world(tenant3, tenant2, in_tenant, make_user)
    with in_tenant(w.tenant3):
        w.delivery = factories.delivery(w.vendor_a, weight="100")
    return w


def cartons(w, in_tenant) -> int:
    with in_tenant(w.tenant3):
        delivery = RawMaterialDelivery.objects.get(pk=w.delivery.pk)
        return CartonLabel.objects.filter(raw_material=delivery).count()


def another_request_waits_on_a_lock() -> bool:
    """Whether another connection to this database waits for a lock (the second request, on the key)."""
    with connection.cursor() as cursor:
        # inside a transaction the activity view is read once and kept, unless the snapshot is cleared
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


class HeldGeneration:
    """Replaces the generation service: it does the real write, then (inside the first request's
    transaction) holds until the second request is seen waiting for the key, then returns or fails."""

    def __init__(self, monkeypatch, *, fail: bool = False) -> None:
        self.entered = threading.Event()
        self.calls = 0
        self.saw_the_second_waiting = False
        self.fail = fail
        real = eudr_services.cartons_generate

        def held(**kwargs):
            self.calls += 1
            batch = real(**kwargs)
            if self.calls == 1:
                self.entered.set()
                deadline = time.monotonic() + DEADLINE
                while time.monotonic() < deadline and not another_request_waits_on_a_lock():
                    time.sleep(0.05)
                self.saw_the_second_waiting = another_request_waits_on_a_lock()
                if self.fail:
                    raise InsufficientWeight()
            return batch

        monkeypatch.setattr(eudr_services, "cartons_generate", held)


def send_both(api, w, key: str, held: HeldGeneration) -> tuple:
    answers: dict[str, object] = {}

    def send(name: str) -> None:
        try:
            answers[name] = api(w.supplier_a, w.tenant3).post(
                f"{RAW}{w.delivery.pk}/generate-cartons/",
                generate_payload(w.line_a, 20),
                format="json",
                HTTP_IDEMPOTENCY_KEY=key,
            )
        except Exception as exc:  # reported by the assertion below, with the thread's error
            answers[name] = exc
        finally:
            connections.close_all()

    first = threading.Thread(target=send, args=("first",))
    first.start()
    assert held.entered.wait(DEADLINE), "the first request never reached the generation"
    second = threading.Thread(target=send, args=("second",))
    second.start()
    first.join(DEADLINE)
    second.join(DEADLINE)
    assert not first.is_alive() and not second.is_alive()
    return answers["first"], answers["second"]


def test_two_requests_with_the_same_key_at_once_generate_once_and_answer_alike(
    setup, api, in_tenant, monkeypatch
):
    w = setup
    held = HeldGeneration(monkeypatch)
    first, second = send_both(api, w, str(uuid.uuid4()), held)
    assert held.saw_the_second_waiting, "the second request did not overlap the first one's transaction"
    assert first.status_code == 201, first.content
    assert second.status_code == 201, second.content
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert held.calls == 1  # the second never ran the generation
    assert cartons(w, in_tenant) == 20


def test_when_the_first_fails_the_waiting_second_does_the_write_once(setup, api, in_tenant, monkeypatch):
    w = setup
    held = HeldGeneration(monkeypatch, fail=True)
    key = str(uuid.uuid4())
    first, second = send_both(api, w, key, held)
    assert held.saw_the_second_waiting
    assert first.status_code == 409 and first.json()["error"] == "insufficient_weight"
    assert second.status_code == 201, second.content
    assert not second.has_header("Idempotent-Replayed")
    assert held.calls == 2
    assert cartons(w, in_tenant) == 20  # the first one's cartons were rolled back with it
    with in_tenant(w.tenant3):
        assert IdempotentRequest.objects.get(key=key).response_status == 201


def test_a_key_still_without_its_answer_is_refused_as_in_progress(setup, api, in_tenant):
    """A key row seen before its answer is stored (written by a process that stores it later) is neither
    replayed as an empty answer nor run a second time."""
    from apps.common.idempotency import IN_PROGRESS, _fingerprint  # noqa: F401 (the stored shape)

    w = setup
    key = "in-flight"
    client = api(w.supplier_a, w.tenant3)
    done = client.post(
        f"{RAW}{w.delivery.pk}/generate-cartons/",
        generate_payload(w.line_a, 5),
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert done.status_code == 201
    with in_tenant(w.tenant3):
        IdempotentRequest.objects.filter(key=key).update(response_status=IN_PROGRESS, response_body=None)
    again = client.post(
        f"{RAW}{w.delivery.pk}/generate-cartons/",
        generate_payload(w.line_a, 5),
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert again.status_code == 409 and again.json()["error"] == "idempotency_key_in_progress"
    assert cartons(w, in_tenant) == 5
