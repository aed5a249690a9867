"""Received reference numbers (downstream operators and traders keep their suppliers' reference numbers 5
years) and verifyDeclaration: on entry, again on request, and before a statement of ours groups an
upstream statement; against a local server that answers as the EU information system."""

from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from apps.eudr.models import RawMaterialDelivery
from apps.eudr.received_models import ReceivedReference
from apps.eudr.tests.trace_data import make_cartons, make_delivery
from apps.tenancy.models import Tenant

from . import traces_server as fake
from .test_raw_materials_api import full_payload

pytestmark = pytest.mark.django_db

URL = "/api/eudr/received-references/"
RAW = "/api/eudr/raw-materials/"
GOOD = ("26NLX7TVCZAQ2S", "SFFCB4Y3")
WITHDRAWN = ("25FIKGLE0Q7R3B", "UPVERIF99")


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def server(settings):
    with fake.FakeTraces() as running:
        running.declarations[GOOD] = ("EXISTING_USABLE", "AVAILABLE")
        running.declarations[WITHDRAWN] = ("EXISTING_NON_USABLE", "WITHDRAWN")
        settings.EUDR_TRACES_URLS = {"acceptance": running.url, "production": running.url}
        settings.EUDR_TRACES_TIMEOUT = 0.5
        yield running


@pytest.fixture
def world(eudr_world):
    t = eudr_world.tenant3
    t.legal_name, t.address, t.country = "EuroTrade Goods B.V.", "Havenweg 12", "NL"
    t.eudr_purchase_role = "downstream"
    t.save()
    return eudr_world


@pytest.fixture
def account(world, api):
    saved = api(world.admin, world.tenant3).put(
        "/api/eudr/traces-account/",
        {"username": "eurotrade-ws", "auth_key": "s3cret-Key", "client_id": "eudr-test"},
        format="json",
    )
    assert saved.status_code == 200, saved.content
    return saved.json()["data"]


def body(world, pair=GOOD, **overrides):
    return {
        "parent_vendor": world.vendor_a.pk,
        "document_number": "SUP-DN-7781",
        "received_on": "2026-11-20",
        "reference_number": pair[0],
        "verification_number": pair[1],
        **overrides,
    }


def test_a_received_reference_is_verified_when_entered_and_kept_five_years(world, api, account, server):
    response = api(world.purchaser, world.tenant3).post(URL, body(world), format="json")
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert data["kind"] == "dds"
    assert (data["verification_result"], data["verification_status"]) == ("EXISTING_USABLE", "AVAILABLE")
    assert data["verified_at"].startswith("2026-11-20T10:00:00")
    assert data["keep_until"] == "2031-11-20"
    assert data["parent_vendor_name"] == world.vendor_a.name
    [(path, action, sent)] = server.requests
    assert path == "/tracesnt/ws/EUDRVerifyDeclarationServiceV3" and action == "verify-declaration"
    assert b"<verify:referenceNumber>26NLX7TVCZAQ2S</verify:referenceNumber>" in sent
    assert b"<verify:verificationNumber>SFFCB4Y3</verify:verificationNumber>" in sent


def test_a_simplified_declaration_identifier_is_accepted(world, api, account, server):
    server.declarations[("S26FRNMNBSA96Q", "K7R8LA90")] = ("EXISTING_USABLE", "AVAILABLE")
    response = api(world.purchaser, world.tenant3).post(
        URL, body(world, ("s26frnmnbsa96q", "K7R8LA90")), format="json"
    )
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert (data["reference_number"], data["kind"], data["verification_result"]) == (
        "S26FRNMNBSA96Q",
        "sd",
        "EXISTING_USABLE",
    )


@pytest.mark.parametrize(
    ("pair", "result", "status"),
    [(WITHDRAWN, "EXISTING_NON_USABLE", "WITHDRAWN"), (("26NLAAAAAAAAAA", "ABCDE"), "NON_EXISTENT", "")],
)
def test_the_systems_answer_is_kept_as_it_is(world, api, account, server, pair, result, status):
    data = api(world.purchaser, world.tenant3).post(URL, body(world, pair), format="json").json()["data"]
    assert (data["verification_result"], data["verification_status"]) == (result, status)


def test_verify_again_records_the_new_answer(world, api, account, server):
    client = api(world.purchaser, world.tenant3)
    created = client.post(URL, body(world), format="json").json()["data"]
    server.declarations[GOOD] = ("EXISTING_NON_USABLE", "WITHDRAWN")
    again = client.post(f"{URL}{created['id']}/verify/")
    assert again.status_code == 200, again.content
    assert again.json()["data"]["verification_result"] == "EXISTING_NON_USABLE"
    assert server.actions() == ["verify-declaration", "verify-declaration"]


def test_without_an_account_or_an_answer_the_reference_is_kept_unverified(world, api, settings):
    client = api(world.purchaser, world.tenant3)
    data = client.post(URL, body(world), format="json").json()["data"]
    assert data["verification_result"] == "" and data["verified_at"] is None
    assert "TRACES account" in data["verification_message"]


def test_an_unanswered_verification_says_so(world, api, account, server):
    server.answer("verify-declaration", fake.DELAY)
    data = api(world.purchaser, world.tenant3).post(URL, body(world), format="json").json()["data"]
    assert data["verification_result"] == ""
    assert data["verification_message"].startswith("Not verified")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"reference_number": "25FI-KGLE 0Q7R"}, "reference_number"),
        ({"reference_number": "25FIKGLE0Q7R"}, "reference_number"),
        ({"reference_number": ["26NLX7TVCZAQ2S"]}, "reference_number"),
        ({"verification_number": "ABC"}, "verification_number"),
        ({"verification_number": None}, "verification_number"),
        ({"document_number": ""}, "document_number"),
        ({"parent_vendor": 999999}, "parent_vendor"),
        ({"parent_vendor": {"id": 1}}, "parent_vendor"),
        ({"received_on": "2999-01-01"}, "received_on"),
        ({"received_on": "yesterday"}, "received_on"),
    ],
)
def test_malformed_entries_are_refused_before_anything_is_asked_or_stored(
    world, api, account, server, in_tenant, overrides, field
):
    response = api(world.purchaser, world.tenant3).post(URL, body(world, **overrides), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["data"]
    assert server.requests == []
    with in_tenant(world.tenant3):
        assert not ReceivedReference.objects.exists()


def test_a_body_of_the_wrong_shape_is_a_400(world, api):
    client = api(world.purchaser, world.tenant3)
    for payload in ([], "x", 5, None):
        assert client.post(URL, payload, format="json").status_code == 400


def test_the_same_reference_for_the_same_document_is_recorded_once(world, api, account, server):
    client = api(world.purchaser, world.tenant3)
    assert client.post(URL, body(world), format="json").status_code == 201
    again = client.post(URL, body(world), format="json")
    assert again.status_code == 400
    assert "reference_number" in again.json()["data"]


def test_deleting_is_for_mistakes_on_the_day_of_entry_only(world, api, account, server, in_tenant):
    client = api(world.purchaser, world.tenant3)
    first = client.post(URL, body(world), format="json").json()["data"]
    second = client.post(URL, body(world, document_number="SUP-DN-7782"), format="json").json()["data"]
    assert client.delete(f"{URL}{first['id']}/").status_code == 200
    with in_tenant(world.tenant3):
        ReceivedReference.objects.filter(pk=second["id"]).update(
            created_at=timezone.now() - timedelta(days=2)
        )
    refused = client.delete(f"{URL}{second['id']}/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "received_reference_retained"
    assert "kept until 20 Nov 2031." in refused.json()["message"]  # the day as people read it
    with in_tenant(world.tenant3):
        assert ReceivedReference.objects.filter(pk=second["id"]).exists()


def test_non_sme_companies_read_the_referenced_statement_smes_may_not(world, api, account, server):
    client = api(world.purchaser, world.tenant3)
    created = client.post(URL, body(world), format="json").json()["data"]
    response = client.get(f"{URL}{created['id']}/statement/")
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["activity_type"] == "IMPORT" and data["geolocation_confidential"] is True
    assert data["commodities"][0]["hs_heading"] == "4804"
    assert data["commodities"][0]["producer_countries"] == ["FI"]
    assert server.actions()[-1] == "getDdsByIdentifiers"
    sent = server.requests[-1][2]
    assert b"<eudrCommon:referenceNumber>26NLX7TVCZAQ2S</eudrCommon:referenceNumber>" in sent
    Tenant.objects.filter(pk=world.tenant3.pk).update(eudr_is_sme=True)
    refused = client.get(f"{URL}{created['id']}/statement/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "referenced_statement_not_allowed"


def test_another_tenant_and_suppliers_cannot_read_or_change_them(world, api, account, server):
    created = api(world.purchaser, world.tenant3).post(URL, body(world), format="json").json()["data"]
    other = api(world.admin_x, world.tenant2)
    assert other.get(URL).json()["data"]["results"] == []
    assert other.get(f"{URL}{created['id']}/").status_code == 404
    assert other.post(f"{URL}{created['id']}/verify/").status_code == 404
    assert other.delete(f"{URL}{created['id']}/").status_code == 404
    # another tenant's parent vendor cannot be named
    with_vendor_x = other.post(URL, {**body(world), "parent_vendor": world.vendor_a.pk}, format="json")
    assert with_vendor_x.status_code == 400
    for supplier in (world.supplier_a, world.supplier_b):
        client = api(supplier, world.tenant3)
        assert client.get(URL).status_code == 403
        assert client.get(f"{URL}{created['id']}/").status_code == 403
        assert client.post(URL, body(world), format="json").status_code == 403
        assert client.delete(f"{URL}{created['id']}/").status_code == 403


# -- a delivery's upstream statement ---------------------------------------------------------------------


def test_a_deliverys_upstream_statement_is_verified_when_entered(world, api, account, server):
    client = api(world.purchaser, world.tenant3)
    response = client.post(
        RAW,
        full_payload(
            world.vendor_a.pk, upstream_dds_reference=WITHDRAWN[0], upstream_dds_verification=WITHDRAWN[1]
        ),
        format="json",
    )
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert (data["upstream_verification_result"], data["upstream_verification_status"]) == (
        "EXISTING_NON_USABLE",
        "WITHDRAWN",
    )
    assert data["upstream_verified_at"]
    # a corrected pair is verified again; an unchanged edit asks nothing
    changed = client.patch(
        f"{RAW}{data['id']}/",
        {"upstream_dds_reference": GOOD[0], "upstream_dds_verification": GOOD[1]},
        format="json",
    )
    assert changed.json()["data"]["upstream_verification_result"] == "EXISTING_USABLE"
    client.patch(f"{RAW}{data['id']}/", {"description": "Kraftliner, 2 rolls"}, format="json")
    assert server.actions() == ["verify-declaration", "verify-declaration"]


def test_an_unusable_upstream_statement_is_neither_packaged_nor_grouped(
    world, api, account, server, in_tenant
):
    with in_tenant(world.tenant3):
        delivery = make_delivery(upstream_dds_reference=WITHDRAWN[0], upstream_dds_verification=WITHDRAWN[1])
        make_cartons(delivery, count=2)
    client = api(world.admin, world.tenant3)
    filed = client.post(f"{RAW}{delivery.pk}/dds-filing/submit/")
    assert filed.status_code == 409, filed.content
    assert filed.json()["error"] == "upstream_declaration_not_usable"
    assert "25FIKGLE0Q7R3B" in filed.json()["message"]
    assert "submitDds" not in server.actions()
    # the package checks name it once the answer is kept
    with in_tenant(world.tenant3):
        RawMaterialDelivery.objects.filter(pk=delivery.pk).update(
            upstream_verification_result="NON_EXISTENT", upstream_verified_at=timezone.now()
        )
    checks = client.get(f"{RAW}{delivery.pk}/dds-package/checks/").json()["data"]
    assert "upstream_dds_not_usable" in {c["code"] for c in checks["errors"]}


def test_keep_until_on_29_february():
    from apps.eudr.verification import _keep_until

    assert _keep_until(date(2028, 2, 29)) == date(2033, 2, 28)


def test_a_company_that_does_not_import_files_no_statement(world, api, account, server, in_tenant):
    Tenant.objects.filter(pk=world.tenant3.pk).update(eudr_import_role="none")
    with in_tenant(world.tenant3):
        delivery = make_delivery()
    refused = api(world.admin, world.tenant3).post(f"{RAW}{delivery.pk}/dds-filing/submit/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "dds_filing_not_allowed"
    assert server.requests == []
