"""Purchase orders (what carton factories produce against), their lines, and goods receipts.

Status rules and totals are decided in services.py (docs/purchasing.md describes them).
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel

CURRENCY_VALIDATOR = RegexValidator(r"^[A-Z]{3}$", _("Enter a three-letter ISO 4217 currency code."))


class PurchaseOrder(TenantModel):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        CONFIRMED = "confirmed", _("Confirmed")
        SENT = "sent", _("Sent")
        PARTLY_RECEIVED = "partly_received", _("Partly received")
        RECEIVED = "received", _("Received")
        CLOSED = "closed", _("Closed")
        CANCELLED = "cancelled", _("Cancelled")

    class Type(models.TextChoices):
        STANDARD = "standard", _("Standard")
        BLANKET = "blanket", _("Blanket")
        SAMPLE = "sample", _("Sample")

    order_number = models.CharField(_("order number"), max_length=50)
    order_date = models.DateField(_("order date"))
    supplier = models.ForeignKey(
        "suppliers.Supplier", on_delete=models.PROTECT, related_name="purchase_orders"
    )
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[CURRENCY_VALIDATOR])
    total_amount = models.DecimalField(
        _("total amount"), max_digits=14, decimal_places=2, default=Decimal("0")
    )
    description = models.CharField(_("description"), max_length=500, blank=True)
    type = models.CharField(_("type"), max_length=20, choices=Type.choices, default=Type.STANDARD)
    promise_date = models.DateField(_("promise date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "supplier__parent_vendor"
    # a draft is not the supplier's yet: not in the portal, its comments or the dashboard counts
    supplier_exclude = {"status": "draft"}

    class Meta:
        verbose_name = _("purchase order")
        verbose_name_plural = _("purchase orders")
        ordering = ["-order_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "order_number"], name="purchaseorder_tenant_number_unique"
            )
        ]
        indexes = [
            tenant_ordering_index("purchaseorder_tenant_status", "status"),
            # the list's default order (newest order date first), read backwards: docs/performance.md
            tenant_ordering_index("purchaseorder_tenant_date", "order_date"),
            tenant_ordering_index("purchaseorder_tenant_promise", "promise_date"),
            tenant_ordering_index("purchaseorder_tenant_total", "total_amount"),
            tenant_ordering_index("purchaseorder_tenant_type", "type"),
            tenant_ordering_index("purchaseorder_tenant_currency", "currency"),
            tenant_ordering_index("purchaseorder_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.order_number

    @property
    def lines_editable(self) -> bool:
        return self.status in EDITABLE_STATUSES

    @property
    def receivable(self) -> bool:
        return self.status in RECEIVABLE_STATUSES


# docs/purchasing.md, "Lifecycle". Header and lines change until the order is received, closed or
# cancelled; goods are received (and cartons labelled, and the supplier portal shows the order) only once
# it is confirmed.
EDITABLE_STATUSES = ("draft", "confirmed", "sent", "partly_received")
RECEIVABLE_STATUSES = ("confirmed", "sent", "partly_received")
# what the supplier portal, carton labels and the warehouse see: every status but draft
RELEASED_STATUSES = ("confirmed", "sent", "partly_received", "received", "closed", "cancelled")
# the orders still expecting goods ("open" on the dashboard)
OPEN_STATUSES = RECEIVABLE_STATUSES


class PurchaseOrderLine(TenantModel):
    """One product on a purchase order. `weight_per_carton` (kg) is what EUDR carton labels consume."""

    order = models.ForeignKey(PurchaseOrder, on_delete=models.CASCADE, related_name="lines")
    line_number = models.PositiveIntegerField(_("line number"))
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="purchase_lines")
    product_number = models.CharField(_("product number"), max_length=64)
    line_description = models.CharField(_("line description"), max_length=500, blank=True)
    order_qty = models.DecimalField(
        _("order quantity"),
        max_digits=14,
        decimal_places=3,
        validators=[MinValueValidator(Decimal("0.001"))],
    )
    unit_cost = models.DecimalField(
        _("unit cost"), max_digits=14, decimal_places=4, validators=[MinValueValidator(Decimal("0"))]
    )
    weight_per_carton = models.DecimalField(
        _("weight per carton (kg)"),
        max_digits=10,
        decimal_places=3,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    received_qty = models.DecimalField(_("received quantity"), max_digits=14, decimal_places=3, default=0)
    # The day the supplier is asked to deliver this line; empty: the order's promise date applies
    # (docs/purchasing.md, "Lines").
    delivery_date = models.DateField(_("delivery date"), null=True, blank=True)
    # The line's active carton labels, kept by the EUDR services that issue and void them, under the
    # line's row lock (docs/performance.md, "Purchase order list: cartons issued").
    cartons_issued = models.PositiveIntegerField(_("issued cartons"), default=0, editable=False)

    supplier_scope = "order__supplier__parent_vendor"

    class Meta:
        verbose_name = _("purchase order line")
        verbose_name_plural = _("purchase order lines")
        ordering = ["order_id", "line_number"]
        constraints = [
            models.UniqueConstraint(fields=["order", "line_number"], name="purchaseorderline_order_number"),
            models.CheckConstraint(
                condition=models.Q(order_qty__gt=0), name="purchaseorderline_qty_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(received_qty__gte=0), name="purchaseorderline_received_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.order_id}/{self.line_number} {self.product_number}"

    @property
    def amount(self) -> Decimal:
        return (self.order_qty * self.unit_cost).quantize(Decimal("0.01"))

    @property
    def open_qty(self) -> Decimal:
        return max(self.order_qty - self.received_qty, Decimal("0"))


class Receipt(TenantModel):
    """Goods received against one purchase order into a warehouse (its receiving location)."""

    receipt_number = models.CharField(_("receipt number"), max_length=50)
    purchase_order = models.ForeignKey(PurchaseOrder, on_delete=models.PROTECT, related_name="receipts")
    warehouse = models.ForeignKey("inventory.Warehouse", on_delete=models.PROTECT, related_name="receipts")
    receipt_date = models.DateField(_("receipt date"))
    note = models.CharField(_("note"), max_length=500, blank=True)
    over_receipt = models.BooleanField(_("over-receipt allowed"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    supplier_scope = "purchase_order__supplier__parent_vendor"

    class Meta:
        verbose_name = _("receipt")
        verbose_name_plural = _("receipts")
        ordering = ["-receipt_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "receipt_number"], name="receipt_tenant_number_unique")
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("receipt_tenant_date", "receipt_date"),
            tenant_ordering_index("receipt_tenant_created", "created_at"),
        ]
        permissions = [("allow_over_receipt", _("Can receive more than ordered"))]

    def __str__(self) -> str:
        return self.receipt_number


class ReceiptLine(TenantModel):
    receipt = models.ForeignKey(Receipt, on_delete=models.CASCADE, related_name="lines")
    order_line = models.ForeignKey(PurchaseOrderLine, on_delete=models.PROTECT, related_name="receipt_lines")
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3)
    stock_move = models.OneToOneField(
        "inventory.StockMove", null=True, blank=True, on_delete=models.PROTECT, related_name="receipt_line"
    )

    class Meta:
        verbose_name = _("receipt line")
        verbose_name_plural = _("receipt lines")
        ordering = ["receipt_id", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="receiptline_quantity_positive"),
            models.UniqueConstraint(fields=["receipt", "order_line"], name="receiptline_receipt_order_line"),
        ]

    def __str__(self) -> str:
        return f"{self.receipt_id}: {self.quantity}"


def supplier_invoice_path(instance: "SupplierInvoice", filename: str) -> str:
    import uuid
    from pathlib import PurePath

    from apps.tenancy.files import tenant_prefix

    suffix = PurePath(filename).suffix.lower()[:10]
    return f"{tenant_prefix(instance)}/supplier-invoices/{uuid.uuid4().hex}{suffix}"


class MatchStatus(models.TextChoices):
    """The 3-way match of a supplier invoice line (ordered, received, invoiced) and of the invoice (its
    worst line): docs/purchasing.md, "Supplier invoices"."""

    MATCHED = "matched", _("Matched")
    QUANTITY_MISMATCH = "quantity_mismatch", _("Quantity mismatch")
    PRICE_MISMATCH = "price_mismatch", _("Price mismatch")
    NOT_RECEIVED = "not_received", _("Not received")
    UNMATCHED = "unmatched", _("Unmatched")


class SupplierInvoice(TenantModel):
    """A supplier's e-invoice (or credit note) read from its UBL / CII / Factur-X file, matched to the
    supplier and the purchase order it names."""

    class Kind(models.TextChoices):
        INVOICE = "invoice", _("Invoice")
        CREDIT_NOTE = "credit_note", _("Credit note")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    class Syntax(models.TextChoices):
        UBL = "ubl", _("UBL")
        CII = "cii", _("CII")
        FACTURX_PDF = "facturx_pdf", _("Factur-X PDF")

    supplier = models.ForeignKey(
        "suppliers.Supplier",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="supplier_invoices",
    )
    purchase_order = models.ForeignKey(
        PurchaseOrder, null=True, blank=True, on_delete=models.PROTECT, related_name="supplier_invoices"
    )
    invoice_number = models.CharField(_("invoice number"), max_length=100)
    kind = models.CharField(_("type"), max_length=20, choices=Kind.choices, default=Kind.INVOICE)
    issue_date = models.DateField(_("issue date"))
    due_date = models.DateField(_("due date"), null=True, blank=True)
    currency = models.CharField(_("currency"), max_length=3)
    total_net = models.DecimalField(_("total without VAT"), max_digits=16, decimal_places=2)
    total_vat = models.DecimalField(_("total VAT"), max_digits=16, decimal_places=2)
    total_gross = models.DecimalField(_("total with VAT"), max_digits=16, decimal_places=2)
    seller_name = models.CharField(_("seller name"), max_length=200)
    seller_vat_id = models.CharField(_("seller VAT number"), max_length=50, blank=True)
    order_reference = models.CharField(_("order reference"), max_length=100, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    match_status = models.CharField(
        _("match"), max_length=20, choices=MatchStatus.choices, default=MatchStatus.UNMATCHED
    )
    decision_reason = models.CharField(_("reason"), max_length=500, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    syntax = models.CharField(_("format"), max_length=20, choices=Syntax.choices)
    original_file = models.FileField(upload_to=supplier_invoice_path, max_length=300)
    original_filename = models.CharField(_("file name"), max_length=255, blank=True)
    # what the file breaks when read (the XSD of its syntax, the EN 16931 rules): [{"rule", "message"}],
    # the messages in English (docs/purchasing.md, "Supplier invoices")
    einvoice_findings = models.JSONField(_("e-invoice findings"), default=list, db_default=[], blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("supplier invoice")
        verbose_name_plural = _("supplier invoices")
        ordering = ["-issue_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "supplier", "invoice_number"],
                condition=models.Q(supplier__isnull=False),
                name="supplierinvoice_supplier_number_unique",
            ),
            models.UniqueConstraint(
                fields=["tenant", "seller_name", "invoice_number"],
                condition=models.Q(supplier__isnull=True),
                name="supplierinvoice_seller_number_unique",
            ),
        ]
        indexes = [
            tenant_ordering_index("supplierinvoice_tenant_issue", "issue_date"),
            tenant_ordering_index("supplierinvoice_tenant_due", "due_date"),
            tenant_ordering_index("supplierinvoice_tenant_number", "invoice_number"),
            tenant_ordering_index("supplierinvoice_tenant_gross", "total_gross"),
            tenant_ordering_index("supplierinvoice_tenant_status", "status"),
            tenant_ordering_index("supplierinvoice_tenant_match", "match_status"),
            tenant_ordering_index("supplierinvoice_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.invoice_number


class SupplierInvoiceLine(TenantModel):
    invoice = models.ForeignKey(SupplierInvoice, on_delete=models.CASCADE, related_name="lines")
    line_id = models.CharField(_("line"), max_length=50, blank=True)
    description = models.CharField(_("description"), max_length=500, blank=True)
    seller_item_id = models.CharField(_("seller's article number"), max_length=100, blank=True)
    order_line_reference = models.CharField(_("order line reference"), max_length=50, blank=True)
    quantity = models.DecimalField(_("quantity"), max_digits=18, decimal_places=3)
    unit_code = models.CharField(_("unit"), max_length=10, blank=True)
    net_price = models.DecimalField(_("net price"), max_digits=18, decimal_places=4)
    line_net = models.DecimalField(_("net amount"), max_digits=16, decimal_places=2)
    vat_category = models.CharField(_("VAT category"), max_length=10, blank=True)
    vat_rate = models.DecimalField(_("VAT rate"), max_digits=6, decimal_places=2, null=True, blank=True)
    order_line = models.ForeignKey(
        PurchaseOrderLine,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="supplier_invoice_lines",
    )

    class Meta:
        verbose_name = _("supplier invoice line")
        verbose_name_plural = _("supplier invoice lines")
        ordering = ["invoice_id", "id"]

    def __str__(self) -> str:
        return f"{self.invoice_id}/{self.line_id}"
