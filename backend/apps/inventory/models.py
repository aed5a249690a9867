"""Warehouses, their locations, stock movements and the stock they add up to.

Stock is only ever changed by posting a `StockMove` through `services.stock_moves_post`, which keeps
`Stock` (quantity per product and location) equal to the sum of the moves.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


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
    reference = models.CharField(_("reference"), max_length=100, blank=True)
    note = models.CharField(_("note"), max_length=500, blank=True)
    moved_at = models.DateTimeField(_("moved at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("stock move")
        verbose_name_plural = _("stock moves")
        ordering = ["-moved_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="stockmove_quantity_positive"),
            models.CheckConstraint(
                condition=models.Q(from_location__isnull=False) | models.Q(to_location__isnull=False),
                name="stockmove_has_a_location",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.quantity} {self.reference}"


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

    def __str__(self) -> str:
        return f"{self.product_id}@{self.location_id}: {self.quantity}"


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
