"""Inbound shipments (containers on their way from the factories) and the carriers that move them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.logistics.validators import validate_container_number, validate_tracking_template, validate_unlocode
from apps.tenancy.models import TenantModel


class ShipmentCompany(TenantModel):
    """A carrier (shipping line). Its tracking URL template turns a container number into a link."""

    name = models.CharField(_("name"), max_length=200)
    contact_name = models.CharField(_("contact name"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    website = models.URLField(_("website"), blank=True)
    tracking_url_template = models.CharField(
        _("tracking URL template"), max_length=500, blank=True, validators=[validate_tracking_template]
    )
    created_at = models.DateTimeField(auto_now_add=True, null=True)
    updated_at = models.DateTimeField(auto_now=True, null=True)

    class Meta:
        verbose_name = _("shipment company")
        verbose_name_plural = _("shipment companies")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="shipmentcompany_tenant_name_unique")
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("shipmentcompany_tenant_contact", "contact_name"),
            tenant_ordering_index("shipmentcompany_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name

    def tracking_url(self, container_number: str) -> str:
        if not self.tracking_url_template or not container_number:
            return ""
        return self.tracking_url_template.replace("{container}", container_number).replace(
            "{tracking}", container_number
        )


class ShipmentInfo(TenantModel):
    """An inbound shipment (a container on its way from a factory)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        IN_TRANSIT = "in_transit", _("In transit")
        ARRIVED = "arrived", _("Arrived")
        RECEIVED = "received", _("Received")

    container_number = models.CharField(
        _("container number"), max_length=20, validators=[validate_container_number]
    )
    seal_number = models.CharField(_("seal number"), max_length=40, blank=True)
    shipment_company = models.ForeignKey(
        ShipmentCompany, null=True, blank=True, on_delete=models.PROTECT, related_name="shipments"
    )
    vessel = models.CharField(_("vessel"), max_length=120, blank=True)
    voyage = models.CharField(_("voyage"), max_length=40, blank=True)
    port_of_loading = models.CharField(
        _("port of loading"), max_length=5, blank=True, validators=[validate_unlocode]
    )
    port_of_discharge = models.CharField(
        _("port of discharge"), max_length=5, blank=True, validators=[validate_unlocode]
    )
    etd = models.DateField(_("ETD"), null=True, blank=True)
    eta = models.DateField(_("ETA"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PLANNED)
    note = models.CharField(_("note"), max_length=500, blank=True)
    purchase_orders = models.ManyToManyField(
        "purchaseorders.PurchaseOrder", through="ShipmentPurchaseOrder", related_name="shipments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, null=True)

    # Supplier users see the shipments that carry at least one order of their parent vendor.
    supplier_scope = "purchase_orders__supplier__parent_vendor"

    class Meta:
        verbose_name = _("shipment info")
        verbose_name_plural = _("shipment infos")
        ordering = ["-created_at", "-id"]
        # the orderings of the shipments' and the inbound shipments' lists (docs/performance.md, "Indexes for
        # the list orderings")
        indexes = [
            tenant_ordering_index("shipmentinfo_tenant_container", "container_number"),
            tenant_ordering_index("shipmentinfo_tenant_etd", "etd"),
            tenant_ordering_index("shipmentinfo_tenant_eta", "eta"),
            tenant_ordering_index("shipmentinfo_tenant_status", "status"),
            tenant_ordering_index("shipmentinfo_tenant_created", "created_at"),
            tenant_ordering_index("shipmentinfo_tenant_vessel", "vessel"),
        ]

    def __str__(self) -> str:
        return self.container_number


class ShipmentPurchaseOrder(TenantModel):
    """A purchase order carried by a shipment (tenant-owned, so the link itself is isolated too)."""

    shipment = models.ForeignKey(ShipmentInfo, on_delete=models.CASCADE, related_name="order_links")
    purchase_order = models.ForeignKey(
        "purchaseorders.PurchaseOrder", on_delete=models.PROTECT, related_name="shipment_links"
    )

    class Meta:
        verbose_name = _("shipment purchase order")
        verbose_name_plural = _("shipment purchase orders")
        ordering = ["shipment_id", "purchase_order_id"]
        constraints = [
            models.UniqueConstraint(fields=["shipment", "purchase_order"], name="shipmentpo_unique"),
        ]


class Dispatch(TenantModel):
    """The transport of one outbound (sales) shipment: which carrier picks it up when, with which
    vehicle, under which tracking number, how many packages and how heavy. The day's dispatches make
    the loading list."""

    sales_shipment = models.OneToOneField(
        "salesorders.Shipment", on_delete=models.PROTECT, related_name="dispatch", verbose_name=_("shipment")
    )
    carrier = models.ForeignKey(
        ShipmentCompany,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dispatches",
        verbose_name=_("carrier"),
    )
    pickup_date = models.DateField(_("pickup date"))
    vehicle = models.CharField(_("vehicle"), max_length=100, blank=True)
    tracking_number = models.CharField(_("tracking number"), max_length=100, blank=True)
    packages = models.PositiveIntegerField(_("packages"), default=0)
    weight_kg = models.DecimalField(_("weight (kg)"), max_digits=12, decimal_places=3, default=0)
    note = models.CharField(_("note"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("dispatch")
        verbose_name_plural = _("dispatches")
        ordering = ["-pickup_date", "id"]
        indexes = [
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("dispatch_tenant_pickup", "pickup_date"),
            tenant_ordering_index("dispatch_tenant_packages", "packages"),
            tenant_ordering_index("dispatch_tenant_weight", "weight_kg"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(weight_kg__gte=0), name="dispatch_weight_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.sales_shipment_id} {self.pickup_date}"
