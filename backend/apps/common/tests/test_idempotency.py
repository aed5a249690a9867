"""`Idempotency-Key` (apps/common/idempotency.py), on carton generation: a repeat answers the first
result and issues nothing; another body with the same key is refused; a refused write is not kept; keys
are per tenant and user (another tenant's or another supplier's user with the same key is another
request)."""

import uuid

import pytest

from apps.common.models import IdempotentRequest
from apps.eudr.models import CartonLabel, RawMaterialDelivery
from apps.eudr.tests import factories
from apps.eudr.tests.test_cartons_api import RAW, generate_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(tenant3, tenant2, in_tenant, make_user):
    w = factories.world(tenant3, tenant2, in_tenant, make_user)
    with in_tenant(w.tenant3):
        w.delivery = factories.delivery(w.vendor_a, weight="100")
    return w


def generate(client, w, key, count=20):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        f"{RAW}{w.delivery.pk}/generate-cartons/", generate_payload(w.line_a, count), format="json", **headers
    )


def state(w, in_tenant):
    with in_tenant(w.tenant3):
        delivery = RawMaterialDelivery.objects.get(pk=w.delivery.pk)
        return CartonLabel.objects.filter(raw_material=delivery).count()


def test_a_repeated_generation_with_the_same_key_creates_its_cartons_once(setup, api, in_tenant):
    w = setup
    client = api(w.supplier_a, w.tenant3)
    key = str(uuid.uuid4())
    first = generate(client, w, key)
    assert first.status_code == 201, first.content
    again = generate(client, w, key)
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert state(w, in_tenant) == 20
    assert again.json()["data"]["delivery"]["weight"]["used_kg"] == "10.000"
    # a new key is a new request
    assert generate(client, w, str(uuid.uuid4())).status_code == 201
    assert state(w, in_tenant) == 40


def test_without_the_header_nothing_changes(setup, api, in_tenant):
    w = setup
    client = api(w.supplier_a, w.tenant3)
    assert generate(client, w, None).status_code == 201
    assert generate(client, w, None).status_code == 201
    assert state(w, in_tenant) == 40


def test_the_same_key_with_another_body_is_refused(setup, api, in_tenant):
    w = setup
    client = api(w.supplier_a, w.tenant3)
    key = "submit-1"
    assert generate(client, w, key, count=20).status_code == 201
    other = generate(client, w, key, count=30)
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused"
    assert state(w, in_tenant) == 20


@pytest.mark.parametrize("key", ["", "a b", "x" * 256, "ключ"])
def test_a_malformed_key_is_refused(setup, api, in_tenant, key):
    w = setup
    response = api(w.supplier_a, w.tenant3).post(
        f"{RAW}{w.delivery.pk}/generate-cartons/",
        generate_payload(w.line_a, 5),
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert response.status_code == 400 and response.json()["error"] == "idempotency_key_invalid"
    assert state(w, in_tenant) == 0


def test_a_refused_write_is_not_kept_and_can_be_sent_again(setup, api, in_tenant):
    w = setup
    client = api(w.supplier_a, w.tenant3)
    refused = generate(client, w, "k-refused", count=1_000_000)
    assert refused.status_code in (400, 409), refused.content
    with in_tenant(w.tenant3):
        assert not IdempotentRequest.objects.filter(key="k-refused").exists()
    # after correcting the body the client may reuse the key: nothing was kept
    assert generate(client, w, "k-refused", count=5).status_code == 201
    assert state(w, in_tenant) == 5


def test_keys_are_per_user_and_tenant(setup, api, in_tenant):
    w = setup
    key = "shared-key"
    assert generate(api(w.supplier_a, w.tenant3), w, key, count=5).status_code == 201
    # the same key from another user is that user's own request (here: refused by its own rules)
    other_vendor = generate(api(w.supplier_b, w.tenant3), w, key, count=5)
    assert other_vendor.status_code == 404
    assert not other_vendor.has_header("Idempotent-Replayed")
    admin = generate(api(w.admin, w.tenant3), w, key, count=5)
    assert admin.status_code == 201 and not admin.has_header("Idempotent-Replayed")
    # another tenant's user never sees the first answer
    foreign = generate(api(w.admin_x, w.tenant2), w, key, count=5)
    assert foreign.status_code == 404
    assert state(w, in_tenant) == 10
    with in_tenant(w.tenant2):
        assert not IdempotentRequest.objects.exists()


def test_old_keys_are_purged(setup, api, in_tenant):
    from datetime import timedelta

    from django.utils import timezone

    from apps.common.tasks import purge_idempotent_requests

    w = setup
    assert generate(api(w.supplier_a, w.tenant3), w, "old", count=5).status_code == 201
    with in_tenant(w.tenant3):
        IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert purge_idempotent_requests.apply().get() == 1
