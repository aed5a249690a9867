"""Supplier invoices from e-invoices: reading UBL, CII and Factur-X PDF; the refusals of files that are not
one; matching supplier, order and lines; the 3-way match; approve / reject / delete; isolation and roles;
hostile bodies."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.purchaseorders import einvoice_in, services
from apps.purchaseorders.errors import EInvoiceInvalid
from apps.purchaseorders.models import PurchaseOrderLine, SupplierInvoice

from .einvoice_fixtures import Line, cii, facturx_pdf, ubl

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/supplier-invoices/"


@pytest.fixture
def order(world, make_order):
    return make_order(lines=[(world["carton"], "100", "1.25"), (world["box"], "50", "0.80")])


def upload(client, content: bytes, name: str = "invoice.xml"):
    return client.post(URL, {"file": SimpleUploadedFile(name, content)}, format="multipart")


def data(response):
    assert response.status_code in (200, 201), response.content
    return response.json()["data"]


def receive(world, in_tenant, order, quantities):
    with in_tenant(world["tenant3"]):
        lines = list(PurchaseOrderLine.objects.filter(order=order).order_by("line_number"))
        services.receipt_create(
            purchase_order=order,
            lines=[
                services.ReceiptLineInput(order_line_id=lines[i].pk, quantity=Decimal(q))
                for i, q in enumerate(quantities)
                if q
            ],
            user=world["admin"],
        )


def buyer(world, api):
    return api(world["purchasing"], world["tenant3"])


# ------------------------------------------------------------------------------------------- parsing


def test_parse_ubl_invoice():
    parsed, _root = einvoice_in.parse(
        ubl(order_reference="PO-1", lines=[Line("10", "1.50", item_id="A-1", order_line="2", name="Box")])
    )
    assert parsed.syntax == "ubl"
    assert not parsed.is_credit_note
    assert (parsed.number, str(parsed.issue_date), str(parsed.due_date)) == (
        "SUP-1001",
        "2026-03-10",
        "2026-04-09",
    )
    assert (parsed.currency, parsed.seller_name, parsed.order_reference) == ("EUR", "Evergreen No.1", "PO-1")
    assert (parsed.total_net, parsed.total_vat, parsed.total_gross) == (
        Decimal("15.00"),
        Decimal("3.15"),
        Decimal("18.15"),
    )
    line = parsed.lines[0]
    assert (line.quantity, line.net_price, line.line_net) == (
        Decimal("10"),
        Decimal("1.50"),
        Decimal("15.00"),
    )
    assert (line.seller_item_id, line.order_line_reference, line.unit_code) == ("A-1", "2", "C62")
    assert (line.vat_category, line.vat_rate, line.description) == ("S", Decimal("21"), "Box")


def test_parse_ubl_credit_note():
    parsed, _root = einvoice_in.parse(ubl(credit_note=True, lines=[Line("5", "1.25")]))
    assert parsed.is_credit_note
    assert parsed.lines[0].quantity == Decimal("5")
    assert parsed.due_date is None


def test_parse_cii():
    parsed, _root = einvoice_in.parse(cii(order_reference="PO-7"))
    assert parsed.syntax == "cii"
    assert (parsed.number, str(parsed.issue_date), str(parsed.due_date)) == (
        "SUP-2001",
        "2026-03-10",
        "2026-04-09",
    )
    assert (parsed.order_reference, parsed.seller_vat_id) == ("PO-7", "CN91310000MA1K")
    assert (parsed.total_net, parsed.total_vat, parsed.total_gross) == (
        Decimal("125.00"),
        Decimal("26.25"),
        Decimal("151.25"),
    )
    assert parsed.lines[0].order_line_reference == "1"
    assert einvoice_in.parse(cii(type_code="381"))[0].is_credit_note


def test_parse_facturx_pdf():
    parsed, _root = einvoice_in.parse(facturx_pdf(cii(number="FX-1")))
    assert (parsed.syntax, parsed.number) == ("facturx_pdf", "FX-1")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"hello, not xml", "neither an XML"),
        (b"<order><id>1</id></order>", "not an e-invoice"),
        (b"%PDF-1.4 broken", "PDF"),
        (
            b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
            "DOCTYPE",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
            "DOCTYPE",
        ),
    ],
)
def test_not_an_einvoice_is_refused_in_words(content, words):
    with pytest.raises(EInvoiceInvalid) as refused:
        einvoice_in.parse(content)
    assert words in str(refused.value)


@pytest.mark.parametrize(
    ("omit", "term"),
    [("number", "BT-1"), ("date", "BT-2"), ("currency", "BT-5"), ("seller", "BT-27"), ("totals", "BT-109")],
)
def test_missing_mandatory_field_names_the_business_term(omit, term):
    with pytest.raises(EInvoiceInvalid) as refused:
        einvoice_in.parse(ubl(omit=(omit,)))
    assert term in str(refused.value)
    assert refused.value.data == {"term": term}


def test_too_large_file_is_refused(world, api):
    response = upload(buyer(world, api), b"<" + b"a" * einvoice_in.MAX_FILE_SIZE + b">")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "einvoice_invalid"
    assert "larger than" in response.json()["message"]


# ---------------------------------------------------------------------------------------------- import


def test_upload_ubl_matches_supplier_order_and_lines(world, api, order, in_tenant):
    receive(world, in_tenant, order, ["100", "50"])
    content = ubl(
        order_reference=order.order_number,
        lines=[
            Line("100", "1.25", order_line="1"),  # by the order line reference
            Line("50", "0.80", item_id="CT-3020"),  # by the article number
        ],
    )
    response = upload(buyer(world, api), content)
    assert response.status_code == 201, response.content
    body = data(response)
    assert body["supplier"]["id"] == world["supplier_a"].pk
    assert body["purchase_order"]["order_number"] == order.order_number
    assert (body["status"], body["match_status"], body["kind"], body["syntax"]) == (
        "draft",
        "matched",
        "invoice",
        "ubl",
    )
    assert [line["order_line_number"] for line in body["lines"]] == [1, 2]
    first = body["lines"][0]
    assert (first["ordered"], first["received"], first["invoiced"], first["status"]) == (
        "100.000",
        "100.000",
        "100.000",
        "matched",
    )
    # approving a matched invoice needs no reason
    approved = buyer(world, api).post(f"{URL}{body['id']}/approve/", {}, format="json")
    assert approved.status_code == 200, approved.content
    assert approved.json()["data"]["status"] == "approved"


def test_line_matched_by_description_and_unmatched_line(world, api, order, in_tenant):
    receive(world, in_tenant, order, ["100", ""])
    content = ubl(
        order_reference=order.order_number,
        lines=[Line("100", "1.25", name="carton 600x400"), Line("1", "9.99", name="Freight")],
    )
    body = data(upload(buyer(world, api), content))
    assert [line["status"] for line in body["lines"]] == ["matched", "unmatched"]
    assert body["match_status"] == "unmatched"


def test_upload_cii_and_facturx(world, api, order, in_tenant):
    receive(world, in_tenant, order, ["100", ""])
    client = buyer(world, api)
    response = upload(client, cii(order_reference=order.order_number), "invoice.xml")
    assert response.status_code == 201, response.content
    assert (data(response)["syntax"], data(response)["purchase_order"]["id"]) == ("cii", order.pk)
    response = upload(client, facturx_pdf(cii(number="FX-9", order_reference=order.order_number)), "fx.pdf")
    body = data(response)
    assert body["syntax"] == "facturx_pdf"
    # 100 received, now 200 invoiced on line 1 by the two invoices
    assert (body["lines"][0]["invoiced"], body["lines"][0]["status"]) == ("200.000", "quantity_mismatch")
    original = client.get(f"{URL}{body['id']}/original/")
    assert original.status_code == 200
    assert original["Content-Type"] == "application/pdf"
    assert b"".join(original).startswith(b"%PDF")


def test_partial_receipt_is_a_quantity_mismatch_and_approving_needs_a_reason(world, api, order, in_tenant):
    receive(world, in_tenant, order, ["60", ""])
    client = buyer(world, api)
    body = data(upload(client, ubl(order_reference=order.order_number)))
    assert body["match_status"] == "quantity_mismatch"
    line = body["lines"][0]
    assert (line["ordered"], line["received"], line["invoiced"]) == ("100.000", "60.000", "100.000")
    refused = client.post(f"{URL}{body['id']}/approve/", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"] == "supplier_invoice_mismatch"
    # the rest arrives: the stored match follows the receipt
    receive(world, in_tenant, order, ["40", ""])
    assert client.get(URL, {"match_status": "matched"}).json()["data"]["count"] == 1
    approved = client.post(f"{URL}{body['id']}/approve/", {"reason": "agreed"}, format="json")
    assert approved.status_code == 200
    assert approved.json()["data"]["decision_reason"] == "agreed"


def test_nothing_received_and_price_mismatch(world, api, order, in_tenant):
    client = buyer(world, api)
    body = data(upload(client, ubl(number="A", order_reference=order.order_number)))
    assert body["match_status"] == "not_received"
    receive(world, in_tenant, order, ["", "50"])
    body = data(
        upload(
            client,
            ubl(number="B", order_reference=order.order_number, lines=[Line("50", "0.85", order_line="2")]),
        )
    )
    assert body["match_status"] == "price_mismatch"
    assert body["lines"][0]["price_difference"] == "0.0500"
    approved = client.post(f"{URL}{body['id']}/approve/", {"reason": "price rise accepted"}, format="json")
    assert approved.status_code == 200
    with in_tenant(world["tenant3"]):
        invoice = SupplierInvoice.objects.get(pk=body["id"])
        assert (invoice.status, invoice.decision_reason, invoice.decided_by) == (
            "approved",
            "price rise accepted",
            world["purchasing"],
        )


def test_rejected_invoice_no_longer_counts_and_credit_note_subtracts(world, api, order, in_tenant):
    receive(world, in_tenant, order, ["100", ""])
    client = buyer(world, api)
    first = data(upload(client, ubl(number="A", order_reference=order.order_number)))
    second = data(upload(client, ubl(number="B", order_reference=order.order_number)))
    assert second["match_status"] == "quantity_mismatch"
    assert (
        client.post(f"{URL}{first['id']}/reject/", {"reason": "sent twice"}, format="json").status_code == 200
    )
    assert data(client.get(f"{URL}{second['id']}/"))["match_status"] == "matched"
    credit = data(
        upload(
            client,
            ubl(
                number="C",
                credit_note=True,
                order_reference=order.order_number,
                lines=[Line("10", "1.25", order_line="1")],
            ),
        )
    )
    assert credit["kind"] == "credit_note"
    assert credit["lines"][0]["invoiced"] == "90.000"


def test_duplicate_is_refused(world, api, order):
    client = buyer(world, api)
    assert upload(client, ubl(order_reference=order.order_number)).status_code == 201
    response = upload(client, ubl(order_reference=order.order_number))
    assert response.status_code == 409
    assert response.json()["error"] == "supplier_invoice_duplicate"
    assert "SUP-1001" in response.json()["message"]
    # an unknown seller: the same number of the same seller name is refused too
    assert upload(client, ubl(number="U-1", seller="Nobody Ltd")).status_code == 201
    assert upload(client, ubl(number="U-1", seller="Nobody Ltd")).status_code == 409
    assert upload(client, ubl(number="U-1", seller="Somebody Else")).status_code == 201


def test_unknown_seller_and_order(world, api):
    body = data(upload(buyer(world, api), ubl(seller="Nobody Ltd", order_reference="PO-NOPE")))
    assert (body["supplier"], body["purchase_order"], body["match_status"]) == (None, None, "unmatched")


def test_another_vendors_order_is_not_matched(world, api, make_order):
    other = make_order(supplier=world["supplier_b"])
    body = data(upload(buyer(world, api), ubl(order_reference=other.order_number)))
    assert body["supplier"]["id"] == world["supplier_a"].pk
    assert body["purchase_order"] is None


def test_delete_draft_only_and_filters(world, api, order):
    client = buyer(world, api)
    draft = data(upload(client, ubl(number="A", order_reference=order.order_number)))
    other = data(upload(client, ubl(number="B", order_reference=order.order_number)))
    client.post(f"{URL}{other['id']}/reject/", {}, format="json")
    assert client.get(URL, {"status": "rejected"}).json()["data"]["count"] == 1
    assert client.get(URL, {"purchase_order": order.pk}).json()["data"]["count"] == 2
    assert client.get(URL, {"supplier": world["supplier_a"].pk, "search": "A"}).json()["data"]["count"] >= 1
    assert client.get(URL, {"ordering": "-total_gross"}).status_code == 200
    refused = client.delete(f"{URL}{other['id']}/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "supplier_invoice_not_draft"
    assert client.post(f"{URL}{other['id']}/approve/", {"reason": "x"}, format="json").status_code == 409
    assert client.delete(f"{URL}{draft['id']}/").status_code in (200, 204)
    # the number is free again once the draft is gone
    assert upload(client, ubl(number="A", order_reference=order.order_number)).status_code == 201


# --------------------------------------------------------------------------------- isolation and roles


def test_other_tenant_and_non_purchasing_users(world, api, order):
    body = data(upload(buyer(world, api), ubl(order_reference=order.order_number)))
    path = f"{URL}{body['id']}/"
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(path).status_code == 404
    assert stranger.post(f"{path}approve/", {"reason": "x"}, format="json").status_code == 404
    assert stranger.delete(path).status_code == 404
    assert stranger.get(f"{path}original/").status_code == 404
    assert stranger.get(URL).json()["data"]["count"] == 0
    for user in ("supplier_user_a", "supplier_user_b", "warehouse_user"):
        client = api(world[user], world["tenant3"])
        assert client.get(URL).status_code == 403
        assert client.get(path).status_code == 403
        assert upload(client, ubl(number="Z")).status_code == 403
    sales = api(world["sales"], world["tenant3"])
    assert sales.get(URL).status_code == 403
    assert sales.post(f"{path}approve/", {"reason": "x"}, format="json").status_code == 403
    admin = api(world["admin"], world["tenant3"])
    assert admin.get(path).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"file": "not a file"},
        [1, 2],
        "x",
        {"reason": {"a": 1}},
        {"reason": "x" * 5000},
    ],
)
def test_hostile_bodies_are_4xx(world, api, order, body):
    client = buyer(world, api)
    invoice = data(upload(client, ubl(order_reference=order.order_number)))
    # an upload without a file is refused; a decision takes only an optional text reason
    response = client.post(URL, body, format="json")
    assert 400 <= response.status_code < 500, response.content
    for act in ("approve", "reject"):
        response = client.post(f"{URL}{invoice['id']}/{act}/", body, format="json")
        assert response.status_code < 500, (act, response.content)


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\xff\xfe" * 100,
        ubl(lines=[Line("abc", "1.25")]),
        ubl(lines=[Line("1e400", "1.25")]),
        ubl(issue_date="2026-13-45"),
        ubl(currency="EURO"),
        ubl(lines=[]),
        b'<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
        b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>',
    ],
)
def test_hostile_files_are_400(world, api, content):
    response = upload(buyer(world, api), content)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "einvoice_invalid"
