"""Sales reads: list querysets (annotated, so lists run a fixed number of queries), payment status,
the delivery schedule and the EUDR references of the cartons on shipments."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Count,
    DecimalField,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from apps.salesorders.models import (
    Invoice,
    InvoiceLine,
    SalesOrder,
    SalesOrderLine,
    SalesQuotation,
    SalesQuotationLine,
    Shipment,
    ShipmentCarton,
    ShipmentLine,
)

ZERO = Decimal("0")
QTY = DecimalField(max_digits=16, decimal_places=3)
MONEY = DecimalField(max_digits=16, decimal_places=2)


def _order_line_sum(field: str):
    sums = (
        SalesOrderLine.objects.filter(order=OuterRef("pk"))
        .order_by()
        .values("order")
        .annotate(total=Sum(field))
        .values("total")
    )
    return Coalesce(Subquery(sums, output_field=QTY), ZERO, output_field=QTY)


def order_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Orders with customer, owner and warehouse joined, plus the lines' count and quantities: one query
    for any page size. The totals are subqueries per listed order, not a join with GROUP BY, so the page
    is read in the order of an index (tenant, <ordering>, id) and only its rows' lines are added up
    (docs/performance.md, "Indexes for the list orderings")."""
    queryset = SalesOrder.objects.all() if queryset is None else queryset
    lines_count = (
        SalesOrderLine.objects.filter(order=OuterRef("pk"))
        .order_by()
        .values("order")
        .annotate(n=Count("pk"))
        .values("n")
    )
    quotation = SalesQuotation.objects.filter(sales_order=OuterRef("pk"))
    return queryset.select_related("customer", "owner", "warehouse").annotate(
        lines_count=Coalesce(Subquery(lines_count, output_field=IntegerField()), 0),
        quotation_id=Subquery(quotation.values("pk")[:1], output_field=IntegerField()),
        quotation_number=Subquery(quotation.values("quotation_number")[:1], output_field=CharField()),
        ordered_qty=_order_line_sum("quantity"),
        shipped_qty=_order_line_sum("quantity_shipped"),
        invoiced_qty=_order_line_sum("quantity_invoiced"),
    )


def order_lines_queryset() -> QuerySet:
    return SalesOrderLine.objects.select_related("product").order_by("line_number")


def shipment_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Shipments with order, customer and warehouse joined, plus the lines' count and quantity and the
    cartons' count: subqueries per listed shipment, not a join with GROUP BY, so the page is read in the
    order of an index (tenant, <ordering>, id) (docs/performance.md, "Indexes for the list orderings")."""
    queryset = Shipment.objects.all() if queryset is None else queryset
    cartons = (
        ShipmentCarton.objects.filter(shipment=OuterRef("pk"))
        .values("shipment")
        .annotate(n=Count("pk"))
        .values("n")
    )
    lines = ShipmentLine.objects.filter(shipment=OuterRef("pk")).order_by().values("shipment")
    return queryset.select_related("sales_order__customer", "warehouse").annotate(
        lines_count=Coalesce(
            Subquery(lines.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0
        ),
        total_qty=Coalesce(Subquery(lines.annotate(s=Sum("quantity")).values("s")), ZERO, output_field=QTY),
        cartons_count=Coalesce(Subquery(cartons), 0),
    )


def shipment_lines_queryset() -> QuerySet:
    """The shipment's lines with `labelled` (the product carries EUDR carton labels: it ships as picked
    cartons) and `cartons_picked` (the cartons on the line)."""
    from apps.eudr.models import CartonLabel

    picked = (
        ShipmentCarton.objects.filter(shipment_line=OuterRef("pk"))
        .order_by()
        .values("shipment_line")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        ShipmentLine.objects.select_related("order_line__product")
        .annotate(
            labelled=Exists(
                CartonLabel.objects.filter(
                    product_id=OuterRef("order_line__product_id"), status=CartonLabel.Status.ACTIVE
                )
            ),
            cartons_picked=Coalesce(Subquery(picked, output_field=IntegerField()), 0),
        )
        .order_by("order_line__line_number", "id")
    )


def invoice_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    queryset = Invoice.objects.all() if queryset is None else queryset
    credited = (
        Invoice.objects.filter(credited_invoice=OuterRef("pk"), status=Invoice.Status.POSTED)
        .values("credited_invoice")
        .annotate(s=Sum("total_gross"))
        .values("s")
    )
    return queryset.select_related("sales_order", "customer", "credited_invoice").annotate(
        credited_amount=Coalesce(Subquery(credited, output_field=MONEY), ZERO, output_field=MONEY),
    )


def payment_status(invoice: Invoice, today: date | None = None) -> str:
    """draft; for a posted invoice: credited (credit notes cover all of it), paid, partially_paid,
    overdue (due date passed, not paid), open; a credit note: credit_note."""
    if invoice.status == Invoice.Status.DRAFT:
        return "draft"
    if invoice.kind == Invoice.Kind.CREDIT_NOTE:
        return "credit_note"
    credited = getattr(invoice, "credited_amount", None)
    if credited is None:
        credited = (
            Invoice.objects.filter(credited_invoice=invoice, status=Invoice.Status.POSTED).aggregate(
                s=Sum("total_gross")
            )["s"]
            or ZERO
        )
    open_amount = invoice.total_gross - credited - invoice.amount_paid
    if credited > 0 and credited >= invoice.total_gross:
        return "credited"
    if open_amount <= 0:
        return "paid"
    today = today or timezone.localdate()
    if invoice.due_date and invoice.due_date < today:
        return "overdue"
    if invoice.amount_paid > 0:
        return "partially_paid"
    return "open"


def invoices_filter_payment_status(queryset: QuerySet, value: str) -> QuerySet:
    """Filters an invoice_list_queryset by payment status (same rules as payment_status)."""
    today = timezone.localdate()
    open_expr = ExpressionWrapper(
        F("total_gross") - F("credited_amount") - F("amount_paid"), output_field=MONEY
    )
    queryset = queryset.annotate(open_amount=open_expr)
    posted = Q(status=Invoice.Status.POSTED, kind=Invoice.Kind.INVOICE)
    if value == "draft":
        return queryset.filter(status=Invoice.Status.DRAFT)
    if value == "credit_note":
        return queryset.filter(status=Invoice.Status.POSTED, kind=Invoice.Kind.CREDIT_NOTE)
    fully_credited = Q(credited_amount__gt=0, credited_amount__gte=F("total_gross"))
    if value == "credited":
        return queryset.filter(posted).filter(fully_credited)
    queryset = queryset.exclude(posted & fully_credited) if value != "unpaid" else queryset
    if value == "paid":
        return queryset.filter(posted, open_amount__lte=0)
    if value == "overdue":
        return queryset.filter(posted, open_amount__gt=0, due_date__lt=today)
    if value == "partially_paid":
        return queryset.filter(posted, open_amount__gt=0, amount_paid__gt=0).exclude(due_date__lt=today)
    if value == "open":
        return queryset.filter(posted, open_amount__gt=0, amount_paid__lte=0).exclude(due_date__lt=today)
    if value == "unpaid":
        return queryset.filter(posted, open_amount__gt=0)
    return queryset


def invoice_lines_queryset() -> QuerySet:
    return InvoiceLine.objects.select_related("product", "order_line").order_by("id")


# -- delivery schedule ------------------------------------------------------------------------------------

OPEN_ORDER_STATUSES = [
    SalesOrder.Status.CONFIRMED,
    SalesOrder.Status.PARTIALLY_SHIPPED,
    SalesOrder.Status.PARTIALLY_INVOICED,
]


def delivery_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Order lines of confirmed orders still to ship, with `due_date` (confirmed, else requested, else the
    order date), `open_qty`, `planned_quantity` (on unshipped shipments), `planned_date` (the
    earliest planned date of those shipments) and `is_late` (due before today)."""
    queryset = SalesOrderLine.objects.all() if queryset is None else queryset
    today = timezone.localdate()
    pending = ShipmentLine.objects.filter(
        order_line=OuterRef("pk"), shipment__status__in=[Shipment.Status.DRAFT, Shipment.Status.PICKED]
    )
    planned_qty = pending.values("order_line").annotate(s=Sum("quantity")).values("s")
    planned_date = (
        pending.exclude(shipment__planned_date=None)
        .order_by("shipment__planned_date")
        .values("shipment__planned_date")[:1]
    )
    return (
        queryset.filter(order__status__in=OPEN_ORDER_STATUSES, quantity__gt=F("quantity_shipped"))
        .select_related("order__customer", "order__warehouse", "product")
        .annotate(
            due_date=Coalesce("confirmed_date", "requested_date", "order__order_date"),
            open_qty=ExpressionWrapper(
                Greatest(F("quantity") - F("quantity_shipped"), ZERO), output_field=QTY
            ),
            planned_quantity=Coalesce(Subquery(planned_qty, output_field=QTY), ZERO, output_field=QTY),
            planned_date=Subquery(planned_date),
        )
        .annotate(
            is_late=Case(When(due_date__lt=today, then=Value(True)), default=Value(False)),
            schedule_status=Case(
                When(due_date__lt=today, then=Value("late")),
                When(planned_quantity__gte=F("open_qty"), then=Value("planned")),
                default=Value("open"),
                output_field=CharField(),
            ),
        )
    )


# -- EUDR references of shipped cartons ------------------------------------------------------------------------


def shipment_cartons_by_line(shipment: Shipment) -> dict[int, list[ShipmentCarton]]:
    """The shipment's cartons per shipment line, each with its raw-material delivery loaded."""
    result: dict[int, list[ShipmentCarton]] = {}
    for item in (
        ShipmentCarton.objects.filter(shipment=shipment)
        .select_related("carton__raw_material")
        .order_by("carton__production_batch_code", "carton__batch_sequence")
    ):
        result.setdefault(item.shipment_line_id, []).append(item)
    return result


def dds_references(shipment_ids) -> list[dict[str, Any]]:
    """The due diligence statements behind the cartons on the shipments, per statement, with the cartons
    each covers (apps/eudr/placing.statements_of_labels; docs/eudr.md, "Statements around the placing").

    `kind` says whose statement it is: `own` (ours covers the cartons' placing: reference and
    verification numbers, what the buyer needs), `pending` (ours is filed, its numbers not yet given),
    `upstream` (only another operator's statement is known: its reference number only; another
    operator's verification number is never printed, it opens that operator's whole statement and is not
    ours to pass on) or `none` (no statement of ours covers them yet: shipped as the company allows)."""
    from apps.eudr.placing import statements_of_labels
    from apps.salesorders.models import ShipmentCarton

    label_ids = ShipmentCarton.objects.filter(shipment_id__in=list(shipment_ids)).values_list(
        "carton_id", flat=True
    )
    return statements_of_labels(label_ids)


def order_detail_prefetch(queryset: QuerySet) -> QuerySet:
    return queryset.prefetch_related(
        Prefetch("lines", queryset=order_lines_queryset(), to_attr="annotated_lines")
    )


# -- quotations --------------------------------------------------------------------------------------------


def quotation_list_queryset(queryset: QuerySet | None = None) -> QuerySet:
    """Quotations with customer, owner and the accepted order joined and their lines counted: one query for
    any page size (a subquery per listed row, so the page is read in the order of an index)."""
    queryset = SalesQuotation.objects.all() if queryset is None else queryset
    lines_count = (
        SalesQuotationLine.objects.filter(quotation=OuterRef("pk"))
        .order_by()
        .values("quotation")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return queryset.select_related("customer", "owner", "sales_order").annotate(
        lines_count=Coalesce(Subquery(lines_count, output_field=IntegerField()), 0)
    )


def quotation_detail_prefetch(queryset: QuerySet) -> QuerySet:
    return queryset.prefetch_related(
        Prefetch(
            "lines",
            queryset=SalesQuotationLine.objects.select_related("product").order_by("line_number"),
            to_attr="annotated_lines",
        )
    )


def quotations_filter_status(queryset: QuerySet, statuses: list[str], today: date | None = None) -> QuerySet:
    """Quotations whose shown status (`services.quotation_status`) is one of `statuses`: `expired` is a
    draft or sent quotation past its validity, and draft and sent mean those still valid."""
    today = today or timezone.localdate()
    editable = [SalesQuotation.Status.DRAFT, SalesQuotation.Status.SENT]
    condition = Q(pk__in=[])
    for status in statuses:
        if status == SalesQuotation.Status.EXPIRED:
            condition |= Q(status__in=editable, valid_until__lt=today)
        elif status in editable:
            condition |= Q(status=status, valid_until__gte=today)
        else:
            condition |= Q(status=status)
    return queryset.filter(condition)


def vat_breakdown(lines) -> list[dict]:
    """Taxable amount and VAT per VAT rate (Article 226(8) and (10))."""
    rates: dict[Decimal, dict] = {}
    for line in lines:
        row = rates.setdefault(
            line.vat_rate, {"vat_rate": line.vat_rate, "taxable": Decimal("0"), "vat": Decimal("0")}
        )
        row["taxable"] += line.amount_net
        row["vat"] += line.amount_vat
    return [rates[rate] for rate in sorted(rates)]


def order_search(text: str, limit: int) -> list:
    """Sales orders whose number contains `text`, as hits of the warehouse search (registered on start by
    SalesordersConfig.ready)."""
    from apps.inventory.selectors import SearchHit
    from apps.salesorders.models import SalesOrder

    return [
        SearchHit("sales_order", pk, number, f"/sales/orders/{pk}")
        for pk, number in SalesOrder.objects.filter(order_number__icontains=text).values_list(
            "pk", "order_number"
        )[:limit]
    ]
