from __future__ import annotations

from urllib.parse import urlparse

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from apps.accounting.models import AccountingConnection, Mapping, MappingKind, SyncEntry
from apps.accounting.services import last_test_message_for_reader
from apps.common import outbound
from apps.common.api.model_serializer import ModelSerializer
from apps.common.secrets import is_unreadable

SECRET_MAX = 4000


class ConnectionOptionsSerializer(serializers.Serializer):
    documents_from = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="Posted documents from this date are pushed (default: since the connection exists).",
    )
    unit_id = serializers.CharField(
        required=False, allow_blank=True, max_length=100, help_text="eAccounting: the unit of new articles."
    )
    coding_id = serializers.CharField(
        required=False, allow_blank=True, max_length=100, help_text="eAccounting: the coding of new articles."
    )
    default_terms_of_payment_id = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="eAccounting: terms of payment of customers without a mapped term.",
    )
    authorize_url = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="eAccounting: the authorization endpoint (empty: the token URL's .../authorize).",
    )
    pkce = serializers.BooleanField(
        required=False, help_text="eAccounting: send a PKCE code challenge when authorising (default on)."
    )

    def validate_authorize_url(self, value: str) -> str:
        return _http_url(value) if value else value


def _http_url(value: str) -> str:
    """An address the server will call for the tenant: the outbound policy (apps/common/outbound.py)
    checks scheme and literal addresses here, and every address again when it connects."""
    parsed = urlparse(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise serializers.ValidationError(_("Enter an http or https address."))
    try:
        outbound.check_url(value)
    except outbound.OutboundRefused as exc:
        raise serializers.ValidationError(exc.message) from exc
    return value


class ConnectionSerializer(ModelSerializer):
    client_secret = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=SECRET_MAX,
        trim_whitespace=False,
        help_text="Write-only. Left out or empty: the stored secret stays.",
    )
    refresh_token = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=SECRET_MAX,
        help_text="Write-only (eAccounting): the refresh token from the consent flow. Left out: the stored one stays.",
    )
    clear_refresh_token = serializers.BooleanField(write_only=True, required=False, default=False)
    has_client_secret = serializers.SerializerMethodField()
    has_refresh_token = serializers.SerializerMethodField()
    unreadable_secrets = serializers.SerializerMethodField(
        help_text="Stored secrets no configured key decrypts (the keys were lost): enter them again."
    )
    options = ConnectionOptionsSerializer(required=False)

    class Meta:
        model = AccountingConnection
        fields = [
            "provider",
            "enabled",
            "base_url",
            "token_url",
            "client_id",
            "client_secret",
            "has_client_secret",
            "refresh_token",
            "clear_refresh_token",
            "has_refresh_token",
            "unreadable_secrets",
            "scope",
            "company_id",
            "supplier_level",
            "options",
            "access_token_expires_at",
            "last_test_at",
            "last_test_ok",
            "last_test_message",
            "first_sync_at",
            "updated_at",
        ]
        read_only_fields = [
            "access_token_expires_at",
            "last_test_at",
            "last_test_ok",
            "last_test_message",
            "first_sync_at",
            "updated_at",
        ]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # Stored in English, read in the reader's language (services.connection_test).
        data["last_test_message"] = last_test_message_for_reader(data.get("last_test_message") or "")
        return data

    def get_has_client_secret(self, obj) -> bool:
        return bool(obj.client_secret)

    def get_has_refresh_token(self, obj) -> bool:
        return bool(obj.refresh_token)

    def get_unreadable_secrets(self, obj) -> list[str]:
        return [name for name in ("client_secret", "refresh_token") if is_unreadable(getattr(obj, name))]

    def validate_base_url(self, value: str) -> str:
        return _http_url(value)

    def validate_token_url(self, value: str) -> str:
        return _http_url(value)

    def validate_client_id(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("Enter the client id."))
        return value

    def validate_options(self, value: dict) -> dict:
        return {
            k: (v.isoformat() if hasattr(v, "isoformat") else v)
            for k, v in value.items()
            if v not in (None, "")
        }


class TestResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    message = serializers.CharField()


class MappingSerializer(ModelSerializer):
    class Meta:
        model = Mapping
        fields = [
            "id",
            "kind",
            "local_key",
            "local_label",
            "external_id",
            "payload_hash",
            "pushed_at",
            "external_status",
            "external_open_amount",
            "status_read_at",
            "updated_at",
        ]
        read_only_fields = [
            "payload_hash",
            "pushed_at",
            "external_status",
            "external_open_amount",
            "status_read_at",
            "updated_at",
        ]

    def validate_external_id(self, value: str) -> str:
        value = value.strip()
        if any(ch in value for ch in "\r\n\t\x00"):
            raise serializers.ValidationError(_("An external id is one line of text."))
        return value

    def validate(self, attrs):
        if self.instance is not None:
            for name in ("kind", "local_key"):
                if name in attrs and attrs[name] != getattr(self.instance, name):
                    raise serializers.ValidationError(
                        {name: _("The local record of a mapping cannot be changed.")}
                    )
            return attrs
        kind, key = attrs.get("kind"), (attrs.get("local_key") or "").strip()
        if kind not in (MappingKind.VAT_CODE, MappingKind.PAYMENT_TERM):
            raise serializers.ValidationError(
                {
                    "kind": _(
                        "Only VAT codes and payment terms are mapped by hand; records get their mapping when pushed."
                    )
                }
            )
        if kind == MappingKind.VAT_CODE:
            try:
                from decimal import Decimal, InvalidOperation

                rate = Decimal(key)
                if not (0 <= rate <= 100):
                    raise InvalidOperation
            except (InvalidOperation, ValueError):
                raise serializers.ValidationError(
                    {"local_key": _("Enter the VAT rate in percent, e.g. 25.")}
                ) from None
            key = f"{rate:.2f}"
            attrs.setdefault("local_label", f"{rate.normalize()} %")
        else:
            if not key.isdigit() or int(key) > 365:
                raise serializers.ValidationError(
                    {"local_key": _("Enter the payment term in days (0 to 365).")}
                )
            key = str(int(key))
            attrs.setdefault("local_label", f"{key}")
        if not attrs.get("external_id"):
            raise serializers.ValidationError({"external_id": _("Enter the id in the accounting system.")})
        if Mapping.objects.filter(kind=kind, local_key=key).exists():
            raise serializers.ValidationError({"local_key": _("This is mapped already.")})
        attrs["local_key"] = key
        return attrs


class SyncEntrySerializer(ModelSerializer):
    class Meta:
        model = SyncEntry
        fields = [
            "id",
            "idempotency_key",
            "kind",
            "record_id",
            "record_label",
            "action",
            "status",
            "attempts",
            "next_attempt_at",
            "external_id",
            "error",
            "http_status",
            "depends_on",
            "created_at",
            "updated_at",
            "sent_at",
        ]
        read_only_fields = fields


class PlanItemSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=MappingKind.choices)
    record_id = serializers.IntegerField()
    label = serializers.CharField()
    action = serializers.ChoiceField(choices=SyncEntry.Action.choices)


class DryRunSerializer(serializers.Serializer):
    masters = PlanItemSerializer(many=True)
    documents = PlanItemSerializer(many=True)


class SyncStartedSerializer(serializers.Serializer):
    queued = serializers.IntegerField()


class PaymentStatusRunSerializer(serializers.Serializer):
    read = serializers.IntegerField()
    changed = serializers.IntegerField()
    failed = serializers.IntegerField()


class DocumentAccountingSerializer(serializers.Serializer):
    """An invoice's state in the accounting system (shown on the invoice)."""

    sync_entry = serializers.IntegerField(allow_null=True)
    sync_status = serializers.ChoiceField(choices=SyncEntry.Status.choices)
    error = serializers.CharField(allow_blank=True)
    external_id = serializers.CharField(allow_blank=True)
    sent_at = serializers.DateTimeField(allow_null=True)
    external_status = serializers.CharField(allow_blank=True)
    external_open_amount = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    status_read_at = serializers.DateTimeField(allow_null=True)


STATE_PATTERN = r"^[A-Za-z0-9_-]{16,200}$"


class AuthorizationStartSerializer(serializers.Serializer):
    authorization_url = serializers.URLField(help_text="Where the browser goes to authorise: Visma's page.")
    redirect_uri = serializers.URLField(help_text="The redirect URI to register with Visma.")
    expires_at = serializers.DateTimeField(help_text="The authorisation must be finished before this.")


class AuthorizationCallbackSerializer(serializers.Serializer):
    """What Visma sent back to the redirect URI: `code` and `state`, or `error` (and a description)."""

    state = serializers.RegexField(STATE_PATTERN, max_length=200)
    code = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    error = serializers.RegexField(r"^[A-Za-z0-9_.-]{1,100}$", required=False, max_length=100)
    error_description = serializers.CharField(required=False, allow_blank=True, max_length=1000)

    def validate_code(self, value: str) -> str:
        if any(ch in value for ch in "\r\n\t\x00 "):
            raise serializers.ValidationError(_("The authorisation code is not valid."))
        return value

    def validate(self, attrs):
        if not attrs.get("error") and not attrs.get("code"):
            raise serializers.ValidationError({"code": _("Visma's answer has neither a code nor an error.")})
        return attrs


class RedirectUriSerializer(serializers.Serializer):
    redirect_uri = serializers.URLField()
