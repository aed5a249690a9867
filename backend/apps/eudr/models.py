"""EUDR traceability: raw-material deliveries (the paper and its forest origin), the supplier policies
that decide how much weight a carton consumes, production batches and the carton labels behind the QR
codes.

The weight balance of a delivery (docs/specification.md section 4) is kept on the delivery row itself
(`original_kg`, `used_kg`, `issued_cartons`) and only ever changed by the services in services/ while
they hold the delivery's row lock, so two requests can never together spend more than remains.
"""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from pathlib import PurePath

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.files import tenant_prefix
from apps.tenancy.models import TenantModel

BATCH_CODE_RE = re.compile(r"^(\d{4})(\d{2})(\d{2})([A-Z])$")
MONTH_RE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")

# The EUDR cut-off: wood harvested after 31 December 2020 must come from land without deforestation or
# forest degradation. Earlier harvests are allowed but flagged.
EUDR_CUTOFF_MONTH = "2021-01"
# The largest carton count one cap or approval may name: far above any real production run, and within
# a 32-bit integer on every database, so the API schema is the same whichever database serves it.
MAX_CARTONS = 1_000_000


class MaterialType(models.TextChoices):
    PAPER = "paper", _("Paper")
    PULP = "pulp", _("Pulp")
    BOARD = "board", _("Board")
    OTHER = "other", _("Other")


class PulpType(models.TextChoices):
    VIRGIN = "virgin", _("Virgin fibre")
    RECYCLED = "recycled", _("Recycled fibre")
    MIXED = "mixed", _("Mixed")


class CertificationType(models.TextChoices):
    FSC = "FSC", _("FSC")
    PEFC = "PEFC", _("PEFC")
    OTHER = "other", _("Other scheme")
    NONE = "none", _("None")


class FileKind(models.TextChoices):
    DELIVERY_FILE = "delivery_file", _("Delivery file")
    VENDOR_CERTIFICATE = "vendor_certificate", _("Vendor certificate")
    SC_INVOICE = "sc_invoice", _("SC invoice")
    FOREST_SUPPLIER_CERTIFICATE = "forest_supplier_certificate", _("Forest supplier certificate")
    LOGGING_LICENSE = "logging_license", _("Logging license")
    LOCATION_FILE = "location_file", _("Location file")


def delivery_file_path(instance: RawMaterialDelivery, filename: str) -> str:
    """tenants/<tenant>/eudr/<delivery>/<random>/<clean original name>: the name stays readable, the
    random folder keeps two uploads of the same name apart and the path unguessable."""
    name = PurePath(filename.replace("\\", "/")).name or "file"
    return f"{tenant_prefix(instance)}/eudr/{instance.pk or 'new'}/{uuid.uuid4().hex}/{name}"


class SupplierPolicy(TenantModel):
    """How a parent vendor's raw material turns into cartons: the minimum weight a carton consumes, the
    loss rate of production, and how the allowed number of cartons of a delivery is derived.

    `parent_vendor` empty = the tenant-wide default; `material_type` empty = every material of the vendor.
    A delivery copies the policy when it is submitted (see services.policy_for_delivery), so editing a
    policy never rewrites an existing delivery.
    """

    class CapMode(models.TextChoices):
        BY_WEIGHT = "by_weight", _("By weight: available weight / minimum consumption")
        FIXED = "fixed", _("Fixed number of cartons")
        NONE = "none", _("No cap")

    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="eudr_policies",
        verbose_name=_("parent vendor"),
    )
    material_type = models.CharField(
        _("material type"), max_length=20, choices=MaterialType.choices, blank=True, default=""
    )
    min_consumption_per_carton = models.DecimalField(
        _("minimum consumption per carton (kg)"),
        max_digits=10,
        decimal_places=3,
        validators=[MinValueValidator(Decimal("0.001"))],
    )
    loss_rate_percent = models.DecimalField(
        _("loss rate (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
    )
    cap_mode = models.CharField(
        _("carton cap"), max_length=20, choices=CapMode.choices, default=CapMode.BY_WEIGHT
    )
    cap_value = models.PositiveIntegerField(
        _("fixed carton cap"), null=True, blank=True, validators=[MaxValueValidator(MAX_CARTONS)]
    )
    order_tolerance_percent = models.DecimalField(
        _("order tolerance (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("10"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        help_text=_(
            "How many cartons beyond a purchase order line's ordered quantity may be labelled, in percent "
            "of that quantity (the usual over-run of a carton factory)."
        ),
    )
    valid_from = models.DateField(_("valid from"), default=timezone.localdate)
    is_active = models.BooleanField(_("active"), default=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "parent_vendor"

    class Meta:
        ordering = ["parent_vendor__name", "material_type", "id"]
        verbose_name = _("supplier policy")
        verbose_name_plural = _("supplier policies")
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "parent_vendor", "material_type"],
                condition=Q(parent_vendor__isnull=False),
                name="eudr_policy_vendor_material_unique",
            ),
            models.UniqueConstraint(
                fields=["tenant", "material_type"],
                condition=Q(parent_vendor__isnull=True),
                name="eudr_policy_default_material_unique",
            ),
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("eudr_policy_material_idx", "material_type"),
            tenant_ordering_index("eudr_policy_valid_idx", "valid_from"),
            tenant_ordering_index("eudr_policy_updated_idx", "updated_at"),
        ]

    def __str__(self) -> str:
        return f"policy #{self.pk}"


def certificate_expiry_of(fm_expiry, coc_expiry):
    """The earlier of a delivery's two certificate expiries (None: neither is given)."""
    dates = [d for d in (fm_expiry, coc_expiry) if d]
    return min(dates) if dates else None


def effective_status_of(status: str, fm_expiry, coc_expiry, today) -> str:
    """A delivery's status to show and to act on: an active one past a certificate's expiry is expired.
    Of its columns, so that a list written from rows (apps/eudr/api/list_page.py) says what the model says."""
    expiry = certificate_expiry_of(fm_expiry, coc_expiry)
    if status == RawMaterialDelivery.Status.ACTIVE and expiry is not None and expiry < today:
        return RawMaterialDelivery.Status.EXPIRED
    return status


class RawMaterialDelivery(TenantModel):
    """A delivery of paper (or pulp, board) to a carton factory, with its forest origin and documents.

    Status: `draft` (the wizard's saved work: no required fields, issues no cartons), `active`, `inactive`
    (set by internal users), `expired` (a certificate's expiry date has passed; also shown as expired on
    read before the nightly job stores it). Only active deliveries issue cartons.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        ACTIVE = "active", _("Active")
        INACTIVE = "inactive", _("Inactive")
        EXPIRED = "expired", _("Expired")

    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="raw_material_deliveries",
        verbose_name=_("parent vendor"),
    )
    delivery_number = models.CharField(_("delivery number"), max_length=100, blank=True)
    document_from = models.CharField(_("document from"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)

    country_code = models.CharField(_("country code"), max_length=2, blank=True)
    country_name = models.CharField(_("country"), max_length=100, blank=True)
    forest_supplier_name = models.CharField(_("forest supplier"), max_length=300, blank=True)
    fm_certification_type = models.CharField(
        _("FM certification"), max_length=10, choices=CertificationType.choices, blank=True
    )
    fm_certificate_number = models.CharField(_("FM certificate number"), max_length=100, blank=True)
    fm_certificate_expiry = models.DateField(_("FM certificate expiry"), null=True, blank=True)
    coc_certification = models.CharField(_("COC certification claim"), max_length=100, blank=True)
    coc_certificate_number = models.CharField(_("COC certificate number"), max_length=100, blank=True)
    coc_certificate_expiry = models.DateField(_("COC certificate expiry"), null=True, blank=True)
    material_sc_number = models.CharField(_("material SC number"), max_length=100, blank=True)
    harvest_begin_month = models.CharField(
        _("harvest begin month"), max_length=7, blank=True, validators=[RegexValidator(MONTH_RE)]
    )
    harvest_end_month = models.CharField(
        _("harvest end month"), max_length=7, blank=True, validators=[RegexValidator(MONTH_RE)]
    )
    location_geojson = models.JSONField(_("location (GeoJSON)"), null=True, blank=True)
    geolocation_confidential = models.BooleanField(_("geolocation confidential"), default=False)
    upstream_dds_reference = models.CharField(_("upstream DDS reference number"), max_length=14, blank=True)
    upstream_dds_verification = models.CharField(
        _("upstream DDS verification number"), max_length=35, blank=True
    )
    # The EU information system's last answer to verifyDeclaration for the upstream pair
    # (apps/eudr/verification.py): checked when entered and before a statement groups it.
    upstream_verification_result = models.CharField(
        _("upstream verification result"), max_length=20, blank=True, default="", db_default=""
    )
    upstream_verification_status = models.CharField(max_length=20, blank=True, default="", db_default="")
    upstream_verified_at = models.DateTimeField(null=True, blank=True)
    upstream_verification_message = models.CharField(max_length=1000, blank=True, default="", db_default="")
    # The tenant's own statement for this delivery, as the EU information system answered when it was
    # filed (services.raw_material_record_dds). The verification number is never shown publicly.
    dds_reference_number = models.CharField(_("DDS reference number"), max_length=14, blank=True)
    dds_verification_number = models.CharField(_("DDS verification number"), max_length=35, blank=True)
    dds_filed_at = models.DateTimeField(_("DDS filed at"), null=True, blank=True)
    dds_filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A plot outside its declared country of production is an error an internal user resolves: the plot is
    # corrected, or the user confirms with a reason (kept and audited) that it is right (a border, an
    # enclave). The confirmation holds for the plots as they were confirmed (`outside_confirmed_plots` is
    # a digest of the GeoJSON): changed plots are checked again.
    outside_confirmed_at = models.DateTimeField(null=True, blank=True)
    outside_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outside_confirmed_reason = models.CharField(max_length=2000, blank=True, default="", db_default="")
    outside_confirmed_plots = models.CharField(max_length=64, blank=True, default="", db_default="")

    delivery_file = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    vendor_certificate = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    sc_invoice = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    forest_supplier_certificate = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    logging_license = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    location_file = models.FileField(upload_to=delivery_file_path, max_length=400, blank=True)
    # {kind: {"name", "size", "content_type", "uploaded_at"}}: what lists show without touching storage.
    files_meta = models.JSONField(default=dict, blank=True)

    # The policy snapshot (copied when the delivery is submitted; never rewritten by policy changes).
    policy = models.ForeignKey(
        SupplierPolicy, null=True, blank=True, on_delete=models.SET_NULL, related_name="deliveries"
    )
    min_consumption_per_carton = models.DecimalField(
        _("minimum consumption per carton (kg)"), max_digits=10, decimal_places=3, default=Decimal("0.100")
    )
    loss_rate_percent = models.DecimalField(
        _("loss rate (%)"), max_digits=5, decimal_places=2, default=Decimal("0")
    )
    cap_mode = models.CharField(
        _("carton cap"), max_length=20, choices=SupplierPolicy.CapMode.choices, default="by_weight"
    )
    cap_value = models.PositiveIntegerField(null=True, blank=True)
    allowed_carton_cap = models.PositiveIntegerField(_("allowed carton cap"), null=True, blank=True)
    policy_source = models.CharField(_("policy source"), max_length=300, blank=True)
    approved_over_cap = models.PositiveIntegerField(_("approved over cap"), default=0)

    # The weight balance, changed only under the row lock (services/).
    original_kg = models.DecimalField(max_digits=14, decimal_places=3, default=Decimal("0"))
    used_kg = models.DecimalField(max_digits=14, decimal_places=3, default=Decimal("0"))
    issued_cartons = models.PositiveIntegerField(_("issued cartons"), default=0)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "parent_vendor"

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("raw-material delivery")
        verbose_name_plural = _("raw-material deliveries")
        permissions = [("approve_over_cap", _("Can approve cartons over a delivery's cap"))]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "parent_vendor", "delivery_number"],
                condition=~Q(delivery_number=""),
                name="eudr_delivery_vendor_number_unique",
            ),
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("eudr_delivery_status_idx", "status"),
            tenant_ordering_index("eudr_delivery_created_idx", "created_at"),
            tenant_ordering_index("eudr_delivery_updated_idx", "updated_at"),
            tenant_ordering_index("eudr_delivery_number_idx", "delivery_number"),
            tenant_ordering_index("eudr_delivery_cartons_idx", "issued_cartons"),
        ]

    def __str__(self) -> str:
        return self.delivery_number or f"draft #{self.pk}"

    @property
    def certificate_expiry(self):
        return certificate_expiry_of(self.fm_certificate_expiry, self.coc_certificate_expiry)

    def plots_outside_country(self) -> list[int]:
        """The plots (0-based) whose coordinates lie outside their declared country of production."""
        if not self.location_geojson:
            return []
        from apps.eudr.geo import validate_geojson

        found = validate_geojson(self.location_geojson).problems
        return sorted({p.feature for p in found if p.code == "outside_country" and p.feature is not None})

    def outside_confirmed(self) -> bool:
        """An internal user confirmed the plots outside their country, as they are now."""
        from apps.eudr.geo import geojson_digest

        return bool(self.outside_confirmed_at) and self.outside_confirmed_plots == geojson_digest(
            self.location_geojson
        )

    def effective_status(self, today=None) -> str:
        """The status to show and to act on: an active delivery past a certificate's expiry is expired."""
        return effective_status_of(
            self.status,
            self.fm_certificate_expiry,
            self.coc_certificate_expiry,
            today or timezone.localdate(),
        )

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class RawMaterialLine(TenantModel):
    """One material of a delivery (a delivery can hold several, e.g. liner and fluting paper)."""

    delivery = models.ForeignKey(RawMaterialDelivery, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField(default=0)
    material_type = models.CharField(
        _("material type"), max_length=20, choices=MaterialType.choices, blank=True
    )
    weight_kg = models.DecimalField(_("weight (kg)"), max_digits=14, decimal_places=3, null=True, blank=True)
    pulp_type = models.CharField(_("pulp type"), max_length=20, choices=PulpType.choices, blank=True)
    pulp_brand = models.CharField(_("pulp brand"), max_length=200, blank=True)
    scientific_names = models.JSONField(_("scientific names"), default=list, blank=True)
    common_names = models.JSONField(_("common names"), default=list, blank=True)

    supplier_scope = "delivery__parent_vendor"

    class Meta:
        verbose_name = _("raw-material line")
        verbose_name_plural = _("raw-material lines")
        ordering = ["delivery_id", "position", "id"]


class CapApproval(TenantModel):
    """Extra cartons an internal user allowed over a delivery's cap: who, when, how many, why."""

    delivery = models.ForeignKey(RawMaterialDelivery, on_delete=models.CASCADE, related_name="cap_approvals")
    extra_cartons = models.PositiveIntegerField(
        _("extra cartons"), validators=[MinValueValidator(1), MaxValueValidator(MAX_CARTONS)]
    )
    reason = models.TextField(_("reason"), max_length=2000)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField(default=timezone.now)

    supplier_scope = "delivery__parent_vendor"

    class Meta:
        verbose_name = _("cap approval")
        verbose_name_plural = _("cap approvals")
        ordering = ["-approved_at", "-id"]


class ProductionBatch(TenantModel):
    """A production run of one product from one delivery's paper, identified by its batch code (date +
    letter, e.g. 20261121A, unique in the tenant). Generating again with the same code on the same
    delivery continues the batch's label sequence."""

    delivery = models.ForeignKey(RawMaterialDelivery, on_delete=models.PROTECT, related_name="batches")
    production_batch_code = models.CharField(_("production batch code"), max_length=9)
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    purchase_order_line = models.ForeignKey(
        "purchaseorders.PurchaseOrderLine", on_delete=models.PROTECT, related_name="production_batches"
    )
    container = models.CharField(_("container"), max_length=50, blank=True)
    net_weight_per_carton_kg = models.DecimalField(max_digits=10, decimal_places=3)
    carton_count = models.PositiveIntegerField(default=0)
    last_sequence = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "delivery__parent_vendor"

    class Meta:
        verbose_name = _("production batch")
        verbose_name_plural = _("production batches")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "production_batch_code"], name="eudr_batch_tenant_code_unique"
            )
        ]

    def __str__(self) -> str:
        return self.production_batch_code


class CartonLabel(TenantModel):
    """One carton's label: the public code behind its QR code consumes `net_weight_kg` of the delivery.

    `code` is random (secrets) and unique across ALL tenants: the public trace page finds the carton by it
    without knowing the tenant. Deleting a label voids it (the code is never reused) and gives its weight
    back to the delivery; only a label whose carton never reached the warehouse can be voided
    (`apps.inventory.carton_life`).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        VOIDED = "voided", _("Voided")

    batch = models.ForeignKey(ProductionBatch, on_delete=models.PROTECT, related_name="labels")
    raw_material = models.ForeignKey(RawMaterialDelivery, on_delete=models.PROTECT, related_name="labels")
    code = models.CharField(_("code"), max_length=32, unique=True)
    production_batch_code = models.CharField(_("production batch code"), max_length=9)
    batch_sequence = models.PositiveIntegerField(_("batch sequence"))
    product = models.ForeignKey("products.Product", on_delete=models.PROTECT, related_name="+")
    article_number = models.CharField(_("article number"), max_length=64)
    purchase_order_line = models.ForeignKey(
        "purchaseorders.PurchaseOrderLine", on_delete=models.PROTECT, related_name="carton_labels"
    )
    purchase_order = models.CharField(_("purchase order"), max_length=50)
    container = models.CharField(_("container"), max_length=50, blank=True)
    net_weight_kg = models.DecimalField(_("net weight (kg)"), max_digits=10, decimal_places=3)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    # Who voided the label and why (a label is voided only before its carton reached the warehouse).
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    void_reason = models.CharField(
        _("reason for voiding"), max_length=200, blank=True, default="", db_default=""
    )

    supplier_scope = "raw_material__parent_vendor"

    class Meta:
        verbose_name = _("carton label")
        verbose_name_plural = _("carton labels")
        ordering = ["production_batch_code", "batch_sequence", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "batch", "batch_sequence"], name="eudr_label_batch_sequence_unique"
            )
        ]
        indexes = [
            models.Index(fields=["tenant", "raw_material", "status"], name="eudr_label_material_idx"),
            # what the carton list sends (`production_batch_code,batch_sequence`), ties in id order
            models.Index(
                fields=["tenant", "production_batch_code", "batch_sequence", "id"],
                name="eudr_label_batch_idx",
            ),
            # the list's default order (newest first, then batch and sequence, ties in id order)
            models.Index(
                fields=["tenant", "-created_at", "production_batch_code", "batch_sequence", "id"],
                name="eudr_label_created_idx",
            ),
            tenant_ordering_index("eudr_label_created_at_idx", "created_at"),
            tenant_ordering_index("eudr_label_batch_code_idx", "production_batch_code"),
            tenant_ordering_index("eudr_label_article_idx", "article_number"),
            tenant_ordering_index("eudr_label_sequence_idx", "batch_sequence"),
        ]

    def __str__(self) -> str:
        return self.code


class PublicTrace(models.Model):
    """The finished public trace answer of one active carton, keyed by its public code (GET
    /api/eudrtrack/{code}/, apps/eudr/trace_store.py).

    Precomputed whenever anything it shows changes, so a scan reads this one row: no tenant, no
    row-level security (the table holds nothing but the public allow-list of apps/eudr/public_trace.py,
    and is deliberately outside the tenant tables), no joins. `body` is the exact JSON the endpoint
    answers; `etag` its strong hash; `max_age` the company's setting for how long the answer may be
    cached (browsers, CDNs). A voided carton has no row.
    """

    code = models.CharField(max_length=32, primary_key=True)
    label_id = models.BigIntegerField(unique=True)
    body = models.BinaryField()
    etag = models.CharField(max_length=66)
    max_age = models.PositiveIntegerField(default=300)
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("public trace")
        verbose_name_plural = _("public traces")

    def __str__(self) -> str:
        return self.code


# Filing with the EU information system (its own module; re-exported so Django finds the models here).
from apps.eudr.dds.job_models import DdsPackageJob  # noqa: E402, F401
from apps.eudr.filing_models import (  # noqa: E402, F401
    DdsCoveredCarton,
    DdsSubmission,
    DdsSubmissionEvent,
    DdsSubmissionShipment,
    TracesAccount,
)
from apps.eudr.received_models import ReceivedReference  # noqa: E402, F401
