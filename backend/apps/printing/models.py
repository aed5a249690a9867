"""Label printers on the factories' networks, the print agents that reach them, and the print jobs.

A browser cannot open TCP port 9100 of a printer on the LAN, so a small agent (printagent/) runs next
to the printers: it pairs once with a one-time code, then only calls out (heartbeat, long-poll for
jobs, result). The server stores a SHA-256 hash of the agent's token, never the token itself; the
token decides the tenant of every `/api/printer/` request (docs/printing.md).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel

AGENT_OFFLINE_AFTER = timedelta(seconds=90)


class PrinterStatus(models.TextChoices):
    """A printer's state in words, decoded from its `~HS` answer (apps/printing/hoststatus.py)."""

    UNKNOWN = "unknown", _("unknown")
    READY = "ready", _("ready")
    PAPER_OUT = "paper_out", _("paper out")
    HEAD_OPEN = "head_open", _("head open")
    PAUSED = "paused", _("paused")
    RIBBON_OUT = "ribbon_out", _("ribbon out")
    NO_ANSWER = "no_answer", _("no answer")
    UNREACHABLE = "unreachable", _("unreachable")


class PrintAgent(TenantModel):
    """A paired print agent. `token_hash` is the SHA-256 of the token the agent holds."""

    name = models.CharField(_("name"), max_length=100)
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("parent vendor"),
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    token_hint = models.CharField(max_length=8, editable=False, help_text="The token's first characters.")
    hostname = models.CharField(_("host name"), max_length=200, blank=True)
    version = models.CharField(_("version"), max_length=40, blank=True)
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("print agent")
        verbose_name_plural = _("print agents")
        ordering = ["name", "id"]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("printagent_tenant_name", "name"),
            tenant_ordering_index("printagent_tenant_seen", "last_seen_at"),
            tenant_ordering_index("printagent_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_online(self) -> bool:
        return bool(
            self.is_active and self.last_seen_at and timezone.now() - self.last_seen_at < AGENT_OFFLINE_AFTER
        )


class PairingCode(TenantModel):
    """A one-time code shown on /printer/integration; pairing with it creates an agent. Stored hashed."""

    code_hash = models.CharField(max_length=64, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=100)
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    agent = models.ForeignKey(PrintAgent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("pairing code")
        verbose_name_plural = _("pairing codes")
        ordering = ["-created_at"]


class DocumentType(models.TextChoices):
    CARTON_LABEL = "carton_label", _("Carton labels")
    TEST_LABEL = "test_label", _("Test label")


class PrinterDevice(TenantModel):
    """A ZPL label printer reached by an agent over raw TCP (port 9100)."""

    class Resolution(models.IntegerChoices):
        DPI_203 = 203, "203 dpi"
        DPI_300 = 300, "300 dpi"
        DPI_600 = 600, "600 dpi"

    name = models.CharField(_("name"), max_length=100)
    site = models.CharField(_("site"), max_length=100, blank=True)
    warehouse = models.ForeignKey(
        "inventory.Warehouse",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("warehouse"),
    )
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("parent vendor"),
    )
    agent = models.ForeignKey(
        PrintAgent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="printers",
        verbose_name=_("agent"),
    )
    host = models.CharField(_("host"), max_length=253)
    port = models.PositiveIntegerField(
        _("port"), default=9100, validators=[MinValueValidator(1), MaxValueValidator(65535)]
    )
    dpi = models.PositiveSmallIntegerField(_("resolution"), choices=Resolution.choices, default=203)
    label_width_mm = models.DecimalField(
        _("label width (mm)"),
        max_digits=5,
        decimal_places=1,
        default=100,
        validators=[MinValueValidator(20), MaxValueValidator(220)],
    )
    label_height_mm = models.DecimalField(
        _("label height (mm)"),
        max_digits=5,
        decimal_places=1,
        default=150,
        validators=[MinValueValidator(20), MaxValueValidator(400)],
    )
    template = models.CharField(_("template"), max_length=20, default="default")
    is_location_default = models.BooleanField(_("default for its location"), default=False)
    default_for_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("default for user"),
    )
    default_document_type = models.CharField(
        _("default for document type"), max_length=20, choices=DocumentType.choices, blank=True
    )
    last_status = models.CharField(
        _("last status"), max_length=20, choices=PrinterStatus.choices, default=PrinterStatus.UNKNOWN
    )
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    supplier_scope = "parent_vendor"

    class Meta:
        verbose_name = _("printer")
        verbose_name_plural = _("printers")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="printing_printer_name_unique"),
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("printer_tenant_site", "site"),
            tenant_ordering_index("printer_tenant_seen", "last_seen_at"),
            tenant_ordering_index("printer_tenant_status", "last_status"),
            tenant_ordering_index("printer_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name


class PrintJob(TenantModel):
    """One print request to one printer. Queued -> sent (an agent picked it up) -> printed / failed, or
    expired when no agent picked it up in time. `idempotency_key` travels with the job to the agent,
    which never prints a key twice; a reprint is a new job (`copy_number` > 1, or the same number when the
    job it repeats printed nothing)."""

    class Source(models.TextChoices):
        CARTON_LABELS = "carton_labels", _("Carton labels")
        TEST_LABEL = "test_label", _("Test label")
        RAW_ZPL = "raw_zpl", _("Raw ZPL")
        STATUS_CHECK = "status_check", _("Status check")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        PRINTED = "printed", _("printed")
        FAILED = "failed", _("failed")
        EXPIRED = "expired", _("expired")

    printer = models.ForeignKey(
        PrinterDevice, on_delete=models.PROTECT, related_name="jobs", verbose_name=_("printer")
    )
    source = models.CharField(_("source"), max_length=20, choices=Source.choices)
    template = models.CharField(_("template"), max_length=20, blank=True)
    label_ids = models.JSONField(default=list, blank=True)
    label_filter = models.JSONField(default=dict, blank=True)
    label_count = models.PositiveIntegerField(_("labels"), default=0)
    copies = models.PositiveSmallIntegerField(
        _("copies"), default=1, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    copy_number = models.PositiveSmallIntegerField(_("copy"), default=1)
    reprint_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reprints"
    )
    zpl = models.TextField(blank=True)
    idempotency_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.CharField(_("error"), max_length=500, blank=True)
    printer_status = models.JSONField(default=dict, blank=True)
    # What the agent says reached the printer: False when it refused before sending (printer not ready,
    # unreachable), so the job printed nothing and printing it again is the same print, not a copy;
    # None when not known (an agent that does not say, a connection lost while sending).
    data_sent = models.BooleanField(_("data sent"), null=True, blank=True)
    agent = models.ForeignKey(PrintAgent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    expires_at = models.DateTimeField()

    supplier_scope = "printer__parent_vendor"

    class Meta:
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["tenant", "status", "expires_at"], name="printing_job_status_idx"),
            models.Index(fields=["tenant", "printer", "-created_at"], name="printing_job_printer_idx"),
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("printjob_tenant_created", "created_at"),
            tenant_ordering_index("printjob_tenant_status", "status"),
            tenant_ordering_index("printjob_tenant_finished", "finished_at"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_source_display()}"

    @property
    def printed_nothing(self) -> bool:
        """Nothing of this job can have come out of the printer: it expired before an agent took it, or the
        agent refused it before sending any data."""
        return self.status == self.Status.EXPIRED or (
            self.status == self.Status.FAILED and self.data_sent is False
        )

    @property
    def waits_for_agent(self) -> bool:
        """Queued for a printer whose agent is offline: it waits until the agent is back (or it expires)."""
        if self.status != self.Status.QUEUED:
            return False
        agent = self.printer.agent
        return agent is None or not agent.is_online
