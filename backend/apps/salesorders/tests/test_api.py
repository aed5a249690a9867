"""The sales API: the names outside clients rely on, actions and their 409s, validation, PDFs, tenant
isolation and constant query counts on every list."""

from decimal import Decimal

import pytest

from apps.salesorders import services
from apps.salesorders.models import SalesOrder
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db
ORDERS = "/api/salesorders/orders/"
SHIPMENTS = "/api/salesorders/shipments/"
INVOICES = "/api/salesorders/invoices/"
DELIVERIES = "/api/salesorders/deliveries/"


def order_payload(w, **extra):
    return {
        "customer": w["customer"].pk,
        "order_date": "2026-03-01",
        "lines": [
            {
                "product": w["carton"].pk,
                "quantity": "100",
                "unit_price": "2.50",
                "discount_percent": "0",
                "vat_rate": "21",
                "requested_date": "2026-03-20",
            }
        ],
        **extra,
    }


def test_order_flow_through_the_api(sales_world, put_stock, carton_codes, api):
    # two cartons picked of a larger line: the company ships the rest as unlabelled stock
    Tenant.objects.filter(pk=sales_world["tenant3"].pk).update(allow_unlabelled_shipping=True)
    w = sales_world
    put_stock(w["carton"], "500")
    codes = carton_codes(w["carton"], 2)
    client = api(w["sales"], w["tenant3"])
    response = client.post(ORDERS, order_payload(w), format="json")
    assert response.status_code == 201, response.json()
    order = response.json()["data"]
    assert order["order_number"] == "SO-2026-00001"
    assert order["status"] == "draft"
    assert (order["total_net"], order["total_vat"], order["total_gross"]) == ("250.00", "52.50", "302.50")
    line = order["lines"][0]
    assert {"id", "quantity_reserved", "quantity_shipped", "quantity_invoiced"} <= set(line)
    assert order["allowed_actions"] == ["confirm", "cancel"]

    confirmed = client.post(f"{ORDERS}{order['id']}/confirm/").json()["data"]
    assert confirmed["status"] == "confirmed"
    assert confirmed["lines"][0]["quantity_reserved"] == "100.000"
    again = client.post(f"{ORDERS}{order['id']}/confirm/")
    assert again.status_code == 409 and again.json()["error"] == "order_not_confirmable"

    shipment = client.post(
        SHIPMENTS,
        {"sales_order": order["id"], "lines": [{"order_line": line["id"], "quantity": "30"}]},
        format="json",
    )
    assert shipment.status_code == 201, shipment.json()
    shipment_id = shipment.json()["data"]["id"]
    with_cartons = client.post(f"{SHIPMENTS}{shipment_id}/cartons/", {"codes": codes}, format="json")
    assert with_cartons.status_code == 200, with_cartons.json()
    assert sorted(c["code"] for c in with_cartons.json()["data"]["cartons"]) == sorted(codes)
    shipped = client.post(f"{SHIPMENTS}{shipment_id}/ship/")
    assert shipped.status_code == 200 and shipped.json()["data"]["status"] == "shipped"
    detail = client.get(f"{ORDERS}{order['id']}/").json()["data"]
    assert detail["status"] == "partially_shipped"
    assert detail["lines"][0]["quantity_shipped"] == "30.000"
    assert detail["status_explanation"]["shipped"] == "30.000"
    cancel = client.post(f"{ORDERS}{order['id']}/cancel/")
    assert cancel.status_code == 409 and cancel.json()["error"] == "order_not_cancellable"

    note = client.get(f"{SHIPMENTS}{shipment_id}/delivery-note/", HTTP_ACCEPT="application/pdf")
    assert note.status_code == 200 and note["Content-Type"] == "application/pdf"

    invoice = client.post(INVOICES, {"shipments": [shipment_id]}, format="json")
    assert invoice.status_code == 201, invoice.json()
    invoice = invoice.json()["data"]
    assert (invoice["total_net"], invoice["total_vat"], invoice["total_gross"]) == ("75.00", "15.75", "90.75")
    assert invoice["number"] == "" and invoice["status"] == "draft"
    posted = client.post(f"{INVOICES}{invoice['id']}/post/", {}, format="json").json()["data"]
    assert posted["number"].startswith("INV-") and posted["payment_status"] == "open"
    patch = client.patch(f"{INVOICES}{invoice['id']}/", {"note": "x"}, format="json")
    assert patch.status_code == 409 and patch.json()["error"] == "invoice_posted"
    delete = client.delete(f"{INVOICES}{invoice['id']}/")
    assert delete.status_code == 409
    pdf = client.get(f"{INVOICES}{invoice['id']}/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    credit = client.post(f"{INVOICES}{invoice['id']}/credit-note/", {"post": True}, format="json")
    assert credit.status_code == 201, credit.json()
    assert credit.json()["data"]["kind"] == "credit_note" and credit.json()["data"]["number"].startswith(
        "CN-"
    )

    schedule = client.get(DELIVERIES).json()["data"]
    assert schedule["count"] == 1
    assert schedule["results"][0]["open_quantity"] == "70.000"


def test_validation_errors_are_400(sales_world, api):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    for body in (
        {},
        {"customer": w["customer"].pk, "order_date": "2026-03-01", "lines": []},
        order_payload(w, lines=[{"product": w["carton"].pk, "quantity": "-1", "unit_price": "1"}]),
        order_payload(
            w, lines=[{"product": w["carton"].pk, "quantity": "1", "unit_price": "1", "vat_rate": "101"}]
        ),
        order_payload(w, lines=[{"product": w["product_x"].pk, "quantity": "1", "unit_price": "1"}]),
        order_payload(w, customer=w["customer_x"].pk),
        order_payload(w, order_number="SO 1/2"),
        {"customer": "x", "order_date": [], "lines": "no"},
        [],
    ):
        response = client.post(ORDERS, body, format="json")
        assert response.status_code == 400, (body, response.json())
    client.post(ORDERS, order_payload(w, order_number="SO-TYPED-1"), format="json")
    duplicate = client.post(ORDERS, order_payload(w, order_number="SO-TYPED-1"), format="json")
    assert duplicate.status_code == 400 and "order_number" in duplicate.json()["data"]
    for body in ({}, {"codes": []}, {"codes": "x"}, {"codes": [None]}):
        assert client.post(f"{SHIPMENTS}999999/cartons/", body, format="json").status_code in (400, 404)
    assert client.post(INVOICES, {}, format="json").status_code == 400
    assert client.post(INVOICES, {"shipments": ["a"]}, format="json").status_code == 400
    assert client.post(INVOICES, {"shipments": [999999]}, format="json").status_code == 404


def test_another_tenant_can_neither_read_nor_change(sales_world, draft_invoice, api, in_tenant):
    w = sales_world
    invoice = draft_invoice
    with in_tenant(w["tenant3"]):
        order = invoice.sales_order
        shipment = invoice.shipments.get()
    other = api(w["other_admin"], w["tenant2"])
    for url in (ORDERS, SHIPMENTS, INVOICES, DELIVERIES):
        assert other.get(url).json()["data"]["count"] == 0
    for url in (
        f"{ORDERS}{order.pk}/",
        f"{SHIPMENTS}{shipment.pk}/",
        f"{INVOICES}{invoice.pk}/",
        f"{INVOICES}{invoice.pk}/pdf/",
        f"{SHIPMENTS}{shipment.pk}/delivery-note/",
    ):
        assert other.get(url).status_code == 404
    assert other.post(f"{ORDERS}{order.pk}/close/").status_code == 404
    assert other.post(f"{INVOICES}{invoice.pk}/post/", {}, format="json").status_code == 404
    assert other.patch(f"{ORDERS}{order.pk}/", {"description": "x"}, format="json").status_code == 404
    # and a tenant-3 order cannot point at tenant 2's customer through an update
    client = api(w["sales"], w["tenant3"])
    assert (
        client.patch(f"{ORDERS}{order.pk}/", {"customer": w["customer_x"].pk}, format="json").status_code
        == 400
    )
    with in_tenant(w["tenant3"]):
        order.refresh_from_db()
        assert order.status == "partially_shipped" and order.customer_id == w["customer"].pk
        assert order.description == ""


def test_editing_a_draft_through_the_api(sales_world, put_stock, api, in_tenant):
    """The edit page's round trip: read the draft, PUT it back with a changed quantity and the
    `updated_at` it read; the totals follow. Once the order is confirmed meanwhile, the same save is
    refused with 409 `order_changed` naming the new status, and nothing changes."""
    w = sales_world
    put_stock(w["carton"], "500")
    client = api(w["sales"], w["tenant3"])
    created = client.post(ORDERS, order_payload(w), format="json").json()["data"]
    assert created["status"] == "draft" and created["total_gross"] == "302.50"
    line = created["lines"][0]
    body = {
        "customer": w["customer"].pk,
        "order_date": created["order_date"],
        "customer_reference": "PO-77",
        "description": created["description"],
        "unchanged_since": created["updated_at"],
        "lines": [
            {
                "id": line["id"],
                "product": line["product"],
                "quantity": "120",
                "unit_price": line["unit_price"],
                "discount_percent": line["discount_percent"],
                "vat_rate": line["vat_rate"],
                "requested_date": line["requested_date"],
            }
        ],
    }
    saved = client.put(f"{ORDERS}{created['id']}/", body, format="json")
    assert saved.status_code == 200, saved.json()
    data = saved.json()["data"]
    assert [item["id"] for item in data["lines"]] == [line["id"]]  # the line is kept, not replaced
    assert data["lines"][0]["quantity"] == "120.000"
    assert (data["total_net"], data["total_vat"], data["total_gross"]) == ("300.00", "63.00", "363.00")
    assert data["customer_reference"] == "PO-77" and data["order_number"] == created["order_number"]

    # the page still holds the first updated_at: a save made meanwhile wins, this one is refused
    stale = client.put(f"{ORDERS}{created['id']}/", {**body, "customer_reference": "late"}, format="json")
    assert stale.status_code == 409 and stale.json()["error"] == "order_changed"

    current = {**body, "unchanged_since": data["updated_at"]}
    confirmed = client.post(f"{ORDERS}{created['id']}/confirm/")
    assert confirmed.status_code == 200
    refused = client.put(f"{ORDERS}{created['id']}/", {**current, "customer_reference": "x"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"] == "order_changed" and "confirmed" in refused.json()["message"]
    with in_tenant(w["tenant3"]):
        order = SalesOrder.objects.get(pk=created["id"])
        assert order.customer_reference == "PO-77" and order.status == "confirmed"


def test_a_delivery_date_before_the_order_date_is_an_error_of_its_line(sales_world, api):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    line = {"product": w["carton"].pk, "quantity": "1", "unit_price": "1"}
    response = client.post(
        ORDERS,
        order_payload(w, lines=[line, {**line, "requested_date": "2026-02-01"}]),
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["data"]["lines"][0] == {}
    assert list(response.json()["data"]["lines"][1]) == ["requested_date"]


def test_a_supplier_user_has_no_sales_orders(sales_world, make_sales_order, api):
    w = sales_world
    order = make_sales_order(confirm=False)
    for user in ("supplier_user_a", "supplier_user_b"):
        client = api(w[user], w["tenant3"])
        assert client.get(ORDERS).status_code == 403
        assert client.get(f"{ORDERS}{order.pk}/").status_code in (403, 404)
        assert client.put(f"{ORDERS}{order.pk}/", order_payload(w), format="json").status_code in (403, 404)


def test_warehouse_user_ships_but_does_not_invoice(sales_world, put_stock, make_sales_order, api, in_tenant):
    w = sales_world
    put_stock(w["carton"], "500")
    order = make_sales_order()
    with in_tenant(w["tenant3"]):
        shipment = services.shipment_create(
            sales_order=order,
            lines=[services.ShipmentLineInput(order_line=order.lines.get(), quantity=Decimal("5"))],
        )
    client = api(w["warehouse_user"], w["tenant3"])
    assert client.post(f"{SHIPMENTS}{shipment.pk}/ship/").status_code == 200
    assert client.post(INVOICES, {"sales_order": order.pk}, format="json").status_code == 403
    assert client.post(f"{ORDERS}{order.pk}/close/").status_code == 403


@pytest.mark.parametrize("url", [ORDERS, SHIPMENTS, INVOICES, DELIVERIES])
def test_list_query_counts_are_constant(
    url,
    sales_world,
    put_stock,
    make_sales_order,
    api,
    in_tenant,
    count_queries,
    django_assert_max_num_queries,
):
    w = sales_world
    put_stock(w["carton"], "10000")
    put_stock(w["box"], "10000")
    client = api(w["sales"], w["tenant3"])

    def one_more():
        order = make_sales_order(lines=[(w["carton"], "10", "1"), (w["box"], "10", "1")])
        with in_tenant(w["tenant3"]):
            lines = list(order.lines.all())
            shipment = services.shipment_create(
                sales_order=order,
                lines=[services.ShipmentLineInput(order_line=line, quantity=Decimal("4")) for line in lines],
            )
            services.shipment_ship(shipment=shipment)
            services.invoice_post(invoice=services.invoice_create(sales_order=order))

    one_more()
    client.get(url)
    one = count_queries(lambda: client.get(url))
    for _ in range(4):
        one_more()
    many = count_queries(lambda: client.get(url))
    assert one == many
    with django_assert_max_num_queries(one):
        body = client.get(url).json()["data"]
    assert body["count"] >= 5


def test_owner_candidates_for_the_order_form(sales_world, api, django_assert_max_num_queries):
    """The order form's owner select: the tenant's internal members that the `owner` field accepts,
    searchable and found by id; not another tenant's users, not supplier users, and not for suppliers."""
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    with django_assert_max_num_queries(8):
        response = client.get(f"{ORDERS}owners/")
    assert response.status_code == 200, response.json()
    usernames = {row["username"] for row in response.json()["data"]["results"]}
    assert w["sales"].username in usernames
    assert w["other_admin"].username not in usernames
    assert not usernames & {w["supplier_user_a"].username, w["supplier_user_b"].username}
    found = client.get(f"{ORDERS}owners/", {"id": w["sales"].pk}).json()["data"]["results"]
    assert [row["id"] for row in found] == [w["sales"].pk]
    assert client.get(f"{ORDERS}owners/", {"id": "x"}).json()["data"]["results"] == []
    searched = client.get(f"{ORDERS}owners/", {"search": w["sales"].username}).json()["data"]["results"]
    assert w["sales"].pk in [row["id"] for row in searched]
    assert client.get(f"{ORDERS}owners/", {"search": "no-such-person-here"}).json()["data"]["count"] == 0
    for user in ("supplier_user_a", "supplier_user_b"):
        assert api(w[user], w["tenant3"]).get(f"{ORDERS}owners/").status_code == 403
    other = api(w["other_admin"], w["tenant2"]).get(f"{ORDERS}owners/").json()["data"]["results"]
    assert w["sales"].pk not in [row["id"] for row in other]


def test_editing_a_draft_invoice_note_and_terms(sales_world, draft_invoice, api, in_tenant):
    """The invoice page's draft form: note and payment terms (with language and reverse charge) are
    saved with the `updated_at` the page read; a save made meanwhile by someone else refuses a stale one
    (409 `invoice_changed`), and once posted every change is refused (409 `invoice_posted`), even one
    that carries the current `updated_at`. The posted invoice's due date follows the saved terms."""
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    url = f"{INVOICES}{draft_invoice.pk}/"
    read = client.get(url).json()["data"]
    assert read["status"] == "draft" and "updated_at" in read
    body = {"note": "Deliver to gate 4", "payment_terms_days": 14, "unchanged_since": read["updated_at"]}
    saved = client.patch(url, body, format="json")
    assert saved.status_code == 200, saved.json()
    data = saved.json()["data"]
    assert (data["note"], data["payment_terms_days"]) == ("Deliver to gate 4", 14)
    assert data["updated_at"] > read["updated_at"]

    stale = client.patch(url, {**body, "note": "late"}, format="json")
    assert stale.status_code == 409 and stale.json()["error"] == "invoice_changed"
    with in_tenant(w["tenant3"]):
        draft_invoice.refresh_from_db()
        assert draft_invoice.note == "Deliver to gate 4"

    # without the precondition (an API client that does not send it) the draft is simply changed
    assert client.patch(url, {"note": ""}, format="json").json()["data"]["note"] == ""

    current = client.get(url).json()["data"]["updated_at"]
    posted = client.post(f"{url}post/", {"issue_date": "2026-03-10"}, format="json").json()["data"]
    assert posted["due_date"] == "2026-03-24"  # 14 days
    for change in ({"note": "x", "unchanged_since": current}, {"payment_terms_days": 60}, {}):
        refused = client.patch(url, change, format="json")
        assert refused.status_code == 409 and refused.json()["error"] == "invoice_posted", change
    with in_tenant(w["tenant3"]):
        draft_invoice.refresh_from_db()
        assert (draft_invoice.note, draft_invoice.payment_terms_days) == ("", 14)


def test_a_draft_invoice_edit_is_validated(sales_world, draft_invoice, api, in_tenant):
    w = sales_world
    client = api(w["sales"], w["tenant3"])
    url = f"{INVOICES}{draft_invoice.pk}/"
    for body in (
        {"note": "x" * 1001},
        {"note": None},
        {"note": ["a"]},
        {"payment_terms_days": -1},
        {"payment_terms_days": 366},
        {"payment_terms_days": "soon"},
        {"payment_terms_days": 1.5},
        {"language": "de"},
        {"reverse_charge": "perhaps"},
        {"unchanged_since": "yesterday"},
        {"unchanged_since": 5},
        [],
        "note",
    ):
        response = client.patch(url, body, format="json")
        assert response.status_code == 400, (body, response.json())
        assert response.json()["error"] in ("validation_error", "parse_error"), body
    with in_tenant(w["tenant3"]):
        draft_invoice.refresh_from_db()
        assert (draft_invoice.note, draft_invoice.payment_terms_days) == ("", 30)


def test_a_draft_invoice_is_changed_only_by_its_tenant_and_who_may_change_invoices(
    sales_world, draft_invoice, api, in_tenant, make_user
):
    w = sales_world
    url = f"{INVOICES}{draft_invoice.pk}/"
    body = {"note": "taken over", "payment_terms_days": 1}
    # another tenant: not found, as if it did not exist
    assert api(w["other_admin"], w["tenant2"]).patch(url, body, format="json").status_code == 404
    # supplier users of either parent vendor, a warehouse user and a purchaser: no sales invoices
    for user in ("supplier_user_a", "supplier_user_b", "warehouse_user", "purchasing"):
        client = api(w[user], w["tenant3"])
        assert client.patch(url, body, format="json").status_code in (403, 404), user
        assert client.get(url).status_code in (403, 404), user
    # an internal member who may read invoices but not change them (the Warehouse role's permissions)
    reader = api(make_user(w["tenant3"], "Warehouse", username="reader"), w["tenant3"])
    assert reader.get(url).status_code == 200
    assert reader.patch(url, body, format="json").status_code == 403
    with in_tenant(w["tenant3"]):
        draft_invoice.refresh_from_db()
        assert (draft_invoice.note, draft_invoice.payment_terms_days) == ("", 30)
    # the sales role may
    assert api(w["sales"], w["tenant3"]).patch(url, body, format="json").status_code == 200
