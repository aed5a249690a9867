"""Quotations: create and edit with their validation, numbering, the status actions, accepting into exactly
one sales order with the same lines and totals, the PDF, tenancy and user types, hostile bodies."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from django.utils import timezone
from pypdf import PdfReader

from apps.common.dates import day_text
from apps.salesorders.models import SalesOrder, SalesQuotation

pytestmark = pytest.mark.django_db
QUOTATIONS = "/api/salesorders/quotations/"
ORDERS = "/api/salesorders/orders/"


def _today() -> date:
    return timezone.localdate()


def payload(w, **extra):
    today = _today()
    return {
        "customer": w["customer"].pk,
        "quotation_date": today.isoformat(),
        "valid_until": (today + timedelta(days=30)).isoformat(),
        "terms": "Prices ex works Rotterdam.",
        "lines": [
            {
                "product": w["carton"].pk,
                "quantity": "100",
                "unit_price": "2.5000",
                "discount_percent": "10",
                "vat_rate": "21",
            },
            {"product": w["box"].pk, "quantity": "3", "unit_price": "0.3333", "vat_rate": "9"},
        ],
        **extra,
    }


@pytest.fixture
def seller(sales_world, api):
    return api(sales_world["sales"], sales_world["tenant3"])


def _create(client, w, **extra):
    response = client.post(QUOTATIONS, payload(w, **extra), format="json")
    assert response.status_code == 201, response.json()
    return response.json()["data"]


def test_a_quotation_is_numbered_and_computed_as_an_order(sales_world, seller):
    w = sales_world
    first = _create(seller, w)
    second = _create(seller, w)
    year = _today().year
    assert first["quotation_number"] == f"Q-{year}-00001"
    assert second["quotation_number"] == f"Q-{year}-00002"
    assert first["status"] == "draft"
    # 100 x 2.50 x 0.9 = 225.00, VAT 47.25; 3 x 0.3333 = 1.00 (0.9999 half up), VAT 0.09
    assert [line["amount_net"] for line in first["lines"]] == ["225.00", "1.00"]
    assert [line["amount_vat"] for line in first["lines"]] == ["47.25", "0.09"]
    assert (first["total_net"], first["total_vat"], first["total_gross"]) == ("226.00", "47.34", "273.34")
    assert first["currency"] == "EUR" and first["payment_terms_days"] == 30 and first["language"] == "en"
    assert first["allowed_actions"] == ["edit", "send", "accept", "decline", "cancel", "delete"]
    listed = seller.get(QUOTATIONS, {"search": first["quotation_number"]}).json()["data"]
    assert [row["id"] for row in listed["results"]] == [first["id"]]


def test_validation_messages(sales_world, seller, in_tenant):
    w = sales_world
    today = _today()
    no_lines = seller.post(QUOTATIONS, payload(w, lines=[]), format="json")
    assert no_lines.status_code == 400 and no_lines.json()["data"]["lines"] == ["Add at least one line."]
    early = seller.post(
        QUOTATIONS, payload(w, valid_until=(today - timedelta(days=1)).isoformat()), format="json"
    )
    assert early.status_code == 400
    assert early.json()["data"]["valid_until"] == ["The quotation cannot expire before its date."]
    other_customer = seller.post(QUOTATIONS, payload(w, customer=w["customer_x"].pk), format="json")
    assert other_customer.status_code == 400 and "customer" in other_customer.json()["data"]
    bad_line = payload(w)
    bad_line["lines"][0]["quantity"] = "0"
    response = seller.post(QUOTATIONS, bad_line, format="json")
    assert response.status_code == 400 and "lines" in response.json()["data"]
    with in_tenant(w["tenant3"]):
        assert not SalesQuotation.objects.exists()


def test_editing_keeps_lines_by_id_and_only_while_draft_or_sent(sales_world, seller):
    w = sales_world
    quotation = _create(seller, w)
    url = f"{QUOTATIONS}{quotation['id']}/"
    kept = quotation["lines"][0]
    body = payload(
        w,
        lines=[
            {
                **{k: kept[k] for k in ("product", "unit_price", "vat_rate")},
                "id": kept["id"],
                "quantity": "200",
            }
        ],
    )
    changed = seller.put(url, body, format="json")
    assert changed.status_code == 200, changed.json()
    data = changed.json()["data"]
    assert [line["id"] for line in data["lines"]] == [kept["id"]]
    assert data["total_net"] == "500.00"
    assert seller.post(f"{url}send/").json()["data"]["status"] == "sent"
    assert seller.patch(url, {"terms": "Valid for the first order only."}, format="json").status_code == 200
    assert seller.post(f"{url}decline/").json()["data"]["status"] == "declined"
    refused = seller.patch(url, {"terms": "again"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "quotation_read_only"
    assert seller.delete(url).status_code == 409
    assert seller.post(f"{url}accept/").status_code == 409


def test_accepting_makes_exactly_one_order_with_the_same_lines(sales_world, seller, in_tenant):
    w = sales_world
    quotation = _create(seller, w, customer_reference="RFQ-77")
    url = f"{QUOTATIONS}{quotation['id']}/"
    seller.post(f"{url}send/")
    accepted = seller.post(f"{url}accept/")
    assert accepted.status_code == 200, accepted.json()
    answer = accepted.json()["data"]
    assert answer["quotation"]["status"] == "accepted"
    assert answer["quotation"]["sales_order"] == answer["sales_order"]
    order = seller.get(f"{ORDERS}{answer['sales_order']}/").json()["data"]
    assert order["status"] == "draft" and order["order_number"] == answer["order_number"]
    assert order["quotation"] == quotation["id"]
    assert order["quotation_number"] == quotation["quotation_number"]
    assert order["customer_reference"] == "RFQ-77"
    fields = (
        "product",
        "description",
        "quantity",
        "unit_price",
        "discount_percent",
        "vat_rate",
        "amount_net",
    )
    assert [{k: line[k] for k in fields} for line in order["lines"]] == [
        {k: line[k] for k in fields} for line in quotation["lines"]
    ]
    totals = ("total_net", "total_vat", "total_gross")
    assert [order[k] for k in totals] == [quotation[k] for k in totals]
    again = seller.post(f"{url}accept/")
    assert again.status_code == 409 and again.json()["error"] == "quotation_already_accepted"
    assert order["order_number"] in again.json()["message"]
    with in_tenant(w["tenant3"]):
        assert SalesOrder.objects.count() == 1
    assert seller.patch(url, {"terms": "x"}, format="json").status_code == 409
    listed = seller.get(ORDERS).json()["data"]["results"]
    assert listed[0]["quotation_number"] == quotation["quotation_number"]


def test_an_expired_quotation_is_shown_so_and_not_accepted_until_extended(sales_world, seller):
    w = sales_world
    past = _today() - timedelta(days=40)
    quotation = _create(
        seller, w, quotation_date=past.isoformat(), valid_until=(past + timedelta(days=10)).isoformat()
    )
    url = f"{QUOTATIONS}{quotation['id']}/"
    assert quotation["status"] == "expired"
    expired = seller.get(QUOTATIONS, {"status": "expired"}).json()["data"]["results"]
    assert [row["id"] for row in expired] == [quotation["id"]]
    assert seller.get(QUOTATIONS, {"status": "draft"}).json()["data"]["results"] == []
    refused = seller.post(f"{url}accept/")
    assert refused.status_code == 409 and refused.json()["error"] == "quotation_expired"
    assert (
        day_text(past + timedelta(days=10), "en") in refused.json()["message"]
    )  # the day, as people read it
    extended = seller.patch(url, {"valid_until": (_today() + timedelta(days=5)).isoformat()}, format="json")
    assert extended.json()["data"]["status"] == "draft"
    assert seller.post(f"{url}accept/").status_code == 200


def test_only_a_draft_is_deleted_and_actions_follow_the_status(sales_world, seller):
    w = sales_world
    draft = _create(seller, w)
    assert seller.delete(f"{QUOTATIONS}{draft['id']}/").status_code in (200, 204)
    assert seller.get(f"{QUOTATIONS}{draft['id']}/").status_code == 404
    sent = _create(seller, w)
    url = f"{QUOTATIONS}{sent['id']}/"
    seller.post(f"{url}send/")
    again = seller.post(f"{url}send/")
    assert again.status_code == 409 and again.json()["error"] == "illegal_quotation_action"
    refused = seller.delete(url)
    assert refused.status_code == 409 and refused.json()["error"] == "quotation_not_deletable"
    assert seller.post(f"{url}cancel/").json()["data"]["status"] == "cancelled"
    assert seller.post(f"{url}decline/").status_code == 409


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_pdf_is_a_pdf_with_the_number(sales_world, seller, language):
    w = sales_world
    quotation = _create(seller, w, language=language)
    response = seller.get(f"{QUOTATIONS}{quotation['id']}/pdf/", HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert quotation["quotation_number"] in text
    assert ("报价单" if language == "zh" else "Quotation") in text
    assert "273.34" in text
    # the quotation date and the validity as the web app prints them, in the quotation's language
    valid_until = day_text(date.fromisoformat(quotation["valid_until"]), language)
    assert day_text(date.fromisoformat(quotation["quotation_date"]), language) in text
    assert valid_until in text
    assert quotation["valid_until"] not in text
    if language == "en":
        assert f"This quotation is valid until {valid_until}." in " ".join(text.split())


def test_another_tenant_and_other_users_cannot_read_change_or_accept(sales_world, seller, api, in_tenant):
    w = sales_world
    quotation = _create(seller, w)
    url = f"{QUOTATIONS}{quotation['id']}/"
    other = api(w["other_admin"], w["tenant2"])
    assert other.get(QUOTATIONS).json()["data"]["results"] == []
    assert other.get(url).status_code == 404
    assert other.patch(url, {"terms": "x"}, format="json").status_code == 404
    assert other.post(f"{url}accept/").status_code == 404
    assert other.get(f"{url}pdf/").status_code == 404
    for name in ("supplier_user_a", "supplier_user_b", "warehouse_user"):
        client = api(w[name], w["tenant3"])
        assert client.get(QUOTATIONS).status_code == 403
        assert client.get(url).status_code == 403
        assert client.post(f"{url}accept/").status_code == 403
        assert client.post(QUOTATIONS, payload(w), format="json").status_code == 403
    purchaser = api(w["purchasing"], w["tenant3"])
    assert purchaser.post(f"{url}accept/").status_code == 403
    with in_tenant(w["tenant3"]):
        assert SalesQuotation.objects.get(pk=quotation["id"]).status == "draft"
        assert not SalesOrder.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        [],
        "text",
        {"lines": "x"},
        {"lines": [None]},
        {"lines": [{"product": "abc", "quantity": {"a": 1}}]},
        {"lines": [{"id": 99999999999999999999, "product": 1, "quantity": "1", "unit_price": "1"}]},
        {"customer": [1], "quotation_date": "yesterday", "valid_until": 5},
        {"valid_until": "9999-12-31", "quotation_date": "0001-01-01"},
        {"lines": [{"product": 1, "quantity": "1e400", "unit_price": "NaN"}]},
        {"currency": "eur", "language": "fr", "payment_terms_days": -1, "terms": "x" * 3000},
    ],
)
def test_no_body_gives_a_server_error(sales_world, seller, body):
    w = sales_world
    created = seller.post(QUOTATIONS, body, format="json")
    assert created.status_code == 400, created.content
    quotation = _create(seller, w)
    for method in (seller.put, seller.patch):
        response = method(f"{QUOTATIONS}{quotation['id']}/", body, format="json")
        assert response.status_code < 500, response.content
    accept = seller.post(f"{QUOTATIONS}{quotation['id']}/accept/", body, format="json")
    assert accept.status_code < 500, accept.content
