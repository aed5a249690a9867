"""Warehouses, their locations, stock movements and the stock they add up to.

Stock is only ever changed by posting a `StockMove` through `services.stock_moves_post`, which keeps
`Stock` (quantity per product and location) equal to the sum of the moves.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel


class LedgerIsAppendOnly(Exception):
    """A posted stock move was about to be changed or deleted (a correction is another move)."""


class Warehouse(TenantModel):
    code = models.CharField(_("code"), max_length=20)
    name = models.CharField(_("name"), max_length=200)
    address = models.CharField(_("address"), max_length=500, blank=True)
    is_default = models.BooleanField(_("default warehouse"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("warehouse")
        verbose_name_plural = _("warehouses")
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "code"], name="warehouse_tenant_code_unique"),
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings"): the default one
        # (the default warehouse first, then by code) and by name; the code's is the unique constraint's
        indexes = [
            models.Index(fields=["tenant", "-is_default", "code"], name="warehouse_tenant_default"),
            tenant_ordering_index("warehouse_tenant_name", "name"),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Location(TenantModel):
    """A place in a warehouse. Goods received against purchase orders land in its receiving location."""

    class Kind(models.TextChoices):
        RECEIVING = "receiving", _("Receiving")
        STORAGE = "storage", _("Storage")
        SHIPPING = "shipping", _("Shipping")

    warehouse = models.ForeignKey(Warehouse, on_delete=models.PROTECT, related_name="locations")
    code = models.CharField(_("code"), max_length=40)
    name = models.CharField(_("name"), max_length=200, blank=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.STORAGE)
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("location")
        verbose_name_plural = _("locations")
        ordering = ["warehouse_id", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "warehouse", "code"], name="location_tenant_warehouse_code_unique"
            ),
        ]
        # the list's ordering by code (docs/performance.md, "Indexes for the list orderings")
        indexes = [tenant_ordering_index("location_tenant_code", "code")]

    def __str__(self) -> str:
        return self.code


class StockMove(TenantModel):
    """A posted movement of a quantity of a product: into a location (receipt), out of one (issue), or
    from one to another (transfer). Posted moves are never edited; a correction is another move."""

    class Kind(models.TextChoices):
        RECEIPT = "receipt", _("Receipt")
        ISSUE = "issue", _("Issue")
        TRANSFER = "transfer", _("Transfer")
        ADJUSTMENT = "adjustment", _("Adjustment")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="stock_moves")
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3)
    from_location = models.ForeignKey(
        Location, null=True, blank=True, on_delete=models.PROTECT, related_name="moves_out"
    )
    to_location = models.ForeignKey(
        Location, null=True, blank=True, on_delete=models.PROTECT, related_name="moves_in"
    )

    class Document(models.TextChoices):
        RECEIPT = "receipt", _("Purchase receipt")
        SHIPMENT = "shipment", _("Sales shipment")
        COUNT = "count", _("Stock count")
        TRANSFER = "transfer", _("Transfer")
        MANUAL = "manual", _("Manual")

    reference = models.CharField(_("reference"), max_length=100, blank=True)
    note = models.CharField(_("note"), max_length=500, blank=True)
    # The source document that caused the move (a receipt, a sales shipment, a stock count): the ledger
    # answers "why did this stock change" without parsing `reference`.
    document_type = models.CharField(
        _("document type"), max_length=20, choices=Document.choices, default=Document.MANUAL
    )
    document_id = models.PositiveBigIntegerField(_("document id"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    moved_at = models.DateTimeField(_("moved at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("stock move")
        verbose_name_plural = _("stock moves")
        ordering = ["-moved_at", "-id"]
        indexes = [
            models.Index(fields=["tenant", "product", "moved_at"], name="stockmove_product_moved"),
            models.Index(fields=["tenant", "document_type", "document_id"], name="stockmove_document"),
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("stockmove_tenant_moved", "moved_at"),
            tenant_ordering_index("stockmove_tenant_quantity", "quantity"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="stockmove_quantity_positive"),
            models.CheckConstraint(
                condition=models.Q(from_location__isnull=False) | models.Q(to_location__isnull=False),
                name="stockmove_has_a_location",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.quantity} {self.reference}"

    def save(self, *args, **kwargs):
        # Append-only: a posted move is never changed (PostgreSQL refuses it too, see migration 0003).
        if self.pk is not None and not self._state.adding:
            raise LedgerIsAppendOnly()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise LedgerIsAppendOnly()


class Stock(TenantModel):
    """Quantity on hand of one product in one location (the sum of its posted moves)."""

    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="stock")
    location = models.ForeignKey(Location, on_delete=models.PROTECT, related_name="stock")
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3, default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("stock")
        verbose_name_plural = _("stocks")
        ordering = ["location_id", "product_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "product", "location"], name="stock_tenant_product_location_unique"
            ),
        ]
        # the list's orderings by its own columns (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("stock_tenant_quantity", "quantity"),
            tenant_ordering_index("stock_tenant_updated", "updated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.product_id}@{self.location_id}: {self.quantity}"


class ReorderPoint(TenantModel):
    """Below this quantity available (all locations together) the product should be reordered."""

    product = models.ForeignKey("products.Product", on_delete=models.CASCADE, related_name="+")
    reorder_point = models.DecimalField(_("reorder point"), max_digits=14, decimal_places=3)

    class Meta:
        verbose_name = _("reorder point")
        verbose_name_plural = _("reorder points")
        ordering = ["product_id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "product"], name="reorderpoint_tenant_product_unique"),
            models.CheckConstraint(
                condition=models.Q(reorder_point__gte=0), name="reorderpoint_not_negative"
            ),
        ]
        # the list's ordering by the reorder point (docs/performance.md, "Indexes for the list orderings")
        indexes = [tenant_ordering_index("reorderpoint_tenant_point", "reorder_point")]

    def __str__(self) -> str:
        return f"{self.product_id}: {self.reorder_point}"


class StockCount(TenantModel):
    """A stock count: counted quantities per product and location; differences posted as adjustments."""

    number = models.CharField(_("number"), max_length=30)
    counted_at = models.DateTimeField(_("counted at"))
    note = models.CharField(_("note"), max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("stock count")
        verbose_name_plural = _("stock counts")
        ordering = ["-counted_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "number"], name="stockcount_tenant_number_unique"),
        ]
        # the list's default order (docs/performance.md, "Indexes for the list orderings")
        indexes = [tenant_ordering_index("stockcount_tenant_counted", "counted_at")]

    def __str__(self) -> str:
        return self.number


class StockCountLine(TenantModel):
    count = models.ForeignKey(StockCount, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    location = models.ForeignKey(Location, on_delete=models.PROTECT, related_name="+")
    expected_quantity = models.DecimalField(_("expected quantity"), max_digits=14, decimal_places=3)
    counted_quantity = models.DecimalField(_("counted quantity"), max_digits=14, decimal_places=3)
    difference = models.DecimalField(_("difference"), max_digits=14, decimal_places=3)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    stock_move = models.OneToOneField(
        StockMove, null=True, blank=True, on_delete=models.PROTECT, related_name="count_line"
    )

    class Meta:
        verbose_name = _("stock count line")
        verbose_name_plural = _("stock count lines")
        ordering = ["count_id", "id"]

    def __str__(self) -> str:
        return f"{self.count_id}: {self.product_id}@{self.location_id}"


class WarehouseCarton(TenantModel):
    """Where a labelled carton is in the warehouse. One row per carton label, created when it is received.
    Its status changes only through `apps.inventory.carton_life` (the carton's state machine).

    `receipt` is empty while the carton is scanned in but its quantity not yet posted to stock (the
    receipt is posted per purchase order, one line per order line, when receiving is finished).
    """

    class Status(models.TextChoices):
        RECEIVED = "received", _("Received")
        IN_STOCK = "in_stock", _("In stock")
        PICKED = "picked", _("Picked")
        SHIPPED = "shipped", _("Shipped")
        DELIVERED = "delivered", _("Delivered")

    label = models.OneToOneField("eudr.CartonLabel", on_delete=models.PROTECT, related_name="warehouse_state")
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    location = models.ForeignKey(
        Location, null=True, blank=True, on_delete=models.PROTECT, related_name="cartons"
    )
    inbound_shipment = models.ForeignKey(
        "logistics.ShipmentInfo", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    receipt = models.ForeignKey(
        "purchaseorders.Receipt", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    received_at = models.DateTimeField(_("received at"))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("warehouse carton")
        verbose_name_plural = _("warehouse cartons")
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["tenant", "status", "product"], name="whcarton_status_product"),
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("whcarton_tenant_updated", "updated_at"),
            tenant_ordering_index("whcarton_tenant_received", "received_at"),
            tenant_ordering_index("whcarton_tenant_status", "status"),
        ]

    def __str__(self) -> str:
        return f"{self.label_id} {self.status}"

    @property
    def in_stock(self) -> bool:
        return self.status == self.Status.IN_STOCK


class CartonEvent(TenantModel):
    """One step of a carton's warehouse history. `customer` (who received it) is internal only: the
    public trace reads the kind and the date, never the customer."""

    class Kind(models.TextChoices):
        RECEIVED = "received", _("Received")
        STOCKED = "stocked", _("Posted to stock")
        MOVED = "moved", _("Moved")
        PICKED = "picked", _("Picked")
        UNPICKED = "unpicked", _("Returned from picking")
        SHIPPED = "shipped", _("Shipped")
        DELIVERED = "delivered", _("Delivered")

    carton = models.ForeignKey(WarehouseCarton, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reference = models.CharField(_("reference"), max_length=100, blank=True)
    customer = models.ForeignKey(
        "customers.Customer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The client's id of the scan (a UUID made on the phone): a scan queued offline and sent twice is
    # recorded once.
    scan_id = models.CharField(_("scan id"), max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("carton event")
        verbose_name_plural = _("carton events")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "scan_id"],
                condition=~models.Q(scan_id=""),
                name="cartonevent_tenant_scan_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.carton_id} {self.kind}"


class Reservation(TenantModel):
    """Stock promised to a sales order line in a warehouse (optionally a location): reserved when the
    order is confirmed, consumed when it ships, released when it is cancelled. Available stock is on hand
    minus the active reservations (selectors.stock_available); services.reservations_* change them."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        CONSUMED = "consumed", _("Consumed")
        RELEASED = "released", _("Released")

    order_line = models.ForeignKey(
        "salesorders.SalesOrderLine", on_delete=models.PROTECT, related_name="reservations"
    )
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="reservations")
    warehouse = models.ForeignKey(Warehouse, on_delete=models.PROTECT, related_name="reservations")
    location = models.ForeignKey(
        Location, null=True, blank=True, on_delete=models.PROTECT, related_name="reservations"
    )
    quantity = models.DecimalField(_("quantity"), max_digits=14, decimal_places=3)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("reservation")
        verbose_name_plural = _("reservations")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="reservation_quantity_positive"),
        ]
        indexes = [
            models.Index(fields=["tenant", "product", "status"], name="reservation_product_status"),
        ]

    def __str__(self) -> str:
        return f"{self.order_line_id}: {self.quantity} {self.status}"
