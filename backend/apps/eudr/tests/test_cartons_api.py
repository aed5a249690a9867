"""Carton generation and labels over the API: the refusals with their keys and docs/specification.md's messages,
labels list and filters, bulk delete, exports (CSV, PDF with real QR codes), query counts."""

from decimal import Decimal

import pytest

from apps.eudr.models import CartonLabel, RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"
CARTONS = "/api/eudr/cartons/"


def generate_payload(line, count=10, code="20261121A", **extra):
    return {
        "count": count,
        "production_batch_code": code,
        "product": line.product_id,
        "purchase_order_line": line.pk,
        "container": extra.pop("container", "MSKU1234567"),
        **extra,
    }


def test_generate_list_export_delete(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a, weight="100")
    client = api(w.supplier_a, w.tenant3)
    response = client.post(f"{RAW}{d.pk}/generate-cartons/", generate_payload(w.line_a, 20), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()["data"]
    assert body["generated"] == 20
    assert body["batch"]["production_batch_code"] == "20261121A"
    assert body["batch"]["carton_count"] == 20
    assert body["delivery"]["issued_cartons"] == 20
    assert body["delivery"]["weight"]["used_kg"] == "10.000"
    labels = client.get(CARTONS, {"raw_material": d.pk, "page_size": 50}).json()["data"]
    assert labels["count"] == 20
    first = labels["results"][0]
    assert set(first) >= {
        "code",
        "qr_url",
        "production_batch_code",
        "batch_sequence",
        "article_number",
        "purchase_order",
        "container",
        "raw_material",
        "status",
        "created_at",
    }
    assert first["qr_url"] == f"http://testserver/eudrtrace/{first['code']}"
    assert sorted(row["batch_sequence"] for row in labels["results"]) == list(range(1, 21))
    csv = client.get(f"{CARTONS}export/", {"format": "csv", "raw_material": d.pk})
    assert csv.status_code == 200
    text = b"".join(csv.streaming_content).decode("utf-8-sig")
    assert len(text.strip().splitlines()) == 21
    pdf = client.get(f"{CARTONS}export/", {"format": "pdf", "template": "compact", "raw_material": d.pk})
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    data = b"".join(pdf.streaming_content)
    assert data.startswith(b"%PDF")
    ids = [row["id"] for row in labels["results"][:5]]
    deleted = client.post(f"{CARTONS}bulk-delete/", {"ids": ids}, format="json")
    assert deleted.status_code == 200, deleted.json()
    assert deleted.json()["data"] == {"deleted": 5, "returned_kg": "2.500"}
    empty = client.post(f"{CARTONS}bulk-delete/", {"ids": []}, format="json")
    assert empty.status_code == 400
    assert empty.json() == {
        "code": 400,
        "message": "Please select labels to delete",
        "error": "validation_error",
        "data": {"ids": ["Please select labels to delete"]},
    }
    missing = client.post(f"{CARTONS}bulk-delete/", {}, format="json")
    assert missing.status_code == 400
    assert missing.json()["message"] == "Please select labels to delete"
    assert missing.json()["data"] == {"ids": ["Please select labels to delete"]}
    with in_tenant(w.tenant3):
        d.refresh_from_db()
        assert d.used_kg == Decimal("7.500")
        assert d.issued_cartons == 15
        assert CartonLabel.objects.filter(raw_material=d, status="active").count() == 15
    _ = RawMaterialDelivery


@pytest.mark.parametrize(
    "language,message,field_error",
    [
        ("en", "Insufficient weight (min 10kg required)", "Requested count is required"),
        ("zh", "重量不足（至少需要 10 千克）", "请填写申请箱数"),
    ],
)
def test_refusals_are_in_the_users_language(eudr_world, api, in_tenant, language, message, field_error):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a, weight="30")
        factories.generate(d, w.line_a, 41)  # 20.5 kg used, 9.5 kg left: under the 10 kg minimum
    client = api(w.supplier_a, w.tenant3)
    url = f"{RAW}{d.pk}/generate-cartons/"
    refused = client.post(url, generate_payload(w.line_a, 1), format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 409
    assert refused.json()["error"] == "insufficient_weight_min"
    assert refused.json()["message"] == message
    payload = generate_payload(w.line_a)
    del payload["count"]
    invalid = client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert invalid.status_code == 400
    assert invalid.json()["data"]["count"] == [field_error]


def test_continuing_a_batch_with_another_container_answers_409(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a, weight="100")
    client = api(w.supplier_a, w.tenant3)
    url = f"{RAW}{d.pk}/generate-cartons/"
    assert client.post(url, generate_payload(w.line_a, 5), format="json").status_code == 201
    refused = client.post(url, generate_payload(w.line_a, 5, container="TGHU7654321"), format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "batch_container_mismatch"
    assert body["data"] == {"container": ["This batch was started for another container."]}
    continued = client.post(url, generate_payload(w.line_a, 5), format="json")
    assert continued.status_code == 201
    assert continued.json()["data"]["batch"]["carton_count"] == 10
