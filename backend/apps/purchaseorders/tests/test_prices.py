"""Who sees prices (apps/common/prices.py): purchase order unit costs, line amounts, order totals, the
summary's sums, product purchase and sales prices, and the export columns and sort orders of them, only
with `products.see_prices`. The Warehouse role lacks it; Administrator, Purchasing and Sales hold it; a
supplier sees the prices of its own orders but never a product's prices."""

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.products.models import Product

pytestmark = pytest.mark.django_db

ORDERS = "/api/purchaseorders/orders/"
PRODUCTS = "/api/products/"
ORDER_PRICES = {"total_amount"}
LINE_PRICES = {"unit_cost", "amount"}
PRODUCT_PRICES = {"purchase_price", "sales_price"}


@pytest.fixture
def priced(world, make_order, in_tenant):
    with in_tenant(world["tenant3"]):
        Product.objects.filter(pk=world["carton"].pk).update(
            purchase_price=Decimal("0.4200"), sales_price=Decimal("0.6900")
        )
    world["order"] = make_order()
    return world


def csv_rows(response):
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


def order_answers(client, order):
    listed = client.get(ORDERS).json()["data"]["results"][0]
    detail = client.get(f"{ORDERS}{order.pk}/").json()["data"]
    by_number = client.get(f"{ORDERS}by-number/{order.order_number}/").json()["data"]
    return listed, detail, by_number


@pytest.mark.parametrize(
    ("user_key", "sees"),
    [("admin", True), ("purchasing", True), ("sales", False), ("warehouse_user", False)],
)
def test_purchase_order_prices_per_role(priced, api, user_key, sees):
    w = priced
    client = api(w[user_key], w["tenant3"])
    if user_key == "sales":  # Sales holds the price permission but no purchase order access at all
        assert client.get(ORDERS).status_code == 403
        return
    listed, detail, by_number = order_answers(client, w["order"])
    for answer in (listed, detail, by_number):
        assert set(answer) >= ORDER_PRICES if sees else not ORDER_PRICES & set(answer)
    for line in (detail["lines"][0], by_number["lines"][0]):
        assert set(line) >= LINE_PRICES if sees else not LINE_PRICES & set(line)
        assert line["order_qty"] == "100.000"  # the rest of the line is there
    if sees:
        assert detail["total_amount"] == "125.00" and detail["lines"][0]["unit_cost"] == "1.2500"

    summary = client.get(f"{ORDERS}summary/").json()["data"]
    assert summary["total"]["count"] == 1
    assert (summary["total"]["amounts"] == {"EUR": "125.00"}) is sees
    assert all(entry["amounts"] == {} for entry in summary["statuses"].values()) is not sees

    header = csv_rows(client.get(f"{ORDERS}export/?format=csv"))[0]
    assert ("Total amount" in header) is sees
    workbook = load_workbook(io.BytesIO(client.get(f"{ORDERS}export/?format=xlsx").content))
    assert ("Total amount" in [cell.value for cell in next(workbook.active.iter_rows())]) is sees

    # Sorting by a price would reveal it: ignored without the permission.
    sorted_answer = client.get(f"{ORDERS}?ordering=total_amount")
    assert sorted_answer.status_code == 200


def test_product_prices_per_role(priced, api):
    w = priced
    for user_key, sees in (("admin", True), ("purchasing", True), ("sales", True), ("warehouse_user", False)):
        client = api(w[user_key], w["tenant3"])
        listed = client.get(PRODUCTS, {"search": "CT-6040"}).json()["data"]["results"][0]
        detail = client.get(f"{PRODUCTS}{w['carton'].pk}/").json()["data"]
        for answer in (listed, detail):
            assert (set(answer) >= PRODUCT_PRICES) is sees, user_key
            assert not (PRODUCT_PRICES & set(answer)) or sees
            assert answer["article_number"] == "CT-6040"
        header = csv_rows(client.get(f"{PRODUCTS}export/?format=csv"))[0]
        assert ("Purchase price" in header and "Sales price" in header) is sees, (user_key, header)
        assert not ({"Purchase price", "Sales price"} & set(header)) or sees
        xlsx = load_workbook(io.BytesIO(client.get(f"{PRODUCTS}export/?format=xlsx").content))
        assert ("Purchase price" in [c.value for c in next(xlsx.active.iter_rows())]) is sees


def test_warehouse_cannot_sort_products_or_orders_by_price(priced, api, in_tenant):
    w = priced
    with in_tenant(w["tenant3"]):
        Product.objects.filter(pk=w["box"].pk).update(purchase_price=Decimal("9"))
    client = api(w["warehouse_user"], w["tenant3"])
    by_price = client.get(PRODUCTS, {"ordering": "-purchase_price"}).json()["data"]["results"]
    by_default = client.get(PRODUCTS).json()["data"]["results"]
    assert [p["id"] for p in by_price] == [p["id"] for p in by_default]  # the price order is ignored


def test_supplier_sees_its_own_order_prices_but_no_product_prices(priced, api):
    w = priced
    client = api(w["supplier_user_a"], w["tenant3"])
    listed, detail, _ = order_answers(client, w["order"])
    assert listed["total_amount"] == "125.00"
    assert detail["total_amount"] == "125.00" and detail["lines"][0]["unit_cost"] == "1.2500"
    product = client.get(f"{PRODUCTS}{w['carton'].pk}/").json()["data"]
    assert not PRODUCT_PRICES & set(product)


def test_the_permission_follows_the_role_not_the_user_type(priced, api, in_tenant, roles):
    """An administrator may give the Warehouse role the permission: then it sees prices."""
    from django.contrib.auth.models import Permission

    w = priced
    with in_tenant(w["tenant3"]):
        roles(w["tenant3"], "Warehouse").permissions.add(
            Permission.objects.get(content_type__app_label="products", codename="see_prices")
        )
    detail = api(w["warehouse_user"], w["tenant3"]).get(f"{ORDERS}{w['order'].pk}/").json()["data"]
    assert detail["total_amount"] == "125.00"


def test_me_lists_the_permission(priced, api):
    w = priced
    for user_key, holds in (("admin", True), ("purchasing", True), ("warehouse_user", False)):
        me = api(w[user_key], w["tenant3"]).get("/api/users/me/").json()["data"]
        assert ("products.see_prices" in me["permissions"]) is holds
