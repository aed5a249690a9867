"""Every list ordering a page offers is served by an index that matches it, for the tenant: the page's
own SQL (captured from the request, row-level security on) is planned with sorting and sequential scans
made prohibitively expensive, and the plan must read the list's table through an index, in order, with
no sort step. Without a matching index the planner has no choice but to sort, so the test fails
(docs/performance.md, "Indexes for the list orderings").

The orderings are read from the views (`all_ordering_fields` where prices can hide some, else
`ordering_fields`), each in both directions, plus the default order: a new ordering without an index
fails here, unless it is one of the few accepted below with the reason why no index can serve it.
"""

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounting.api.views import MappingViewSet, SyncEntryViewSet
from apps.customers.api.views import CustomerViewSet
from apps.eudr.api.received_views import ReceivedReferenceViewSet
from apps.eudr.api.views import CartonLabelViewSet, RawMaterialDeliveryViewSet, SupplierPolicyViewSet
from apps.eudr.tests import factories
from apps.inventory.api import views as inventory
from apps.logistics.api import views as logistics
from apps.notifications.api.views import EmailMessageViewSet, EmailScenarioViewSet, EmailTemplateViewSet
from apps.printing.api.views import PrintAgentViewSet, PrinterDeviceViewSet, PrintJobViewSet
from apps.products.api.views import ProductGroupViewSet, ProductViewSet
from apps.purchaseorders.api.views import PurchaseOrderViewSet, ReceiptViewSet, SupplierInvoiceViewSet
from apps.reports.api.views import SavedReportViewSet
from apps.salesorders.api import views as sales
from apps.suppliers.api.views import ParentVendorViewSet, SupplierViewSet
from apps.tenancy.context import tenant_context
from apps.users.api.admin_views import DepartmentViewSet, RoleViewSet, UserViewSet

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.runs_long]

# list -> (path, view, table of its rows)
LISTS = {
    "products": ("/api/products/", ProductViewSet, "products_product"),
    "purchase orders": ("/api/purchaseorders/orders/", PurchaseOrderViewSet, "purchaseorders_purchaseorder"),
    "sales orders": ("/api/salesorders/orders/", sales.SalesOrderViewSet, "salesorders_salesorder"),
    "sales quotations": (
        "/api/salesorders/quotations/",
        sales.SalesQuotationViewSet,
        "salesorders_salesquotation",
    ),
    "customers": ("/api/customers/", CustomerViewSet, "customers_customer"),
    "parent vendors": ("/api/suppliers/parent-vendors/", ParentVendorViewSet, "suppliers_parentvendor"),
    "suppliers": ("/api/suppliers/", SupplierViewSet, "suppliers_supplier"),
    "raw-material deliveries": (
        "/api/eudr/raw-materials/",
        RawMaterialDeliveryViewSet,
        "eudr_rawmaterialdelivery",
    ),
    "cartons": ("/api/eudr/cartons/", CartonLabelViewSet, "eudr_cartonlabel"),
    "supplier invoices": (
        "/api/purchaseorders/supplier-invoices/",
        SupplierInvoiceViewSet,
        "purchaseorders_supplierinvoice",
    ),
    "receipts": ("/api/purchaseorders/receipts/", ReceiptViewSet, "purchaseorders_receipt"),
    "shipments": ("/api/salesorders/shipments/", sales.ShipmentViewSet, "salesorders_shipment"),
    "invoices": ("/api/salesorders/invoices/", sales.InvoiceViewSet, "salesorders_invoice"),
    "delivery schedule": (
        "/api/salesorders/deliveries/",
        sales.DeliveryViewSet,
        "salesorders_salesorderline",
    ),
    "warehouses": ("/api/inventory/warehouses/", inventory.WarehouseViewSet, "inventory_warehouse"),
    "locations": ("/api/inventory/locations/", inventory.LocationViewSet, "inventory_location"),
    "stock": ("/api/inventory/stock/", inventory.StockViewSet, "inventory_stock"),
    "stock moves": ("/api/inventory/moves/", inventory.StockMoveViewSet, "inventory_stockmove"),
    "reorder points": (
        "/api/inventory/reorder-points/",
        inventory.ReorderPointViewSet,
        "inventory_reorderpoint",
    ),
    "stock counts": ("/api/inventory/counts/", inventory.StockCountViewSet, "inventory_stockcount"),
    "warehouse cartons": (
        "/api/inventory/cartons/",
        inventory.WarehouseCartonViewSet,
        "inventory_warehousecarton",
    ),
    "inbound shipments": (
        "/api/inventory/inbound/",
        inventory.InboundShipmentViewSet,
        "logistics_shipmentinfo",
    ),
    "container shipments": ("/api/logistics/shipments/", logistics.ShipmentViewSet, "logistics_shipmentinfo"),
    "shipment companies": (
        "/api/logistics/shipment-companies/",
        logistics.ShipmentCompanyViewSet,
        "logistics_shipmentcompany",
    ),
    "dispatches": ("/api/logistics/dispatches/", logistics.DispatchViewSet, "logistics_dispatch"),
    "e-mail templates": ("/api/core/email-templates/", EmailTemplateViewSet, "notifications_emailtemplate"),
    "e-mail scenarios": ("/api/core/email-scenarios/", EmailScenarioViewSet, "notifications_emailscenario"),
    "e-mail log": ("/api/core/email-log/", EmailMessageViewSet, "notifications_emailmessage"),
    "printers": ("/api/printing/devices/", PrinterDeviceViewSet, "printing_printerdevice"),
    "print agents": ("/api/printing/agents/", PrintAgentViewSet, "printing_printagent"),
    "print jobs": ("/api/printing/jobs/", PrintJobViewSet, "printing_printjob"),
    "accounting mappings": ("/api/accounting/mappings/", MappingViewSet, "accounting_mapping"),
    "accounting sync log": ("/api/accounting/sync-log/", SyncEntryViewSet, "accounting_syncentry"),
    "users": ("/api/users/", UserViewSet, "users_user"),
    "departments": ("/api/users/departments/", DepartmentViewSet, "users_department"),
    "roles": ("/api/users/roles/", RoleViewSet, "users_role"),
    "product groups": ("/api/products/groups/", ProductGroupViewSet, "products_productgroup"),
    "received references": (
        "/api/eudr/received-references/",
        ReceivedReferenceViewSet,
        "eudr_receivedreference",
    ),
    "supplier policies": ("/api/eudr/supplier-policies/", SupplierPolicyViewSet, "eudr_supplierpolicy"),
    "saved reports": ("/api/reports/saved/", SavedReportViewSet, "reports_savedreport"),
}

# Orderings no index of the list's own table can give, accepted with their cost (docs/performance.md):
# a name of another table (each page joins and sorts the tenant's rows; the lists stay offered because the
# pages sort by them), a count or a quantity computed per row. None is the list's default order.
ACCEPTED = {
    ("products", "group__name"): "the group's name: a left join (a product may have no group)",
    ("purchase orders", "supplier__name"): "the supplier's name, another table",
    ("sales orders", "customer__name"): "the customer's name, another table",
    ("sales quotations", "customer__name"): "the customer's name, another table",
    ("suppliers", "parent_vendor__name"): "the parent vendor's name: a left join",
    ("parent vendors", "supplier_count"): "a count of each vendor's suppliers",
    ("receipts", "purchase_order__order_number"): "the purchase order's number, another table",
    ("invoices", "customer__name"): "the customer's name, another table",
    ("delivery schedule", None): "by due date, computed per line (its confirmed, else requested date, else "
    "its order's date: another table)",
    ("delivery schedule", "due_date"): "computed per line, partly from the order (another table)",
    ("delivery schedule", "order__order_number"): "the order's number, another table",
    ("delivery schedule", "order__customer__name"): "the customer's name, two tables away",
    ("delivery schedule", "open_qty"): "what is left to ship, computed per line",
    ("locations", None): "by the warehouse's code (another table), then the location's",
    ("locations", "warehouse__code"): "the warehouse's code, another table",
    ("stock", None): "by the product's article number and the location's code, other tables",
    ("stock", "product__article_number"): "the product's article number, another table",
    ("stock", "location__code"): "the location's code, another table",
    ("stock", "reserved"): "the active reservations on the row, a sum over another table",
    ("stock", "available"): "on hand less the reservations, computed per row",
    ("reorder points", None): "by the product's article number, another table",
    ("reorder points", "product__article_number"): "the product's article number, another table",
    ("dispatches", None): "by pickup date, then the carrier's name (another table)",
    ("dispatches", "carrier__name"): "the carrier's name, another table",
    ("departments", "member_count"): "a count of each department's members",
    ("roles", "user_count"): "a count of each role's holders",
    ("product groups", "product_count"): "a count of each group's products",
    ("product groups", "children_count"): "a count of each group's subgroups",
    ("supplier policies", None): "by the parent vendor's name: a left join (a default policy has no vendor)",
    ("supplier policies", "parent_vendor__name"): "the parent vendor's name: a left join",
    # a user belongs to no company (no tenant column): the list is the company's memberships joined to
    # their users, sorted; only the user name, unique over all users, has an index that gives the order
    ("users", "name"): "a user's column: users are joined through the company's memberships",
    ("users", "email"): "a user's column: users are joined through the company's memberships",
    ("users", "last_login"): "a user's column: users are joined through the company's memberships",
    ("users", "date_joined"): "a user's column: users are joined through the company's memberships",
    ("users", "is_active"): "a user's column: users are joined through the company's memberships",
}


def offered(view) -> list[str]:
    return list(getattr(view, "all_ordering_fields", None) or view.ordering_fields)


def orderings(name: str) -> list[str | None]:
    """The list's default order (None), then every offered ordering, each in both directions; those
    accepted left out."""
    view = LISTS[name][1]
    fields = [field for field in offered(view) if (name, field) not in ACCEPTED]
    default = [] if (name, None) in ACCEPTED else [None]
    return [*default, *(ordering for field in fields for ordering in (field, f"-{field}"))]


@pytest.fixture
def rows(tenant3, in_tenant, make_user):
    from apps.customers.models import Customer
    from apps.purchaseorders.models import SupplierInvoice
    from apps.reports.models import SavedReport
    from apps.salesorders.models import SalesOrder, SalesQuotation

    owner = make_user(tenant3)
    with in_tenant(tenant3):
        SavedReport.objects.create(name="Stock by vendor", owner=owner, shared=True, definition={})
        vendor = factories.vendor()
        line = factories.order_line(vendor)
        delivery = factories.delivery(vendor, weight="100000")
        factories.generate(delivery, line, 2)
        customer = Customer.objects.create(number="C-1", name="Hamburg Trading")
        SalesOrder.objects.create(order_number="SO-1", customer=customer, order_date=date(2026, 3, 1))
        SalesQuotation.objects.create(
            quotation_number="Q-1",
            customer=customer,
            quotation_date=date(2026, 3, 1),
            valid_until=date(2026, 4, 1),
        )
        SupplierInvoice.objects.create(
            invoice_number="SUP-1",
            issue_date=date(2026, 3, 1),
            currency="EUR",
            total_net=0,
            total_vat=0,
            total_gross=0,
            seller_name="Seller",
            syntax="ubl",
            original_file="tenants/x/supplier-invoices/a.xml",
        )
        _operations_rows(vendor, line, customer)


def _operations_rows(vendor, line, customer) -> None:
    """A row of every list of receiving, selling, stock, logistics, e-mail, printing, accounting and the
    administration pages (a list without rows reads nothing, so its page would not be planned)."""
    from django.utils import timezone

    from apps.accounting.models import Mapping, SyncEntry
    from apps.eudr.models import CartonLabel, ReceivedReference
    from apps.inventory.models import (
        Location,
        ReorderPoint,
        Stock,
        StockCount,
        StockMove,
        Warehouse,
        WarehouseCarton,
    )
    from apps.logistics.models import Dispatch, ShipmentCompany, ShipmentInfo
    from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate
    from apps.printing.models import PrintAgent, PrinterDevice, PrintJob
    from apps.products.models import ProductGroup
    from apps.purchaseorders.models import Receipt
    from apps.salesorders.models import Invoice, SalesOrder, SalesOrderLine, Shipment
    from apps.users.models import Department

    now = timezone.now()
    product = line.product
    warehouse = Warehouse.objects.get_or_create(code="WH-1", defaults={"name": "Main"})[0]
    location = Location.objects.get_or_create(warehouse=warehouse, code="A-01")[0]
    Receipt.objects.create(
        receipt_number="GR-1", purchase_order=line.order, warehouse=warehouse, receipt_date=date(2026, 3, 2)
    )
    order = SalesOrder.objects.create(
        order_number="SO-2", customer=customer, order_date=date(2026, 3, 1), status="confirmed"
    )
    SalesOrderLine.objects.create(order=order, line_number=1, product=product, quantity=10, unit_price=1)
    shipment = Shipment.objects.create(shipment_number="SH-1", sales_order=order, warehouse=warehouse)
    Invoice.objects.create(sales_order=order, customer=customer)
    Stock.objects.create(product=product, location=location, quantity=5)
    StockMove.objects.create(kind="receipt", product=product, quantity=5, moved_at=now, to_location=location)
    ReorderPoint.objects.create(product=product, reorder_point=1)
    StockCount.objects.create(number="SC-1", counted_at=now)
    WarehouseCarton.objects.create(
        label=CartonLabel.objects.first(), product=product, status="received", received_at=now
    )
    carrier = ShipmentCompany.objects.create(name="Maersk")
    ShipmentInfo.objects.create(container_number="MSKU1234565", shipment_company=carrier)
    Dispatch.objects.create(sales_shipment=shipment, carrier=carrier, pickup_date=date(2026, 3, 3))
    template = EmailTemplate.objects.create(name="Order confirmation", event="order_confirmed")
    EmailScenario.objects.create(name="Confirm orders", event="order_confirmed", template=template)
    EmailMessage.objects.create(event="order_confirmed", subject="Your order", message_id="<1@x>")
    agent = PrintAgent.objects.create(name="Agent", token_hash="h", token_hint="t")
    printer = PrinterDevice.objects.create(name="Zebra", host="10.0.0.9", agent=agent)
    PrintJob.objects.create(printer=printer, source="test_label", expires_at=now)
    Mapping.objects.create(kind="customer", local_key=str(customer.pk), local_label=customer.name)
    SyncEntry.objects.create(idempotency_key="k-1", kind="customer", record_id=customer.pk)
    Department.objects.create(name="Purchasing")
    ProductGroup.objects.create(name="Cartons")
    ReceivedReference.objects.create(
        parent_vendor=vendor,
        document_number="D-1",
        reference_number="25DEABC1234567",
        verification_number="V1",
        kind="dds",
        keep_until=date(2031, 3, 1),
    )
    factories.policy(vendor)


def _page_sql(client, path: str, params: dict, table: str) -> str:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, params)
    assert response.status_code == 200, response.content
    pages = [
        q["sql"]
        for q in captured.captured_queries
        # the count reads the table with a LIMIT too (SELECT COUNT(*) FROM (... LIMIT n + 1)): not the page
        if f'FROM "{table}"' in q["sql"]
        and "LIMIT" in q["sql"]
        and not q["sql"].startswith("SELECT COUNT(*)")
    ]
    assert pages, [q["sql"] for q in captured.captured_queries]
    return pages[0]


def _plan(tenant, sql: str) -> str:
    with tenant_context(tenant), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_sort")
        cursor.execute("RESET enable_seqscan")
    return plan


# One test per list, its rows made once and every ordering planned in turn (a test per ordering made the
# same rows over 130 times); a failure names each ordering whose plan sorts or scans, with the plan.
@pytest.mark.parametrize("name", list(LISTS))
def test_every_offered_ordering_reads_an_index(rows, api, make_user, tenant3, name):
    path, _view, table = LISTS[name]
    client = api(make_user(tenant3), tenant3)
    failures = {}
    for ordering in orderings(name):
        params = {"page_size": 20} if ordering is None else {"page_size": 20, "ordering": ordering}
        plan = _plan(tenant3, _page_sql(client, path, params, table))
        # the list's own table (not a joined one, nor a subquery's table of a longer name) read by an index
        own = [line for line in plan.splitlines() if re.search(rf" on {table}( \w+)?  \(", line)]
        if (
            "Sort" in plan
            or not own
            or not all("Index Scan" in line or "Index Only Scan" in line for line in own)
        ):
            failures[ordering or "default"] = plan
    assert not failures, "\n\n".join(f"{name} ordered by {key}:\n{plan}" for key, plan in failures.items())


def test_the_orderings_cover_every_list_both_ways():
    """The walk above really plans each offered ordering in both directions, and the default."""
    assert orderings("products")[0] is None
    assert {"name", "-name"} <= set(orderings("products"))
    assert sum(len(orderings(name)) for name in LISTS) > 100


def test_an_accepted_ordering_is_still_offered_and_answers(rows, api, make_user, tenant3):
    client = api(make_user(tenant3), tenant3)
    for name, field in sorted(ACCEPTED, key=lambda key: (key[0], key[1] or "")):
        path, view, _table = LISTS[name]
        # a stale entry would hide a new ordering of the same name
        assert field is None or field in offered(view), (name, field)
        response = client.get(path, {} if field is None else {"ordering": f"-{field}"})
        assert response.status_code == 200, (name, field, response.content)
        assert response.json()["data"]["results"], (name, field)


# (path, ordering, the list's table, the index its plan must name)
MATCHING = [
    ("/api/purchaseorders/orders/", {}, "purchaseorders_purchaseorder", "purchaseorder_tenant_date"),
    (
        "/api/purchaseorders/orders/",
        {"ordering": "order_date"},
        "purchaseorders_purchaseorder",
        "purchaseorder_tenant_date",
    ),
    ("/api/products/", {"ordering": "name"}, "products_product", "product_tenant_name"),
    ("/api/products/", {"ordering": "-name"}, "products_product", "product_tenant_name"),
    ("/api/products/", {}, "products_product", "product_tenant_article_unique"),
    ("/api/eudr/raw-materials/", {}, "eudr_rawmaterialdelivery", "eudr_delivery_created_idx"),
    ("/api/eudr/cartons/", {}, "eudr_cartonlabel", "eudr_label_created_idx"),
    (
        "/api/eudr/cartons/",
        {"ordering": "production_batch_code,batch_sequence"},  # what the carton list sends
        "eudr_cartonlabel",
        "eudr_label_batch_idx",
    ),
]


def test_list_ordering_reads_a_matching_index(rows, api, make_user, tenant3):
    client = api(make_user(tenant3), tenant3)
    for path, params, table, index in MATCHING:
        plan = _plan(tenant3, _page_sql(client, path, {"page_size": 20, **params}, table))
        assert index in plan, (path, params, plan)
        assert "Sort" not in plan, (path, params, plan)


# Statements one page of each list runs (the membership and permission reads included), with the per-process
# caches warm: a join that turns into a query per row, or a new query per page, changes a count here.
# Most lists run five (the request's own reads, the bounded count and the page); a list that prefetches
# related rows or looks something up for its page runs more.
STATEMENTS: dict[str, int] = {
    **dict.fromkeys(LISTS, 5),
    "customers": 6,
    "raw-material deliveries": 6,
    "warehouses": 6,
    "stock counts": 6,
    "inbound shipments": 6,
    "container shipments": 6,
    "print jobs": 6,
    "users": 7,
    "roles": 6,
    "product groups": 6,
}


def test_statements_per_page_are_pinned(rows, api, make_user, tenant3, in_tenant, count_queries):
    from apps.eudr.models import ReceivedReference
    from apps.products.models import ProductGroup
    from apps.suppliers.models import ParentVendor

    client = api(make_user(tenant3), tenant3)

    def counts() -> dict[str, int]:
        result = {}
        for name, (path, _view, _table) in LISTS.items():
            client.get(path)
            result[name] = count_queries(lambda path=path: client.get(path, {"page_size": 20}))
        return result

    first = counts()
    assert first == STATEMENTS, first
    # more rows on two pages, the same statements (the other lists' tests grow their own)
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.get()
        for n in range(3):
            parent = ProductGroup.objects.create(name=f"Boxes {n}")
            ProductGroup.objects.create(name=f"Small boxes {n}", parent=parent)
            ReceivedReference.objects.create(
                parent_vendor=vendor,
                document_number=f"D-{n + 2}",
                reference_number=f"25DEABC123456{n}",
                verification_number="V1",
                kind="dds",
                keep_until=date(2031, 3, 1),
            )
    assert counts() == first
