"""List export: CSV and XLSX with the list's filters, streamed inside the tenant (PostgreSQL RLS too)."""

import csv
import io

import pytest
from openpyxl import load_workbook

from apps.suppliers.models import ParentVendor, Supplier

pytestmark = pytest.mark.django_db


@pytest.fixture
def suppliers(tenant2, tenant3, in_tenant):
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Vendor")
        Supplier.objects.create(parent_vendor=vendor, number="S-1", name="=HYPERLINK(evil)", country="CN")
        Supplier.objects.create(parent_vendor=vendor, number="S-2", name="上海工厂", country="CN")
        Supplier.objects.create(parent_vendor=vendor, number="S-3", name="Finland Mill", country="FI")
    with in_tenant(tenant2):
        Supplier.objects.create(
            parent_vendor=ParentVendor.objects.create(name="X"), number="S-X", name="Other"
        )


def read_csv(response):
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_csv_export_applies_filters_and_stays_in_the_tenant(suppliers, api, tenant3, make_user):
    client = api(make_user(tenant3), tenant3)
    response = client.get("/api/suppliers/export/?format=csv&country=CN")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="suppliers-')
    rows = read_csv(response)
    body = rows[1:]
    assert len(body) == 2
    flat = " ".join(" ".join(r) for r in body)
    assert "上海工厂" in flat and "Other" not in flat and "Finland" not in flat
    # A cell that a spreadsheet would run as a formula is exported as text.
    assert any(cell.startswith("'=HYPERLINK") for r in body for cell in r)


def test_xlsx_export(suppliers, api, tenant3, make_user):
    response = api(make_user(tenant3), tenant3).get("/api/suppliers/export/?format=xlsx&search=Finland")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 2 and "Finland Mill" in rows[1]


def test_unknown_format_is_a_validation_error(suppliers, api, tenant3, make_user):
    response = api(make_user(tenant3), tenant3).get("/api/suppliers/export/?format=pdf")
    assert response.status_code == 400 and response.json()["error"] == "validation_error"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_streamed_csv_reads_inside_the_tenant_on_postgresql(suppliers, api, tenant3, make_user):
    """The stream is consumed after the request's transaction: it must re-enter the tenant (RLS)."""
    rows = read_csv(api(make_user(tenant3), tenant3).get("/api/suppliers/export/?format=csv"))
    assert len(rows) == 4


def test_xlsx_export_drops_control_characters_and_writes_translated_headers(
    suppliers, api, tenant3, make_user, in_tenant
):
    with in_tenant(tenant3):
        Supplier.objects.filter(number="S-3").update(name="Mill\x01\x0bNorth")
    client = api(make_user(tenant3), tenant3)
    response = client.get("/api/suppliers/export/?format=xlsx", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [cell for row in sheet.iter_rows(values_only=True) for cell in row]
    assert "MillNorth" in values
