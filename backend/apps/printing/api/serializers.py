"""Printing API shapes (management under /api/printing/, agent under /api/printer/)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.inventory.models import Warehouse
from apps.printing import zpl
from apps.printing.models import PrintAgent, PrinterDevice, PrinterStatus, PrintJob
from apps.suppliers.models import ParentVendor


@extend_schema_field(OpenApiTypes.INT)
class TenantMemberField(serializers.PrimaryKeyRelatedField):
    """A user who is an active member of the current tenant."""

    def get_queryset(self):
        from apps.tenancy.context import require_tenant_id
        from apps.users.models import User

        return User.objects.filter(
            memberships__tenant_id=require_tenant_id(), memberships__is_active=True, is_active=True
        )


class PrintAgentSerializer(ModelSerializer):
    is_online = serializers.BooleanField(read_only=True)
    # A method field, not `source="parent_vendor.name", default=""`: DRF leaves a field with a default
    # out of a partial update's answer (PATCH), which the schema marks as required.
    parent_vendor_name = serializers.SerializerMethodField()
    printer_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = PrintAgent
        fields = [
            "id",
            "name",
            "parent_vendor",
            "parent_vendor_name",
            "token_hint",
            "hostname",
            "version",
            "last_seen_at",
            "is_online",
            "is_active",
            "printer_count",
            "created_at",
        ]
        read_only_fields = [f for f in fields if f != "name"]

    def get_parent_vendor_name(self, agent: PrintAgent) -> str:
        return agent.parent_vendor.name if agent.parent_vendor_id else ""


class PairingCodeRequestSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, required=False, allow_null=True)


class PairingCodeSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Shown once; the server keeps only its hash.")
    name = serializers.CharField()
    expires_at = serializers.DateTimeField()


class PrinterDeviceSerializer(ModelSerializer):
    agent = TenantRelatedField(queryset=PrintAgent.objects, required=False, allow_null=True)
    warehouse = TenantRelatedField(queryset=Warehouse.objects, required=False, allow_null=True)
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, required=False, allow_null=True)
    default_for_user = TenantMemberField(required=False, allow_null=True)
    agent_name = serializers.CharField(source="agent.name", read_only=True, default="")
    agent_online = serializers.SerializerMethodField()
    warehouse_name = serializers.CharField(source="warehouse.name", read_only=True, default="")
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True, default="")
    last_status_display = serializers.CharField(source="get_last_status_display", read_only=True)
    template = serializers.ChoiceField(choices=zpl.TEMPLATES, default="default")
    label_width_mm = serializers.DecimalField(max_digits=5, decimal_places=1, min_value=20, max_value=220)
    label_height_mm = serializers.DecimalField(max_digits=5, decimal_places=1, min_value=20, max_value=400)
    port = serializers.IntegerField(min_value=1, max_value=65535, default=9100)

    class Meta:
        model = PrinterDevice
        fields = [
            "id",
            "name",
            "site",
            "warehouse",
            "warehouse_name",
            "parent_vendor",
            "parent_vendor_name",
            "agent",
            "agent_name",
            "agent_online",
            "host",
            "port",
            "dpi",
            "label_width_mm",
            "label_height_mm",
            "template",
            "is_location_default",
            "default_for_user",
            "default_document_type",
            "last_status",
            "last_status_display",
            "last_seen_at",
            "is_active",
            "created_at",
        ]
        read_only_fields = ["last_status", "last_seen_at", "created_at"]

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_agent_online(self, obj) -> bool:
        return bool(obj.agent and obj.agent.is_online)

    def validate_host(self, value: str) -> str:
        value = value.strip()
        if not value or any(ch.isspace() for ch in value) or "/" in value:
            raise serializers.ValidationError(_("Enter a host name or an IP address."))
        return value

    def validate_name(self, value: str) -> str:
        value = value.strip()
        queryset = PrinterDevice.objects.filter(name__iexact=value)
        if self.instance is not None:
            queryset = queryset.exclude(pk=self.instance.pk)
        if queryset.exists():
            raise serializers.ValidationError(_("A printer with this name already exists."))
        return value


class LabelFilterSerializer(serializers.Serializer):
    """The labels table's filters (the same as GET /api/eudr/cartons/)."""

    raw_material = serializers.IntegerField(required=False, min_value=1)
    batch = serializers.IntegerField(required=False, min_value=1)
    production_batch_code = serializers.CharField(required=False, max_length=20)
    purchase_order = serializers.CharField(required=False, max_length=50)
    purchase_order_line = serializers.IntegerField(required=False, min_value=1)
    product = serializers.IntegerField(required=False, min_value=1)
    container = serializers.CharField(required=False, max_length=50)
    code = serializers.CharField(required=False, max_length=32)
    created_from = serializers.DateField(required=False)
    created_to = serializers.DateField(required=False)
    search = serializers.CharField(required=False, max_length=100)


class PrintJobCreateSerializer(serializers.Serializer):
    printer = TenantRelatedField(queryset=PrinterDevice.objects)
    source = serializers.ChoiceField(choices=PrintJob.Source.choices)
    labels = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=500, allow_empty=True
    )
    filter = LabelFilterSerializer(required=False)
    template = serializers.ChoiceField(choices=zpl.TEMPLATES, required=False)
    copies = serializers.IntegerField(min_value=1, max_value=100, default=1)
    zpl = serializers.CharField(required=False, max_length=100_000, trim_whitespace=False)

    def validate(self, attrs):
        source = attrs["source"]
        if source == PrintJob.Source.CARTON_LABELS and not attrs.get("labels") and "filter" not in attrs:
            raise serializers.ValidationError({"labels": [_("Please select labels to print.")]})
        if source == PrintJob.Source.RAW_ZPL and not (attrs.get("zpl") or "").strip():
            raise serializers.ValidationError({"zpl": [_("Enter the ZPL to send.")]})
        return attrs


class PrintJobSerializer(ModelSerializer):
    printer_name = serializers.CharField(source="printer.name", read_only=True)
    user_name = serializers.SerializerMethodField()
    status_display = serializers.CharField(source="get_status_display", read_only=True)
    source_display = serializers.CharField(source="get_source_display", read_only=True)
    printer_status_display = serializers.SerializerMethodField()
    printed_nothing = serializers.BooleanField(
        read_only=True,
        help_text="Nothing of this job can have come out (expired, or refused before sending): printing it "
        "again is the same print, not a copy.",
    )
    waits_for_agent = serializers.BooleanField(
        read_only=True,
        help_text="Queued for a printer whose agent is offline: it waits for the agent until expires_at.",
    )

    class Meta:
        model = PrintJob
        fields = [
            "id",
            "printer",
            "printer_name",
            "source",
            "source_display",
            "template",
            "label_ids",
            "label_count",
            "copies",
            "copy_number",
            "reprint_of",
            "status",
            "status_display",
            "attempts",
            "error",
            "printer_status",
            "printer_status_display",
            "data_sent",
            "printed_nothing",
            "waits_for_agent",
            "idempotency_key",
            "user",
            "user_name",
            "created_at",
            "sent_at",
            "finished_at",
            "expires_at",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.STR)
    def get_user_name(self, obj) -> str:
        user = obj.user
        return (user.name or user.username) if user else ""

    @extend_schema_field(OpenApiTypes.STR)
    def get_printer_status_display(self, obj) -> str:
        state = (obj.printer_status or {}).get("state") if isinstance(obj.printer_status, dict) else None
        return str(PrinterStatus(state).label) if state in PrinterStatus.values else ""


class PrintJobDetailSerializer(PrintJobSerializer):
    class Meta(PrintJobSerializer.Meta):
        fields = [*PrintJobSerializer.Meta.fields, "zpl"]
        read_only_fields = fields


class TemplateSerializer(serializers.Serializer):
    name = serializers.CharField()
    width_mm = serializers.DecimalField(max_digits=5, decimal_places=1)
    height_mm = serializers.DecimalField(max_digits=5, decimal_places=1)


class PreviewRequestSerializer(serializers.Serializer):
    label = serializers.IntegerField(min_value=1)
    template = serializers.ChoiceField(choices=zpl.TEMPLATES, default="default")
    printer = serializers.IntegerField(min_value=1, required=False)
    dpi = serializers.ChoiceField(choices=PrinterDevice.Resolution.values, required=False)
    label_width_mm = serializers.DecimalField(
        max_digits=5, decimal_places=1, min_value=20, max_value=220, required=False
    )
    label_height_mm = serializers.DecimalField(
        max_digits=5, decimal_places=1, min_value=20, max_value=400, required=False
    )


class PreviewElementSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["text", "line", "qr"])
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    height = serializers.IntegerField(required=False)
    text = serializers.CharField(required=False)
    bold = serializers.BooleanField(required=False)
    width = serializers.IntegerField(required=False)
    thickness = serializers.IntegerField(required=False)
    magnification = serializers.IntegerField(required=False)
    data = serializers.CharField(required=False)
    modules = serializers.ListField(child=serializers.CharField(), required=False)


class LabelPreviewSerializer(serializers.Serializer):
    width = serializers.IntegerField(help_text="Dots")
    height = serializers.IntegerField(help_text="Dots")
    dpi = serializers.IntegerField()
    elements = PreviewElementSerializer(many=True)
    zpl = serializers.CharField()
    template = serializers.CharField()
    label_width_mm = serializers.DecimalField(max_digits=5, decimal_places=1)
    label_height_mm = serializers.DecimalField(max_digits=5, decimal_places=1)


# --- the agent's API -------------------------------------------------------------------------------


class PairRequestSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=20)
    hostname = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    version = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


class PairResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Keep it secret: it is shown once and identifies the agent.")
    agent = serializers.IntegerField()
    name = serializers.CharField()


class AgentPrinterSerializer(ModelSerializer):
    class Meta:
        model = PrinterDevice
        fields = ["id", "name", "host", "port"]


class HeartbeatPrinterSerializer(serializers.Serializer):
    id = serializers.IntegerField(min_value=1)
    state = serializers.ChoiceField(choices=PrinterStatus.values)


class HeartbeatRequestSerializer(serializers.Serializer):
    hostname = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    version = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    printers = HeartbeatPrinterSerializer(many=True, required=False, default=list, max_length=200)


class HeartbeatResponseSerializer(serializers.Serializer):
    agent = serializers.IntegerField()
    name = serializers.CharField()
    printers = AgentPrinterSerializer(many=True)
    heartbeat_seconds = serializers.IntegerField()
    poll_wait_seconds = serializers.IntegerField()


class AgentJobSerializer(ModelSerializer):
    printer = AgentPrinterSerializer()

    class Meta:
        model = PrintJob
        fields = ["id", "idempotency_key", "source", "printer", "zpl", "attempts"]


class AgentJobsSerializer(serializers.Serializer):
    jobs = AgentJobSerializer(many=True)


class JobResultSerializer(serializers.Serializer):
    idempotency_key = serializers.UUIDField()
    printed = serializers.BooleanField()
    # False: the agent refused before sending anything (the job printed nothing); absent or null: unknown.
    data_sent = serializers.BooleanField(required=False, allow_null=True, default=None)
    error = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    printer_status = serializers.DictField(required=False, default=dict)

    def validate_printer_status(self, value: dict) -> dict:
        state = value.get("state")
        if state is not None and state not in PrinterStatus.values:
            raise serializers.ValidationError(_("Unknown printer state."))
        raw = value.get("raw", [])
        if (
            not isinstance(raw, list)
            or len(raw) > 3
            or not all(isinstance(s, str) and len(s) < 200 for s in raw)
        ):
            raise serializers.ValidationError(_("Send at most three status strings."))
        flags = value.get("flags", [])
        if not isinstance(flags, list) or not all(isinstance(f, str) and len(f) < 40 for f in flags[:20]):
            raise serializers.ValidationError(_("Unknown printer state."))
        return {"state": state or "", "raw": raw, "flags": flags[:20]}
