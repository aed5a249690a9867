"""The report lab's datasets, declared in code: what can be grouped, filtered and measured.

A dataset is a queryset of one model (always through its tenant-scoped default manager, so the current
tenant decides the rows), narrowed for supplier users to their parent vendor by `supplier_scope`, with
named dimensions (what rows are grouped and filtered by) and measures (what is added up). A user may use
a dataset when their roles hold `permission` (the view permission of the model it reads). Field paths
never come from the request: a request names dimensions and measures, and only the names below exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.apps import apps
from django.db.models import DecimalField, ExpressionWrapper, F, Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

TEXT, NUMBER, DATE, CHOICE, BOOL = "text", "number", "date", "choice", "bool"
GRAINS = ("day", "week", "month", "quarter", "year")
AGGREGATES = ("sum", "count", "count_distinct", "avg", "min", "max")
GRAIN_LABELS = {
    "day": _("day"),
    "week": _("week"),
    "month": _("month"),
    "quarter": _("quarter"),
    "year": _("year"),
}
AGGREGATE_LABELS = {
    "sum": _("sum"),
    "count": _("count"),
    "count_distinct": _("distinct count"),
    "avg": _("average"),
    "min": _("minimum"),
    "max": _("maximum"),
}


@dataclass(frozen=True)
class Dimension:
    name: str
    label: Promise
    path: str
    kind: str = TEXT
    # For kind CHOICE: the model field whose choices give the values and their labels.
    choices_of: tuple[str, str] | None = None

    def choices(self) -> list[tuple[str, str]]:
        if not self.choices_of:
            return []
        model_name, field_name = self.choices_of
        model_field = apps.get_model(model_name)._meta.get_field(field_name)
        return [(value, str(label)) for value, label in model_field.choices]


@dataclass(frozen=True)
class Measure:
    name: str
    label: Promise
    # A path or an expression factory (for a computed figure such as an amount).
    path: str | None = None
    expression: object = None
    aggregates: tuple[str, ...] = AGGREGATES
    # A price or an amount: only for users who may see prices (apps/common/prices.py).
    price: bool = False

    def expr(self):
        if self.expression is not None:
            return self.expression()
        return F(self.path)


@dataclass(frozen=True)
class Dataset:
    name: str
    label: Promise
    model: str
    permission: str
    dimensions: tuple[Dimension, ...]
    measures: tuple[Measure, ...]
    # Columns listed when a cell is opened (drill-down): (key, label, path).
    detail: tuple[tuple[str, Promise, str], ...]
    # Drill-down columns that show a price (left out for users who may not see prices).
    price_detail: frozenset[str] = frozenset()
    supplier_scope: str | None = None
    base_filter: Q = field(default_factory=Q)

    def queryset(self) -> QuerySet:
        return apps.get_model(self.model).objects.filter(self.base_filter)

    def dimension(self, name: str) -> Dimension | None:
        return next((d for d in self.dimensions if d.name == name), None)

    def measure(self, name: str) -> Measure | None:
        return next((m for m in self.measures if m.name == name), None)


COUNT = Measure("id", _("records"), path="id", aggregates=("count",))
_DEC = DecimalField(max_digits=20, decimal_places=3)


def _amount(quantity: str, price: str):
    def build():
        return ExpressionWrapper(F(quantity) * Coalesce(F(price), Value(Decimal("0"))), output_field=_DEC)

    return build


def _remaining_kg():
    # remaining = original x (1 - loss rate) - used, the weight balance of apps/eudr/selectors.py.
    return ExpressionWrapper(
        F("original_kg") * (Value(Decimal("1")) - Coalesce(F("loss_rate_percent"), Value(Decimal("0"))) / 100)
        - F("used_kg"),
        output_field=_DEC,
    )


_PRODUCT_DIMENSIONS = (
    Dimension("product", _("article number"), "product__article_number"),
    Dimension("product_name", _("product"), "product__name"),
    Dimension("product_group", _("product group"), "product__group__name"),
)

DATASETS: tuple[Dataset, ...] = (
    Dataset(
        name="cartons",
        label=_("Carton labels"),
        model="eudr.CartonLabel",
        permission="eudr.view_cartonlabel",
        supplier_scope="raw_material__parent_vendor",
        dimensions=(
            Dimension("created_at", _("issued on"), "created_at", DATE),
            Dimension("status", _("status"), "status", CHOICE, ("eudr.CartonLabel", "status")),
            Dimension("parent_vendor", _("parent vendor"), "raw_material__parent_vendor__name"),
            Dimension("raw_material", _("raw-material delivery"), "raw_material__delivery_number"),
            Dimension("country", _("country of production"), "raw_material__country_code"),
            Dimension("purchase_order", _("purchase order"), "purchase_order"),
            Dimension("container", _("container"), "container"),
            Dimension("production_batch_code", _("production batch code"), "production_batch_code"),
            Dimension("net_weight", _("net weight (kg)"), "net_weight_kg", NUMBER),
            *_PRODUCT_DIMENSIONS,
        ),
        measures=(COUNT, Measure("net_weight_kg", _("net weight (kg)"), path="net_weight_kg")),
        detail=(
            ("code", _("code"), "code"),
            ("production_batch_code", _("production batch code"), "production_batch_code"),
            ("batch_sequence", _("batch sequence"), "batch_sequence"),
            ("article_number", _("article number"), "article_number"),
            ("purchase_order", _("purchase order"), "purchase_order"),
            ("net_weight_kg", _("net weight (kg)"), "net_weight_kg"),
            ("status", _("status"), "status"),
            ("created_at", _("issued on"), "created_at"),
        ),
    ),
    Dataset(
        name="purchase_lines",
        label=_("Purchase order lines"),
        model="purchaseorders.PurchaseOrderLine",
        permission="purchaseorders.view_purchaseorder",
        supplier_scope="order__supplier__parent_vendor",
        dimensions=(
            Dimension("order_date", _("order date"), "order__order_date", DATE),
            Dimension("promise_date", _("promise date"), "order__promise_date", DATE),
            # the line's own delivery date; empty when the order's promise date applies to it
            Dimension("delivery_date", _("delivery date"), "delivery_date", DATE),
            Dimension(
                "status", _("status"), "order__status", CHOICE, ("purchaseorders.PurchaseOrder", "status")
            ),
            Dimension("order_number", _("order number"), "order__order_number"),
            Dimension("supplier", _("supplier"), "order__supplier__name"),
            Dimension("parent_vendor", _("parent vendor"), "order__supplier__parent_vendor__name"),
            Dimension("currency", _("currency"), "order__currency"),
            *_PRODUCT_DIMENSIONS,
        ),
        measures=(
            COUNT,
            Measure("order_qty", _("ordered quantity"), path="order_qty"),
            Measure("received_qty", _("received quantity"), path="received_qty"),
            Measure("amount", _("amount"), expression=_amount("order_qty", "unit_cost"), price=True),
        ),
        detail=(
            ("order_number", _("order number"), "order__order_number"),
            ("line_number", _("line number"), "line_number"),
            ("product_number", _("product number"), "product_number"),
            ("delivery_date", _("delivery date"), "delivery_date"),
            ("order_qty", _("ordered quantity"), "order_qty"),
            ("received_qty", _("received quantity"), "received_qty"),
            ("unit_cost", _("unit cost"), "unit_cost"),
        ),
        price_detail=frozenset({"unit_cost"}),
    ),
    Dataset(
        name="receipts",
        label=_("Purchase receipts"),
        model="purchaseorders.ReceiptLine",
        permission="purchaseorders.view_receipt",
        supplier_scope="order_line__order__supplier__parent_vendor",
        dimensions=(
            Dimension("receipt_date", _("receipt date"), "receipt__receipt_date", DATE),
            Dimension("warehouse", _("warehouse"), "receipt__warehouse__name"),
            Dimension("order_number", _("order number"), "order_line__order__order_number"),
            Dimension("supplier", _("supplier"), "order_line__order__supplier__name"),
            Dimension(
                "parent_vendor", _("parent vendor"), "order_line__order__supplier__parent_vendor__name"
            ),
            Dimension("product", _("article number"), "order_line__product__article_number"),
            Dimension("product_group", _("product group"), "order_line__product__group__name"),
        ),
        measures=(COUNT, Measure("quantity", _("quantity"), path="quantity")),
        detail=(
            ("receipt_number", _("receipt number"), "receipt__receipt_number"),
            ("receipt_date", _("receipt date"), "receipt__receipt_date"),
            ("order_number", _("order number"), "order_line__order__order_number"),
            ("product_number", _("product number"), "order_line__product_number"),
            ("quantity", _("quantity"), "quantity"),
        ),
    ),
    Dataset(
        name="stock",
        label=_("Stock"),
        model="inventory.Stock",
        permission="inventory.view_stock",
        dimensions=(
            Dimension("warehouse", _("warehouse"), "location__warehouse__name"),
            Dimension("location", _("location"), "location__code"),
            *_PRODUCT_DIMENSIONS,
        ),
        measures=(
            COUNT,
            Measure("quantity", _("quantity on hand"), path="quantity"),
            Measure(
                "value",
                _("stock value"),
                expression=_amount("quantity", "product__purchase_price"),
                price=True,
            ),
        ),
        detail=(
            ("warehouse", _("warehouse"), "location__warehouse__code"),
            ("location", _("location"), "location__code"),
            ("product", _("article number"), "product__article_number"),
            ("quantity", _("quantity on hand"), "quantity"),
        ),
    ),
    Dataset(
        name="stock_moves",
        label=_("Stock moves"),
        model="inventory.StockMove",
        permission="inventory.view_stockmove",
        dimensions=(
            Dimension("moved_at", _("moved on"), "moved_at", DATE),
            Dimension("kind", _("kind"), "kind", CHOICE, ("inventory.StockMove", "kind")),
            Dimension("from_warehouse", _("from warehouse"), "from_location__warehouse__name"),
            Dimension("to_warehouse", _("to warehouse"), "to_location__warehouse__name"),
            Dimension("reference", _("reference"), "reference"),
            *_PRODUCT_DIMENSIONS,
        ),
        measures=(COUNT, Measure("quantity", _("quantity"), path="quantity")),
        detail=(
            ("moved_at", _("moved on"), "moved_at"),
            ("kind", _("kind"), "kind"),
            ("product", _("article number"), "product__article_number"),
            ("quantity", _("quantity"), "quantity"),
            ("reference", _("reference"), "reference"),
        ),
    ),
    Dataset(
        name="raw_materials",
        label=_("Raw-material deliveries"),
        model="eudr.RawMaterialDelivery",
        permission="eudr.view_rawmaterialdelivery",
        supplier_scope="parent_vendor",
        base_filter=~Q(status="draft"),
        dimensions=(
            Dimension("created_at", _("registered on"), "created_at", DATE),
            Dimension("certificate_expiry", _("FM certificate expiry"), "fm_certificate_expiry", DATE),
            Dimension("coc_certificate_expiry", _("COC certificate expiry"), "coc_certificate_expiry", DATE),
            Dimension("status", _("status"), "status", CHOICE, ("eudr.RawMaterialDelivery", "status")),
            Dimension("parent_vendor", _("parent vendor"), "parent_vendor__name"),
            Dimension("delivery_number", _("delivery number"), "delivery_number"),
            Dimension("country", _("country of production"), "country_code"),
            Dimension(
                "fm_certification_type",
                _("FM certification type"),
                "fm_certification_type",
                CHOICE,
                ("eudr.RawMaterialDelivery", "fm_certification_type"),
            ),
        ),
        measures=(
            COUNT,
            Measure("original_kg", _("original weight (kg)"), path="original_kg"),
            Measure("used_kg", _("used weight (kg)"), path="used_kg"),
            Measure("remaining_kg", _("remaining weight (kg)"), expression=_remaining_kg),
            Measure("issued_cartons", _("issued cartons"), path="issued_cartons"),
        ),
        detail=(
            ("delivery_number", _("delivery number"), "delivery_number"),
            ("parent_vendor", _("parent vendor"), "parent_vendor__name"),
            ("status", _("status"), "status"),
            ("original_kg", _("original weight (kg)"), "original_kg"),
            ("used_kg", _("used weight (kg)"), "used_kg"),
            ("fm_certificate_expiry", _("FM certificate expiry"), "fm_certificate_expiry"),
        ),
    ),
    Dataset(
        name="sales_lines",
        label=_("Sales order lines"),
        model="salesorders.SalesOrderLine",
        permission="salesorders.view_salesorder",
        base_filter=~Q(order__status="cancelled"),
        dimensions=(
            Dimension("order_date", _("order date"), "order__order_date", DATE),
            Dimension("requested_date", _("requested delivery date"), "requested_date", DATE),
            Dimension("status", _("status"), "order__status", CHOICE, ("salesorders.SalesOrder", "status")),
            Dimension("order_number", _("order number"), "order__order_number"),
            Dimension("customer", _("customer"), "order__customer__name"),
            Dimension("customer_country", _("customer's country"), "order__customer__billing_country"),
            Dimension("currency", _("currency"), "order__currency"),
            *_PRODUCT_DIMENSIONS,
        ),
        measures=(
            COUNT,
            Measure("quantity", _("ordered quantity"), path="quantity"),
            Measure("quantity_shipped", _("shipped quantity"), path="quantity_shipped"),
            Measure("quantity_invoiced", _("invoiced quantity"), path="quantity_invoiced"),
            Measure("amount_net", _("net amount"), path="amount_net", price=True),
        ),
        detail=(
            ("order_number", _("order number"), "order__order_number"),
            ("customer", _("customer"), "order__customer__name"),
            ("product", _("article number"), "product__article_number"),
            ("quantity", _("ordered quantity"), "quantity"),
            ("quantity_shipped", _("shipped quantity"), "quantity_shipped"),
            ("amount_net", _("net amount"), "amount_net"),
        ),
        price_detail=frozenset({"amount_net"}),
    ),
    Dataset(
        name="invoices",
        label=_("Invoices and credit notes"),
        model="salesorders.Invoice",
        permission="salesorders.view_invoice",
        base_filter=Q(status="posted"),
        dimensions=(
            Dimension("issue_date", _("issue date"), "issue_date", DATE),
            Dimension("due_date", _("due date"), "due_date", DATE),
            Dimension("kind", _("kind"), "kind", CHOICE, ("salesorders.Invoice", "kind")),
            Dimension("customer", _("customer"), "customer__name"),
            Dimension("currency", _("currency"), "currency"),
            Dimension("number", _("number"), "number"),
        ),
        measures=(
            COUNT,
            Measure("total_net", _("net total"), path="total_net", price=True),
            Measure("total_vat", _("VAT total"), path="total_vat", price=True),
            Measure("total_gross", _("gross total"), path="total_gross", price=True),
            Measure("amount_paid", _("amount paid"), path="amount_paid", price=True),
        ),
        detail=(
            ("number", _("number"), "number"),
            ("issue_date", _("issue date"), "issue_date"),
            ("customer", _("customer"), "customer__name"),
            ("total_gross", _("gross total"), "total_gross"),
            ("amount_paid", _("amount paid"), "amount_paid"),
        ),
        price_detail=frozenset({"total_gross", "amount_paid"}),
    ),
    Dataset(
        name="shipments",
        label=_("Sales shipment lines"),
        model="salesorders.ShipmentLine",
        permission="salesorders.view_shipment",
        dimensions=(
            Dimension("planned_date", _("planned date"), "shipment__planned_date", DATE),
            Dimension("shipped_at", _("shipped on"), "shipment__shipped_at", DATE),
            Dimension("status", _("status"), "shipment__status", CHOICE, ("salesorders.Shipment", "status")),
            Dimension("customer", _("customer"), "shipment__sales_order__customer__name"),
            Dimension("warehouse", _("warehouse"), "shipment__warehouse__name"),
            Dimension("carrier", _("carrier"), "shipment__carrier"),
            Dimension("product", _("article number"), "order_line__product__article_number"),
            Dimension("product_group", _("product group"), "order_line__product__group__name"),
        ),
        measures=(
            COUNT,
            Measure("quantity", _("quantity"), path="quantity"),
            Measure("shipments", _("shipments"), path="shipment_id", aggregates=("count_distinct",)),
        ),
        detail=(
            ("shipment_number", _("shipment number"), "shipment__shipment_number"),
            ("status", _("status"), "shipment__status"),
            ("customer", _("customer"), "shipment__sales_order__customer__name"),
            ("product", _("article number"), "order_line__product__article_number"),
            ("quantity", _("quantity"), "quantity"),
        ),
    ),
)


def dataset_named(name: str) -> Dataset | None:
    return next((d for d in DATASETS if d.name == name), None)
