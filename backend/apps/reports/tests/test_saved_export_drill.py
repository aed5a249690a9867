"""Saved reports (ownership, sharing, tenants), drill-down, CSV/XLSX export, the checks page's figures."""

import csv
import io

import pytest
from openpyxl import load_workbook

pytestmark = pytest.mark.django_db

SAVED = "/api/reports/saved/"
DEFINITION = {
    "dataset": "cartons",
    "group_by": ["parent_vendor", "production_batch_code"],
    "measures": [{"field": "id", "agg": "count"}, {"field": "net_weight_kg", "agg": "sum"}],
}


def save(client, **fields):
    body = {"name": "Cartons per vendor", "definition": DEFINITION, "chart": "bar", **fields}
    response = client.post(SAVED, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["data"]


def test_saved_reports_private_shared_and_owned(api, lab):
    admin, purchaser = api(lab.admin, lab.tenant3), api(lab.purchaser, lab.tenant3)
    private = save(admin, name="Mine")
    shared = save(admin, name="Ours", shared=True)
    listed = {r["name"] for r in purchaser.get(SAVED).json()["data"]["results"]}
    assert listed == {"Ours"}
    assert purchaser.get(f"{SAVED}{private['id']}/").status_code == 404
    # Only the owner changes or deletes; others duplicate.
    assert purchaser.patch(f"{SAVED}{shared['id']}/", {"name": "Taken"}, format="json").status_code == 403
    assert purchaser.delete(f"{SAVED}{shared['id']}/").status_code == 403
    copy = purchaser.post(f"{SAVED}{shared['id']}/duplicate/").json()["data"]
    assert copy["name"] == "Ours (copy)" and copy["is_mine"] is True and copy["shared"] is False
    assert copy["definition"] == DEFINITION
    again = purchaser.post(f"{SAVED}{shared['id']}/duplicate/").json()["data"]
    assert again["name"] == "Ours (copy) 2"
    assert (
        admin.patch(f"{SAVED}{shared['id']}/", {"chart": "pie"}, format="json").json()["data"]["chart"]
        == "pie"
    )
    assert admin.delete(f"{SAVED}{private['id']}/").status_code == 200
    assert admin.get(f"{SAVED}{private['id']}/").status_code == 404


def test_a_saved_definition_is_checked_and_names_are_unique_per_owner(api, lab):
    admin = api(lab.admin, lab.tenant3)
    bad = admin.post(
        SAVED, {"name": "Bad", "definition": {"dataset": "cartons", "group_by": ["nope"]}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["error"] == "report_invalid"
    save(admin, name="Twice")
    twice = admin.post(SAVED, {"name": "Twice", "definition": DEFINITION}, format="json")
    assert twice.status_code == 400 and "name" in twice.json()["data"]
    assert admin.post(SAVED, {"name": "  ", "definition": DEFINITION}, format="json").status_code == 400


def test_another_tenant_never_sees_saved_reports(api, lab):
    report = save(api(lab.admin, lab.tenant3), shared=True)
    other = api(lab.admin_x, lab.tenant2)
    assert other.get(SAVED).json()["data"]["count"] == 0
    assert other.get(f"{SAVED}{report['id']}/").status_code == 404
    assert other.delete(f"{SAVED}{report['id']}/").status_code == 404


def test_saved_list_query_count(api, lab, django_assert_max_num_queries):
    admin = api(lab.admin, lab.tenant3)
    for n in range(5):
        save(admin, name=f"R{n}", shared=True)
    with django_assert_max_num_queries(8):
        assert api(lab.purchaser, lab.tenant3).get(SAVED).status_code == 200


def test_drill_down_lists_the_records_behind_a_cell(api, lab):
    client = api(lab.admin, lab.tenant3)
    body = {
        **DEFINITION,
        "cell": {"parent_vendor": "Shanghai Evergreen Packaging", "production_batch_code": "20261101A"},
    }
    data = client.post("/api/reports/drill/", body, format="json").json()["data"]
    assert data["count"] == 2
    assert {r["production_batch_code"] for r in data["results"]} == {"20261101A"}
    assert next(c["key"] for c in data["columns"]) == "code"
    month = client.post(
        "/api/reports/drill/",
        {
            "dataset": "cartons",
            "group_by": ["created_at:month"],
            "cell": {"created_at:month": data["results"][0]["created_at"][:8] + "01"},
        },
        format="json",
    ).json()["data"]
    assert month["count"] == 5
    refused = client.post("/api/reports/drill/", {**DEFINITION, "cell": {"code": "x"}}, format="json")
    assert refused.status_code == 400
    bad_date = client.post(
        "/api/reports/drill/",
        {"dataset": "cartons", "group_by": ["created_at:month"], "cell": {"created_at:month": "x"}},
        format="json",
    )
    assert bad_date.status_code == 400
    # A supplier drills only into its own vendor's rows.
    supplier = api(lab.supplier_b, lab.tenant3)
    mine = supplier.post(
        "/api/reports/drill/",
        {**DEFINITION, "cell": {"parent_vendor": "Shanghai Evergreen Packaging"}},
        format="json",
    )
    assert mine.json()["data"]["count"] == 0


def test_csv_export_holds_rows_subtotals_and_total(api, lab):
    response = api(lab.admin, lab.tenant3).post("/api/reports/export/?format=csv", DEFINITION, format="json")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:2] == ["parent vendor", "production batch code"]
    body = list(rows[1:])
    assert ["Ningbo Bluewave Cartons", "20261101B", "2", "1"] in body
    assert ["Ningbo Bluewave Cartons", "Subtotal", "2", "1"] in body
    assert ["Shanghai Evergreen Packaging", "Subtotal", "3", "1.5"] in body
    assert body[-1] == ["Total", "", "5", "2.5"]


def test_xlsx_export_keeps_grouping_and_totals_and_a_pivot(api, lab):
    body = {**DEFINITION, "pivot": "status"}
    response = api(lab.admin, lab.tenant3).post("/api/reports/export/?format=xlsx", body, format="json")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == [
        "parent vendor",
        "production batch code",
        "active · records · count",
        "active · net weight (kg) · sum",
    ]
    assert values[-1] == ["Total", None, 5, 2.5]
    subtotal_rows = [i for i, row in enumerate(values, start=1) if row[1] == "Subtotal"]
    assert len(subtotal_rows) == 2
    assert sheet[subtotal_rows[0]][0].font.b
    data_rows = [i for i, row in enumerate(values[1:-1], start=2) if row[1] != "Subtotal"]
    assert all(sheet.row_dimensions[i].outlineLevel == 1 for i in data_rows)
    assert (
        api(lab.admin, lab.tenant3).post("/api/reports/export/?format=pdf", body, format="json").status_code
        == 400
    )


def test_checks_are_for_staff_and_report_that_figures_add_up(api, lab, make_user):
    assert api(lab.admin, lab.tenant3).get("/api/reports/checks/").status_code == 403
    staff = make_user(lab.tenant3, "Administrator", username="staff", is_staff=True)
    data = api(staff, lab.tenant3).get("/api/reports/checks/").json()["data"]
    by_name = {d["dataset"]: d for d in data}
    assert by_name["cartons"]["rows"] == 5
    raw = by_name["raw_materials"]["checks"][0]
    assert raw["ok"] is True and raw["failures"] == 0
    assert by_name["stock"]["checks"][0]["ok"] is True


def test_the_stock_check_finds_stock_that_its_moves_do_not_explain(api, lab, make_user, in_tenant):
    from decimal import Decimal

    from apps.inventory.models import Location, Stock, Warehouse

    with in_tenant(lab.tenant3):
        warehouse = Warehouse.objects.create(code="W1", name="Main")
        location = Location.objects.create(warehouse=warehouse, code="A-01")
        Stock.objects.create(product=lab.line_a.product, location=location, quantity=Decimal("5"))
    staff = make_user(lab.tenant3, "Administrator", username="staff2", is_staff=True)
    data = api(staff, lab.tenant3).get("/api/reports/checks/").json()["data"]
    stock = next(d for d in data if d["dataset"] == "stock")
    assert stock["checks"][0] == {"name": "Stock equals the sum of its moves", "ok": False, "failures": 1}


def test_the_weight_check_finds_a_delivery_one_gram_off_its_labels(api, lab, make_user, in_tenant):
    from decimal import Decimal

    from apps.eudr.models import RawMaterialDelivery

    with in_tenant(lab.tenant3):
        delivery = RawMaterialDelivery.objects.get(pk=lab.delivery_a.pk)
        RawMaterialDelivery.objects.filter(pk=delivery.pk).update(used_kg=delivery.used_kg + Decimal("0.001"))
    staff = make_user(lab.tenant3, "Administrator", username="staff3", is_staff=True)
    data = api(staff, lab.tenant3).get("/api/reports/checks/").json()["data"]
    raw = next(d for d in data if d["dataset"] == "raw_materials")
    assert raw["checks"][0]["ok"] is False and raw["checks"][0]["failures"] == 1
