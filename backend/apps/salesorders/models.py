"""Sales orders, their lines, shipments (with the cartons they carry), invoices and credit notes.

The rules (status derivation, reservations, shipping, invoice numbering) live in services/;
docs/sales.md describes them. Quantities are Decimal(14,3), money Decimal(14,2), prices Decimal(14,4).
The line counters `quantity_reserved`, `quantity_shipped` and `quantity_invoiced` are stored and only
ever changed by services (inventory reservations, shipping, invoice posting), inside the transaction that
changes what they count.
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.common.secrets import EncryptedTextField
from apps.tenancy.models import TenantModel

CURRENCY_VALIDATOR = RegexValidator(r"^[A-Z]{3}$", _("Enter a three-letter ISO 4217 currency code."))
ZERO = Decimal("0")


class Language(models.TextChoices):
    EN = "en", _("English")
    ZH = "zh", _("Chinese")


class SalesOrder(TenantModel):
    """A customer's order. Its status is derived from the line quantities (services.order_status_derive)
    after every change; only cancel and close are set by hand."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        CONFIRMED = "confirmed", _("Confirmed")
        PARTIALLY_SHIPPED = "partially_shipped", _("Partially shipped")
        SHIPPED = "shipped", _("Shipped")
        PARTIALLY_INVOICED = "partially_invoiced", _("Partially invoiced")
        INVOICED = "invoiced", _("Invoiced")
        CLOSED = "closed", _("Closed")
        CANCELLED = "cancelled", _("Cancelled")

    order_number = models.CharField(_("order number"), max_length=50)
    customer = models.ForeignKey("customers.Customer", on_delete=models.PROTECT, related_name="sales_orders")
    ship_to_name = models.CharField(_("ship-to name"), max_length=200, blank=True)
    ship_to_street = models.CharField(_("ship-to street"), max_length=200, blank=True)
    ship_to_post_code = models.CharField(_("ship-to post code"), max_length=20, blank=True)
    ship_to_city = models.CharField(_("ship-to city"), max_length=100, blank=True)
    ship_to_country = models.CharField(_("ship-to country"), max_length=2, blank=True)
    order_date = models.DateField(_("order date"))
    customer_reference = models.CharField(_("customer reference"), max_length=100, blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[CURRENCY_VALIDATOR])
    payment_terms_days = models.PositiveSmallIntegerField(
        _("payment terms (days)"), default=30, validators=[MaxValueValidator(365)]
    )
    language = models.CharField(_("document language"), max_length=2, choices=Language.choices, default="en")
    warehouse = models.ForeignKey(
        "inventory.Warehouse", null=True, blank=True, on_delete=models.PROTECT, related_name="sales_orders"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    description = models.CharField(_("description"), max_length=1000, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    total_net = models.DecimalField(_("net total"), max_digits=14, decimal_places=2, default=ZERO)
    total_vat = models.DecimalField(_("VAT total"), max_digits=14, decimal_places=2, default=ZERO)
    total_gross = models.DecimalField(_("gross total"), max_digits=14, decimal_places=2, default=ZERO)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("sales order")
        verbose_name_plural = _("sales orders")
        ordering = ["-order_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "order_number"], name="salesorder_tenant_number_unique")
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("salesorder_tenant_status", "status"),
            tenant_ordering_index("salesorder_tenant_date", "order_date"),
            tenant_ordering_index("salesorder_tenant_total_net", "total_net"),
            tenant_ordering_index("salesorder_tenant_total_gross", "total_gross"),
            tenant_ordering_index("salesorder_tenant_currency", "currency"),
            tenant_ordering_index("salesorder_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.order_number


class SalesOrderLine(TenantModel):
    """One product on a sales order. Amounts: net = quantity x unit price x (1 - discount %), rounded
    to cents; VAT = net x VAT rate %, rounded to cents."""

    order = models.ForeignKey(SalesOrder, on_delete=models.CASCADE, related_name="lines")
    line_number = models.PositiveIntegerField(_("line number"))
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="sales_lines")
    description = models.CharField(_("description"), max_length=500, blank=True)
    quantity = models.DecimalField(
        _("quantity"), max_digits=14, decimal_places=3, validators=[MinValueValidator(Decimal("0.001"))]
    )
    unit_price = models.DecimalField(
        _("unit price"), max_digits=14, decimal_places=4, validators=[MinValueValidator(ZERO)]
    )
    discount_percent = models.DecimalField(
        _("discount %"),
        max_digits=5,
        decimal_places=2,
        default=ZERO,
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    vat_rate = models.DecimalField(
        _("VAT rate %"),
        max_digits=5,
        decimal_places=2,
        default=ZERO,
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    requested_date = models.DateField(_("requested delivery date"), null=True, blank=True)
    confirmed_date = models.DateField(_("confirmed delivery date"), null=True, blank=True)
    quantity_reserved = models.DecimalField(
        _("quantity reserved"), max_digits=14, decimal_places=3, default=ZERO
    )
    quantity_shipped = models.DecimalField(
        _("quantity shipped"), max_digits=14, decimal_places=3, default=ZERO
    )
    quantity_invoiced = models.DecimalField(
        _("quantity invoiced"), max_digits=14, decimal_places=3, default=ZERO
    )
    amount_net = models.DecimalField(_("net amount"), max_digits=14, decimal_places=2, default=ZERO)
    amount_vat = models.DecimalField(_("VAT amount"), max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        verbose_name = _("sales order line")
        verbose_name_plural = _("sales order lines")
        ordering = ["order_id", "line_number"]
        constraints = [
            models.UniqueConstraint(fields=["order", "line_number"], name="salesorderline_order_number"),
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="salesorderline_qty_positive"),
            models.CheckConstraint(
                condition=models.Q(quantity_reserved__gte=0)
                & models.Q(quantity_shipped__gte=0)
                & models.Q(quantity_invoiced__gte=0),
                name="salesorderline_counters_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.order_id}/{self.line_number}"

    @property
    def open_quantity(self) -> Decimal:
        """What is still to ship."""
        return max(self.quantity - self.quantity_shipped, ZERO)


class SalesQuotation(TenantModel):
    """An offer to a customer before the order (docs/sales.md, "Quotations"). The stored status is set by the
    services (draft -> sent -> accepted / declined, or cancelled); `expired` is derived: a draft or sent
    quotation whose `valid_until` has passed (`services.quotation_status`). Accepting makes the sales order
    through the order service and links it here, once."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SENT = "sent", _("Sent")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")  # derived, never stored
        CANCELLED = "cancelled", _("Cancelled")

    quotation_number = models.CharField(_("quotation number"), max_length=50)
    customer = models.ForeignKey("customers.Customer", on_delete=models.PROTECT, related_name="quotations")
    quotation_date = models.DateField(_("quotation date"))
    valid_until = models.DateField(_("valid until"))
    customer_reference = models.CharField(_("customer reference"), max_length=100, blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[CURRENCY_VALIDATOR])
    payment_terms_days = models.PositiveSmallIntegerField(
        _("payment terms (days)"), default=30, validators=[MaxValueValidator(365)]
    )
    language = models.CharField(_("document language"), max_length=2, choices=Language.choices, default="en")
    terms = models.CharField(_("terms"), max_length=2000, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    # the order made when the quotation was accepted (one order per quotation: a one-to-one key)
    sales_order = models.OneToOneField(
        SalesOrder, null=True, blank=True, on_delete=models.SET_NULL, related_name="source_quotation"
    )
    total_net = models.DecimalField(_("net total"), max_digits=14, decimal_places=2, default=ZERO)
    total_vat = models.DecimalField(_("VAT total"), max_digits=14, decimal_places=2, default=ZERO)
    total_gross = models.DecimalField(_("gross total"), max_digits=14, decimal_places=2, default=ZERO)
    sent_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("sales quotation")
        verbose_name_plural = _("sales quotations")
        ordering = ["-quotation_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "quotation_number"], name="salesquotation_tenant_number_unique"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="expired"), name="salesquotation_expired_not_stored"
            ),
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("salesquotation_tenant_number", "quotation_number"),
            tenant_ordering_index("salesquotation_tenant_status", "status"),
            tenant_ordering_index("salesquotation_tenant_date", "quotation_date"),
            tenant_ordering_index("salesquotation_tenant_valid", "valid_until"),
            tenant_ordering_index("salesquotation_tenant_net", "total_net"),
            tenant_ordering_index("salesquotation_tenant_gross", "total_gross"),
            tenant_ordering_index("salesquotation_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.quotation_number


class SalesQuotationLine(TenantModel):
    """One product offered on a quotation; amounts as on an order line (services._common.line_amounts)."""

    quotation = models.ForeignKey(SalesQuotation, on_delete=models.CASCADE, related_name="lines")
    line_number = models.PositiveIntegerField(_("line number"))
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    description = models.CharField(_("description"), max_length=500, blank=True)
    quantity = models.DecimalField(
        _("quantity"), max_digits=14, decimal_places=3, validators=[MinValueValidator(Decimal("0.001"))]
    )
    unit_price = models.DecimalField(
        _("unit price"), max_digits=14, decimal_places=4, validators=[MinValueValidator(ZERO)]
    )
    discount_percent = models.DecimalField(
        _("discount %"),
        max_digits=5,
        decimal_places=2,
        default=ZERO,
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    vat_rate = models.DecimalField(
        _("VAT rate %"),
        max_digits=5,
        decimal_places=2,
        default=ZERO,
        validators=[MinValueValidator(ZERO), MaxValueValidator(Decimal("100"))],
    )
    amount_net = models.DecimalField(_("net amount"), max_digits=14, decimal_places=2, default=ZERO)
    amount_vat = models.DecimalField(_("VAT amount"), max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        verbose_name = _("sales quotation line")
        verbose_name_plural = _("sales quotation lines")
        ordering = ["quotation_id", "line_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["quotation", "line_number"], name="salesquotationline_quotation_number"
            ),
            models.CheckConstraint(
                condition=models.Q(quantity__gt=0), name="salesquotationline_qty_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quotation_id}/{self.line_number}"


class Shipment(TenantModel):
    """Goods leaving a warehouse for one sales order: draft -> picked -> shipped -> delivered."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PICKED = "picked", _("Picked")
        SHIPPED = "shipped", _("Shipped")
        DELIVERED = "delivered", _("Delivered")

    shipment_number = models.CharField(_("shipment number"), max_length=50)
    sales_order = models.ForeignKey(SalesOrder, on_delete=models.PROTECT, related_name="shipments")
    warehouse = models.ForeignKey("inventory.Warehouse", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    planned_date = models.DateField(_("planned date"), null=True, blank=True)
    shipped_at = models.DateTimeField(_("shipped at"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    carrier = models.CharField(_("carrier"), max_length=200, blank=True)
    tracking_number = models.CharField(_("tracking number"), max_length=100, blank=True)
    note = models.CharField(_("note"), max_length=1000, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("sales shipment")
        verbose_name_plural = _("sales shipments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "shipment_number"], name="salesshipment_tenant_number_unique"
            )
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("salesshipment_tenant_status", "status"),
            tenant_ordering_index("salesshipment_tenant_planned", "planned_date"),
            tenant_ordering_index("salesshipment_tenant_shipped", "shipped_at"),
            tenant_ordering_index("salesshipment_tenant_created", "created_at"),
        ]
        permissions = [("pick_shipment", _("Can pick and ship sales shipments"))]

    def __str__(self) -> str:
        return self.shipment_number


class ShipmentLine(TenantModel):
    shipment = models.ForeignKey(Shipment, on_delete=models.CASCADE, related_name="lines")
    order_line = models.ForeignKey(SalesOrderLine, on_delete=models.PROTECT, related_name="shipment_lines")
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3)
    quantity_invoiced = models.DecimalField(
        _("quantity invoiced"), max_digits=14, decimal_places=3, default=ZERO
    )
    # Of a labelled product, what shipped without a picked carton (only when the company allows shipping
    # unlabelled stock); the delivery note says so on the line. Set when the shipment ships.
    unlabelled_quantity = models.DecimalField(
        _("unlabelled quantity"), max_digits=14, decimal_places=3, default=ZERO, db_default=0
    )

    class Meta:
        verbose_name = _("sales shipment line")
        verbose_name_plural = _("sales shipment lines")
        ordering = ["shipment_id", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="salesshipmentline_qty_positive"),
            models.UniqueConstraint(fields=["shipment", "order_line"], name="salesshipmentline_unique_line"),
        ]

    def __str__(self) -> str:
        return f"{self.shipment_id}: {self.quantity}"


class ShipmentCarton(TenantModel):
    """A carton label on a shipment: what links a carton to the customer who received it. A carton is on
    one shipment only (the one-to-one key is the database's guarantee)."""

    shipment = models.ForeignKey(Shipment, on_delete=models.CASCADE, related_name="cartons")
    shipment_line = models.ForeignKey(ShipmentLine, on_delete=models.CASCADE, related_name="cartons")
    carton = models.OneToOneField(
        "eudr.CartonLabel", on_delete=models.PROTECT, related_name="sales_shipment_carton"
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("shipment carton")
        verbose_name_plural = _("shipment cartons")
        ordering = ["shipment_id", "id"]

    def __str__(self) -> str:
        return f"{self.shipment_id}: {self.carton_id}"


class Invoice(TenantModel):
    """An invoice or a credit note. A draft can be edited or deleted; posting gives it its number and
    freezes it (seller and buyer data are copied in then). A credit note links to the invoice it corrects
    and carries negative-free quantities: its amounts are subtracted from the original's."""

    class Kind(models.TextChoices):
        INVOICE = "invoice", _("Invoice")
        CREDIT_NOTE = "credit_note", _("Credit note")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        POSTED = "posted", _("Posted")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.INVOICE)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    sales_order = models.ForeignKey(SalesOrder, on_delete=models.PROTECT, related_name="invoices")
    customer = models.ForeignKey("customers.Customer", on_delete=models.PROTECT, related_name="invoices")
    shipments = models.ManyToManyField(Shipment, blank=True, related_name="invoices")
    credited_invoice = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="credit_notes"
    )
    series = models.CharField(_("series"), max_length=10, blank=True)
    year = models.PositiveIntegerField(_("year"), null=True, blank=True)
    sequence_number = models.PositiveIntegerField(_("sequence number"), null=True, blank=True)
    number = models.CharField(_("number"), max_length=40, blank=True)
    issue_date = models.DateField(_("issue date"), null=True, blank=True)
    supply_date = models.DateField(_("date of supply"), null=True, blank=True)
    due_date = models.DateField(_("due date"), null=True, blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[CURRENCY_VALIDATOR])
    language = models.CharField(_("language"), max_length=2, choices=Language.choices, default="en")
    payment_terms_days = models.PositiveSmallIntegerField(_("payment terms (days)"), default=30)
    reverse_charge = models.BooleanField(_("reverse charge"), default=False)
    # the VAT determination when the draft was made (apps/common/tax.py): its case, the EN 16931 VAT
    # category (UNCL 5305) and the exemption reason code (VATEX) whose legal mention the document carries
    vat_case = models.CharField(_("VAT case"), max_length=20, blank=True, default="", db_default="")
    vat_category = models.CharField(_("VAT category"), max_length=2, default="S", db_default="S")
    vat_exemption_code = models.CharField(
        _("VAT exemption reason code"), max_length=20, blank=True, default="", db_default=""
    )
    note = models.CharField(_("note"), max_length=1000, blank=True)
    total_net = models.DecimalField(_("net total"), max_digits=14, decimal_places=2, default=ZERO)
    total_vat = models.DecimalField(_("VAT total"), max_digits=14, decimal_places=2, default=ZERO)
    total_gross = models.DecimalField(_("gross total"), max_digits=14, decimal_places=2, default=ZERO)
    amount_paid = models.DecimalField(_("amount paid"), max_digits=14, decimal_places=2, default=ZERO)
    # ISO 11649 creditor reference of a posted invoice (apps/common/payment.py), for the customer's payment
    payment_reference = models.CharField(
        _("payment reference"), max_length=25, blank=True, default="", db_default=""
    )
    # copied in when posted: what the document says, whatever changes later
    seller_name = models.CharField(max_length=300, blank=True)
    seller_address = models.CharField(max_length=500, blank=True)
    seller_country = models.CharField(max_length=2, blank=True)
    seller_vat_number = models.CharField(max_length=40, blank=True)
    seller_eori_number = models.CharField(max_length=40, blank=True)
    seller_registration_number = models.CharField(max_length=40, blank=True, default="", db_default="")
    seller_iban = models.CharField(max_length=34, blank=True, default="", db_default="")
    seller_bic = models.CharField(max_length=11, blank=True, default="", db_default="")
    buyer_name = models.CharField(max_length=300, blank=True)
    buyer_address = models.CharField(max_length=500, blank=True)
    buyer_country = models.CharField(max_length=2, blank=True)
    buyer_vat_number = models.CharField(max_length=40, blank=True)
    # what an accounting export needs
    owner_visma_id = models.CharField(_("owner's accounting id"), max_length=50, blank=True)
    customer_accounting_code = models.CharField(_("customer's accounting code"), max_length=50, blank=True)
    posted_at = models.DateTimeField(null=True, blank=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("invoice")
        verbose_name_plural = _("invoices")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "series", "year", "sequence_number"],
                condition=models.Q(sequence_number__isnull=False),
                name="invoice_tenant_series_year_seq",
            ),
            models.CheckConstraint(
                condition=models.Q(status="draft") | models.Q(sequence_number__isnull=False),
                name="invoice_posted_has_number",
            ),
        ]
        indexes = [
            models.Index(fields=["tenant", "status", "due_date"], name="invoice_tenant_status_due"),
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("invoice_tenant_number", "number"),
            tenant_ordering_index("invoice_tenant_issue", "issue_date"),
            tenant_ordering_index("invoice_tenant_due", "due_date"),
            tenant_ordering_index("invoice_tenant_gross", "total_gross"),
            tenant_ordering_index("invoice_tenant_status", "status"),
            tenant_ordering_index("invoice_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.number or f"draft {self.pk}"


class InvoiceLine(TenantModel):
    invoice = models.ForeignKey(Invoice, on_delete=models.CASCADE, related_name="lines")
    order_line = models.ForeignKey(SalesOrderLine, on_delete=models.PROTECT, related_name="invoice_lines")
    shipment_line = models.ForeignKey(
        ShipmentLine, null=True, blank=True, on_delete=models.PROTECT, related_name="invoice_lines"
    )
    credited_line = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="credit_lines"
    )
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    description = models.CharField(_("description"), max_length=500, blank=True)
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3)
    unit_price = models.DecimalField(_("unit price"), max_digits=14, decimal_places=4)
    discount_percent = models.DecimalField(_("discount %"), max_digits=5, decimal_places=2, default=ZERO)
    vat_rate = models.DecimalField(_("VAT rate %"), max_digits=5, decimal_places=2, default=ZERO)
    amount_net = models.DecimalField(_("net amount"), max_digits=14, decimal_places=2, default=ZERO)
    amount_vat = models.DecimalField(_("VAT amount"), max_digits=14, decimal_places=2, default=ZERO)

    class Meta:
        verbose_name = _("invoice line")
        verbose_name_plural = _("invoice lines")
        ordering = ["invoice_id", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="invoiceline_qty_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.invoice_id}: {self.quantity}"


class InvoicePayment(TenantModel):
    """A payment received against a posted invoice: what the customer paid, on which day and under which
    reference (a bank statement line, a transfer's reference). The invoice's `amount_paid` is always the
    sum of its payments: the payment services write both in one transaction (services/invoices.py).

    A payment is recorded by a user, or read from the accounting system (source `accounting`), where the
    amount is the change in what that system says was paid since the last reading, and may be negative
    when a payment was reversed there. `legacy` is the one record each invoice got for what it had been
    paid before payments were recorded one by one."""

    class Source(models.TextChoices):
        MANUAL = "manual", _("Recorded by a user")
        ACCOUNTING = "accounting", _("Read from the accounting system")
        LEGACY = "legacy", _("Paid before payments were itemised")

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    received_on = models.DateField(_("received on"))
    reference = models.CharField(_("reference"), max_length=140, blank=True, default="")
    source = models.CharField(_("source"), max_length=20, choices=Source.choices, default=Source.MANUAL)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("invoice payment")
        verbose_name_plural = _("invoice payments")
        ordering = ["invoice_id", "received_on", "id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="invoicepayment_amount_not_zero"),
            models.CheckConstraint(
                condition=models.Q(amount__gt=0) | models.Q(source="accounting"),
                name="invoicepayment_only_accounting_negative",
            ),
        ]
        indexes = [models.Index(fields=["tenant", "invoice", "received_on"], name="invoicepayment_invoice")]

    def __str__(self) -> str:
        return f"{self.invoice_id}: {self.amount} on {self.received_on}"


class PeppolSettings(TenantModel):
    """The company's Peppol access point (one per tenant): an HTTP API that takes a UBL e-invoice and
    delivers it over the Peppol network (docs/sales.md, "Delivering e-invoices"). The API key is stored
    encrypted, like the SMTP password and the accounting secrets; every call goes through the outbound
    policy (apps/common/outbound.py)."""

    enabled = models.BooleanField(_("enabled"), default=True)
    endpoint_url = models.URLField(_("access point URL"), max_length=500)
    api_key = EncryptedTextField(_("API key"), blank=True)
    sender_id = models.CharField(_("sender participant ID"), max_length=100)
    timeout = models.PositiveIntegerField(_("timeout (seconds)"), default=20)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Peppol access point")
        verbose_name_plural = _("Peppol access points")
        constraints = [models.UniqueConstraint(fields=["tenant"], name="peppolsettings_one_per_tenant")]

    def __str__(self) -> str:
        return self.endpoint_url


class EInvoiceDelivery(TenantModel):
    """One delivery of a posted invoice's e-invoice: through the Peppol access point (its message id or
    the reason it failed) or by e-mail (the message in the e-mail log)."""

    class Channel(models.TextChoices):
        PEPPOL = "peppol", "Peppol"
        EMAIL = "email", _("E-mail")

    class Status(models.TextChoices):
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        QUEUED = "queued", _("Queued")
        FAILED = "failed", _("Failed")

    invoice = models.ForeignKey(Invoice, on_delete=models.CASCADE, related_name="einvoice_deliveries")
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    formats = models.JSONField(_("formats"), default=list)
    recipient = models.CharField(_("recipient"), max_length=500, blank=True)
    message_id = models.CharField(_("message ID"), max_length=200, blank=True)
    error = models.CharField(_("error"), max_length=40, blank=True)
    error_message = models.CharField(_("error message"), max_length=500, blank=True)
    email_message = models.ForeignKey(
        "notifications.EmailMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("e-invoice delivery")
        verbose_name_plural = _("e-invoice deliveries")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["invoice"],
                condition=models.Q(channel="peppol", status__in=["sending", "sent"]),
                name="einvoicedelivery_one_peppol_per_invoice",
            )
        ]

    def __str__(self) -> str:
        return f"{self.invoice_id} {self.channel} {self.status}"
