"""E-mail scenarios (event -> conditions -> recipients -> template), templates in two languages, the
tenant's own SMTP server and the log of every message (docs/notifications.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.common.secrets import EncryptedTextField
from apps.tenancy.files import tenant_prefix
from apps.tenancy.models import TenantModel


class Language(models.TextChoices):
    EN = "en", _("English")
    ZH = "zh", _("Chinese")


class EmailTemplate(TenantModel):
    """Subject, HTML and plain-text bodies in English and Chinese, written for one event's variables."""

    name = models.CharField(_("name"), max_length=200)
    event = models.CharField(_("event"), max_length=60)
    subject_en = models.CharField(_("subject (English)"), max_length=500, blank=True)
    subject_zh = models.CharField(_("subject (Chinese)"), max_length=500, blank=True)
    body_html_en = models.TextField(_("HTML body (English)"), blank=True)
    body_html_zh = models.TextField(_("HTML body (Chinese)"), blank=True)
    body_text_en = models.TextField(_("text body (English)"), blank=True)
    body_text_zh = models.TextField(_("text body (Chinese)"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("e-mail template")
        verbose_name_plural = _("e-mail templates")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="emailtemplate_tenant_name_unique")
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("emailtemplate_tenant_event", "event"),
            tenant_ordering_index("emailtemplate_tenant_updated", "updated_at"),
            models.Index(fields=["tenant", "id"], name="emailtemplate_tenant_id"),
        ]

    def __str__(self) -> str:
        return self.name


class EmailScenario(TenantModel):
    """When `event` happens and every condition holds, send `template` to the recipients."""

    class LanguageMode(models.TextChoices):
        RECIPIENT = "recipient", _("The recipient's language")
        EN = "en", _("English")
        ZH = "zh", _("Chinese")

    name = models.CharField(_("name"), max_length=200)
    event = models.CharField(_("event"), max_length=60)
    enabled = models.BooleanField(_("enabled"), default=True)
    # [{"field": "order.status", "operator": "eq", "value": "on_hold"}], all must hold
    conditions = models.JSONField(_("conditions"), default=list, blank=True)
    # [{"type": "contact", "role": "supplier"}, {"type": "address", "address": "a@b.c"},
    #  {"type": "role", "role": 3}, {"type": "department", "department": 2}]
    recipients = models.JSONField(_("recipients"), default=list)
    template = models.ForeignKey(EmailTemplate, on_delete=models.PROTECT, related_name="scenarios")
    attachments = models.JSONField(_("attachments"), default=list, blank=True)
    delay_minutes = models.PositiveIntegerField(_("delay (minutes)"), default=0)
    # "N days" of the events that need one (certificate expiring N days ahead, invoice N days overdue)
    days = models.PositiveSmallIntegerField(_("days"), default=7)
    language = models.CharField(
        _("language"), max_length=10, choices=LanguageMode.choices, default=LanguageMode.RECIPIENT
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("e-mail scenario")
        verbose_name_plural = _("e-mail scenarios")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="emailscenario_tenant_name_unique")
        ]
        indexes = [
            models.Index(fields=["tenant", "event", "enabled"], name="emailscenario_event"),
            # the list's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("emailscenario_tenant_event", "event"),
            tenant_ordering_index("emailscenario_tenant_enabled", "enabled"),
            tenant_ordering_index("emailscenario_tenant_updated", "updated_at"),
            models.Index(fields=["tenant", "id"], name="emailscenario_tenant_id"),
        ]

    def __str__(self) -> str:
        return self.name


class SmtpSettings(TenantModel):
    """The tenant's own outgoing mail server (one row per tenant). Without it (or disabled), mail goes
    through the installation's server (EMAIL_* settings) or, in the embedded default, the local outbox."""

    class Security(models.TextChoices):
        NONE = "none", _("None")
        STARTTLS = "starttls", "STARTTLS"  # protocol names are not translated
        SSL = "ssl", "SSL/TLS"

    enabled = models.BooleanField(_("enabled"), default=True)
    host = models.CharField(_("host"), max_length=255)
    port = models.PositiveIntegerField(_("port"), default=587)
    security = models.CharField(
        _("security"), max_length=10, choices=Security.choices, default=Security.STARTTLS
    )
    username = models.CharField(_("user name"), max_length=255, blank=True)
    password = EncryptedTextField(_("password"), blank=True)
    from_email = models.EmailField(_("sender address"))
    from_name = models.CharField(_("sender name"), max_length=200, blank=True)
    reply_to = models.EmailField(_("reply-to address"), blank=True)
    timeout = models.PositiveIntegerField(_("timeout (seconds)"), default=20)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("SMTP settings")
        verbose_name_plural = _("SMTP settings")
        constraints = [models.UniqueConstraint(fields=["tenant"], name="smtpsettings_one_per_tenant")]

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def raw_message_path(instance: EmailMessage, filename: str) -> str:
    return f"{tenant_prefix(instance)}/notifications/raw/{filename}"


class EmailMessage(TenantModel):
    """One message to one recipient, exactly as it was (or will be) sent."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        # committed before the SMTP conversation starts: a worker that dies during it leaves this
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        # the server took the content but its answer never came: it may have been delivered; never
        # resent automatically (a person checks and resends)
        UNCERTAIN = "uncertain", _("Maybe sent")
        FAILED = "failed", _("Failed")

    class Transport(models.TextChoices):
        TENANT_SMTP = "tenant_smtp", _("The company's SMTP server")
        SMTP = "smtp", _("The installation's SMTP server")
        OUTBOX = "outbox", _("Local outbox")

    scenario = models.ForeignKey(
        EmailScenario, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    event = models.CharField(_("event"), max_length=60)
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    record_label = models.CharField(_("record"), max_length=200, blank=True)
    record_url = models.CharField(max_length=300, blank=True)
    to = models.JSONField(_("recipients"), default=list)
    from_email = models.CharField(_("sender"), max_length=400, blank=True)
    reply_to = models.CharField(max_length=254, blank=True)
    subject = models.CharField(_("subject"), max_length=998)
    body_text = models.TextField(_("text body"), blank=True)
    body_html = models.TextField(_("HTML body"), blank=True)
    # SHA-256 of subject, text and HTML body as stored when the message was made
    body_sha256 = models.CharField(max_length=64, blank=True)
    # the MIME message exactly as handed to the server (.eml), with its SHA-256
    raw = models.FileField(upload_to=raw_message_path, max_length=500, blank=True)
    raw_sha256 = models.CharField(max_length=64, blank=True)
    language = models.CharField(_("language"), max_length=2, choices=Language.choices, default=Language.EN)
    message_id = models.CharField("Message-ID", max_length=300)
    dedupe_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL: no dedupe)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    transport = models.CharField(_("transport"), max_length=20, choices=Transport.choices, blank=True)
    is_test = models.BooleanField(_("test message"), default=False)
    resent_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="resends"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    send_after = models.DateTimeField(null=True, blank=True)
    # when a worker may take it (again): the backoff after a temporary failure, or the recovery sweep's
    # lease after it handed the message to a worker
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    # when the last attempt began (status "sending" since then)
    attempted_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("e-mail message")
        verbose_name_plural = _("e-mail messages")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "dedupe_key"],
                condition=models.Q(dedupe_key__isnull=False),
                name="emailmessage_tenant_dedupe_unique",
            )
        ]
        indexes = [
            # the log's orderings (docs/performance.md, "Indexes for the list orderings")
            tenant_ordering_index("emailmessage_tenant_created", "created_at"),
            tenant_ordering_index("emailmessage_tenant_status", "status"),
            tenant_ordering_index("emailmessage_tenant_sent", "sent_at"),
            tenant_ordering_index("emailmessage_tenant_subject", "subject"),
            models.Index(fields=["tenant", "id"], name="emailmessage_tenant_id"),
        ]

    def __str__(self) -> str:
        return self.subject


def attachment_path(instance: EmailAttachment, filename: str) -> str:
    return f"{tenant_prefix(instance)}/notifications/{instance.message_id}/{filename}"


class EmailAttachment(TenantModel):
    """A file sent with a message, kept byte for byte with its SHA-256."""

    message = models.ForeignKey(EmailMessage, on_delete=models.CASCADE, related_name="attachments")
    file_name = models.CharField(_("file name"), max_length=255)
    content_type = models.CharField(max_length=100, default="application/octet-stream")
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64)
    file = models.FileField(upload_to=attachment_path, max_length=500)

    class Meta:
        verbose_name = _("e-mail attachment")
        verbose_name_plural = _("e-mail attachments")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.file_name


class DailyEventsRun(TenantModel):
    """A day whose date events (daily.py) were emitted in the tenant. The periodic run emits every day
    since the last one recorded here (at most CATCH_UP_DAYS back), so a run that beat could not send (the
    broker was down) or that no worker ran is made up by the next one, and a day is never emitted twice."""

    day = models.DateField()
    emitted = models.PositiveIntegerField(default=0)
    ran_at = models.DateTimeField(auto_now_add=True)

    supplier_scope = None

    class Meta:
        verbose_name = _("daily events run")
        verbose_name_plural = _("daily events runs")
        ordering = ["-day"]
        constraints = [models.UniqueConstraint(fields=["tenant", "day"], name="notifications_dailyrun_day")]

    def __str__(self) -> str:
        return f"{self.day} {self.emitted}"
