"""The purchase order lifecycle (docs/purchasing.md, "Lifecycle"): a new order is a draft; confirm, send,
close and cancel are acts with their own endpoints; partly received and received come from the receipts;
a draft is not received, labelled or seen by the supplier portal; the order as a PDF."""

from __future__ import annotations

from decimal import Decimal

import pymupdf as fitz
import pytest

from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrder
from apps.suppliers.models import Supplier

pytestmark = pytest.mark.django_db

URL = "/api/purchaseorders/orders/"
RECEIPTS = "/api/purchaseorders/receipts/"


def status_of(order, in_tenant, world) -> str:
    with in_tenant(world["tenant3"]):
        return PurchaseOrder.objects.get(pk=order.pk).status


def receive(client, order, quantities):
    return client.post(
        RECEIPTS,
        {
            "purchase_order": order.pk,
            "lines": [{"order_line": line.pk, "quantity": qty} for line, qty in quantities],
        },
        format="json",
    )


def lines(order, in_tenant, world):
    with in_tenant(world["tenant3"]):
        return list(order.lines.order_by("line_number"))


@pytest.fixture
def supplier_mail(world, in_tenant):
    with in_tenant(world["tenant3"]):
        Supplier.objects.filter(pk=world["supplier_a"].pk).update(email="orders@evergreen.example")


def test_the_happy_path_through_the_endpoints(world, api, make_order, in_tenant, supplier_mail):
    order = make_order(confirm=False, lines=[(world["carton"], "100", "1.25"), (world["box"], "50", "2")])
    client = api(world["purchasing"], world["tenant3"])
    assert status_of(order, in_tenant, world) == "draft"
    confirmed = client.post(f"{URL}{order.pk}/confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["data"]["status"] == "confirmed"
    assert confirmed.json()["data"]["allowed_transitions"] == ["sent", "cancelled"]
    sent = client.post(f"{URL}{order.pk}/send/")
    assert sent.status_code == 200 and sent.json()["data"]["status"] == "sent"
    carton, box = lines(order, in_tenant, world)
    warehouse = api(world["warehouse_user"], world["tenant3"])
    assert receive(warehouse, order, [(carton, "100")]).status_code == 201
    assert status_of(order, in_tenant, world) == "partly_received"
    assert receive(warehouse, order, [(box, "50")]).status_code == 201
    assert status_of(order, in_tenant, world) == "received"
    closed = client.post(f"{URL}{order.pk}/close/")
    assert closed.status_code == 200 and closed.json()["data"]["status"] == "closed"
    assert (
        closed.json()["data"]["allowed_transitions"] == []
        and closed.json()["data"]["lines_editable"] is False
    )


def test_confirm_is_refused_once_confirmed(world, api, make_order):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).post(f"{URL}{order.pk}/confirm/")
    assert response.status_code == 409 and response.json()["error"] == "illegal_transition"


def test_a_draft_is_not_sent_received_or_labelled(world, api, make_order, in_tenant, supplier_mail):
    from apps.common.exceptions import Conflict
    from apps.eudr import services as eudr
    from apps.eudr.tests.trace_data import make_delivery

    order = make_order(confirm=False)
    client = api(world["purchasing"], world["tenant3"])
    sent = client.post(f"{URL}{order.pk}/send/")
    assert sent.status_code == 409 and sent.json()["error"] == "order_not_confirmed"
    (line,) = lines(order, in_tenant, world)
    received = receive(client, order, [(line, "1")])
    assert received.status_code == 409 and received.json()["error"] == "order_not_confirmed"
    assert status_of(order, in_tenant, world) == "draft"
    with in_tenant(world["tenant3"]):
        delivery = make_delivery(vendor_name=world["vendor_a"].name, delivery_number="DLV-DRAFT")
        with pytest.raises(Conflict) as refused:
            eudr.cartons_generate(
                delivery_id=delivery.pk,
                count=1,
                production_batch_code="20260301A",
                product=world["carton"],
                purchase_order_line=line,
            )
    assert refused.value.error == "purchase_order_not_confirmed"


def test_cancel_before_receipts_and_refused_after(world, api, make_order, in_tenant, supplier_mail):
    client = api(world["purchasing"], world["tenant3"])
    for confirm, send in ((False, False), (True, False), (True, True)):
        order = make_order(confirm=confirm)
        if send:
            assert client.post(f"{URL}{order.pk}/send/").status_code == 200
        response = client.post(f"{URL}{order.pk}/cancel/")
        assert response.status_code == 200 and response.json()["data"]["status"] == "cancelled"
        again = client.post(f"{URL}{order.pk}/cancel/")
        assert again.status_code == 409 and again.json()["error"] == "illegal_transition"

    order = make_order(lines=[(world["carton"], "10", "1")])
    (line,) = lines(order, in_tenant, world)
    assert receive(client, order, [(line, "4")]).status_code == 201
    refused = client.post(f"{URL}{order.pk}/cancel/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "order_has_receipts"
    assert "cannot be cancelled" in refused.json()["message"]
    assert status_of(order, in_tenant, world) == "partly_received"
    # what will not come is closed short instead
    closed = client.post(f"{URL}{order.pk}/close/")
    assert closed.status_code == 200 and closed.json()["data"]["status"] == "closed"
    assert receive(client, order, [(line, "1")]).json()["error"] == "order_not_receivable"


@pytest.mark.parametrize("status", ["draft", "confirmed", "sent", "closed", "cancelled"])
def test_close_is_refused_before_anything_was_received(world, api, make_order, in_tenant, status):
    order = make_order()
    with in_tenant(world["tenant3"]):
        PurchaseOrder.objects.filter(pk=order.pk).update(status=status)
    response = api(world["purchasing"], world["tenant3"]).post(f"{URL}{order.pk}/close/")
    assert response.status_code == 409 and response.json()["error"] == "illegal_transition"
    assert status_of(order, in_tenant, world) == status


def test_send_needs_an_address_of_the_supplier(world, api, make_order, in_tenant):
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).post(f"{URL}{order.pk}/send/")
    assert response.status_code == 409 and response.json()["error"] == "supplier_no_email"
    assert status_of(order, in_tenant, world) == "confirmed"


def test_the_service_derives_the_receiving_statuses(world, make_order, in_tenant):
    order = make_order(lines=[(world["carton"], "10", "1"), (world["box"], "5", "1")])
    carton, box = lines(order, in_tenant, world)
    with in_tenant(world["tenant3"]):
        services.receipt_create(
            purchase_order=order,
            lines=[services.ReceiptLineInput(order_line_id=carton.pk, quantity=Decimal("10"))],
            user=world["purchasing"],
        )
        assert PurchaseOrder.objects.get(pk=order.pk).status == "partly_received"
        services.receipt_create(
            purchase_order=order,
            lines=[services.ReceiptLineInput(order_line_id=box.pk, quantity=Decimal("5"))],
            user=world["purchasing"],
        )
        assert PurchaseOrder.objects.get(pk=order.pk).status == "received"


def test_the_supplier_portal_sees_no_draft(world, api, make_order):
    draft = make_order(confirm=False)
    confirmed = make_order()
    supplier = api(world["supplier_user_a"], world["tenant3"])
    listed = supplier.get(URL).json()["data"]["results"]
    assert [o["id"] for o in listed] == [confirmed.pk]
    assert supplier.get(f"{URL}{draft.pk}/").status_code == 404
    assert supplier.get(f"{URL}by-number/{draft.order_number}/").status_code == 404
    assert supplier.get(f"{URL}{draft.pk}/pdf/").status_code == 404
    summary = supplier.get(f"{URL}summary/").json()["data"]
    assert summary["statuses"]["draft"]["count"] == 0 and summary["total"]["count"] == 1
    # the buyer sees both
    assert api(world["purchasing"], world["tenant3"]).get(URL).json()["data"]["count"] == 2


ACTIONS = ["confirm", "send", "close", "cancel"]


@pytest.mark.parametrize("name", ACTIONS)
def test_another_tenant_and_another_vendor_cannot_act(world, api, make_order, in_tenant, name):
    order = make_order(confirm=name != "confirm")  # a draft to confirm, a confirmed order for the rest
    before = "draft" if name == "confirm" else "confirmed"
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.post(f"{URL}{order.pk}/{name}/").status_code == 404
    other_vendor = api(world["supplier_user_b"], world["tenant3"])
    assert other_vendor.post(f"{URL}{order.pk}/{name}/").status_code in (403, 404)
    own_vendor = api(world["supplier_user_a"], world["tenant3"])
    assert own_vendor.post(f"{URL}{order.pk}/{name}/").status_code == 403
    warehouse = api(world["warehouse_user"], world["tenant3"])
    assert warehouse.post(f"{URL}{order.pk}/{name}/").status_code == 403
    assert status_of(order, in_tenant, world) == before


def test_the_pdf_is_scoped_like_the_order(world, api, make_order):
    order = make_order()
    assert api(world["other_admin"], world["tenant2"]).get(f"{URL}{order.pk}/pdf/").status_code == 404
    assert api(world["supplier_user_b"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/").status_code == 404
    own = api(world["supplier_user_a"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/")
    assert own.status_code == 200 and own["Content-Type"] == "application/pdf"


def _pdf_text(content: bytes) -> str:
    with fitz.open(stream=content, filetype="pdf") as document:
        return "\n".join(page.get_text() for page in document)


@pytest.fixture
def company(world, in_tenant):
    tenant = world["tenant3"]
    tenant.legal_name = "EuroTrade Goods B.V."
    tenant.address = "Havenstraat 12, 3011 AB Rotterdam"
    tenant.vat_number = "NL123456789B01"
    tenant.registration_number = "KVK 12345678"
    tenant.save()
    with in_tenant(tenant):
        Supplier.objects.filter(pk=world["supplier_a"].pk).update(payment_terms="30 days net")
    return tenant


def test_the_pdf_in_english(world, api, make_order, company):
    from datetime import date

    order = make_order(
        lines=[(world["carton"], "100", "1.25"), (world["box"], "3", "0.3333")],
        promise_date=date(2026, 4, 15),
    )
    response = api(world["purchasing"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _pdf_text(response.content)
    for expected in [
        "Purchase order",
        "EuroTrade Goods B.V.",
        "Havenstraat 12, 3011 AB Rotterdam",
        "NL123456789B01",
        "KVK 12345678",
        "Evergreen No.1",
        "S-1001",
        order.order_number,
        "1 Mar 2026",  # the order date
        "15 Apr 2026",  # the delivery (promise) date, in the header and on each line
        "CT-6040",
        "Carton 600x400",
        "100",
        "1.2500",
        "125.00",
        "126.00 EUR",
        "Payment terms",
        "30 days net",
    ]:
        assert expected in text, expected


def test_the_pdf_in_chinese_for_a_supplier_in_china(world, api, make_order, company, in_tenant):
    with in_tenant(world["tenant3"]):
        Supplier.objects.filter(pk=world["supplier_a"].pk).update(country="CN")
    order = make_order()
    response = api(world["purchasing"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/")
    text = _pdf_text(response.content)
    for expected in [
        "采购订单",
        "付款条件",
        "上海常青包装",
        order.order_number,
        "125.00 EUR",
        "NL123456789B01",
    ]:
        assert expected in text, expected
    english = _pdf_text(
        api(world["purchasing"], world["tenant3"]).get(f"{URL}{order.pk}/pdf/?language=en").content
    )
    assert "Purchase order" in english and "采购订单" not in english


def test_a_draft_is_not_the_suppliers_in_comments_or_the_dashboard(world, api, make_order):
    draft = make_order(confirm=False)
    confirmed = make_order()
    supplier = api(world["supplier_user_a"], world["tenant3"])

    def comment(order):
        return supplier.post(
            "/api/common/comments/",
            {"content_type": "purchaseorder", "object_id": order.pk, "content": "Can we start?"},
            format="json",
        )

    assert comment(confirmed).status_code == 201
    assert comment(draft).status_code in (400, 403, 404)
    counts = supplier.get("/api/common/dashboard/").json()["data"]["counts"]
    assert counts["purchase_orders_draft"] == 0 and counts["open_purchase_orders"] == 1
    buyer = api(world["purchasing"], world["tenant3"]).get("/api/common/dashboard/").json()["data"]["counts"]
    assert buyer["purchase_orders_draft"] == 1 and buyer["open_purchase_orders"] == 1
