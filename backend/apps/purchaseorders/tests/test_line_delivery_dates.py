"""A delivery date per purchase order line: written with the order's lines, refused before the order date,
read by the supplier portal of the order's own vendor only, printed on the PDF (else the order's promise
date)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pymupdf as fitz
import pytest

from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"
BEFORE_ORDER_DATE = "The delivery date cannot be before the order date."


def payload(world, **overrides):
    body = {
        "order_date": "2026-03-02",
        "supplier": world["supplier_a"].pk,
        "promise_date": "2026-04-15",
        "lines": [
            {
                "product": world["carton"].pk,
                "order_qty": "100",
                "unit_cost": "1.25",
                "delivery_date": "2026-04-01",
            },
            {"product": world["box"].pk, "order_qty": "3", "unit_cost": "1"},
        ],
    }
    body.update(overrides)
    return body


@pytest.fixture
def dated_order(world, in_tenant, make_order):
    """A confirmed order of supplier A: line 1 due on 2026-04-01, line 2 on the promise date 2026-04-15."""
    order = make_order(
        lines=[(world["carton"], "100", "1.25"), (world["box"], "3", "1")], promise_date=date(2026, 4, 15)
    )
    with in_tenant(world["tenant3"]):
        PurchaseOrderLine.objects.filter(order=order, line_number=1).update(delivery_date=date(2026, 4, 1))
    return order


def line_dates(order, in_tenant, world):
    with in_tenant(world["tenant3"]):
        return list(
            PurchaseOrderLine.objects.filter(order=order)
            .order_by("line_number")
            .values_list("delivery_date", flat=True)
        )


def test_create_with_line_delivery_dates(world, api):
    response = api(world["purchasing"], world["tenant3"]).post(URL, payload(world), format="json")
    assert response.status_code == 201, response.json()
    first, second = response.json()["data"]["lines"]
    assert first["delivery_date"] == "2026-04-01"
    assert second["delivery_date"] is None  # the order's promise date applies
    assert response.json()["data"]["promise_date"] == "2026-04-15"


def test_lines_may_have_dates_while_the_order_has_none(world, api):
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, payload(world, promise_date=None), format="json"
    )
    assert response.status_code == 201, response.json()
    order = response.json()["data"]
    assert order["promise_date"] is None
    assert [line["delivery_date"] for line in order["lines"]] == ["2026-04-01", None]


def test_update_sets_changes_and_clears_line_dates(world, api, dated_order, in_tenant):
    client = api(world["purchasing"], world["tenant3"])
    first, second = client.get(f"{URL}{dated_order.pk}/").json()["data"]["lines"]
    lines = [
        {
            "id": first["id"],
            "product": first["product"],
            "order_qty": "100",
            "unit_cost": "1.25",
            "delivery_date": None,
        },
        {
            "id": second["id"],
            "product": second["product"],
            "order_qty": "3",
            "unit_cost": "1",
            "delivery_date": "2026-05-20",
        },
    ]
    response = client.patch(f"{URL}{dated_order.pk}/", {"lines": lines}, format="json")
    assert response.status_code == 200, response.json()
    assert [line["delivery_date"] for line in response.json()["data"]["lines"]] == [None, "2026-05-20"]
    assert line_dates(dated_order, in_tenant, world) == [None, date(2026, 5, 20)]


def test_a_line_sent_without_its_date_keeps_it(world, api, dated_order, in_tenant):
    client = api(world["purchasing"], world["tenant3"])
    lines = [
        {"id": line["id"], "product": line["product"], "order_qty": "7", "unit_cost": line["unit_cost"]}
        for line in client.get(f"{URL}{dated_order.pk}/").json()["data"]["lines"]
    ]
    assert client.patch(f"{URL}{dated_order.pk}/", {"lines": lines}, format="json").status_code == 200
    assert line_dates(dated_order, in_tenant, world) == [date(2026, 4, 1), None]


def test_a_line_date_before_the_order_date_is_refused_on_create(world, api, in_tenant):
    body = payload(world)
    body["lines"][1]["delivery_date"] = "2026-03-01"
    response = api(world["purchasing"], world["tenant3"]).post(URL, body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["error"] == "validation_error"
    assert error["data"]["lines"] == [{}, {"delivery_date": [BEFORE_ORDER_DATE]}]
    with in_tenant(world["tenant3"]):
        assert not PurchaseOrder.objects.exists()  # nothing written
        assert not PurchaseOrderLine.objects.exists()


def test_a_line_date_before_the_order_date_is_refused_on_update(world, api, dated_order, in_tenant):
    client = api(world["purchasing"], world["tenant3"])
    before = client.get(f"{URL}{dated_order.pk}/").json()["data"]
    lines = [
        {"id": line["id"], "product": line["product"], "order_qty": "50", "unit_cost": line["unit_cost"]}
        for line in before["lines"]
    ]
    lines[0]["delivery_date"] = "2026-02-27"  # the order date is 2026-03-01
    response = client.patch(
        f"{URL}{dated_order.pk}/", {"description": "Changed", "lines": lines}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["data"]["lines"][0] == {"delivery_date": [BEFORE_ORDER_DATE]}
    after = client.get(f"{URL}{dated_order.pk}/").json()["data"]
    assert after["description"] == before["description"]
    assert [line["order_qty"] for line in after["lines"]] == ["100.000", "3.000"]
    assert line_dates(dated_order, in_tenant, world) == [date(2026, 4, 1), None]


def test_moving_the_order_date_past_a_line_date_is_refused(world, api, dated_order, in_tenant):
    client = api(world["purchasing"], world["tenant3"])
    response = client.patch(f"{URL}{dated_order.pk}/", {"order_date": "2026-04-05"}, format="json")
    assert response.status_code == 400
    assert response.json()["data"]["order_date"] == ["Line 1 is to be delivered before this order date."]
    with in_tenant(world["tenant3"]):
        assert PurchaseOrder.objects.get(pk=dated_order.pk).order_date == date(2026, 3, 1)
    # the same day as a line's date is fine
    response = client.patch(f"{URL}{dated_order.pk}/", {"order_date": "2026-04-01"}, format="json")
    assert response.status_code == 200, response.json()


def test_moving_the_order_date_past_a_kept_line_date_is_refused_with_the_lines(
    world, api, dated_order, in_tenant
):
    """Lines sent without their dates keep them; a new order date after one of them is refused on that line."""
    client = api(world["purchasing"], world["tenant3"])
    lines = [
        {"id": line["id"], "product": line["product"], "order_qty": "5", "unit_cost": line["unit_cost"]}
        for line in client.get(f"{URL}{dated_order.pk}/").json()["data"]["lines"]
    ]
    response = client.patch(
        f"{URL}{dated_order.pk}/", {"order_date": "2026-04-05", "lines": lines}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["data"]["lines"] == [{"delivery_date": [BEFORE_ORDER_DATE]}, {}]
    with in_tenant(world["tenant3"]):
        assert PurchaseOrder.objects.get(pk=dated_order.pk).order_date == date(2026, 3, 1)
    assert line_dates(dated_order, in_tenant, world) == [date(2026, 4, 1), None]


def test_the_refusal_speaks_chinese(world, api):
    body = payload(world)
    body["lines"][0]["delivery_date"] = "2026-01-01"
    response = api(world["purchasing"], world["tenant3"]).post(
        URL, body, format="json", HTTP_ACCEPT_LANGUAGE="zh"
    )
    assert response.status_code == 400
    message = response.json()["data"]["lines"][0]["delivery_date"][0]
    assert message != BEFORE_ORDER_DATE and "交货日期" in message


def test_the_supplier_portal_reads_its_own_vendors_line_dates(world, api, dated_order):
    client = api(world["supplier_user_a"], world["tenant3"])
    for url in (f"{URL}{dated_order.pk}/", f"{URL}by-number/{dated_order.order_number}/"):
        lines = client.get(url).json()["data"]["lines"]
        assert [line["delivery_date"] for line in lines] == ["2026-04-01", None]


def test_another_vendor_and_another_tenant_neither_read_nor_change_line_dates(
    world, api, dated_order, in_tenant
):
    supplier_b = api(world["supplier_user_b"], world["tenant3"])
    stranger = api(world["other_admin"], world["tenant2"])
    stranger_in_3 = api(world["other_admin"], world["tenant3"])
    for client in (supplier_b, stranger):
        assert client.get(f"{URL}{dated_order.pk}/").status_code == 404
        assert client.get(f"{URL}by-number/{dated_order.order_number}/").status_code == 404
    assert stranger_in_3.get(f"{URL}{dated_order.pk}/").status_code == 403  # not a member of tenant 3
    with in_tenant(world["tenant3"]):
        line_ids = list(
            PurchaseOrderLine.objects.filter(order=dated_order)
            .order_by("line_number")
            .values_list("pk", flat=True)
        )
    lines = [
        {
            "id": line_ids[0],
            "product": world["carton"].pk,
            "order_qty": "100",
            "unit_cost": "1.25",
            "delivery_date": "2026-09-09",
        },
        {
            "id": line_ids[1],
            "product": world["box"].pk,
            "order_qty": "3",
            "unit_cost": "1",
            "delivery_date": "2026-09-09",
        },
    ]
    for client in (supplier_b, api(world["supplier_user_a"], world["tenant3"]), stranger, stranger_in_3):
        response = client.patch(f"{URL}{dated_order.pk}/", {"lines": lines}, format="json")
        assert response.status_code in (403, 404)
    assert line_dates(dated_order, in_tenant, world) == [date(2026, 4, 1), None]


def test_the_service_keeps_a_line_date(world, in_tenant):
    with in_tenant(world["tenant3"]):
        order = services.purchase_order_create(
            supplier=world["supplier_a"],
            order_date=date(2026, 3, 1),
            lines=[
                services.LineInput(
                    product=world["carton"],
                    order_qty=Decimal("1"),
                    unit_cost=Decimal("1"),
                    delivery_date=date(2026, 3, 20),
                )
            ],
        )
        assert order.lines.get().delivery_date == date(2026, 3, 20)


def _pdf_text(content: bytes) -> str:
    with fitz.open(stream=content, filetype="pdf") as document:
        return "\n".join(page.get_text() for page in document)


def test_the_pdf_prints_each_lines_date_else_the_promise_date(world, api, dated_order):
    response = api(world["purchasing"], world["tenant3"]).get(f"{URL}{dated_order.pk}/pdf/?language=en")
    assert response.status_code == 200
    text = _pdf_text(response.content)
    assert "1 Mar 2026" in text  # the order date
    assert "1 Apr 2026" in text  # line 1's own date
    # the header's delivery date and line 2 (no date of its own) print the promise date
    assert text.count("15 Apr 2026") == 2
    assert "2026-04-01" not in text and "2026-04-15" not in text


def test_the_pdf_in_chinese_prints_chinese_dates(world, api, dated_order):
    response = api(world["purchasing"], world["tenant3"]).get(f"{URL}{dated_order.pk}/pdf/?language=zh")
    text = _pdf_text(response.content)
    assert "2026年3月1日" in text and "2026年4月1日" in text and "2026年4月15日" in text


def test_without_any_date_the_pdf_prints_none(world, api, make_order):
    order = make_order()
    text = _pdf_text(
        api(world["purchasing"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/?language=en").content
    )
    assert "1 Mar 2026" in text and "Apr 2026" not in text


def test_the_pdf_query_count_does_not_grow_with_lines(world, api, make_order, in_tenant, count_queries):
    client = api(world["purchasing"], world["tenant3"])
    small = make_order(promise_date=date(2026, 4, 15))
    big = make_order(
        lines=[(world["carton"], str(n), "1") for n in range(1, 12)], promise_date=date(2026, 4, 15)
    )
    with in_tenant(world["tenant3"]):
        PurchaseOrderLine.objects.filter(order=big, line_number__lte=5).update(delivery_date=date(2026, 4, 2))
    client.get(f"{URL}{small.pk}/pdf/")  # warm the per-user permission cache
    assert count_queries(lambda: client.get(f"{URL}{small.pk}/pdf/")) == count_queries(
        lambda: client.get(f"{URL}{big.pk}/pdf/")
    )
