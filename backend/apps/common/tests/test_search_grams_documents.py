"""List search through the trigram table for goods receipts, inbound shipments, sales shipments and
dispatches (apps/common/search_index.py, kinds 10 to 13): the answers are exactly those of plain `icontains` over
each list's search fields, the grams follow every write, another tenant's rows are never found, and the
lists read the gram table on PostgreSQL."""

from __future__ import annotations

import operator
import re
from datetime import date
from functools import reduce

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from rest_framework.filters import search_smart_split

from apps.common import search_index
from apps.common.models import SearchGram
from apps.customers.models import Customer
from apps.inventory.api.views import InboundShipmentViewSet
from apps.inventory.models import Warehouse
from apps.logistics.api.views import DispatchViewSet
from apps.logistics.models import Dispatch, ShipmentCompany, ShipmentInfo, ShipmentPurchaseOrder
from apps.purchaseorders.api.views import ReceiptViewSet
from apps.purchaseorders.models import PurchaseOrder, Receipt
from apps.salesorders.api.views import ShipmentViewSet as SalesShipmentViewSet
from apps.salesorders.models import SalesOrder, Shipment
from apps.suppliers.models import ParentVendor, Supplier

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

RECEIPT_KIND, INBOUND_KIND, SALES_SHIPMENT_KIND, DISPATCH_KIND = 10, 11, 12, 13

RECEIPTS = "/api/purchaseorders/receipts/"
SHIPMENTS = "/api/logistics/shipments/"
INBOUND = "/api/inventory/inbound/"
SALES_SHIPMENTS = "/api/salesorders/shipments/"
DISPATCHES = "/api/logistics/dispatches/"

# (purchase order number, supplier name, customer name, sales order number): the related rows searched
ORDERS = [
    ("PO-2026-0001", "Evergreen Packaging", "Bakkerij Müller", "SO-7001"),
    ("PO-2026-0002", "宁波蓝波纸箱", "Café Straße GmbH", "SO-7002"),
]
RECEIPT_ROWS = [  # receipt number, note, order
    ("GR-2026-0001", "Palette beschädigt, 2 Kartons nass", 0),
    ("GR-2026-0002", "纸箱到货 第一批", 1),
    ("GR-100%_X", "", 0),
    ("GR-ÉTÉ-7", "Straße", 1),
]
SHIPMENT_ROWS = [  # container, seal, vessel, voyage, orders carried
    ("MSCU1234565", "SL-0042", "Maersk Élise", "024W", [0]),
    ("CMAU7654321", "", "中远海运 星", "第12航次", [1]),
    ("TGHU0000001", "100%_SEAL", "Ever Given", "", [0, 1]),
]
SALES_SHIPMENT_ROWS = [  # shipment number, tracking number, sales order, dispatch (tracking, vehicle)
    ("SH-2026-0001", "JJD0001234567", 0, ("JJD0001234567", "Truck NL-12-AB")),
    ("SH-2026-0002", "1Z999AA10123456784", 1, ("", "货车 沪A-8888")),
    ("SH-ÖL-3", "快递-单号-88", 0, None),
]
TERMS = [
    "gr-2026",
    "0001",
    "2026-000",
    "BESCHÄDIGT",
    "beschädigt",
    "纸箱到",
    "第一批",
    "100%",
    "_X",
    "%_",
    "été",
    "ÉTÉ",
    "strasse",
    "straße",
    "po-2026-0002",
    "evergreen",
    "蓝波纸",
    "mscu",
    "élise",
    "ELISE",
    "中远海",
    "12航次",
    "sl-00",
    "024w",
    "ever",
    "sh-2026",
    "jjd000",
    "1z999",
    "快递-单",
    "truck",
    "沪a-88",
    "dhl",
    "müller",
    "so-7001",
    "ab",
    "zzz",
    "x" * 300,
    "gr 0002",
    '"nass"',
]


def _seed(tenant, in_tenant, suffix: str = ""):
    with in_tenant(tenant):
        vendor = ParentVendor.objects.create(name=f"Vendor{suffix}")
        warehouse = Warehouse.objects.create(code=f"RTM{suffix}", name="Rotterdam")
        orders, sales_orders = [], []
        for number, supplier_name, customer_name, sales_number in ORDERS:
            supplier = Supplier.objects.create(parent_vendor=vendor, number=number[-4:], name=supplier_name)
            orders.append(
                PurchaseOrder.objects.create(
                    order_number=number, order_date=date(2026, 3, 1), supplier=supplier
                )
            )
            customer = Customer.objects.create(number=sales_number, name=customer_name)
            sales_orders.append(
                SalesOrder.objects.create(
                    order_number=sales_number, customer=customer, order_date=date(2026, 3, 1)
                )
            )
        for number, note, order in RECEIPT_ROWS:
            Receipt.objects.create(
                receipt_number=number,
                note=note,
                purchase_order=orders[order],
                warehouse=warehouse,
                receipt_date=date(2026, 3, 2),
            )
        for container, seal, vessel, voyage, carried in SHIPMENT_ROWS:
            shipment = ShipmentInfo.objects.create(
                container_number=container, seal_number=seal, vessel=vessel, voyage=voyage
            )
            for order in carried:
                ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=orders[order])
        carrier = ShipmentCompany.objects.create(name=f"DHL Freight{suffix}")
        for number, tracking, order, dispatch in SALES_SHIPMENT_ROWS:
            shipment = Shipment.objects.create(
                shipment_number=number,
                tracking_number=tracking,
                sales_order=sales_orders[order],
                warehouse=warehouse,
            )
            if dispatch:
                Dispatch.objects.create(
                    sales_shipment=shipment,
                    carrier=carrier,
                    pickup_date=date(2026, 3, 3),
                    tracking_number=dispatch[0],
                    vehicle=dispatch[1],
                )


@pytest.fixture
def documents(tenant2, tenant3, in_tenant, make_user):
    _seed(tenant3, in_tenant)
    _seed(tenant2, in_tenant, suffix="-2")  # the same words in another tenant: never found from tenant 3
    return {"admin": make_user(tenant3, "Administrator", username="boss"), "tenant": tenant3}


# (list, model, its search fields for an administrator, its own kind): the fields are the views' own, so a
# field added to a view is compared too
LISTS = [
    (RECEIPTS, Receipt, ReceiptViewSet.search_fields, RECEIPT_KIND),
    (
        SHIPMENTS,
        ShipmentInfo,
        ["container_number", "seal_number", "vessel", "voyage", "order_links__purchase_order__order_number"],
        INBOUND_KIND,
    ),
    (INBOUND, ShipmentInfo, InboundShipmentViewSet.search_fields, INBOUND_KIND),
    (SALES_SHIPMENTS, Shipment, SalesShipmentViewSet.search_fields, SALES_SHIPMENT_KIND),
    (DISPATCHES, Dispatch, DispatchViewSet.search_fields, DISPATCH_KIND),
]


def _icontains_ids(model, fields, terms: list[str]) -> set[int]:
    conditions = [
        reduce(operator.or_, (Q(**{f"{field}__icontains": term}) for field in fields)) for term in terms
    ]
    return set(model.objects.filter(reduce(operator.and_, conditions)).values_list("pk", flat=True))


def _found(client, url: str, search: str) -> tuple[set[int], int]:
    response = client.get(url, {"search": search, "page_size": 200})
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    return {row["id"] for row in data["results"]}, data["count"]


def _stored(kind: int) -> set[tuple[int, str]]:
    return set(SearchGram.objects.filter(kind=kind).values_list("object_id", "gram"))


def _expected(model, kind: int) -> set[tuple[int, str]]:
    fields = next(entry.fields for entry in search_index.INDEXED if entry.kind == kind)
    arrays = " || ".join(f"search_grams({model._meta.get_field(f).column}::text)" for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, unnest({arrays}) FROM {model._meta.db_table}")
        return set(cursor.fetchall())


def test_the_lists_are_indexed_with_the_fields_they_search():
    for model, view_fields in [
        (Receipt, ReceiptViewSet.search_fields),
        (Shipment, SalesShipmentViewSet.search_fields),
        (Dispatch, DispatchViewSet.search_fields),
        (ShipmentInfo, ["container_number", "seal_number", "vessel", "voyage"]),
    ]:
        _kind, indexed = search_index.indexed_fields(model)
        assert {field for field in view_fields if "__" not in field} <= indexed, model


def test_search_answers_exactly_what_icontains_answers(documents, api, in_tenant):
    client = api(documents["admin"], documents["tenant"])
    with in_tenant(documents["tenant"]):
        for url, model, fields, _kind in LISTS:
            matched = 0
            for search in TERMS:
                expected = _icontains_ids(model, fields, search_smart_split(search))
                found, count = _found(client, url, search)
                assert found == expected, (url, search)
                assert count == len(expected), (url, search)
                matched += bool(expected)
            assert matched >= 4, url  # the terms find something in every list


def test_another_tenants_rows_are_never_found(documents, api, in_tenant, tenant2):
    client = api(documents["admin"], documents["tenant"])
    for url, model, _fields, kind in LISTS:
        with in_tenant(tenant2):
            theirs = set(model.objects.values_list("pk", flat=True))
            # their grams exist, in their tenant
            assert {object_id for object_id, _gram in _stored(kind)} == theirs
        with in_tenant(documents["tenant"]):
            mine = set(model.objects.values_list("pk", flat=True))
        for search in ["gr-2026", "mscu1234", "sh-2026", "蓝波纸", "evergreen", "élise", "müller", "po-2026"]:
            found, _count = _found(client, url, search)
            assert found <= mine and not found & theirs, (url, search)


def test_the_lists_read_their_grams(documents, api):
    client = api(documents["admin"], documents["tenant"])
    for url, model, _fields, kind in LISTS:
        with CaptureQueriesContext(connection) as captured:
            found, _count = _found(client, url, "2026-0001" if kind != INBOUND_KIND else "mscu1234")
        assert found, url
        grams = [q["sql"] for q in captured.captured_queries if "common_searchgram" in q["sql"]]
        assert len(grams) == 1, url
        assert f"g1.kind = {kind}" in grams[0], url
        table = model._meta.db_table
        page = [q["sql"] for q in captured.captured_queries if f'FROM "{table}"' in q["sql"]]
        assert page and all(f'"{table}"."id" = ANY(' in sql for sql in page), url


def test_every_write_keeps_the_grams_of_its_rows(documents, api, in_tenant):
    tenant = documents["tenant"]
    client = api(documents["admin"], tenant)

    def check():
        for model, kind in [
            (Receipt, RECEIPT_KIND),
            (ShipmentInfo, INBOUND_KIND),
            (Shipment, SALES_SHIPMENT_KIND),
        ]:
            assert _stored(kind) == _expected(model, kind), model

    with in_tenant(tenant):
        check()
        receipt = Receipt.objects.get(receipt_number="GR-2026-0001")
        receipt.note = "Alles trocken"
        receipt.save()
        ShipmentInfo.objects.filter(container_number="MSCU1234565").update(vessel="Maersk Kampala")
        Shipment.objects.filter(shipment_number="SH-2026-0002").update(tracking_number="NEWTRACK-9")
        Dispatch.objects.filter(vehicle="Truck NL-12-AB").update(vehicle="Van NL-34-CD")
        check()
        Dispatch.objects.filter(sales_shipment__shipment_number="SH-2026-0002").delete()
        Shipment.objects.filter(shipment_number="SH-ÖL-3").delete()
        ShipmentInfo.objects.filter(container_number="TGHU0000001").delete()
        check()
    assert _found(client, RECEIPTS, "beschädigt")[1] == 0
    assert _found(client, RECEIPTS, "trocken")[1] == 1
    assert _found(client, SHIPMENTS, "kampala")[1] == 1
    assert _found(client, SHIPMENTS, "élise")[1] == 0
    assert _found(client, SALES_SHIPMENTS, "newtrack")[1] == 1
    assert _found(client, SALES_SHIPMENTS, "快递")[1] == 0
    assert _found(client, DISPATCHES, "van nl")[1] == 1
    assert _found(client, DISPATCHES, "truck")[1] == 0
    assert _found(client, DISPATCHES, "沪a-88")[1] == 0


SEARCHED_TABLES = [
    "purchaseorders_purchaseorder",
    "suppliers_supplier",
    "logistics_shipmentpurchaseorder",
    "salesorders_salesorder",
    "customers_customer",
    "salesorders_shipment",
    "logistics_shipmentcompany",
]


def test_fields_several_relations_away_are_searched_through_grams_without_joins(documents, api):
    """`purchase_order__supplier__name`, `order_links__purchase_order__order_number` (a reverse relation,
    then a foreign key), `purchase_orders__order_number` (many-to-many), `sales_order__customer__name`:
    one query reads the candidates of every table with grams, and the count joins none of the searched
    tables and has no EXISTS and no DISTINCT."""
    client = api(documents["admin"], documents["tenant"])
    product_kinds = {
        RECEIPTS: {RECEIPT_KIND, 2, 7},  # receipts, purchase orders, suppliers
        SHIPMENTS: {INBOUND_KIND, 2},
        INBOUND: {INBOUND_KIND, 2},
        SALES_SHIPMENTS: {SALES_SHIPMENT_KIND, 9, 4},  # sales shipments, sales orders, customers
        DISPATCHES: {DISPATCH_KIND, SALES_SHIPMENT_KIND, 9, 4},
    }
    for url, model, _fields, _kind in LISTS:
        with CaptureQueriesContext(connection) as captured:
            found, count = _found(client, url, "2026-000")
        assert count == len(found) > 0, url
        grams = [q["sql"] for q in captured.captured_queries if "common_searchgram" in q["sql"]]
        assert len(grams) == 1, url
        assert {int(kind) for kind in re.findall(r"g1\.kind = (\d+)", grams[0])} == product_kinds[url], url
        counts = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT COUNT(*)")]
        assert len(counts) == 1, url
        for word in ("EXISTS", "DISTINCT", *(f'JOIN "{table}"' for table in SEARCHED_TABLES)):
            assert word not in counts[0], (url, word, counts[0])
