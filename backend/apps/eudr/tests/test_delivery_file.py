"""The wizard's delivery file: parsing CSV and XLSX into lines and header fields with row errors, the
downloadable template (which parses back), "Delivery file is required (parse)"; the expiry job."""

import io
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from openpyxl import Workbook, load_workbook

from apps.eudr.models import RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

URL = "/api/eudr/raw-materials/"


def parse(client, name, content):
    return client.post(
        f"{URL}parse-delivery-file/", {"file": SimpleUploadedFile(name, content)}, format="multipart"
    )


def test_file_is_required(eudr_world, api):
    w = eudr_world
    response = api(w.supplier_a, w.tenant3).post(f"{URL}parse-delivery-file/", {}, format="multipart")
    assert response.status_code == 400
    assert response.json()["data"]["file"] == ["Delivery file is required (parse)"]


def test_parse_csv_with_row_errors(eudr_world, api):
    w = eudr_world
    content = (
        b"Delivery number,Country code,Harvest begin month,Material type,Weight (kg),Pulp type,Pulp brand,"
        b"Scientific names,Common names\n"
        b"DN-77,cn,2025-02,Paper,1200.5,virgin,Sun Paper,Pinus massoniana; Eucalyptus urophylla,Masson pine; eucalyptus\n"
        b",,,pulp,-4,,,,\n"
        b",,,paper,300,,,,\n"
        b",,,,,,,,\n"
        b"DN-78,,,cardboard,10,,,,\n"
    )
    response = api(w.supplier_a, w.tenant3).post(
        f"{URL}parse-delivery-file/",
        {"file": SimpleUploadedFile("delivery.csv", content)},
        format="multipart",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["header"] == {
        "delivery_number": "DN-77",
        "country_code": "CN",
        "harvest_begin_month": "2025-02",
    }
    assert data["rows"] == 4
    assert data["lines"][0] == {
        "row": 2,
        "material_type": "paper",
        "weight_kg": "1200.500",
        "pulp_type": "virgin",
        "pulp_brand": "Sun Paper",
        "scientific_names": ["Pinus massoniana", "Eucalyptus urophylla"],
        "common_names": ["Masson pine", "eucalyptus"],
    }
    errors = {(e["row"], e["field"], e["message"]) for e in data["errors"]}
    assert (3, "weight_kg", "Valid weight is required") in errors
    assert (4, "pulp_type", "Pulp type is required for Paper materials") in errors
    assert (6, "material_type", "Material type is required") in errors
    assert any(e["row"] == 6 and e["field"] == "delivery_number" for e in data["errors"])


def test_template_round_trip_xlsx_and_csv(eudr_world, api):
    w = eudr_world
    client = api(w.supplier_a, w.tenant3)
    xlsx = client.get(f"{URL}delivery-file-template/", {"format": "xlsx"})
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet["A1"].value == "Delivery number"
    parsed = parse(client, "template.xlsx", xlsx.content).json()["data"]
    assert parsed["errors"] == []
    assert parsed["header"]["country_code"] == "CN"
    assert parsed["lines"][0]["material_type"] == "paper"
    csv = client.get(f"{URL}delivery-file-template/", {"format": "csv"})
    assert csv.status_code == 200
    parsed = parse(client, "template.csv", csv.content).json()["data"]
    assert parsed["errors"] == [] and len(parsed["lines"]) == 1


def test_chinese_headers_and_gb18030_csv(eudr_world, api):
    w = eudr_world
    content = "材料类型,重量(kg),纸浆类型,学名\n纸,500,原生,Pinus massoniana\n".encode("gb18030")
    data = parse(api(w.supplier_a, w.tenant3), "送货单.csv", content).json()["data"]
    assert data["lines"][0]["material_type"] == "paper"
    assert data["lines"][0]["pulp_type"] == "virgin"
    assert data["lines"][0]["weight_kg"] == "500.000"


def test_unreadable_files(eudr_world, api):
    w = eudr_world
    client = api(w.supplier_a, w.tenant3)
    assert parse(client, "delivery.pdf", b"%PDF-1.4").status_code == 400
    assert parse(client, "delivery.xlsx", b"not a zip").status_code == 400
    no_columns = parse(client, "delivery.csv", b"foo,bar\n1,2\n").json()["data"]
    assert no_columns["lines"] == [] and no_columns["errors"][0]["row"] == 1


def test_xlsx_numbers_and_dates(eudr_world, api):
    w = eudr_world
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["material_type", "weight_kg", "pulp_type", "harvest_end_month"])
    sheet.append(["board", 250, "", date(2025, 8, 1)])
    buffer = io.BytesIO()
    workbook.save(buffer)
    data = parse(api(w.supplier_a, w.tenant3), "d.xlsx", buffer.getvalue()).json()["data"]
    assert data["lines"][0]["weight_kg"] == "250.000"
    assert data["header"]["harvest_end_month"] == "2025-08"


def test_expire_command_marks_expired_deliveries(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        old = factories.delivery(w.vendor_a)
        fine = factories.delivery(w.vendor_a)
        RawMaterialDelivery.objects.filter(pk=old.pk).update(
            coc_certificate_expiry=date.today() - timedelta(days=3)
        )
    with in_tenant(w.tenant2):
        other = factories.delivery(w.vendor_x)
        RawMaterialDelivery.objects.filter(pk=other.pk).update(
            fm_certificate_expiry=date.today() - timedelta(days=1)
        )
    out = io.StringIO()
    call_command("expire_raw_materials", stdout=out)
    assert "2 deliveries expired" in out.getvalue()
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=old.pk).status == "expired"
        assert RawMaterialDelivery.objects.get(pk=fine.pk).status == "active"


def test_renewed_certificate_reactivates(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a)
        RawMaterialDelivery.objects.filter(pk=d.pk).update(
            status="expired", coc_certificate_expiry=date.today() - timedelta(days=3)
        )
    response = api(w.purchaser, w.tenant3).patch(
        f"{URL}{d.pk}/",
        {"coc_certificate_expiry": (date.today() + timedelta(days=300)).isoformat()},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["status"] == "active"
