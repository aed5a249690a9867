"""The public trace answers from one precomputed row per carton, rebuilt when anything it shows changes
(apps/eudr/trace_store.py, apps/eudr/public_trace_fast.py).

Every input of the answer is changed here through the path the app changes it by, and the public answer
must show the change once the transaction commits: a path that forgets the rebuild fails its case.
"""

from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from apps.eudr import placing, services, trace_store
from apps.eudr.filing_models import DdsSubmission, TracesEnvironment
from apps.eudr.models import CartonLabel, PublicTrace, RawMaterialLine
from apps.eudr.tests.trace_data import UPSTREAM_REFERENCE, make_cartons, make_delivery
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

OWN_REFERENCE = "26NLX7TVCZAQ2S"


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs the block and then what its transaction would run on commit (the rebuilds)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def cartons(tenant3, in_tenant, committed):
    with committed(), in_tenant(tenant3):
        return make_cartons(make_delivery(), count=2)


def trace(code, **headers):
    return APIClient().get(f"/api/eudrtrack/{code}/", **headers)


def test_a_created_carton_has_its_answer_stored(cartons):
    stored = PublicTrace.objects.get(code=cartons[0].code)
    assert stored.label_id == cartons[0].pk
    response = trace(cartons[0].code)
    assert response.status_code == 200
    assert bytes(stored.body) == response.content
    assert response["ETag"] == stored.etag


def test_a_scan_reads_one_row_and_nothing_else(cartons):
    """No tenant setting, no savepoint, no join: the stored row's primary-key read."""
    with CaptureQueriesContext(connection) as queries:
        response = trace(cartons[0].code.lower())
    assert response.status_code == 200
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 1, statements
    assert '"eudr_publictrace"' in statements[0] and "JOIN" not in statements[0].upper()
    data = response.json()["data"]
    assert data["code"] == cartons[0].code
    assert data["origin"]["forest_supplier_name"] == "Metsä Forest Oy"


def test_etag_and_cache_control(cartons):
    first = trace(cartons[0].code)
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert first["Cache-Control"] == "public, max-age=300, s-maxage=300"
    with CaptureQueriesContext(connection) as queries:
        again = trace(cartons[0].code, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and again["Cache-Control"] == first["Cache-Control"]
    assert len(queries.captured_queries) == 1
    assert trace(cartons[0].code, HTTP_IF_NONE_MATCH='"stale", ' + etag).status_code == 304
    assert trace(cartons[0].code, HTTP_IF_NONE_MATCH='"stale"').status_code == 200
    # another carton's answer has another ETag
    assert trace(cartons[1].code)["ETag"] != etag


def test_the_companys_cache_time_bounds_the_cache_control(cartons, tenant3, committed):
    from apps.tenancy.services import company_settings_update

    with committed():
        company_settings_update(tenant_id=tenant3.pk, data={"public_trace_max_age": 60})
    assert trace(cartons[0].code)["Cache-Control"] == "public, max-age=60, s-maxage=60"


def test_the_cache_time_is_a_company_setting_of_the_api(api, make_user, tenant3):
    admin = make_user(tenant3)
    client = api(admin, tenant3)
    assert client.get("/api/tenants/current/").json()["data"]["public_trace_max_age"] == 300
    refused = client.patch("/api/tenants/current/", {"public_trace_max_age": 86401}, format="json")
    assert refused.status_code == 400
    saved = client.patch("/api/tenants/current/", {"public_trace_max_age": 120}, format="json")
    assert saved.status_code == 200, saved.content
    assert Tenant.objects.get(pk=tenant3.pk).public_trace_max_age == 120


def _label(pk):
    return CartonLabel.objects.select_related("product", "raw_material__parent_vendor").get(pk=pk)


def _change_label(label):
    label.article_number = "CT-4711-NEW"
    label.save()


def _change_delivery(label):
    label.raw_material.forest_supplier_name = "Stora Enso Forest"
    label.raw_material.save()


def _change_delivery_statement(label):
    delivery = label.raw_material
    delivery.dds_reference_number = OWN_REFERENCE
    delivery.save()


def _change_line(label):
    line = RawMaterialLine.objects.filter(delivery=label.raw_material).first()
    line.scientific_names = ["Betula pendula"]
    line.common_names = ["Silver birch"]
    line.save()


def _replace_lines(label):
    services._replace_lines(
        label.raw_material,
        [{"scientific_names": ["Betula pendula"], "common_names": ["Silver birch"], "weight_kg": 1000}],
    )


def _change_vendor(label):
    label.raw_material.parent_vendor.name = "Renamed vendor"
    label.raw_material.parent_vendor.save()


def _change_product(label):
    label.product.name = "Renamed carton"
    label.product.save()


def _statement(labels, status=DdsSubmission.Status.SUBMITTED):
    submission = DdsSubmission.objects.create(
        internal_reference="MSKU1234565-A", environment=TracesEnvironment.ACCEPTANCE, status=status
    )
    placing._cover(submission, labels)
    return submission


def _cover_with_available_statement(label):
    submission = _statement([label])
    submission.status = DdsSubmission.Status.AVAILABLE
    submission.reference_number = OWN_REFERENCE
    submission.save()


def _receive(label):
    from apps.inventory import carton_life
    from apps.inventory.models import Location, Warehouse

    warehouse = Warehouse.objects.create(code="WH1", name="Main")
    location = Location.objects.create(warehouse=warehouse, code="R-1")
    carton_life.carton_received(label=label, shipment=None, location=location, user=None)
    carton_life.cartons_transition(label_ids=[label.pk], action=carton_life.Action.STOCK, user=None)


CHANGES = {
    "label": (_change_label, lambda d: d["article_number"] == "CT-4711-NEW"),
    "delivery": (_change_delivery, lambda d: d["origin"]["forest_supplier_name"] == "Stora Enso Forest"),
    "delivery statement": (
        _change_delivery_statement,
        lambda d: (d["dds_reference_number"], d["dds_reference_kind"]) == (OWN_REFERENCE, "own"),
    ),
    "line": (_change_line, lambda d: d["origin"]["species"][0]["scientific_name"] == "Betula pendula"),
    "lines replaced": (_replace_lines, lambda d: d["origin"]["species"][0]["common_name"] == "Silver birch"),
    "vendor": (_change_vendor, lambda d: d["supplier"]["name"] == "Renamed vendor"),
    "product": (_change_product, lambda d: d["product_name"] == "Renamed carton"),
    "coverage": (
        _cover_with_available_statement,
        lambda d: (d["dds_reference_number"], d["dds_reference_kind"]) == (OWN_REFERENCE, "own"),
    ),
    "warehouse": (_receive, lambda d: [s["kind"] for s in d["warehouse_history"]] == ["received", "stocked"]),
}


@pytest.mark.parametrize("what", list(CHANGES))
def test_every_input_of_the_answer_is_shown_once_committed(what, cartons, tenant3, in_tenant, committed):
    change, shows = CHANGES[what]
    before = trace(cartons[0].code)
    assert before.status_code == 200 and not shows(before.json()["data"])
    with committed(), in_tenant(tenant3):
        change(_label(cartons[0].pk))
    after = trace(cartons[0].code)
    assert shows(after.json()["data"]), after.json()["data"]
    assert after["ETag"] != before["ETag"]
    # and the answer is still the stored row's (the rebuild wrote it; the slow path did not)
    assert bytes(PublicTrace.objects.get(code=cartons[0].code).body) == after.content


def test_a_statement_withdrawn_releases_its_cartons_answer(cartons, tenant3, in_tenant, committed):
    with committed(), in_tenant(tenant3):
        submission = _statement([cartons[0]], status=DdsSubmission.Status.AVAILABLE)
        submission.reference_number = OWN_REFERENCE
        submission.save()
    assert trace(cartons[0].code).json()["data"]["dds_reference_kind"] == "own"
    with committed(), in_tenant(tenant3):
        DdsSubmission.objects.filter(pk=submission.pk).update(status=DdsSubmission.Status.WITHDRAWN)
        submission.refresh_from_db()
        assert placing.coverage_release(submission) == 1
    data = trace(cartons[0].code).json()["data"]
    assert (data["dds_reference_number"], data["dds_reference_kind"]) == (UPSTREAM_REFERENCE, "upstream")


def test_the_companys_country_shows_in_the_warehouse_history(cartons, tenant3, in_tenant, committed):
    from apps.tenancy.services import company_settings_update

    with committed(), in_tenant(tenant3):
        _receive(_label(cartons[0].pk))
    with committed():
        company_settings_update(tenant_id=tenant3.pk, data={"country": "NL"})
    assert {s["country_code"] for s in trace(cartons[0].code).json()["data"]["warehouse_history"]} == {"NL"}


def test_generated_cartons_are_stored_when_the_generation_commits(tenant3, in_tenant, committed):
    from apps.eudr.tests import factories

    with committed(), in_tenant(tenant3):
        vendor = factories.vendor()
        line = factories.order_line(vendor)
        delivery = factories.delivery(vendor)
        batch = factories.generate(delivery, line, 3)
        codes = list(CartonLabel.objects.filter(batch=batch).values_list("code", flat=True))
    assert len(codes) == 3
    assert set(PublicTrace.objects.filter(code__in=codes).values_list("code", flat=True)) == set(codes)


def test_a_voided_carton_disappears_when_the_void_commits(cartons, tenant3, in_tenant):
    """Gone in the voiding transaction itself, not only after the rebuild that follows its commit."""
    with in_tenant(tenant3):
        services.cartons_delete(ids=[cartons[0].pk], queryset=CartonLabel.objects.all())
    assert not PublicTrace.objects.filter(code=cartons[0].code).exists()
    assert trace(cartons[0].code).status_code == 404
    assert trace(cartons[1].code).status_code == 200


def test_a_label_saved_as_voided_disappears(cartons, tenant3, in_tenant):
    with in_tenant(tenant3):
        label = _label(cartons[0].pk)
        label.status = CartonLabel.Status.VOIDED
        label.save()
    assert trace(cartons[0].code).status_code == 404


def test_a_missing_answer_is_built_from_the_live_rows_and_stored(cartons):
    PublicTrace.objects.all().delete()
    first = trace(cartons[0].code)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, max-age=300, s-maxage=300"
    stored = PublicTrace.objects.get(code=cartons[0].code)
    assert bytes(stored.body) == first.content and stored.etag == first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert trace(cartons[0].code).content == first.content
    assert len(queries.captured_queries) == 1


def test_the_slow_path_never_brings_back_a_voided_carton(cartons, tenant3, in_tenant):
    """The row is written only while the label is still active (a void committed meanwhile wins)."""
    from apps.eudr.public_trace import public_trace_of

    PublicTrace.objects.all().delete()

    def void_then_store(label, payload):
        CartonLabel.objects.filter(pk=label.pk).update(status=CartonLabel.Status.VOIDED)
        return trace_store.store_one(label, payload)

    label, _payload = public_trace_of(cartons[0].code)
    public_trace_of(cartons[0].code, then=void_then_store)
    assert not PublicTrace.objects.filter(code=label.code).exists()


def test_a_failed_rebuild_deletes_the_answers_instead_of_keeping_old_ones(
    cartons, tenant3, in_tenant, committed, monkeypatch
):
    def broken(labels):
        raise RuntimeError("broken")

    monkeypatch.setattr("apps.eudr.public_trace.payloads_for", broken)
    with committed(), in_tenant(tenant3):
        _change_delivery(_label(cartons[0].pk))
    assert not PublicTrace.objects.filter(label_id__in=[c.pk for c in cartons]).exists()
    monkeypatch.undo()
    data = trace(cartons[0].code).json()["data"]  # the slow path, from the live rows
    assert data["origin"]["forest_supplier_name"] == "Stora Enso Forest"


def test_the_rebuild_command_rebuilds_every_answer(cartons, tenant2, in_tenant):
    with in_tenant(tenant2):
        other = make_cartons(make_delivery(vendor_name="Ningbo Bluewave Cartons"), count=1, article="NB-1")[0]
    PublicTrace.objects.filter(code=cartons[0].code).update(body=b"{}", etag='"old"')
    PublicTrace.objects.create(code="ORPHAN0001", label_id=10**12, body=b"{}", etag='"x"')
    call_command("rebuild_public_traces", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert PublicTrace.objects.get(code=cartons[0].code).etag != '"old"'
    assert PublicTrace.objects.filter(code=other.code).exists()
    assert not PublicTrace.objects.filter(code="ORPHAN0001").exists()
    assert trace(other.code).json()["data"]["supplier"]["name"] == "Ningbo Bluewave Cartons"


def test_the_answer_holds_nothing_private(cartons):
    from apps.eudr.tests.trace_data import ORDER_NUMBER, UNIT_COST, VERIFICATION

    body = bytes(PublicTrace.objects.get(code=cartons[0].code).body).decode()
    for secret in (VERIFICATION, str(UNIT_COST), ORDER_NUMBER, "SC-INTERNAL-77", cartons[1].code):
        assert secret not in body
    assert "verification" not in body.lower() and "price" not in body.lower()


def test_the_fast_path_keeps_the_rate_limit(cartons, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "public_trace": "2/min",
        },
    }
    assert [trace(cartons[0].code).status_code for _ in range(2)] == [200, 200]
    refused = trace(cartons[0].code)
    assert refused.status_code == 429 and refused.json()["error"] == "throttled"
    # a slow-path request is counted once, not twice
    cache.clear()
    PublicTrace.objects.all().delete()
    assert [trace(cartons[0].code).status_code for _ in range(2)] == [200, 200]
    assert trace(cartons[0].code).status_code == 429


def test_other_methods_and_paths_are_left_to_the_app(cartons):
    assert APIClient().post(f"/api/eudrtrack/{cartons[0].code}/").status_code == 405
    assert APIClient().get(f"/api/eudrtrack/{cartons[0].code}").status_code in (301, 404)
    assert trace("bad-code!").status_code == 404


def test_the_batch_build_equals_the_single_build(cartons, tenant3, in_tenant):
    from apps.eudr.public_trace import payloads_for, public_trace

    with in_tenant(tenant3):
        labels = list(CartonLabel.objects.select_related("raw_material__parent_vendor", "product"))
        batch = payloads_for(labels)
    for label in labels:
        assert batch[label.pk] == public_trace(label.code)


def test_harvest_and_certificates_expiry_is_shown_as_stored(cartons):
    data = trace(cartons[0].code).json()["data"]
    fm = next(c for c in data["certifications"] if c["kind"] == "FM")
    assert fm["valid_until"] == (date.today() + timedelta(days=365)).isoformat()
