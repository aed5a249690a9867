"""The due diligence system of Regulation (EU) 2023/1115 (docs/duediligence.md).

- `CountryBenchmark` / `CountryRiskLevel`: the Commission's country benchmark (Art. 29; Implementing
  Regulation (EU) 2025/1093), one list per act, installation-wide (the law is the same for every tenant).
- `AuditEntry`: one changed field of a record the due diligence rests on (who, when, field, old, new).
  Written by the model signals of `audit.py` on every save and delete; never changed or deleted.
- `RetentionHold`: from the moment a delivery's statement is filed or its reference recorded, the
  delivery and everything it rests on are kept for five years (Art. 12(3)).
- `RecordArchive`: "delete" of a kept record: who, when and why it was archived or its statement voided.
- `RiskAssessment`: the Art. 10(2) checklist with evidence, the conclusion and the Art. 11 mitigation,
  for one delivery (its statement) or one supplier relationship (a parent vendor). Append-only: a new
  assessment supersedes the previous one, which is kept.
- `FilingOverride`: an authorised user's decision to file without a negligible assessment, with a reason.
- `SubstantiatedConcern`: a concern against a supplier, a delivery or a statement; blocks new statements
  on what it names until resolved with a reason.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


class RiskLevel(models.TextChoices):
    LOW = "low", _("Low risk")
    STANDARD = "standard", _("Standard risk")
    HIGH = "high", _("High risk")


class CountryBenchmark(models.Model):
    """One list of the Commission's country classification (installation-wide, not tenant data)."""

    act_reference = models.CharField(_("act"), max_length=200)
    act_date = models.DateField(_("date of the act"))
    # The level of a country the list does not name (the regulation's default is standard).
    default_level = models.CharField(max_length=10, choices=RiskLevel.choices, default=RiskLevel.STANDARD)
    source = models.CharField(max_length=500, blank=True)
    loaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("country benchmark")
        verbose_name_plural = _("country benchmarks")
        ordering = ["-act_date", "-loaded_at", "-id"]

    def __str__(self) -> str:
        return f"{self.act_reference} ({self.act_date})"


class CountryRiskLevel(models.Model):
    benchmark = models.ForeignKey(CountryBenchmark, on_delete=models.CASCADE, related_name="levels")
    country_code = models.CharField(max_length=2)
    level = models.CharField(max_length=10, choices=RiskLevel.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["benchmark", "country_code"], name="dd_country_level_unique")
        ]

    def __str__(self) -> str:
        return f"{self.country_code}: {self.level}"


class AuditEntry(TenantModel):
    class Action(models.TextChoices):
        CREATE = "create", _("Created")
        CHANGE = "change", _("Changed")
        DELETE = "delete", _("Deleted")

    at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Kept beside the id: the trail must still say who when the account is gone.
    username = models.CharField(max_length=150, blank=True)
    record_type = models.CharField(max_length=100)
    record_id = models.BigIntegerField()
    # Plain ids, not foreign keys: the trail outlives a deleted draft.
    delivery_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    submission_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    field = models.CharField(max_length=100, blank=True)
    old_value = models.TextField(blank=True)
    new_value = models.TextField(blank=True)

    supplier_scope = None

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["-at", "-id"]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            from apps.duediligence.errors import AuditImmutable

            raise AuditImmutable()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        from apps.duediligence.errors import AuditImmutable

        raise AuditImmutable()


class RetentionHold(TenantModel):
    class Reason(models.TextChoices):
        FILED = "filed", _("Statement filed through the product")
        RECORDED = "recorded", _("Statement reference recorded by hand")

    delivery = models.OneToOneField(
        "eudr.RawMaterialDelivery", on_delete=models.PROTECT, related_name="retention_hold"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices)
    reference_number = models.CharField(max_length=14, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    keep_until = models.DateTimeField()

    supplier_scope = "delivery__parent_vendor"

    class Meta:
        verbose_name = _("retention hold")
        verbose_name_plural = _("retention holds")


class RecordArchive(TenantModel):
    class Kind(models.TextChoices):
        DELIVERY_ARCHIVED = "delivery_archived", _("Delivery archived")
        STATEMENT_VOIDED = "statement_voided", _("Recorded statement voided")

    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery", on_delete=models.PROTECT, related_name="archives"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(max_length=2000)
    # What the record said when it was archived or voided (e.g. the voided reference number).
    details = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    supplier_scope = None

    class Meta:
        verbose_name = _("archived record")
        verbose_name_plural = _("archived records")
        ordering = ["-at", "-id"]


class RiskAssessment(TenantModel):
    class Conclusion(models.TextChoices):
        NEGLIGIBLE = "negligible", _("Negligible risk")
        NOT_NEGLIGIBLE = "not_negligible", _("Not negligible")

    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="risk_assessments",
    )
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor", on_delete=models.PROTECT, related_name="risk_assessments"
    )
    # [{"code": "a".."n", "finding": "no_risk"|"risk", "evidence": "..."}], one per Art. 10(2) criterion.
    criteria = models.JSONField(default=list)
    conclusion = models.CharField(max_length=20, choices=Conclusion.choices)
    # [{"kind": "more_information"|"independent_audit"|"other", "description": "...", "evidence": "..."}]
    mitigation = models.JSONField(default=list, blank=True)
    summary = models.TextField(blank=True, max_length=4000)
    # The benchmark levels the assessment saw ({"CN": "low", ...}) with the act.
    country_levels = models.JSONField(default=dict, blank=True)
    benchmark = models.CharField(max_length=250, blank=True)
    assessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    assessed_at = models.DateTimeField(default=timezone.now)

    supplier_scope = None

    class Meta:
        verbose_name = _("risk assessment")
        verbose_name_plural = _("risk assessments")
        ordering = ["-assessed_at", "-id"]
        permissions = [
            ("override_filing_gate", _("Can file a statement without a negligible risk assessment"))
        ]


class FilingOverride(TenantModel):
    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery", on_delete=models.PROTECT, related_name="filing_overrides"
    )
    reason = models.CharField(max_length=2000)
    # What the gate said when the override was recorded.
    blocked_by = models.JSONField(default=list, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    supplier_scope = None

    class Meta:
        verbose_name = _("filing override")
        verbose_name_plural = _("filing overrides")
        ordering = ["-at", "-id"]


class SubstantiatedConcern(TenantModel):
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    submission = models.ForeignKey(
        "eudr.DdsSubmission", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    description = models.TextField(_("concern"), max_length=4000)
    source = models.CharField(_("source"), max_length=300, blank=True)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_at = models.DateTimeField(default=timezone.now)
    resolution = models.TextField(blank=True, max_length=4000)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    supplier_scope = None

    class Meta:
        verbose_name = _("substantiated concern")
        verbose_name_plural = _("substantiated concerns")
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(parent_vendor__isnull=False, delivery__isnull=True, submission__isnull=True)
                    | Q(parent_vendor__isnull=True, delivery__isnull=False, submission__isnull=True)
                    | Q(parent_vendor__isnull=True, delivery__isnull=True, submission__isnull=False)
                ),
                name="dd_concern_names_one_record",
            )
        ]

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class ForestLayer(models.Model):
    """A raster layer of the 2020 forest check (installation-wide, like the country benchmark: the same
    forest map serves every company). The GeoTIFF is kept through the storage API; `bounds` are its
    extent in WGS84 (west, south, east, north), so only the plots within it are read."""

    class Kind(models.TextChoices):
        FOREST_2020 = "forest_2020", _("Forest cover on 31 December 2020")
        LOSS_YEAR = "loss_year", _("Year of tree-cover loss")

    STALE_AFTER = timedelta(minutes=30)

    class Status(models.TextChoices):
        UPLOADED = "uploaded", _("Uploaded")
        PROCESSING = "processing", _("Processing")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # Where the layer comes from and its edition, e.g. "JRC GFC2020 v2" published 2023-10-01.
    source = models.CharField(_("source"), max_length=300, blank=True, default="", db_default="")
    layer_date = models.DateField(_("date of the layer"))
    file = models.FileField(upload_to="forest_layers/", max_length=300)
    file_name = models.CharField(max_length=255, blank=True, default="", db_default="")
    size = models.BigIntegerField(default=0, db_default=0)
    width = models.IntegerField(default=0, db_default=0)
    height = models.IntegerField(default=0, db_default=0)
    crs = models.CharField(max_length=100, blank=True, default="", db_default="")
    # [west, south, east, north] in WGS84 degrees.
    bounds = models.JSONField(default=list, blank=True)
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.UPLOADED, db_default=Status.UPLOADED
    )
    progress = models.IntegerField(default=0, db_default=0)  # 0..100
    plots_done = models.IntegerField(default=0, db_default=0)
    message = models.CharField(max_length=2000, blank=True, default="", db_default="")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_by_name = models.CharField(max_length=150, blank=True, default="", db_default="")
    uploaded_at = models.DateTimeField(default=timezone.now)
    processed_at = models.DateTimeField(null=True, blank=True)
    # The last sign of life of its processing (start, progress, end): a job that stops giving any is stale.
    progress_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("forest layer")
        verbose_name_plural = _("forest layers")
        ordering = ["-uploaded_at", "-id"]
        permissions = [("manage_forestlayer", _("Can upload and delete forest layers"))]

    def __str__(self) -> str:
        return f"{self.name} ({self.layer_date})"

    @property
    def stale(self) -> bool:
        """Waiting or processing, with no sign of life for STALE_AFTER: its job was lost (a worker
        stopped, a message dropped); it may be processed again or deleted."""
        if self.status not in (self.Status.UPLOADED, self.Status.PROCESSING):
            return False
        return (self.progress_at or self.uploaded_at) < timezone.now() - self.STALE_AFTER

    @property
    def label(self) -> str:
        """The layer as results quote it: its name, source and date."""
        parts = [self.name] + ([self.source] if self.source else [])
        return f"{', '.join(parts)} ({self.layer_date.isoformat()})"


class ForestResult(TenantModel):
    """What one layer says about one plot of a delivery (docs/duediligence.md, "The 2020 forest check").
    The layer's name, source and date are copied: the result stays readable with the records kept."""

    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery", on_delete=models.CASCADE, related_name="forest_results"
    )
    plot_index = models.IntegerField()  # 0-based position of the plot in the delivery's plots
    plot_id = models.CharField(max_length=200, blank=True, default="", db_default="")
    # A plain id, not a foreign key: the layer is installation-wide and outside row-level security.
    layer_id = models.BigIntegerField(db_index=True)
    layer_kind = models.CharField(max_length=20, choices=ForestLayer.Kind.choices)
    layer_name = models.CharField(max_length=200)
    layer_source = models.CharField(max_length=300, blank=True, default="", db_default="")
    layer_date = models.DateField()
    cells = models.IntegerField(default=0, db_default=0)
    forest_share = models.FloatField(null=True, blank=True)
    loss_cells_after_cutoff = models.IntegerField(default=0, db_default=0)
    loss_years = models.JSONField(default=list, blank=True)
    # Digest of the delivery's plots the result was computed from (changed plots are computed again).
    plots_digest = models.CharField(max_length=64, blank=True, default="", db_default="")
    computed_at = models.DateTimeField(default=timezone.now)

    supplier_scope = None

    class Meta:
        verbose_name = _("forest check result")
        verbose_name_plural = _("forest check results")
        ordering = ["plot_index", "layer_kind", "-layer_date", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "delivery", "layer_id", "plot_index"], name="dd_forest_result_unique"
            )
        ]

    @property
    def loss_after_cutoff(self) -> bool:
        return self.loss_cells_after_cutoff > 0
