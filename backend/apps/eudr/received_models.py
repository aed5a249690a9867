"""The reference numbers a downstream operator or trader receives from its suppliers (Regulation (EU)
2023/1115 as amended by 2025/2650, Article 5: collect and keep them for 5 years), each with the EU
information system's answer to `verifyDeclaration` and its time (docs/eudr.md, "Received reference
numbers")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel

RETENTION_YEARS = 5


class VerificationResult(models.TextChoices):
    NOT_CHECKED = "", _("Not checked")
    EXISTING_USABLE = "EXISTING_USABLE", _("Exists and may be relied on")
    EXISTING_NON_USABLE = "EXISTING_NON_USABLE", _("Exists but may not be relied on (withdrawn or archived)")
    NON_EXISTENT = "NON_EXISTENT", _("No declaration has these numbers")


class VerifiedReferenceFields(models.Model):
    """The last verification of a reference and verification number pair."""

    verification_result = models.CharField(
        _("verification result"), max_length=20, choices=VerificationResult.choices, blank=True
    )
    # The declaration's lifecycle status the system answered (AVAILABLE, WITHDRAWN, ...).
    verification_status = models.CharField(_("declaration status"), max_length=20, blank=True)
    verified_at = models.DateTimeField(_("verified at"), null=True, blank=True)
    # Why the last attempt gave no answer (no TRACES account, the system did not answer), in words.
    verification_message = models.CharField(max_length=1000, blank=True)

    class Meta:
        abstract = True


class ReceivedReference(TenantModel, VerifiedReferenceFields):
    """One reference number (or simplified-declaration identifier) received from a supplier with goods."""

    class Kind(models.TextChoices):
        DDS = "dds", _("Due diligence statement")
        SD = "sd", _("Simplified declaration")

    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        on_delete=models.PROTECT,
        related_name="received_references",
        verbose_name=_("supplier"),
    )
    # The receipt it came with: the supplier's delivery note or invoice number, and the date received.
    document_number = models.CharField(_("delivery note or invoice"), max_length=100)
    received_on = models.DateField(_("received on"), default=timezone.localdate)
    reference_number = models.CharField(_("reference number"), max_length=14)
    verification_number = models.CharField(_("verification number"), max_length=35)
    kind = models.CharField(_("kind"), max_length=3, choices=Kind.choices)
    notes = models.CharField(_("notes"), max_length=500, blank=True)
    keep_until = models.DateField(_("keep until"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "parent_vendor"

    class Meta:
        verbose_name = _("received reference number")
        verbose_name_plural = _("received reference numbers")
        ordering = ["-received_on", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "parent_vendor", "document_number", "reference_number"],
                name="eudr_received_reference_unique",
            )
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("eudr_received_ref_idx", "reference_number"),
            tenant_ordering_index("eudr_received_on_idx", "received_on"),
            tenant_ordering_index("eudr_received_verified_idx", "verified_at"),
            tenant_ordering_index("eudr_received_created_idx", "created_at"),
        ]

    def __str__(self) -> str:
        return self.reference_number
