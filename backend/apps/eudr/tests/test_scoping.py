"""Who sees and does what: supplier users only their own parent vendor's deliveries, batches, labels and
files (another vendor's answer 404), internal users by role, warehouse users nothing, another tenant
nothing; cap approval needs eudr.approve_over_cap; list query counts (deliveries, labels, policies)."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.eudr.models import CartonLabel

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"
CARTONS = "/api/eudr/cartons/"
POLICIES = "/api/eudr/supplier-policies/"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture
def two_vendors(eudr_world, in_tenant, api):
    w = eudr_world
    with in_tenant(w.tenant3):
        w.delivery_a = factories.delivery(w.vendor_a, weight="100")
        w.delivery_b = factories.delivery(w.vendor_b, weight="100")
        factories.generate(w.delivery_a, w.line_a, 4, code="20261121A")
        factories.generate(w.delivery_b, w.line_b, 3, code="20261121B")
        w.labels_b = list(CartonLabel.objects.filter(raw_material=w.delivery_b).values_list("pk", flat=True))
    upload = SimpleUploadedFile("certificate.pdf", PDF, content_type="application/pdf")
    response = api(w.supplier_b, w.tenant3).post(
        f"{RAW}{w.delivery_b.pk}/files/vendor_certificate/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 200, response.json()
    return w


def test_supplier_sees_only_own_vendor(two_vendors, api):
    w = two_vendors
    client = api(w.supplier_a, w.tenant3)
    rows = client.get(RAW).json()["data"]["results"]
    assert [row["id"] for row in rows] == [w.delivery_a.pk]
    labels = client.get(CARTONS, {"page_size": 100}).json()["data"]
    assert labels["count"] == 4
    assert client.get(CARTONS, {"raw_material": w.delivery_b.pk}).json()["data"]["count"] == 0


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "{raw}{b}/"),
        ("patch", "{raw}{b}/"),
        ("delete", "{raw}{b}/"),
        ("get", "{raw}{b}/batches/"),
        ("get", "{raw}{b}/files/vendor_certificate/"),
        ("post", "{raw}{b}/submit/"),
        ("post", "{raw}{b}/generate-cartons/"),
        ("get", "{cartons}{label}/"),
    ],
)
def test_another_vendors_records_answer_404(two_vendors, api, method, path):
    w = two_vendors
    url = path.format(raw=RAW, cartons=CARTONS, b=w.delivery_b.pk, label=w.labels_b[0])
    response = getattr(api(w.supplier_a, w.tenant3), method)(url, {}, format="json")
    assert response.status_code == 404, (url, response.status_code)


def test_another_vendors_labels_cannot_be_deleted_or_exported(two_vendors, api, in_tenant):
    w = two_vendors
    client = api(w.supplier_a, w.tenant3)
    response = client.post(f"{CARTONS}bulk-delete/", {"ids": w.labels_b[:1]}, format="json")
    assert response.status_code == 404
    with in_tenant(w.tenant3):
        assert CartonLabel.objects.filter(pk=w.labels_b[0], status="active").exists()
    csv = client.get(f"{CARTONS}export/", {"format": "csv", "raw_material": w.delivery_b.pk})
    assert b"".join(csv.streaming_content).decode("utf-8-sig").strip().count("\n") == 0  # header only


def test_supplier_creates_for_own_vendor_only(two_vendors, api):
    w = two_vendors
    response = api(w.supplier_a, w.tenant3).post(
        RAW,
        {
            "parent_vendor": w.vendor_b.pk,
            "delivery_number": "DN-X",
            "lines": [{"material_type": "pulp", "weight_kg": "20"}],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["parent_vendor"] == w.vendor_a.pk


def test_supplier_without_parent_vendor_sees_nothing(two_vendors, api, make_user):
    w = two_vendors
    orphan = make_user(w.tenant3, "Supplier", username="orphan", is_supplier=True)
    assert api(orphan, w.tenant3).get(RAW).json()["data"]["count"] == 0
    assert api(orphan, w.tenant3).post(RAW, {"is_draft": True}, format="json").status_code == 403


def test_file_download_by_who_may_see_the_delivery(two_vendors, api):
    w = two_vendors
    detail = api(w.supplier_b, w.tenant3).get(f"{RAW}{w.delivery_b.pk}/").json()["data"]
    info = detail["files"]["vendor_certificate"]
    assert info["name"] == "certificate.pdf" and info["size"] == len(PDF)
    assert info["url"].endswith(f"/files/vendor_certificate/?tenant_id={w.tenant3.pk}")
    for user in (w.supplier_b, w.purchaser):
        response = api(user, w.tenant3).get(f"{RAW}{w.delivery_b.pk}/files/vendor_certificate/")
        assert response.status_code == 200
        assert b"".join(response.streaming_content) == PDF
        assert "attachment" in response["Content-Disposition"]
    assert (
        api(w.supplier_a, w.tenant3).get(f"{RAW}{w.delivery_b.pk}/files/vendor_certificate/").status_code
        == 404
    )
    assert (
        api(w.purchaser, w.tenant3).get(f"{RAW}{w.delivery_b.pk}/files/logging_license/").status_code == 404
    )
    assert api(w.purchaser, w.tenant3).get(f"{RAW}{w.delivery_b.pk}/files/passwords/").status_code == 404


@pytest.mark.parametrize(
    ("name", "content", "message_part"),
    [
        ("virus.exe", b"MZ....", "not accepted"),
        ("fake.pdf", b"<html>", "does not match"),
        ("empty.pdf", b"", "empty"),
        ("page.svg", b"<svg/>", "not accepted"),
    ],
)
def test_file_type_checks(two_vendors, api, name, content, message_part):
    w = two_vendors
    upload = SimpleUploadedFile(name, content)
    response = api(w.supplier_b, w.tenant3).post(
        f"{RAW}{w.delivery_b.pk}/files/sc_invoice/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 400
    assert message_part in response.json()["data"]["file"][0]


def test_file_size_limit(two_vendors, api, settings):
    w = two_vendors
    settings.EUDR_FILE_MAX_BYTES = 100
    upload = SimpleUploadedFile("big.pdf", PDF + b"x" * 200)
    response = api(w.supplier_b, w.tenant3).post(
        f"{RAW}{w.delivery_b.pk}/files/sc_invoice/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 400
    assert "larger than" in response.json()["data"]["file"][0]


def test_location_file_fills_plots_and_replace_and_remove(two_vendors, api):
    w = two_vendors
    client = api(w.supplier_b, w.tenant3)
    geojson = (
        b'{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"Area":1.5},'
        b'"geometry":{"type":"Point","coordinates":[108.35,22.88]}}]}'
    )
    response = client.post(
        f"{RAW}{w.delivery_b.pk}/files/location_file/",
        {"file": SimpleUploadedFile("plots.geojson", geojson)},
        format="multipart",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["location_geojson"]["features"][0]["geometry"]["coordinates"] == [108.35, 22.88]
    assert data["files"]["location_file"]["name"] == "plots.geojson"
    removed = client.delete(f"{RAW}{w.delivery_b.pk}/files/location_file/")
    assert "location_file" not in removed.json()["data"]["files"]


def test_roles(two_vendors, api):
    w = two_vendors
    assert api(w.warehouse, w.tenant3).get(CARTONS).status_code == 403
    assert api(w.sales, w.tenant3).get(CARTONS).status_code == 403
    assert api(w.purchaser, w.tenant3).get(CARTONS).json()["data"]["count"] == 7
    assert api(w.admin, w.tenant3).get(RAW).json()["data"]["count"] == 2


def test_cap_approval_needs_the_permission(two_vendors, api):
    w = two_vendors
    path = f"{RAW}{w.delivery_a.pk}/approve-over-cap/"
    payload = {"extra_cartons": 25, "reason": "Urgent order for IKEA"}
    assert api(w.supplier_a, w.tenant3).post(path, payload, format="json").status_code == 403
    assert api(w.sales, w.tenant3).post(path, payload, format="json").status_code == 403
    response = api(w.purchaser, w.tenant3).post(path, payload, format="json")
    assert response.status_code == 201, response.json()
    approval = response.json()["data"]
    assert approval["extra_cartons"] == 25
    assert approval["approved_by"]["id"] == w.purchaser.pk
    detail = api(w.supplier_a, w.tenant3).get(f"{RAW}{w.delivery_a.pk}/").json()["data"]
    assert detail["approved_over_cap"] == 25
    assert detail["cap_approvals"][0]["reason"] == "Urgent order for IKEA"
    missing_reason = api(w.purchaser, w.tenant3).post(path, {"extra_cartons": 5}, format="json")
    assert missing_reason.status_code == 400


def test_other_tenant_gets_nothing(two_vendors, api):
    w = two_vendors
    client = api(w.admin_x, w.tenant2)
    assert client.get(CARTONS).json()["data"]["count"] == 0
    assert client.get(f"{CARTONS}{w.labels_b[0]}/").status_code == 404
    assert client.get(f"{RAW}{w.delivery_a.pk}/batches/").status_code == 404
    assert client.post(f"{CARTONS}bulk-delete/", {"ids": w.labels_b}, format="json").status_code == 404
    assert client.get(POLICIES).json()["data"]["count"] == 0


def test_generate_with_another_tenants_order_line(two_vendors, api):
    w = two_vendors
    response = api(w.supplier_a, w.tenant3).post(
        f"{RAW}{w.delivery_a.pk}/generate-cartons/",
        {
            "count": 1,
            "production_batch_code": "20261121Z",
            "product": w.line_x.product_id,
            "purchase_order_line": w.line_x.pk,
        },
        format="json",
    )
    assert response.status_code == 400
    assert set(response.json()["data"]) == {"product", "purchase_order_line"}


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({}, "count", "Requested count is required"),
        ({}, "production_batch_code", "Production batch code is required"),
        ({}, "product", "Product is required"),
        ({"production_batch_code": "2026-11-21"}, "production_batch_code", None),
        ({"production_batch_code": "20261341A"}, "production_batch_code", None),
        ({"count": 0}, "count", None),
    ],
)
def test_generate_input_messages(two_vendors, api, payload, field, message):
    w = two_vendors
    response = api(w.supplier_a, w.tenant3).post(
        f"{RAW}{w.delivery_a.pk}/generate-cartons/", payload, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["data"][field]
    if message:
        assert errors == [message]


def test_refusal_envelopes_over_the_api(two_vendors, api):
    w = two_vendors
    client = api(w.supplier_a, w.tenant3)
    payload = {
        "count": 500,
        "production_batch_code": "20261121A",
        "product": w.line_a.product_id,
        "purchase_order_line": w.line_a.pk,
    }
    response = client.post(f"{RAW}{w.delivery_a.pk}/generate-cartons/", payload, format="json")
    assert response.status_code == 409
    body = response.json()
    assert (body["error"], body["message"]) == ("insufficient_weight", "Insufficient weight")
    assert body["data"]["max_cartons"] == 196


def test_batches_list(two_vendors, api, django_assert_max_num_queries):
    w = two_vendors
    client = api(w.supplier_a, w.tenant3)
    client.get(f"{RAW}{w.delivery_a.pk}/batches/")
    with django_assert_max_num_queries(12):
        rows = client.get(f"{RAW}{w.delivery_a.pk}/batches/").json()["data"]["results"]
    assert rows[0]["production_batch_code"] == "20261121A"
    assert rows[0]["production_date"] == "2026-11-21"
    assert rows[0]["carton_count"] == 4
    assert rows[0]["used_kg"] == "2.000"
    assert rows[0]["purchase_order"] == w.line_a.order.order_number


def test_label_list_query_count_constant(two_vendors, api, in_tenant, django_assert_max_num_queries):
    w = two_vendors
    client = api(w.purchaser, w.tenant3)
    client.get(CARTONS)
    with django_assert_max_num_queries(10) as few:
        client.get(CARTONS, {"page_size": 2})
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(client.get(CARTONS, {"page_size": 200}).json()["data"]["results"]) == 7


def test_label_filters(two_vendors, api, in_tenant):
    w = two_vendors
    client = api(w.purchaser, w.tenant3)
    with in_tenant(w.tenant3):
        code = CartonLabel.objects.filter(raw_material=w.delivery_a).first().code
    assert client.get(CARTONS, {"production_batch_code": "20261121b"}).json()["data"]["count"] == 3
    assert client.get(CARTONS, {"purchase_order": w.line_a.order.order_number}).json()["data"]["count"] == 4
    assert client.get(CARTONS, {"search": code[:12]}).json()["data"]["count"] == 1
    client.post(f"{CARTONS}bulk-delete/", {"ids": w.labels_b[:2]}, format="json")
    assert client.get(CARTONS).json()["data"]["count"] == 5
    assert client.get(CARTONS, {"status": "voided"}).json()["data"]["count"] == 2
    assert client.get(CARTONS, {"status": "all"}).json()["data"]["count"] == 7


def test_policies_internal_only_and_query_count(two_vendors, api, in_tenant, django_assert_max_num_queries):
    w = two_vendors
    assert api(w.supplier_a, w.tenant3).get(POLICIES).status_code == 403
    client = api(w.purchaser, w.tenant3)
    created = client.post(
        POLICIES,
        {"parent_vendor": w.vendor_a.pk, "material_type": "paper", "min_consumption_per_carton": "0.3"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    duplicate = client.post(
        POLICIES,
        {"parent_vendor": w.vendor_a.pk, "material_type": "paper", "min_consumption_per_carton": "0.4"},
        format="json",
    )
    assert duplicate.status_code == 400
    fixed_without_value = client.post(
        POLICIES,
        {"parent_vendor": w.vendor_b.pk, "cap_mode": "fixed", "min_consumption_per_carton": "0.4"},
        format="json",
    )
    assert "cap_value" in fixed_without_value.json()["data"]
    bad_loss = client.post(
        POLICIES,
        {"parent_vendor": w.vendor_b.pk, "min_consumption_per_carton": "0.4", "loss_rate_percent": "101"},
        format="json",
    )
    assert "loss_rate_percent" in bad_loss.json()["data"]
    default = client.post(
        POLICIES, {"parent_vendor": None, "min_consumption_per_carton": "0.25"}, format="json"
    )
    assert default.status_code == 201
    client.get(POLICIES)
    with django_assert_max_num_queries(10) as few:
        client.get(POLICIES)
    with in_tenant(w.tenant3):
        for material in ("pulp", "board", "other"):
            factories.policy(w.vendor_b, material_type=material, loss_rate_percent=Decimal("1"))
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(POLICIES).json()["data"]["count"] == 5
