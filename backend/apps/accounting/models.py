"""The accounting integration (docs/accounting.md): one connection per tenant to Visma.net ERP or Visma
eAccounting, the mapping of local records to the accounting system's ids, and the outbox that is also the
sync log (every push, with its idempotency key, attempts, outcome and the accounting system's message)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.common.secrets import EncryptedTextField
from apps.tenancy.models import TenantModel


class Provider(models.TextChoices):
    VISMA_NET = "visma_net", "Visma.net ERP"  # product names are not translated
    VISMA_EACCOUNTING = "visma_eaccounting", "Visma eAccounting"


class SupplierLevel(models.TextChoices):
    PARENT_VENDOR = "parent_vendor", _("Parent vendors")
    SUPPLIER = "supplier", _("Suppliers")


class AccountingConnection(TenantModel):
    """The tenant's accounting system. Secrets (client secret, refresh and access tokens) are stored
    encrypted and never returned by the API. The access token is renewed under a row lock
    (services.access_token), so two workers never both spend a rotating refresh token."""

    provider = models.CharField(_("provider"), max_length=30, choices=Provider.choices)
    enabled = models.BooleanField(_("enabled"), default=True)
    base_url = models.URLField(_("API base URL"), max_length=300)
    token_url = models.URLField(_("token URL"), max_length=300)
    client_id = models.CharField(_("client id"), max_length=200)
    client_secret = EncryptedTextField(_("client secret"), blank=True)
    scope = models.CharField(_("scope"), max_length=500, blank=True)
    company_id = models.CharField(_("company id"), max_length=100, blank=True)
    refresh_token = EncryptedTextField(_("refresh token"), blank=True)
    access_token = EncryptedTextField(_("access token"), blank=True)
    access_token_expires_at = models.DateTimeField(null=True, blank=True)
    supplier_level = models.CharField(
        _("suppliers pushed as"), max_length=20, choices=SupplierLevel.choices, default=SupplierLevel.SUPPLIER
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    last_test_at = models.DateTimeField(null=True, blank=True)
    last_test_ok = models.BooleanField(null=True, blank=True)
    last_test_message = models.CharField(max_length=1000, blank=True)
    first_sync_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("accounting connection")
        verbose_name_plural = _("accounting connections")
        constraints = [models.UniqueConstraint(fields=["tenant"], name="accountingconnection_one_per_tenant")]
        permissions = [("manage", _("Can manage the accounting integration"))]

    def __str__(self) -> str:
        return f"{self.get_provider_display()} {self.company_id}".strip()


class MappingKind(models.TextChoices):
    CUSTOMER = "customer", _("Customer")
    SUPPLIER = "supplier", _("Supplier")
    PARENT_VENDOR = "parent_vendor", _("Parent vendor")
    ARTICLE = "article", _("Article")
    VAT_CODE = "vat_code", _("VAT code")
    PAYMENT_TERM = "payment_term", _("Payment term")
    INVOICE = "invoice", _("Invoice")
    CREDIT_NOTE = "credit_note", _("Credit note")


class Mapping(TenantModel):
    """A local record and its id in the accounting system, with the hash of the payload last pushed (a
    changed record hashes differently and is pushed again). `local_key` is the record's primary key, or
    for VAT codes the rate ("25.00") and for payment terms the days ("30"). For documents it also keeps
    the payment status read back."""

    kind = models.CharField(_("kind"), max_length=20, choices=MappingKind.choices)
    local_key = models.CharField(_("local record"), max_length=64)
    local_label = models.CharField(_("local name"), max_length=300, blank=True)
    external_id = models.CharField(_("external id"), max_length=100, blank=True)
    payload_hash = models.CharField(max_length=64, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)
    external_status = models.CharField(_("external status"), max_length=50, blank=True)
    external_open_amount = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    status_read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("accounting mapping")
        verbose_name_plural = _("accounting mappings")
        ordering = ["kind", "local_label", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "kind", "local_key"], name="mapping_tenant_kind_key")
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            models.Index(fields=["tenant", "kind", "local_label", "id"], name="mapping_tenant_default"),
            tenant_ordering_index("mapping_tenant_kind", "kind"),
            tenant_ordering_index("mapping_tenant_label", "local_label"),
            tenant_ordering_index("mapping_tenant_external", "external_id"),
            tenant_ordering_index("mapping_tenant_pushed", "pushed_at"),
            tenant_ordering_index("mapping_tenant_updated", "updated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.local_key} -> {self.external_id}"


class SyncEntry(TenantModel):
    """One thing to send to (or read from) the accounting system: the outbox row and its log line.

    `idempotency_key` is unique per tenant: enqueueing the same push twice finds the existing row. A
    document entry that was tried before looks its number up in the accounting system before creating it
    again, so an attempt whose answer was lost creates nothing twice. A credit note's entry waits for its
    invoice's (`depends_on`)."""

    class Action(models.TextChoices):
        CREATE = "create", _("Create")
        UPDATE = "update", _("Update")
        READ_STATUS = "read_status", _("Read payment status")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        SKIPPED = "skipped", _("Skipped")

    idempotency_key = models.CharField(max_length=120)
    kind = models.CharField(_("record type"), max_length=20, choices=MappingKind.choices)
    record_id = models.PositiveBigIntegerField(_("record id"))
    record_label = models.CharField(_("record"), max_length=300, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices, default=Action.CREATE)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    external_id = models.CharField(_("external id"), max_length=100, blank=True)
    error = models.CharField(_("error"), max_length=2000, blank=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    depends_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="dependents"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("sync log entry")
        verbose_name_plural = _("sync log")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "idempotency_key"], name="syncentry_tenant_key_unique")
        ]
        indexes = [
            models.Index(fields=["tenant", "status", "next_attempt_at"], name="syncentry_due"),
            models.Index(fields=["tenant", "kind", "record_id"], name="syncentry_record"),
            # the log's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("syncentry_tenant_created", "created_at"),
            tenant_ordering_index("syncentry_tenant_updated", "updated_at"),
            tenant_ordering_index("syncentry_tenant_sent", "sent_at"),
            tenant_ordering_index("syncentry_tenant_status", "status"),
            tenant_ordering_index("syncentry_tenant_kind", "kind"),
            tenant_ordering_index("syncentry_tenant_action", "action"),
            tenant_ordering_index("syncentry_tenant_attempts", "attempts"),
            tenant_ordering_index("syncentry_tenant_next", "next_attempt_at"),
        ]

    def __str__(self) -> str:
        return self.idempotency_key


class AuthorizationRequest(TenantModel):
    """One started eAccounting consent flow (docs/accounting.md, "Connecting eAccounting").

    The browser carries only `state`; what it stands for stays here: the company (the row is a tenant
    row), the user who started it, the redirect URI Visma must be given again at the token URL and the
    PKCE code verifier. The state itself is kept as its SHA-256 (a copied database does not yield a
    usable state). A request is used once (`used_at`) and expires after a few minutes."""

    connection = models.ForeignKey(AccountingConnection, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state_hash = models.CharField(max_length=64)
    redirect_uri = models.URLField(max_length=500)
    code_verifier = EncryptedTextField(blank=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("accounting authorisation")
        verbose_name_plural = _("accounting authorisations")
        constraints = [
            models.UniqueConstraint(fields=["state_hash"], name="authorizationrequest_state_unique")
        ]

    def __str__(self) -> str:
        return f"{self.connection_id} {self.created_at:%Y-%m-%d %H:%M}"
