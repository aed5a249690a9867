"""Products API: validation, uniqueness per tenant, permissions per role, tenant isolation, supplier and
warehouse access, query counts, export with filters."""

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.products.models import Product
from apps.suppliers.models import ParentVendor

from .factories import make_group, make_product

pytestmark = pytest.mark.django_db

URL = "/api/products/"


@pytest.fixture
def admin(tenant3, make_user):
    return make_user(tenant3, username="boss")


@pytest.fixture
def client(api, admin, tenant3):
    return api(admin, tenant3)


def valid_payload(**overrides):
    payload = {
        "article_number": "CT-SW-4030",
        "name": "Single wall carton 400x300x200",
        "name_zh": "单瓦楞纸箱",
        "unit": "pcs",
        "weight_per_carton_kg": "0.320",
        "carton_length_mm": 400,
        "carton_width_mm": 300,
        "carton_height_mm": 200,
        "hs_code": "4819.10",
        "purchase_price": "0.42",
        "sales_price": "0.69",
        "currency": "eur",
        "barcode": "4006381333931",
        "visma_code": "3010",
    }
    payload.update(overrides)
    return payload


def test_create_read_update_delete(client, tenant3, in_tenant):
    with in_tenant(tenant3):
        group = make_group("Single wall", code="CC-SW")
    created = client.post(URL, valid_payload(group=group.pk), format="json")
    assert created.status_code == 201, created.json()
    data = created.json()["data"]
    assert data["hs_code"] == "481910"  # dots removed
    assert data["currency"] == "EUR"
    assert data["group_name"] == "Single wall" and data["group_path"] == "Single wall"
    assert data["weight_per_carton_kg"] == "0.320"

    detail = client.get(f"{URL}{data['id']}/")
    assert detail.json()["data"]["article_number"] == "CT-SW-4030"

    patched = client.patch(f"{URL}{data['id']}/", {"is_active": False, "sales_price": "0.75"}, format="json")
    assert patched.status_code == 200
    assert patched.json()["data"]["is_active"] is False
    with in_tenant(tenant3):
        assert Product.objects.get().sales_price == Decimal("0.7500")

    assert client.delete(f"{URL}{data['id']}/").status_code == 200
    with in_tenant(tenant3):
        assert not Product.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("article_number", "  ", "blank"),
        ("name", "", "blank"),
        ("hs_code", "48A9", "HS code"),
        ("hs_code", "481", "HS code"),
        ("hs_code", "48191000001", "HS code"),
        ("weight_per_carton_kg", "0", "greater than 0"),
        ("weight_per_carton_kg", "abc", "number"),
        ("currency", "EURO", "characters"),
        ("currency", "XYZ", "ISO 4217"),
        ("barcode", "4006381333932", "check digit"),
        ("barcode", "12345", "barcode"),
        ("unit", "bucket", "valid choice"),
        ("carton_length_mm", 0, "greater than or equal to 1"),
        ("sales_price", "-1", "greater than or equal to 0"),
    ],
)
def test_validation_messages(client, field, value, fragment):
    response = client.post(URL, valid_payload(**{field: value}), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert field in body["data"], body
    assert fragment.lower() in " ".join(body["data"][field]).lower(), body["data"][field]


def test_article_number_unique_per_tenant_gives_a_field_error(
    client, api, tenant2, tenant3, in_tenant, make_user
):
    with in_tenant(tenant3):
        make_product("CT-1")
    duplicate = client.post(URL, valid_payload(article_number="CT-1"), format="json")
    assert duplicate.status_code == 400
    assert duplicate.json()["data"]["article_number"] == [
        "A product with this article number already exists."
    ]
    # The same article number in another tenant is fine.
    other = api(make_user(tenant2, username="nordic"), tenant2)
    assert other.post(URL, valid_payload(article_number="CT-1"), format="json").status_code == 201


def test_database_constraint_race_is_a_field_error_not_a_500(tenant3, in_tenant):
    from django.core.exceptions import ValidationError

    from apps.products.services import product_create

    with in_tenant(tenant3):
        make_product("CT-RACE")
        with pytest.raises(ValidationError) as caught:
            product_create(data={"article_number": "CT-RACE", "name": "Again"})
    assert "article_number" in caught.value.message_dict


def test_foreign_group_id_is_refused(client, tenant2, in_tenant):
    with in_tenant(tenant2):
        foreign = make_group("Foreign group")
    response = client.post(URL, valid_payload(group=foreign.pk), format="json")
    assert response.status_code == 400
    assert "group" in response.json()["data"]


def test_tenant_isolation(api, client, tenant2, tenant3, in_tenant, make_user):
    with in_tenant(tenant2):
        foreign = make_product("CT-FOREIGN")
    with in_tenant(tenant3):
        make_product("CT-OWN")
    listed = client.get(URL).json()["data"]
    assert [p["article_number"] for p in listed["results"]] == ["CT-OWN"]
    assert client.get(f"{URL}{foreign.pk}/").status_code == 404
    assert client.patch(f"{URL}{foreign.pk}/", {"name": "x"}, format="json").status_code == 404
    assert client.delete(f"{URL}{foreign.pk}/").status_code == 404
    with in_tenant(tenant2):
        assert Product.objects.get(pk=foreign.pk).name == "Carton CT-FOREIGN"
    # A user of tenant 3 asking for tenant 2 is not a member.
    assert client.get(f"{URL}?tenant_id={tenant2.pk}").status_code == 403


def test_sales_role_reads_but_cannot_write(api, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        product = make_product("CT-1")
    sales = api(make_user(tenant3, role="Sales", username="seller"), tenant3)
    assert sales.get(URL).status_code == 200
    assert sales.post(URL, valid_payload(), format="json").status_code == 403
    assert sales.patch(f"{URL}{product.pk}/", {"name": "x"}, format="json").status_code == 403
    assert sales.delete(f"{URL}{product.pk}/").status_code == 403


def test_purchasing_role_manages_products(api, tenant3, make_user):
    buyer = api(make_user(tenant3, role="Purchasing", username="buyer"), tenant3)
    created = buyer.post(URL, valid_payload(), format="json")
    assert created.status_code == 201
    assert buyer.delete(f"{URL}{created.json()['data']['id']}/").status_code == 200


def test_warehouse_user_reads_products_only(api, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        make_product("CT-1")
    warehouse = api(make_user(tenant3, role="Warehouse", username="wh", is_warehouse=True), tenant3)
    listed = warehouse.get(URL)
    assert listed.status_code == 200 and listed.json()["data"]["count"] == 1
    assert warehouse.post(URL, valid_payload(), format="json").status_code == 403


def test_supplier_user_sees_no_products_without_purchase_order_lines(api, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        product = make_product("CT-1")
        vendor = ParentVendor.objects.create(name="Vendor A")
    supplier = api(
        make_user(tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor), tenant3
    )
    listed = supplier.get(URL)
    assert listed.status_code == 200 and listed.json()["data"]["count"] == 0
    assert supplier.get(f"{URL}{product.pk}/").status_code == 404
    assert supplier.post(URL, valid_payload(), format="json").status_code == 403
    assert supplier.get(f"{URL}export/?format=csv").status_code == 200


def test_supplier_scope_follows_purchase_order_lines(api, tenant3, in_tenant, make_user):
    """A supplier user sees exactly the products on their parent vendor's purchase order lines: not those
    only on another vendor's orders, nor those on no order."""
    from datetime import date

    from apps.purchaseorders import services as purchasing
    from apps.suppliers.models import Supplier

    with in_tenant(tenant3):
        ours, theirs, unordered = make_product("CT-1"), make_product("CT-2"), make_product("CT-3")
        vendor_a = ParentVendor.objects.create(name="Vendor A")
        vendor_b = ParentVendor.objects.create(name="Vendor B")
        for vendor, product, number in ((vendor_a, ours, "S-A"), (vendor_b, theirs, "S-B")):
            purchasing.purchase_order_create(
                supplier=Supplier.objects.create(parent_vendor=vendor, number=number, name=number),
                order_date=date(2026, 3, 1),
                lines=[
                    purchasing.LineInput(product=product, order_qty=Decimal("10"), unit_cost=Decimal("1"))
                ],
            )
    supplier = api(
        make_user(tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor_a), tenant3
    )
    listed = supplier.get(URL).json()["data"]
    assert [p["article_number"] for p in listed["results"]] == ["CT-1"]
    assert supplier.get(f"{URL}{ours.pk}/").status_code == 200
    assert supplier.get(f"{URL}{theirs.pk}/").status_code == 404
    assert supplier.get(f"{URL}{unordered.pk}/").status_code == 404


def test_supplier_view_hides_prices(tenant3, in_tenant, make_user, rf):
    from apps.products.api.serializers import ProductSerializer

    with in_tenant(tenant3):
        product = make_product("CT-1")
        vendor = ParentVendor.objects.create(name="Vendor A")
        user = make_user(tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor)
        request = rf.get("/")
        request.user = user
        data = ProductSerializer(product, context={"request": request}).data
    assert "sales_price" not in data and "purchase_price" not in data
    assert data["weight_per_carton_kg"] == "0.320"


def test_search_filter_sort(client, tenant3, in_tenant):
    with in_tenant(tenant3):
        cartons = make_group("Corrugated cartons", code="CC")
        single = make_group("Single wall", code="CC-SW", parent=cartons)
        goods = make_group("Goods", code="GD")
        make_product("CT-B", name="Bravo carton", group=single)
        make_product("CT-A", name="Alpha carton", group=cartons, is_active=False)
        make_product("KW-1", name="Frying pan", group=goods, hs_code="732393")
    search = client.get(f"{URL}?search=pan").json()["data"]["results"]
    assert [p["article_number"] for p in search] == ["KW-1"]
    by_group = client.get(f"{URL}?group={cartons.pk}&ordering=-article_number").json()["data"]["results"]
    assert [p["article_number"] for p in by_group] == ["CT-B", "CT-A"]  # subgroups included
    active = client.get(f"{URL}?is_active=true&hs_code=4819").json()["data"]["results"]
    assert [p["article_number"] for p in active] == ["CT-B"]
    by_name = client.get(f"{URL}?ordering=name").json()["data"]["results"]
    assert [p["name"] for p in by_name] == ["Alpha carton", "Bravo carton", "Frying pan"]
    assert by_name[0]["group_path"] == "Corrugated cartons"
    assert client.get(f"{URL}?ordering=-name").json()["data"]["results"][0]["name"] == "Frying pan"


def test_list_query_count_is_constant(
    client, tenant3, in_tenant, django_assert_max_num_queries, count_queries
):
    with in_tenant(tenant3):
        group = make_group("Single wall")
        make_product("CT-0", group=group)
    client.get(URL)  # warm-up: the user's permissions are cached on the user object
    one = count_queries(lambda: client.get(URL))
    with in_tenant(tenant3):
        for i in range(1, 30):
            make_product(f"CT-{i}", group=make_group(f"G{i}") if i % 2 else group)
    many = count_queries(lambda: client.get(f"{URL}?page_size=50"))
    assert one == many
    with django_assert_max_num_queries(one):
        assert client.get(f"{URL}?page_size=50").json()["data"]["count"] == 30


def test_export_csv_and_xlsx_with_filters(client, tenant3, in_tenant):
    with in_tenant(tenant3):
        group = make_group("Single wall", code="CC-SW")
        make_product("CT-1", name="Carton one", group=group, name_zh="纸箱一")
        make_product("CT-2", name="Carton two", is_active=False)
    response = client.get(f"{URL}export/?format=csv&is_active=true")
    assert response.status_code == 200
    content = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(content)))
    assert [r["Article number"] for r in rows] == ["CT-1"]
    assert rows[0]["Group"] == "CC-SW" and rows[0]["Chinese name"] == "纸箱一"
    assert rows[0]["Weight per carton (kg)"] == "0.320" and rows[0]["HS code"] == "481910"

    xlsx = client.get(f"{URL}export/?format=xlsx&search=two")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    values = list(sheet.values)
    assert values[0][0] == "Article number"
    assert [row[0] for row in values[1:]] == ["CT-2"]


def test_groups_route_is_not_taken_for_a_product_id(client):
    assert client.get(f"{URL}groups/").status_code == 200
    assert client.get(f"{URL}not-a-number/").status_code == 404


def test_delete_product_in_use_is_a_conflict(client, tenant3, in_tenant, monkeypatch):
    from django.db.models import ProtectedError

    with in_tenant(tenant3):
        product = make_product("CT-1")

    def protected(self, *args, **kwargs):
        raise ProtectedError("in use", set())

    monkeypatch.setattr(Product, "delete", protected)
    response = client.delete(f"{URL}{product.pk}/")
    assert response.status_code == 409
    assert response.json()["error"] == "product_in_use"
