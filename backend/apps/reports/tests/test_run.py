"""Running reports: figures against hand-computed ones, filters, groups, pivot, scoping, refusals."""

from datetime import timedelta

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db

RUN = "/api/reports/run/"


def run(api, user, tenant, body, status=200):
    response = api(user, tenant).post(RUN, body, format="json")
    assert response.status_code == status, response.content
    return response.json()["data"] if status == 200 else response.json()


def test_cartons_per_parent_vendor(api, lab):
    data = run(
        api,
        lab.admin,
        lab.tenant3,
        {
            "dataset": "cartons",
            "group_by": ["parent_vendor"],
            "measures": [{"field": "id", "agg": "count"}, {"field": "net_weight_kg", "agg": "sum"}],
        },
    )
    rows = {r["parent_vendor"]: r for r in data["rows"]}
    assert rows["Shanghai Evergreen Packaging"]["id__count"] == 3
    assert rows["Shanghai Evergreen Packaging"]["net_weight_kg__sum"] == "1.5"
    assert rows["Ningbo Bluewave Cartons"]["id__count"] == 2
    assert rows["Ningbo Bluewave Cartons"]["net_weight_kg__sum"] == "1"
    assert data["totals"] == {"id__count": 5, "net_weight_kg__sum": "2.5"}
    assert data["columns"] == ["parent_vendor"]


def test_two_groups_give_subtotals_per_first_group_and_a_pivot_gives_column_totals(api, lab):
    data = run(
        api,
        lab.admin,
        lab.tenant3,
        {
            "dataset": "cartons",
            "group_by": ["parent_vendor", "production_batch_code"],
            "pivot": "product",
            "measures": [{"field": "id", "agg": "count"}],
        },
    )
    by_key = {
        (r["parent_vendor"], r["production_batch_code"], r["product"]): r["id__count"] for r in data["rows"]
    }
    a, b = lab.line_a.product.article_number, lab.line_b.product.article_number
    assert by_key == {
        ("Shanghai Evergreen Packaging", "20261101A", a): 2,
        ("Shanghai Evergreen Packaging", "20261102A", a): 1,
        ("Ningbo Bluewave Cartons", "20261101B", b): 2,
    }
    subtotals = {(s["parent_vendor"], s["product"]): s["id__count"] for s in data["subtotals"]}
    assert subtotals == {("Shanghai Evergreen Packaging", a): 3, ("Ningbo Bluewave Cartons", b): 2}
    assert all(s["level"] == 1 for s in data["subtotals"])
    assert {p["product"]: p["id__count"] for p in data["pivot_totals"]} == {a: 3, b: 2}
    assert data["totals"]["id__count"] == 5


def test_every_aggregate(api, lab):
    measures = [{"field": "net_weight_kg", "agg": agg} for agg in ("sum", "count", "avg", "min", "max")]
    measures.append({"field": "id", "agg": "count"})
    data = run(api, lab.admin, lab.tenant3, {"dataset": "cartons", "measures": measures})
    totals = data["totals"]
    assert totals["net_weight_kg__sum"] == "2.5"
    assert totals["net_weight_kg__count"] == 5
    assert totals["net_weight_kg__avg"] == "0.5"
    assert totals["net_weight_kg__min"] == "0.5"
    assert totals["net_weight_kg__max"] == "0.5"
    distinct = run(
        api,
        lab.admin,
        lab.tenant3,
        {"dataset": "cartons", "measures": [{"field": "net_weight_kg", "agg": "count_distinct"}]},
    )
    assert distinct["totals"]["net_weight_kg__count_distinct"] == 1


def test_raw_material_weights_against_the_weight_balance(api, lab):
    data = run(
        api,
        lab.admin,
        lab.tenant3,
        {
            "dataset": "raw_materials",
            "group_by": ["parent_vendor"],
            "measures": [
                {"field": "original_kg", "agg": "sum"},
                {"field": "used_kg", "agg": "sum"},
                {"field": "remaining_kg", "agg": "sum"},
                {"field": "issued_cartons", "agg": "sum"},
            ],
        },
    )
    rows = {r["parent_vendor"]: r for r in data["rows"]}
    a = rows["Shanghai Evergreen Packaging"]
    # 1000 kg, 5 % loss (the factory's policy default in factories.policy is not set: delivery's own rate).
    lab.delivery_a.refresh_from_db()
    loss = lab.delivery_a.loss_rate_percent or 0
    from decimal import Decimal

    expected_remaining = Decimal("1000") * (1 - Decimal(loss) / 100) - Decimal("1.5")
    assert Decimal(a["original_kg__sum"]) == Decimal("1000")
    assert Decimal(a["used_kg__sum"]) == Decimal("1.5")
    assert Decimal(a["remaining_kg__sum"]) == expected_remaining
    assert a["issued_cartons__sum"] == 3


def test_filter_operators(api, lab):
    base = {"dataset": "cartons", "measures": [{"field": "id", "agg": "count"}]}

    def count(filters):
        return run(api, lab.admin, lab.tenant3, {**base, "filters": filters})["totals"]["id__count"]

    assert count([{"field": "parent_vendor", "op": "eq", "value": "Ningbo Bluewave Cartons"}]) == 2
    assert count([{"field": "production_batch_code", "op": "in", "value": ["20261101A", "20261102A"]}]) == 3
    assert (
        count([{"field": "raw_material", "op": "contains", "value": lab.delivery_b.delivery_number[-3:]}])
        >= 2
    )
    assert count([{"field": "net_weight", "op": "range", "value": [0.4, None]}]) == 5
    assert count([{"field": "net_weight", "op": "range", "value": [None, 0.4]}]) == 0
    today = timezone.localdate()
    assert count([{"field": "created_at", "op": "range", "value": [str(today), str(today)]}]) == 5
    assert count([{"field": "created_at", "op": "eq", "value": str(today - timedelta(days=1))}]) == 0
    assert count([{"field": "created_at", "op": "relative", "value": "last_90_days"}]) == 5
    assert count([{"field": "created_at", "op": "relative", "value": "this_year"}]) == 5
    assert count([{"field": "status", "op": "eq", "value": "voided"}]) == 0


def test_date_grains_group_by_period(api, lab):
    for grain in ("day", "week", "month", "quarter", "year"):
        data = run(
            api,
            lab.admin,
            lab.tenant3,
            {
                "dataset": "cartons",
                "group_by": [f"created_at:{grain}"],
                "measures": [{"field": "id", "agg": "count"}],
            },
        )
        assert len(data["rows"]) == 1
        assert data["rows"][0]["id__count"] == 5
        assert len(data["rows"][0][f"created_at:{grain}"]) == 10  # an ISO date, the period's first day


@pytest.mark.parametrize(
    "body, part",
    [
        ({"dataset": "cartons", "group_by": ["tenant_id"]}, "group_by"),
        ({"dataset": "cartons", "group_by": ["raw_material__parent_vendor__name"]}, "group_by"),
        (
            {"dataset": "cartons", "filters": [{"field": "status", "op": "eq", "value": "x' OR 1=1 --"}]},
            "filters[0]",
        ),
        ({"dataset": "cartons", "filters": [{"field": "code", "op": "eq", "value": "x"}]}, "filters[0]"),
        (
            {"dataset": "cartons", "filters": [{"field": "status", "op": "contains", "value": "a"}]},
            "filters[0]",
        ),
        (
            {
                "dataset": "cartons",
                "filters": [{"field": "created_at", "op": "relative", "value": "yesterday; drop"}],
            },
            "filters[0]",
        ),
        (
            {"dataset": "cartons", "filters": [{"field": "net_weight", "op": "range", "value": ["a", 1]}]},
            "filters[0]",
        ),
        ({"dataset": "cartons", "filters": ["status"]}, "filters[0]"),
        ({"dataset": "cartons", "measures": [{"field": "code", "agg": "sum"}]}, "measures"),
        ({"dataset": "cartons", "measures": [{"field": "net_weight_kg", "agg": "median"}]}, "measures"),
        ({"dataset": "cartons", "group_by": ["status:month"]}, "group_by"),
        ({"dataset": "cartons", "group_by": ["a", "b", "c", "d"]}, "group_by"),
        ({"dataset": "cartons", "group_by": ["status"], "pivot": "status"}, "group_by"),
        ({"dataset": "cartons", "order_by": ["code"]}, "order_by"),
        ({"dataset": "cartons", "limit": 0}, "limit"),
        ({"dataset": "cartons", "limit": True}, "limit"),
    ],
)
def test_unknown_fields_and_bad_values_are_refused_with_the_part_named(api, lab, body, part):
    error = run(api, lab.admin, lab.tenant3, body, status=400)
    assert error["error"] == "report_invalid"
    assert part in error["data"]
    assert error["message"]


def test_unknown_dataset_and_hostile_bodies(api, lab):
    client = api(lab.admin, lab.tenant3)
    assert client.post(RUN, {"dataset": "auth_user"}, format="json").status_code == 404
    for body in (
        [],
        [None],
        "x",
        {"dataset": None},
        {"dataset": ["cartons"]},
        {"dataset": "cartons", "filters": {"a": 1}},
    ):
        response = client.post(RUN, body, format="json")
        assert response.status_code == 400, (body, response.content)


def test_another_tenant_sees_only_its_rows(api, lab):
    data = run(api, lab.admin_x, lab.tenant2, {"dataset": "cartons", "group_by": ["parent_vendor"]})
    assert [r["parent_vendor"] for r in data["rows"]] == ["Nordic Vendor"]
    assert data["totals"]["id__count"] == 1
    # Not a member of tenant 3.
    assert api(lab.admin_x, lab.tenant3).post(RUN, {"dataset": "cartons"}, format="json").status_code == 403


def test_a_supplier_sees_only_its_parent_vendors_rows_in_every_dataset_it_may_use(api, lab):
    client = api(lab.supplier_b, lab.tenant3)
    names = [d["name"] for d in client.get("/api/reports/datasets/").json()["data"]]
    assert "stock" not in names and "stock_moves" not in names  # nothing to narrow them to a vendor
    assert "cartons" in names
    for name in names:
        response = client.post(
            RUN, {"dataset": name, "measures": [{"field": "id", "agg": "count"}]}, format="json"
        )
        assert response.status_code == 200, response.content
    data = run(api, lab.supplier_b, lab.tenant3, {"dataset": "cartons", "group_by": ["parent_vendor"]})
    assert [r["parent_vendor"] for r in data["rows"]] == ["Ningbo Bluewave Cartons"]
    assert (
        run(api, lab.supplier_b, lab.tenant3, {"dataset": "stock"}, status=404)["error"]
        == "dataset_not_found"
    )


def test_without_the_permission_the_lab_is_closed(api, lab):
    # The warehouse role has no report lab permission by default.
    assert api(lab.warehouse, lab.tenant3).post(RUN, {"dataset": "cartons"}, format="json").status_code == 403
    assert api(lab.warehouse, lab.tenant3).get("/api/reports/datasets/").status_code == 403


def test_datasets_describe_dimensions_and_measures(api, lab):
    data = api(lab.admin, lab.tenant3).get("/api/reports/datasets/").json()["data"]
    names = {d["name"] for d in data}
    assert {"cartons", "purchase_lines", "receipts", "stock", "stock_moves", "raw_materials"} <= names
    cartons = next(d for d in data if d["name"] == "cartons")
    created = next(d for d in cartons["dimensions"] if d["name"] == "created_at")
    assert created["kind"] == "date" and created["grains"] == ["day", "week", "month", "quarter", "year"]
    status = next(d for d in cartons["dimensions"] if d["name"] == "status")
    assert {c["value"] for c in status["choices"]} == {"active", "voided"}


def test_a_report_runs_a_fixed_number_of_queries(api, lab, django_assert_max_num_queries):
    client = api(lab.admin, lab.tenant3)
    body = {
        "dataset": "cartons",
        "group_by": ["parent_vendor", "production_batch_code", "created_at:month"],
        "pivot": "product",
        "measures": [{"field": "id", "agg": "count"}, {"field": "net_weight_kg", "agg": "sum"}],
    }
    # auth/tenant/permissions + rows + 2 subtotal levels + pivot totals + grand total
    with django_assert_max_num_queries(12):
        assert client.post(RUN, body, format="json").status_code == 200


ADDABLE = {
    "dataset": "cartons",
    "group_by": ["parent_vendor", "production_batch_code", "created_at:month"],
    "pivot": "product",
    "measures": [
        {"field": "id", "agg": "count"},
        {"field": "net_weight_kg", "agg": "sum"},
        {"field": "net_weight_kg", "agg": "min"},
        {"field": "net_weight_kg", "agg": "max"},
    ],
}


def _report_scans(client, body) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.post(RUN, body, format="json").status_code == 200
    return sum(1 for q in captured.captured_queries if "eudr_cartonlabel" in q["sql"])


def test_sums_counts_minima_and_maxima_are_added_up_from_the_rows_in_one_scan(api, lab, monkeypatch):
    """Subtotals, pivot totals and the total of addable measures come from the rows the database
    answered: one scan of the data; the same figures, in the same order, as one query per level."""
    from apps.reports import selectors

    client = api(lab.admin, lab.tenant3)
    assert _report_scans(client, ADDABLE) == 1
    added = run(api, lab.admin, lab.tenant3, ADDABLE)
    monkeypatch.setattr(selectors, "_can_add_up", lambda definition, rows: False)
    assert _report_scans(client, ADDABLE) == 5  # rows, two subtotal levels, pivot totals, total
    asked = run(api, lab.admin, lab.tenant3, ADDABLE)
    assert added == asked
    assert added["totals"] == {
        "id__count": 5,
        "net_weight_kg__sum": "2.5",
        "net_weight_kg__min": "0.5",
        "net_weight_kg__max": "0.5",
    }
    # per vendor and product (2), per vendor, batch and product (3)
    assert [s["level"] for s in added["subtotals"]] == [1, 1, 2, 2, 2]


@pytest.mark.parametrize(
    "change",
    [
        {"measures": [{"field": "net_weight_kg", "agg": "avg"}]},  # an average of averages is not one
        {"measures": [{"field": "net_weight_kg", "agg": "count_distinct"}]},
        {"limit": 2},  # the rows are cut: the levels must count what was cut too
    ],
)
def test_figures_that_cannot_be_added_up_are_asked_of_the_database(api, lab, change):
    body = {**ADDABLE, **change}
    client = api(lab.admin, lab.tenant3)
    assert _report_scans(client, body) == 5
    data = run(api, lab.admin, lab.tenant3, body)
    if "limit" in change:
        assert data["truncated"] is True
        assert data["totals"]["id__count"] == 5  # all five cartons, not the two rows shown


def test_a_report_of_no_rows_has_zero_totals(api, lab):
    body = {**ADDABLE, "filters": [{"field": "production_batch_code", "op": "eq", "value": "none such"}]}
    data = run(api, lab.admin, lab.tenant3, body)
    assert data["rows"] == [] and data["subtotals"] == [] and data["pivot_totals"] == []
    assert data["totals"] == {
        "id__count": 0,
        "net_weight_kg__sum": 0,
        "net_weight_kg__min": None,
        "net_weight_kg__max": None,
    }


def test_limit_and_order(api, lab):
    data = run(
        api,
        lab.admin,
        lab.tenant3,
        {
            "dataset": "cartons",
            "group_by": ["production_batch_code"],
            "order_by": ["-id__count"],
            "limit": 2,
            "measures": [{"field": "id", "agg": "count"}],
        },
    )
    assert [r["id__count"] for r in data["rows"]] == [2, 2]
    assert data["truncated"] is True


def test_purchase_lines_group_by_their_own_delivery_date(api, lab, in_tenant):
    """A line's own delivery date is a dimension; a line that follows the order's promise date has none."""
    from datetime import date

    from apps.purchaseorders.models import PurchaseOrderLine

    with in_tenant(lab.tenant3):
        PurchaseOrderLine.objects.filter(pk=lab.line_a.pk).update(delivery_date=date(2026, 12, 15))
    data = run(
        api,
        lab.admin,
        lab.tenant3,
        {
            "dataset": "purchase_lines",
            "group_by": ["delivery_date:day"],
            "measures": [{"field": "id", "agg": "count"}],
        },
    )
    assert {row["delivery_date:day"]: row["id__count"] for row in data["rows"]} == {"2026-12-15": 1, None: 1}
