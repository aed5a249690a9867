"""The due diligence package: checks, the ZIP's contents and dds.json's shape, the job endpoints."""

import base64
import io
import json
import zipfile
from datetime import date, timedelta

import pytest
from pypdf import PdfReader

from apps.eudr.dds.jobs import package_path
from apps.eudr.geo import validate_geojson
from apps.eudr.tests.trace_data import (
    PLOTS,
    UNIT_COST,
    UPSTREAM_REFERENCE,
    VERIFICATION,
    attach_file,
    make_cartons,
    make_delivery,
)


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator")


@pytest.fixture(autouse=True)
def operator_details(tenant3):
    """The operator's Annex II details (the demo tenant 3 has them)."""
    tenant3.legal_name = "EuroTrade Goods B.V."
    tenant3.address = "Havenweg 12, 3089 JA Rotterdam"
    tenant3.country = "NL"
    tenant3.vat_number = "NL862345678B01"
    tenant3.save()
    return tenant3


@pytest.fixture
def delivery(tenant3, in_tenant):
    with in_tenant(tenant3):
        delivery = make_delivery()
        make_cartons(delivery, count=4)
        attach_file(delivery, "vendor_certificate", "FSC certificate.pdf", b"%PDF-1.4 certificate")
        attach_file(delivery, "logging_license", "licence.jpg", b"\xff\xd8\xff jpeg bytes")
        return delivery


def start_url(delivery_id):
    return f"/api/eudr/raw-materials/{delivery_id}/dds-package/"


def build(api, user, tenant, delivery_id, **headers):
    response = api(user, tenant).post(start_url(delivery_id), **headers)
    return response


def download_zip(api, user, tenant, job) -> zipfile.ZipFile:
    response = api(user, tenant).get(job["download_url"])
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_package_is_built_inline_and_holds_every_part(api, admin, tenant3, delivery):
    response = build(api, admin, tenant3, delivery.pk)
    assert response.status_code == 202, response.content
    job = response.json()["data"]
    assert job["status"] == "done"
    assert job["progress"]["done"] == job["progress"]["total"] == 6  # 4 steps + 2 documents
    assert job["file_name"] == "DDS-DLV-2026-001.zip"
    assert job["size"] > 1000
    assert job["errors"] == []

    archive = download_zip(api, admin, tenant3, job)
    names = set(archive.namelist())
    assert names == {
        "dds.json",
        "dds.xml",
        "geolocation.geojson",
        "summary.pdf",
        "files/vendor_certificate/FSC certificate.pdf",
        "files/logging_license/licence.jpg",
    }
    assert archive.read("files/vendor_certificate/FSC certificate.pdf") == b"%PDF-1.4 certificate"
    assert archive.read("files/logging_license/licence.jpg") == b"\xff\xd8\xff jpeg bytes"
    geolocation = json.loads(archive.read("geolocation.geojson"))
    assert geolocation == validate_geojson(PLOTS).feature_collection

    # stored through the storage API under tenants/<id>/eudr/dds/<delivery>/<job>.zip
    from django.core.files.storage import default_storage

    assert default_storage.exists(
        package_path(tenant_id=tenant3.pk, delivery_id=delivery.pk, job_id=job["id"])
    )


def test_dds_json_has_the_v3_submit_request_shape(api, admin, tenant3, delivery):
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    dds = json.loads(download_zip(api, admin, tenant3, job).read("dds.json"))
    assert dds["format"] == "cartontrace-dds/3"
    # operatorRole beside the statement, never inside; no operator element (the account is the operator)
    assert list(dds) == ["format", "operatorRole", "statement", "meta"]
    assert dds["operatorRole"] == "OPERATOR"
    statement = dds["statement"]
    assert list(statement) == [
        "internalReferenceNumber",
        "activityType",
        "countryOfActivity",
        "borderCrossCountry",
        "comment",
        "commodities",
        "geoLocationConfidential",
        "groupedDeclarations",
    ]
    assert len(statement["internalReferenceNumber"]) <= 35
    assert statement["activityType"] == "IMPORT"
    assert statement["countryOfActivity"] == "NL"
    assert statement["geoLocationConfidential"] is False
    assert statement["groupedDeclarations"] == [{"groupedDeclaration": UPSTREAM_REFERENCE}]
    [commodity] = statement["commodities"]
    assert list(commodity) == ["position", "descriptors", "hsHeading", "speciesInfo", "producers"]
    assert commodity["hsHeading"] == "481910"
    description = commodity["descriptors"]["descriptionOfGoods"]
    assert "Export carton 600x400x400 (CT-4711)" in description and len(description) <= 150
    assert commodity["descriptors"]["goodsMeasure"]["netWeight"] == 3.4  # 4 cartons x 0.85 kg
    assert commodity["speciesInfo"] == [
        {"scientificName": "Picea abies", "commonName": "Norway spruce"},
        {"scientificName": "Pinus sylvestris", "commonName": "Scots pine"},
    ]
    [producer] = commodity["producers"]
    assert list(producer) == ["position", "country", "name", "geometryGeojson"]
    assert producer["country"] == "FI" and producer["name"] == "Metsä Forest Oy"
    decoded = json.loads(base64.b64decode(producer["geometryGeojson"]))
    assert decoded == validate_geojson(PLOTS).feature_collection
    assert dds["meta"]["delivery"]["cartons"] == 4
    assert dds["meta"]["delivery"]["plotAreaHa"] > 3.2


def test_summary_pdf_shows_facts_and_checks_but_not_the_verification_number(api, admin, tenant3, delivery):
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    pdf = download_zip(api, admin, tenant3, job).read("summary.pdf")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for fact in (
        "Due diligence package",
        "EuroTrade Goods B.V.",
        "NL862345678",
        "Picea abies",
        "Norway spruce",
        "481910",
        "Metsä Forest Oy",
        "FSC-C012345",
        "2025-01",
        UPSTREAM_REFERENCE,
        "Checks",
    ):
        assert fact in text, fact
    assert VERIFICATION not in text
    assert str(UNIT_COST) not in text


def test_many_products_give_one_commodity_per_hs_heading(api, admin, tenant3, in_tenant, delivery):
    from apps.products.models import Product

    with in_tenant(tenant3):
        make_cartons(delivery, count=2, batch_code="20261122A", article="BX-1")
        Product.objects.filter(article_number="BX-1").update(hs_code="4823")
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    dds = json.loads(download_zip(api, admin, tenant3, job).read("dds.json"))
    headings = {
        c["hsHeading"]: c["descriptors"]["goodsMeasure"]["netWeight"] for c in dds["statement"]["commodities"]
    }
    assert headings == {"481910": 3.4, "4823": 1.7}


def test_missing_required_information_is_refused_with_the_list(api, admin, tenant3, in_tenant):
    with in_tenant(tenant3):
        bad = make_delivery(
            suffix="-B",
            forest_supplier_name="",
            harvest_begin_month="",
            location_geojson={"type": "LineString", "coordinates": [[0, 0], [1, 1]]},
            upstream_dds_verification="",
        )
        bad.lines.update(scientific_names=[], common_names=[])
    response = build(api, admin, tenant3, bad.pk)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "dds_information_missing"
    codes = {e["code"] for e in body["data"]["errors"]}
    assert codes == {
        "producer_missing",
        "species_missing",
        "harvest_period_missing",
        "geolocation_line_refused",
        "upstream_dds_incomplete",
    }
    assert all(e["severity"] == "error" and e["message"] for e in body["data"]["errors"])
    line_problem = next(e for e in body["data"]["errors"] if e["code"] == "geolocation_line_refused")
    assert line_problem["feature"] == 0
    assert line_problem["message"] == "LineString is not accepted: a plot is a Point or a Polygon."


def test_missing_geolocation_and_net_weight_are_refused(api, admin, tenant3, in_tenant):
    with in_tenant(tenant3):
        bare = make_delivery(suffix="-C", location_geojson=None, original_kg=0)
    body = build(api, admin, tenant3, bare.pk).json()
    assert {"geolocation_missing", "net_weight_missing"} <= {e["code"] for e in body["data"]["errors"]}


def test_warnings_are_included_in_the_response_and_the_package(api, admin, tenant3, in_tenant):
    expired = date.today() - timedelta(days=3)
    plots = json.loads(json.dumps(PLOTS))
    plots["features"][1]["geometry"]["coordinates"] = [27.70000001234, 62.95]
    with in_tenant(tenant3):
        warned = make_delivery(
            suffix="-W", fm_certificate_expiry=expired, harvest_begin_month="2020-06", location_geojson=plots
        )
        make_cartons(warned, count=1, batch_code="20261123A", suffix="-W")
    job = build(api, admin, tenant3, warned.pk).json()["data"]
    codes = {w["code"] for w in job["warnings"]}
    assert {"certificate_expired", "harvest_before_cutoff", "geolocation_rounded", "no_documents"} <= codes
    assert job["status"] == "done"
    dds = json.loads(download_zip(api, admin, tenant3, job).read("dds.json"))
    assert {w["code"] for w in dds["meta"]["warnings"]} == codes


def test_messages_are_in_the_users_language(api, admin, tenant3, in_tenant):
    with in_tenant(tenant3):
        bad = make_delivery(suffix="-L", forest_supplier_name="")
    english = build(api, admin, tenant3, bad.pk, HTTP_ACCEPT_LANGUAGE="en").json()
    chinese = build(api, admin, tenant3, bad.pk, HTTP_ACCEPT_LANGUAGE="zh").json()
    assert english["data"]["errors"][0]["code"] == chinese["data"]["errors"][0]["code"] == "producer_missing"
    assert english["data"]["errors"][0]["message"] == "The forest supplier (producer) name is missing."
    assert chinese["data"]["errors"][0]["message"] == "缺少林业供应商（生产者）名称。"
    assert chinese["message"] == "缺少必要信息，无法生成尽职调查文件包。"
    assert english["message"] == "Required information is missing: the due diligence package cannot be built."


def test_checks_endpoint_lists_without_building(api, admin, tenant3, delivery):
    response = api(admin, tenant3).get(start_url(delivery.pk) + "checks/")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["ready"] is True and data["errors"] == [], data


def test_job_status_and_unknown_jobs(api, admin, tenant3, delivery):
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    client = api(admin, tenant3)
    status = client.get(f"{start_url(delivery.pk)}{job['id']}/")
    assert status.status_code == 200
    assert status.json()["data"]["status"] == "done"
    assert status.json()["data"]["download_url"].endswith(f"/{job['id']}/download/?tenant_id={tenant3.pk}")
    assert "path" not in status.json()["data"]
    for bad in ("0" * 32, "not-a-job"):
        response = client.get(f"{start_url(delivery.pk)}{bad}/")
        assert response.status_code == 404
        assert response.json()["error"] == "dds_job_not_found"
        assert client.get(f"{start_url(delivery.pk)}{bad}/download/").status_code == 404


def test_a_job_of_one_delivery_is_not_found_under_another(api, admin, tenant3, in_tenant, delivery):
    with in_tenant(tenant3):
        other = make_delivery(suffix="-O")
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    client = api(admin, tenant3)
    assert client.get(f"{start_url(other.pk)}{job['id']}/").status_code == 404
    assert client.get(f"{start_url(other.pk)}{job['id']}/download/").status_code == 404


def test_another_tenant_gets_nothing(api, make_user, tenant2, tenant3, delivery, admin):
    job = build(api, admin, tenant3, delivery.pk).json()["data"]
    outsider = make_user(tenant2, "Administrator")
    client = api(outsider, tenant2)
    assert client.post(start_url(delivery.pk)).status_code == 404
    assert client.get(f"{start_url(delivery.pk)}{job['id']}/").status_code == 404
    assert client.get(f"{start_url(delivery.pk)}{job['id']}/download/").status_code == 404
    # and naming the other tenant is refused outright
    assert api(outsider, tenant3).post(start_url(delivery.pk)).status_code == 403


def test_supplier_users_package_their_own_vendors_deliveries_only(
    api, make_user, tenant3, in_tenant, delivery
):
    with in_tenant(tenant3):
        own_vendor = delivery.parent_vendor
        other = make_delivery(vendor_name="Ningbo Bluewave Cartons", suffix="-N")
        make_cartons(other, count=1, batch_code="20261124A", suffix="-N")
    supplier = make_user(tenant3, "Supplier", is_supplier=True, parent_vendor=own_vendor)
    client = api(supplier, tenant3)
    response = client.post(start_url(delivery.pk))
    assert response.status_code == 202, response.content
    assert client.get(response.json()["data"]["download_url"]).status_code == 200
    assert client.post(start_url(other.pk)).status_code == 404
    assert client.get(start_url(other.pk) + "checks/").status_code == 404


@pytest.mark.parametrize(
    ("role", "fields", "expected"), [("Sales", {}, 403), ("Warehouse", {"is_warehouse": True}, 403)]
)
def test_roles_without_eudr_access_are_refused(api, make_user, tenant3, delivery, role, fields, expected):
    user = make_user(tenant3, role, **fields)
    assert api(user, tenant3).post(start_url(delivery.pk)).status_code == expected


def test_sign_in_and_tenant_are_required(api, admin, tenant3, delivery):
    assert api(None, tenant3).post(start_url(delivery.pk)).status_code == 401
    assert api(admin, None).post(start_url(delivery.pk)).status_code == 400


def test_task_failure_marks_the_job_failed(api, admin, tenant3, delivery, monkeypatch):
    from apps.eudr.dds import package

    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(package, "build_summary_pdf", explode)
    response = build(api, admin, tenant3, delivery.pk)
    assert response.status_code == 202
    job = response.json()["data"]
    assert job["status"] == "failed"
    assert job["message"] == "The package could not be built. Please try again."
    assert job["download_url"] is None
    download = api(admin, tenant3).get(f"{start_url(delivery.pk)}{job['id']}/download/")
    assert download.status_code == 409
    assert download.json()["error"] == "dds_package_not_ready"


def test_a_stored_malformed_upstream_reference_is_refused_before_packaging(api, admin, tenant3, in_tenant):
    # Stored before references were checked: the system would refuse the statement that groups it.
    with in_tenant(tenant3):
        bad = make_delivery(suffix="-R", upstream_dds_reference="25FI-KGLE 0Q7R")
    body = build(api, admin, tenant3, bad.pk).json()
    assert body["error"] == "dds_information_missing"
    assert "upstream_dds_invalid" in {e["code"] for e in body["data"]["errors"]}


def test_job_states_and_the_download_outlive_a_cache_restarted_empty(
    api, admin, tenant3, in_tenant, delivery, monkeypatch
):
    """The job is a database row: a Redis that restarts empty (the cache cleared) loses at most the
    progress of a running build, never a job's state, its message or its download."""
    from django.core.cache import cache

    from apps.eudr.dds import jobs, package
    from apps.eudr.dds.job_models import DdsPackageJob

    client = api(admin, tenant3)
    done = build(api, admin, tenant3, delivery.pk).json()["data"]
    monkeypatch.setattr(package, "build_summary_pdf", lambda *a, **k: (_ for _ in ()).throw(OSError("disk")))
    failed = build(api, admin, tenant3, delivery.pk).json()["data"]
    monkeypatch.undo()
    # a job a worker is building now (its progress reported to the cache)
    with in_tenant(tenant3):
        running = jobs.job_create(tenant_id=tenant3.pk, delivery_id=delivery.pk, warnings=[])
    jobs.job_update(
        tenant_id=tenant3.pk,
        delivery_id=delivery.pk,
        job_id=running["id"],
        status=jobs.RUNNING,
        progress={"done": 0, "total": 6, "step": "started"},
    )
    progress = {"done": 3, "total": 6, "step": "documents"}
    jobs.job_progress(tenant_id=tenant3.pk, delivery_id=delivery.pk, job_id=running["id"], progress=progress)
    assert client.get(f"{start_url(delivery.pk)}{running['id']}/").json()["data"]["progress"] == progress

    cache.clear()  # Redis restarted empty

    def read(job):
        return client.get(f"{start_url(delivery.pk)}{job['id']}/").json()["data"]

    assert {k: read(done)[k] for k in ("status", "file_name", "size", "progress")} == {
        "status": "done",
        "file_name": done["file_name"],
        "size": done["size"],
        "progress": done["progress"],
    }
    assert read(done)["download_url"] == done["download_url"]
    assert download_zip(api, admin, tenant3, done).namelist()
    assert (read(failed)["status"], read(failed)["message"]) == ("failed", failed["message"])
    still = read(running)
    assert still["status"] == "running" and still["progress"] == {"done": 0, "total": 6, "step": "started"}
    with in_tenant(tenant3):
        assert DdsPackageJob.objects.count() == 3
        stored = DdsPackageJob.objects.get(key=done["id"])
    assert stored.path == package_path(tenant_id=tenant3.pk, delivery_id=delivery.pk, job_id=done["id"])
    assert stored.finished_at is not None


def test_jobs_are_the_tenants_own_rows(api, admin, tenant3, tenant2, in_tenant, delivery):
    from apps.eudr.dds.job_models import DdsPackageJob

    build(api, admin, tenant3, delivery.pk)
    with in_tenant(tenant2):
        assert not DdsPackageJob.objects.exists()
    with in_tenant(tenant3):
        assert DdsPackageJob.objects.count() == 1
