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

from apps.customers.api.views import CustomerViewSet
from apps.eudr.api.views import CartonLabelViewSet, RawMaterialDeliveryViewSet
from apps.eudr.tests import factories
from apps.products.api.views import ProductViewSet
from apps.purchaseorders.api.views import PurchaseOrderViewSet, SupplierInvoiceViewSet
from apps.salesorders.api.views import SalesOrderViewSet, SalesQuotationViewSet
from apps.suppliers.api.views import ParentVendorViewSet, SupplierViewSet
from apps.tenancy.context import tenant_context

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

# list -> (path, view, table of its rows)
LISTS = {
    "products": ("/api/products/", ProductViewSet, "products_product"),
    "purchase orders": ("/api/purchaseorders/orders/", PurchaseOrderViewSet, "purchaseorders_purchaseorder"),
    "sales orders": ("/api/salesorders/orders/", SalesOrderViewSet, "salesorders_salesorder"),
    "sales quotations": (
        "/api/salesorders/quotations/",
        SalesQuotationViewSet,
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
}

# Orderings no index of the list's own table can give, accepted with their cost (docs/performance.md):
# a name of another table (each page joins and sorts the tenant's rows; the lists stay offered because the
# pages sort by them) or a count computed per row.
ACCEPTED = {
    ("products", "group__name"): "the group's name: a left join (a product may have no group)",
    ("purchase orders", "supplier__name"): "the supplier's name, another table",
    ("sales orders", "customer__name"): "the customer's name, another table",
    ("sales quotations", "customer__name"): "the customer's name, another table",
    ("suppliers", "parent_vendor__name"): "the parent vendor's name: a left join",
    ("parent vendors", "supplier_count"): "a count of each vendor's suppliers",
}


def offered(view) -> list[str]:
    return list(getattr(view, "all_ordering_fields", None) or view.ordering_fields)


def orderings(name: str) -> list[str | None]:
    """The list's default order (None), then every offered ordering not accepted, each in both directions."""
    view = LISTS[name][1]
    fields = [field for field in offered(view) if (name, field) not in ACCEPTED]
    return [None, *(ordering for field in fields for ordering in (field, f"-{field}"))]


@pytest.fixture
def rows(tenant3, in_tenant):
    from apps.customers.models import Customer
    from apps.purchaseorders.models import SupplierInvoice
    from apps.salesorders.models import SalesOrder, SalesQuotation

    with in_tenant(tenant3):
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
    for name, field in sorted(ACCEPTED):
        path, view, _table = LISTS[name]
        # a stale entry would hide a new ordering of the same name
        assert field in offered(view), (name, field)
        response = client.get(path, {"ordering": f"-{field}"})
        assert response.status_code == 200, (name, field, response.content)


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
