from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.common.secrets import is_unreadable
from apps.notifications import events as registry
from apps.notifications.addresses import readable
from apps.notifications.models import (
    EmailAttachment,
    EmailMessage,
    EmailScenario,
    EmailTemplate,
    Language,
    SmtpSettings,
)
from apps.notifications.rendering import NO_VALUE, OPERATORS, check_syntax
from apps.users.models import Department, Role

RECIPIENT_TYPES = [
    ("contact", "contact"),
    ("address", "address"),
    ("role", "role"),
    ("department", "department"),
]
MAX_CONDITIONS = 20
MAX_RECIPIENT_SPECS = 30
TEMPLATE_PARTS = ("subject_en", "subject_zh", "body_html_en", "body_html_zh", "body_text_en", "body_text_zh")
MAX_TEMPLATE_LENGTH = 100_000


def _event_or_error(name: str) -> registry.Event:
    event = registry.get_event(name)
    if event is None:
        raise serializers.ValidationError(_("Unknown event."))
    return event


# -- events ------------------------------------------------------------------------------------------------


class EventVariableSerializer(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()


class EventContactSerializer(serializers.Serializer):
    role = serializers.CharField()
    label = serializers.CharField()


class EventAttachmentSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class EmailEventSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    model = serializers.CharField()
    available = serializers.BooleanField(help_text="False while the event's records do not exist here yet.")
    variables = EventVariableSerializer(many=True)
    contacts = EventContactSerializer(many=True)
    attachments = EventAttachmentSerializer(many=True)
    uses_days = serializers.CharField(allow_null=True, help_text="What the scenario's `days` mean, if used.")


class RecordOptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()


# -- templates ---------------------------------------------------------------------------------------------


class EmailTemplateSerializer(ModelSerializer):
    event_label = serializers.SerializerMethodField()
    scenario_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = EmailTemplate
        fields = [
            "id",
            "name",
            "event",
            "event_label",
            *TEMPLATE_PARTS,
            "scenario_count",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]

    def get_event_label(self, obj) -> str:
        event = registry.get_event(obj.event)
        return str(event.label) if event else obj.event

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("Enter a name."))
        clash = EmailTemplate.objects.filter(name__iexact=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(_("A template with this name already exists."))
        return value

    def validate_event(self, value: str) -> str:
        _event_or_error(value)
        if self.instance is not None and value != self.instance.event and self.instance.scenarios.exists():
            raise serializers.ValidationError(_("Scenarios use this template: its event cannot change."))
        return value

    def validate(self, attrs):
        errors = {}
        for part in TEMPLATE_PARTS:
            source = attrs.get(part, getattr(self.instance, part, "") if self.instance else "")
            if source and len(source) > MAX_TEMPLATE_LENGTH:
                errors[part] = [_("The text is too long.")]
                continue
            problem = check_syntax(source or "", html=part.startswith("body_html"))
            if problem:
                errors[part] = [_("Template error: %(error)s") % {"error": problem}]
        subjects = [
            attrs.get(p, getattr(self.instance, p, "") if self.instance else "")
            for p in ("subject_en", "subject_zh")
        ]
        if not any((s or "").strip() for s in subjects):
            errors["subject_en"] = [_("Enter a subject in at least one language.")]
        bodies = [
            attrs.get(p, getattr(self.instance, p, "") if self.instance else "")
            for p in ("body_html_en", "body_html_zh", "body_text_en", "body_text_zh")
        ]
        if not any((b or "").strip() for b in bodies):
            errors["body_text_en"] = [_("Enter a body in at least one language.")]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class TemplatePreviewSerializer(serializers.Serializer):
    """An unsaved template, previewed live while it is written."""

    event = serializers.CharField(max_length=60)
    record = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**62)
    language = serializers.ChoiceField(choices=Language.choices, default="en")
    subject_en = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")
    subject_zh = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")
    body_html_en = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_TEMPLATE_LENGTH, default="", trim_whitespace=False
    )
    body_html_zh = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_TEMPLATE_LENGTH, default="", trim_whitespace=False
    )
    body_text_en = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_TEMPLATE_LENGTH, default="", trim_whitespace=False
    )
    body_text_zh = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_TEMPLATE_LENGTH, default="", trim_whitespace=False
    )

    def validate_event(self, value: str) -> str:
        _event_or_error(value)
        return value


# -- scenarios ---------------------------------------------------------------------------------------------


class ConditionSerializer(serializers.Serializer):
    field = serializers.CharField(max_length=100)
    operator = serializers.ChoiceField(choices=[(o, o) for o in OPERATORS])
    value = serializers.JSONField(required=False, allow_null=True, default="")

    def validate_value(self, value):
        if isinstance(value, list):
            if len(value) > 50 or not all(isinstance(v, (str, int, float)) for v in value):
                raise serializers.ValidationError(_("Give up to 50 plain values."))
            return [str(v)[:200] for v in value]
        if value is None:
            return ""
        if isinstance(value, (dict, bool)):
            raise serializers.ValidationError(_("Give a plain value."))
        return str(value)[:200]


class RecipientSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=RECIPIENT_TYPES)
    role = serializers.JSONField(
        required=False, help_text="contact: the event's contact role; role: a role id."
    )
    match = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="contact: the contact's role name (e.g. invoice).",
    )
    address = serializers.CharField(required=False, max_length=254)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    department = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class EmailScenarioSerializer(ModelSerializer):
    template = TenantRelatedField(queryset=EmailTemplate.objects)
    template_name = serializers.CharField(source="template.name", read_only=True)
    event_label = serializers.SerializerMethodField()
    conditions = ConditionSerializer(many=True, required=False)
    recipients = RecipientSerializer(many=True)
    attachments = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, max_length=10
    )
    delay_minutes = serializers.IntegerField(min_value=0, max_value=7 * 24 * 60, required=False)
    days = serializers.IntegerField(min_value=0, max_value=365, required=False)

    class Meta:
        model = EmailScenario
        fields = [
            "id",
            "name",
            "event",
            "event_label",
            "enabled",
            "conditions",
            "recipients",
            "template",
            "template_name",
            "attachments",
            "delay_minutes",
            "days",
            "language",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]

    def get_event_label(self, obj) -> str:
        event = registry.get_event(obj.event)
        return str(event.label) if event else obj.event

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("Enter a name."))
        clash = EmailScenario.objects.filter(name__iexact=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(_("A scenario with this name already exists."))
        return value

    def validate_event(self, value: str) -> str:
        _event_or_error(value)
        return value

    def validate(self, attrs):
        event_name = attrs.get("event", getattr(self.instance, "event", None))
        event = registry.get_event(event_name or "")
        if event is None:
            raise serializers.ValidationError({"event": [_("Unknown event.")]})
        errors: dict[str, list] = {}
        template = attrs.get("template", getattr(self.instance, "template", None))
        if template is not None and template.event != event.name:
            errors["template"] = [_("The template is written for another event.")]

        conditions = attrs.get("conditions", getattr(self.instance, "conditions", []) or [])
        if len(conditions) > MAX_CONDITIONS:
            errors["conditions"] = [_("Use at most %(max)d conditions.") % {"max": MAX_CONDITIONS}]
        for condition in conditions:
            if condition["field"] not in event.variables:
                errors.setdefault("conditions", []).append(
                    _("%(field)s is not a variable of this event.") % {"field": condition["field"]}
                )
            elif condition["operator"] not in NO_VALUE and condition.get("value") in ("", None, []):
                errors.setdefault("conditions", []).append(
                    _("Enter a value for %(field)s.") % {"field": condition["field"]}
                )

        recipients = attrs.get("recipients", getattr(self.instance, "recipients", []) or [])
        if not recipients:
            errors["recipients"] = [_("Add at least one recipient.")]
        elif len(recipients) > MAX_RECIPIENT_SPECS:
            errors["recipients"] = [_("Use at most %(max)d recipients.") % {"max": MAX_RECIPIENT_SPECS}]
        cleaned = []
        for spec in recipients:
            problem, clean = self._recipient(spec, event)
            if problem:
                errors.setdefault("recipients", []).append(problem)
            else:
                cleaned.append(clean)
        if "recipients" in attrs:
            attrs["recipients"] = cleaned

        for key in attrs.get("attachments", []):
            if key not in event.attachments:
                errors.setdefault("attachments", []).append(
                    _("This event does not offer the attachment %(name)s.") % {"name": key}
                )
        if "attachments" in attrs:
            attrs["attachments"] = list(dict.fromkeys(attrs["attachments"]))
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    @staticmethod
    def _recipient(spec: dict, event: registry.Event):
        kind = spec["type"]
        if kind == "contact":
            role = spec.get("role")
            if not isinstance(role, str) or role not in event.contacts:
                return _("Choose one of the event's contacts."), None
            return None, {"type": "contact", "role": role, "match": (spec.get("match") or "").strip()}
        if kind == "address":
            address = (spec.get("address") or "").strip()
            try:
                validate_email(address)
            except DjangoValidationError:
                return _("%(address)s is not a valid e-mail address.") % {"address": address or "-"}, None
            return None, {"type": "address", "address": address, "language": spec.get("language") or "en"}
        if kind == "role":
            role = spec.get("role")
            if (
                not isinstance(role, int)
                or isinstance(role, bool)
                or not Role.objects.filter(pk=role).exists()
            ):
                return _("Choose a role of this company."), None
            return None, {"type": "role", "role": role}
        department = spec.get("department")
        if not department or not Department.objects.filter(pk=department).exists():
            return _("Choose a department of this company."), None
        return None, {"type": "department", "department": department}


class ScenarioActionSerializer(serializers.Serializer):
    record = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**62)
    language = serializers.ChoiceField(choices=Language.choices, default="en")


class PreviewRecipientSerializer(serializers.Serializer):
    email = serializers.CharField()
    name = serializers.CharField()
    language = serializers.CharField()


class PreviewRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    url = serializers.CharField()


class PreviewSerializer(serializers.Serializer):
    record = PreviewRecordSerializer()
    language = serializers.CharField()
    subject = serializers.CharField()
    body_html = serializers.CharField()
    body_text = serializers.CharField()
    error = serializers.CharField(help_text="The template's error, if it cannot be rendered.")
    variables = serializers.JSONField(help_text="The variables of this record.")
    conditions_hold = serializers.BooleanField(allow_null=True)
    recipients = PreviewRecipientSerializer(many=True)


# -- SMTP settings -----------------------------------------------------------------------------------------


class SmtpSettingsSerializer(ModelSerializer):
    password = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=500,
        trim_whitespace=False,
        help_text="Write-only. Left out or empty: the stored password stays.",
    )
    clear_password = serializers.BooleanField(write_only=True, required=False, default=False)
    has_password = serializers.SerializerMethodField()
    unreadable_secrets = serializers.SerializerMethodField(
        help_text="Stored secrets no configured key decrypts (the keys were lost): enter them again."
    )
    port = serializers.IntegerField(min_value=1, max_value=65535, required=False)
    timeout = serializers.IntegerField(min_value=1, max_value=120, required=False)

    class Meta:
        model = SmtpSettings
        fields = [
            "enabled",
            "host",
            "port",
            "security",
            "username",
            "password",
            "clear_password",
            "has_password",
            "unreadable_secrets",
            "from_email",
            "from_name",
            "reply_to",
            "timeout",
            "updated_at",
        ]
        read_only_fields = ["updated_at"]

    def get_has_password(self, obj) -> bool:
        return bool(obj.password)

    def get_unreadable_secrets(self, obj) -> list[str]:
        return ["password"] if is_unreadable(obj.password) else []

    def validate_host(self, value: str) -> str:
        value = value.strip()
        if not value or any(c.isspace() for c in value) or "/" in value:
            raise serializers.ValidationError(_("Enter a host name or IP address."))
        return value


class SmtpTestResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    message = serializers.CharField()


# -- the log -----------------------------------------------------------------------------------------------


class EmailAttachmentSerializer(ModelSerializer):
    class Meta:
        model = EmailAttachment
        fields = ["id", "file_name", "content_type", "size", "sha256"]
        read_only_fields = fields


class EmailMessageSerializer(ModelSerializer):
    scenario_name = serializers.CharField(source="scenario.name", read_only=True, default="")
    event_label = serializers.SerializerMethodField()
    to = serializers.ListField(child=serializers.CharField(), read_only=True)
    # "" until a transport has been tried (a queued message)
    transport = serializers.ChoiceField(
        choices=EmailMessage.Transport.choices, allow_blank=True, read_only=True
    )

    class Meta:
        model = EmailMessage
        fields = [
            "id",
            "created_at",
            "sent_at",
            "scenario",
            "scenario_name",
            "event",
            "event_label",
            "record_label",
            "record_url",
            "object_id",
            "to",
            "subject",
            "status",
            "attempts",
            "last_error",
            "next_attempt_at",
            "transport",
            "language",
            "is_test",
        ]
        read_only_fields = fields

    def get_event_label(self, obj) -> str:
        event = registry.get_event(obj.event)
        return str(event.label) if event else obj.event

    def to_representation(self, instance):
        # Names as people read them, also for messages stored with encoded names (addresses.readable).
        data = super().to_representation(instance)
        data["to"] = [readable(address) for address in data.get("to") or []]
        for field in ("from_email", "reply_to"):
            if data.get(field):
                data[field] = readable(data[field])
        return data


class EmailMessageDetailSerializer(EmailMessageSerializer):
    attachments = EmailAttachmentSerializer(many=True, read_only=True)
    has_raw = serializers.SerializerMethodField()

    class Meta(EmailMessageSerializer.Meta):
        fields = [
            *EmailMessageSerializer.Meta.fields,
            "message_id",
            "from_email",
            "reply_to",
            "body_text",
            "body_html",
            "body_sha256",
            "raw_sha256",
            "has_raw",
            "resent_from",
            "attachments",
        ]
        read_only_fields = fields

    def get_has_raw(self, obj) -> bool:
        return bool(obj.raw)


class EmailHealthSerializer(serializers.Serializer):
    """What an operator watches: messages by status, failures in the last day, retries under way."""

    by_status = serializers.DictField(child=serializers.IntegerField())
    failed_last_day = serializers.IntegerField()
    retrying = serializers.IntegerField()
    oldest_waiting_since = serializers.DateTimeField(allow_null=True)
    attention_total = serializers.IntegerField(help_text="Failed and maybe-sent messages, all time.")
    attention = serializers.SerializerMethodField(
        help_text="The newest failed and maybe-sent messages (at most 20), newest attempt first."
    )

    @extend_schema_field(EmailMessageSerializer(many=True))
    def get_attention(self, data) -> list[dict]:
        return EmailMessageSerializer(data["attention"], many=True).data
