"""Filing due diligence statements with the EU information system (docs/eudr.md, "Filing from the product").

- `TracesAccount`: the tenant's web-service credentials (TRACES user name, authentication key stored
  encrypted, client id, environment). One per tenant.
- `DdsSubmission`: one statement of one delivery as filed through the product, from the request to its
  end (rejected or withdrawn). `key` is the idempotency key: it names the statement in the system
  (`internal_reference`), so a retried submission first looks it up instead of filing twice. At most one
  live submission (not rejected, not withdrawn) per delivery.
- `DdsSubmissionEvent`: its history (each action and answer, with the system's messages).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.secrets import EncryptedTextField
from apps.tenancy.models import TenantModel


class TracesEnvironment(models.TextChoices):
    ACCEPTANCE = "acceptance", _("Acceptance (training)")
    PRODUCTION = "production", _("Production")


class TracesAccount(TenantModel):
    username = models.CharField(_("TRACES user name"), max_length=200, blank=True)
    auth_key = EncryptedTextField(_("web-service authentication key"), blank=True)
    client_id = models.CharField(_("web-service client id"), max_length=100, blank=True)
    environment = models.CharField(
        _("environment"),
        max_length=20,
        choices=TracesEnvironment.choices,
        default=TracesEnvironment.ACCEPTANCE,
    )
    last_test_at = models.DateTimeField(null=True, blank=True)
    last_test_ok = models.BooleanField(null=True, blank=True)
    # The outcome as the catalogue's English message and its values, translated for whoever reads it
    # (`filing.traces_test_message`): who ran the test and who reads it later may not share a language.
    # The EU system's own words, when it gave some, are stored as they came, with no values.
    last_test_message = models.CharField(max_length=1000, blank=True)
    last_test_params = models.JSONField(default=dict, db_default={}, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = None

    class Meta:
        verbose_name = _("TRACES account")
        verbose_name_plural = _("TRACES accounts")
        constraints = [models.UniqueConstraint(fields=["tenant"], name="eudr_traces_account_one_per_tenant")]

    @property
    def is_complete(self) -> bool:
        return bool(self.username and self.auth_key and self.client_id)


class DdsSubmission(TenantModel):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (not yet accepted by the system)")
        SUBMITTED = "submitted", _("Submitted")
        AVAILABLE = "available", _("Available")
        REJECTED = "rejected", _("Rejected")
        AMENDED = "amended", _("Amended")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        GROUPED = "grouped", _("Grouped")
        ARCHIVED = "archived", _("Archived")

    class Action(models.TextChoices):
        SUBMIT = "submit", _("Submit")
        AMEND = "amend", _("Amend")
        WITHDRAW = "withdraw", _("Withdraw")
        REFRESH = "refresh", _("Refresh status")

    FINAL = (Status.REJECTED, Status.WITHDRAWN)

    # A statement of one raw-material delivery (the shape before statements followed the goods), or empty
    # for a statement around a placing: it then covers the cartons of its inbound shipments
    # (`DdsSubmissionShipment`, `DdsCoveredCarton`, apps/eudr/placing.py).
    delivery = models.ForeignKey(
        "eudr.RawMaterialDelivery",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dds_submissions",
    )
    # The customs declaration that releases the goods for free circulation (placing by import): its
    # number (e.g. the MRN) and date, kept with the statement the broker quotes.
    customs_declaration_number = models.CharField(
        _("customs declaration number"), max_length=40, blank=True, default="", db_default=""
    )
    customs_declaration_date = models.DateField(_("customs declaration date"), null=True, blank=True)
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    internal_reference = models.CharField(max_length=35)
    environment = models.CharField(max_length=20, choices=TracesEnvironment.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    # The action queued or under way ("" when none): a second request waits for it to finish.
    pending_action = models.CharField(max_length=10, choices=Action.choices, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    uuid = models.CharField(max_length=36, blank=True)
    reference_number = models.CharField(max_length=14, blank=True)
    verification_number = models.CharField(max_length=35, blank=True)
    system_status = models.CharField(max_length=20, blank=True)
    # The system's last messages in words: [{"id", "message", "field"}] (rejection, business rules).
    messages = models.JSONField(default=list, blank=True)
    last_error = models.CharField(max_length=2000, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    amended_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    # The system's status is read no sooner than 30 minutes after a submit or amend (docs/eudr.md): the
    # moment the scheduled read (and "refresh now") may ask; empty when no read is waiting.
    status_due_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = None

    @property
    def is_placing(self) -> bool:
        return self.delivery_id is None

    class Meta:
        verbose_name = _("filed due diligence statement")
        verbose_name_plural = _("filed due diligence statements")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["key"], name="eudr_dds_submission_key_unique"),
            models.UniqueConstraint(
                fields=["tenant", "delivery"],
                condition=~Q(status__in=["rejected", "withdrawn"]),
                name="eudr_dds_submission_one_live_per_delivery",
            ),
        ]


class DdsSubmissionShipment(TenantModel):
    """An inbound shipment (one container) whose goods a statement around a placing declares."""

    submission = models.ForeignKey(DdsSubmission, on_delete=models.PROTECT, related_name="shipment_links")
    shipment = models.ForeignKey("logistics.ShipmentInfo", on_delete=models.PROTECT, related_name="+")

    supplier_scope = None

    class Meta:
        ordering = ["submission_id", "shipment_id"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "shipment"], name="eudr_dds_shipment_unique")
        ]


class DdsCoveredCarton(TenantModel):
    """One carton a statement around a placing declares, with the net mass it declared. A carton is
    covered by at most one live statement: `active` turns false when the statement is rejected or
    withdrawn (the row stays, as the record of what it declared)."""

    submission = models.ForeignKey(DdsSubmission, on_delete=models.PROTECT, related_name="covered_cartons")
    label = models.ForeignKey("eudr.CartonLabel", on_delete=models.PROTECT, related_name="coverage")
    delivery = models.ForeignKey("eudr.RawMaterialDelivery", on_delete=models.PROTECT, related_name="+")
    hs_heading = models.CharField(max_length=6)
    net_weight_kg = models.DecimalField(max_digits=10, decimal_places=3)
    active = models.BooleanField(default=True, db_default=True)

    supplier_scope = None

    class Meta:
        ordering = ["submission_id", "label_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "label"],
                condition=Q(active=True),
                name="eudr_dds_carton_covered_once",
            )
        ]
        indexes = [models.Index(fields=["tenant", "submission"], name="eudr_covered_submission")]


class DdsSubmissionEvent(TenantModel):
    submission = models.ForeignKey(DdsSubmission, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=DdsSubmission.Action.choices)
    outcome = models.CharField(max_length=20)  # queued, ok, refused, failed, unknown
    status = models.CharField(max_length=20, blank=True)
    message = models.CharField(max_length=2000, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    supplier_scope = None

    class Meta:
        ordering = ["created_at", "id"]
