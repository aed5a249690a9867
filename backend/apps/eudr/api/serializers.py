"""EUDR API shapes. The names of a delivery's and a label's fields are part of the API contract (issue
"API names"): keep them."""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.common.exceptions import FieldErrors
from apps.eudr import references, services
from apps.eudr.models import (
    BATCH_CODE_RE,
    MAX_CARTONS,
    MONTH_RE,
    CapApproval,
    CartonLabel,
    CertificationType,
    FileKind,
    MaterialType,
    ProductionBatch,
    PulpType,
    RawMaterialDelivery,
    RawMaterialLine,
    SupplierPolicy,
)
from apps.eudr.selectors import delivery_material_types, remaining_cartons_of, weight_balance
from apps.products.models import Product
from apps.purchaseorders.models import PurchaseOrderLine
from apps.suppliers.models import ParentVendor
from apps.tenancy.context import require_tenant_id


def public_base_url(request) -> str:
    base = (getattr(settings, "PUBLIC_BASE_URL", "") or "").rstrip("/")
    if base:
        return base
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return ""


def trace_url(base: str, code: str) -> str:
    return f"{base}/eudrtrace/{code}"


class WeightSerializer(serializers.Serializer):
    original_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    loss_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    available_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    used_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    remaining_kg = serializers.DecimalField(max_digits=14, decimal_places=3)


class FileInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    size = serializers.IntegerField()
    content_type = serializers.CharField()
    uploaded_at = serializers.CharField()
    url = serializers.CharField()


class CheckSerializer(serializers.Serializer):
    key = serializers.CharField()
    message = serializers.CharField()


class CapApprovalSerializer(ModelSerializer):
    approved_by = serializers.SerializerMethodField()

    class Meta:
        model = CapApproval
        fields = ["id", "extra_cartons", "reason", "approved_by", "approved_at"]
        read_only_fields = fields

    @extend_schema_field(
        {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["id", "name"],
        }
    )
    def get_approved_by(self, obj):
        user = obj.approved_by
        return {"id": user.pk, "name": user.name or user.get_full_name() or user.username}


class CapApprovalInputSerializer(serializers.Serializer):
    extra_cartons = serializers.IntegerField(min_value=1, max_value=MAX_CARTONS)
    reason = serializers.CharField(max_length=2000)


class NameListField(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(
            child=serializers.CharField(max_length=200, allow_blank=False, trim_whitespace=True),
            max_length=500,
            required=False,
            **kwargs,
        )


class RawMaterialLineListSerializer(serializers.ListSerializer):
    """Line errors as a list aligned with the lines ({} for a line without errors), the same shape the
    submit checks give."""

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            detail = exc.detail
            if isinstance(detail, dict) and detail and all(isinstance(k, int) for k in detail):
                detail = [detail.get(index, {}) for index in range(len(data))]
            raise serializers.ValidationError(detail) from None


class RawMaterialLineSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    material_type = serializers.ChoiceField(choices=MaterialType.choices, allow_blank=True, required=False)
    weight_kg = serializers.DecimalField(
        max_digits=14, decimal_places=3, allow_null=True, required=False, coerce_to_string=True
    )
    pulp_type = serializers.ChoiceField(choices=PulpType.choices, allow_blank=True, required=False)
    pulp_brand = serializers.CharField(max_length=200, allow_blank=True, required=False)
    scientific_names = NameListField()
    common_names = NameListField()

    class Meta:
        list_serializer_class = RawMaterialLineListSerializer

    def validate_weight_kg(self, value):
        if value is not None and value <= 0:
            raise serializers.ValidationError(services.MSG_VALID_WEIGHT_REQUIRED)
        return value

    def to_internal_value(self, data):
        # A weight typed as text that is not a number gets docs/specification.md's message, not DRF's.
        if isinstance(data, dict) and data.get("weight_kg") not in (None, ""):
            try:
                float(data["weight_kg"])
            except (TypeError, ValueError):
                raise serializers.ValidationError(
                    {"weight_kg": [services.MSG_VALID_WEIGHT_REQUIRED]}
                ) from None
        if isinstance(data, dict) and data.get("weight_kg") == "":
            data = {**data, "weight_kg": None}
        return super().to_internal_value(data)


class DeliveryStatusField(serializers.ChoiceField):
    """Reads as the effective status (an active delivery past a certificate's expiry shows expired);
    on write only `draft` (save as draft) or `active` (submit) are meaningful."""

    def __init__(self, **kwargs):
        super().__init__(choices=RawMaterialDelivery.Status.choices, required=False, **kwargs)

    def get_attribute(self, instance):
        return instance

    def to_representation(self, value):
        return value.effective_status() if isinstance(value, RawMaterialDelivery) else value


def remaining_cartons(delivery: RawMaterialDelivery) -> int | None:
    """Cartons the cap still allows (None: no cap)."""
    return remaining_cartons_of(
        delivery.allowed_carton_cap, delivery.approved_over_cap, delivery.issued_cartons
    )


class RawMaterialDeliverySerializer(ModelSerializer):
    parent_vendor = TenantRelatedField(
        queryset=ParentVendor.objects,
        allow_null=True,
        required=False,
        error_messages={"null": services.MSG_PARENT_VENDOR_REQUIRED},
    )
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True, default="")
    parent_vendor_cname = serializers.CharField(source="parent_vendor.cname", read_only=True, default="")
    status = DeliveryStatusField()
    is_draft = serializers.BooleanField(required=False)
    country_code = serializers.CharField(max_length=2, allow_blank=True, required=False)
    fm_certification_type = serializers.ChoiceField(
        choices=CertificationType.choices, allow_blank=True, required=False
    )
    harvest_begin_month = serializers.CharField(max_length=7, allow_blank=True, required=False)
    harvest_end_month = serializers.CharField(max_length=7, allow_blank=True, required=False)
    location_geojson = serializers.JSONField(allow_null=True, required=False)
    upstream_dds_reference = serializers.CharField(max_length=14, allow_blank=True, required=False)
    upstream_dds_verification = serializers.CharField(max_length=35, allow_blank=True, required=False)
    lines = RawMaterialLineSerializer(many=True, required=False)
    lines_count = serializers.SerializerMethodField()
    weight = serializers.SerializerMethodField()
    files = serializers.SerializerMethodField()
    checks = serializers.SerializerMethodField()
    remaining_cartons = serializers.SerializerMethodField()
    dds_filed_by_name = serializers.SerializerMethodField()

    class Meta:
        model = RawMaterialDelivery
        fields = [
            "id",
            "parent_vendor",
            "parent_vendor_name",
            "parent_vendor_cname",
            "delivery_number",
            "document_from",
            "description",
            "status",
            "is_draft",
            "country_code",
            "country_name",
            "lines",
            "forest_supplier_name",
            "fm_certification_type",
            "fm_certificate_number",
            "fm_certificate_expiry",
            "coc_certification",
            "coc_certificate_number",
            "coc_certificate_expiry",
            "material_sc_number",
            "harvest_begin_month",
            "harvest_end_month",
            "location_geojson",
            "geolocation_confidential",
            "upstream_dds_reference",
            "upstream_dds_verification",
            "upstream_verification_result",
            "upstream_verification_status",
            "upstream_verified_at",
            "upstream_verification_message",
            "dds_reference_number",
            "dds_verification_number",
            "dds_filed_at",
            "dds_filed_by_name",
            "files",
            "min_consumption_per_carton",
            "loss_rate_percent",
            "allowed_carton_cap",
            "approved_over_cap",
            "issued_cartons",
            "remaining_cartons",
            "policy_source",
            "lines_count",
            "weight",
            "checks",
            "submitted_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = [
            "id",
            "country_name",
            "min_consumption_per_carton",
            "loss_rate_percent",
            "allowed_carton_cap",
            "approved_over_cap",
            "issued_cartons",
            "policy_source",
            "upstream_verification_result",
            "upstream_verification_status",
            "upstream_verified_at",
            "upstream_verification_message",
            "dds_reference_number",
            "dds_verification_number",
            "dds_filed_at",
            "submitted_at",
            "created_at",
            "updated_at",
        ]
        extra_kwargs = {
            "delivery_number": {"required": False, "allow_blank": True},
            "description": {"required": False, "allow_blank": True},
        }

    # -- output --------------------------------------------------------------------------------------

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["is_draft"] = instance.is_draft
        request = self.context.get("request")
        if request is not None and getattr(request.user, "is_supplier", False):
            # The tenant's own statement: with the reference number it opens the whole statement, which
            # the supplier does not need (the reference number alone is public on the trace page).
            data["dds_verification_number"] = ""
        return data

    def get_dds_filed_by_name(self, obj) -> str:
        user = obj.dds_filed_by
        return (user.name or user.username) if user else ""

    def get_lines_count(self, obj) -> int:
        annotated = getattr(obj, "lines_count", None)
        return annotated if annotated is not None else len(obj.lines.all())

    @extend_schema_field(WeightSerializer)
    def get_weight(self, obj):
        return WeightSerializer(weight_balance(obj).as_dict()).data

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_remaining_cartons(self, obj) -> int | None:
        return remaining_cartons(obj)

    @extend_schema_field(serializers.DictField(child=FileInfoSerializer()))
    def get_files(self, obj):
        request = self.context.get("request")
        result = {}
        for kind, meta in (obj.files_meta or {}).items():
            if kind not in FileKind.values or not getattr(obj, kind):
                continue
            url = reverse("eudr-raw-material-files", kwargs={"pk": obj.pk, "kind": kind})
            if request is not None:
                url = request.build_absolute_uri(url) + f"?tenant_id={obj.tenant_id}"
            result[kind] = {
                "name": meta.get("name", ""),
                "size": meta.get("size", 0),
                "content_type": meta.get("content_type", ""),
                "uploaded_at": meta.get("uploaded_at", ""),
                "url": url,
            }
        return result

    @extend_schema_field(CheckSerializer(many=True))
    def get_checks(self, obj):
        return services.delivery_checks(obj)

    # -- input ---------------------------------------------------------------------------------------

    def validate_country_code(self, value: str) -> str:
        from apps.eudr.geo import countries

        value = (value or "").strip().upper()
        if value and value not in countries():
            raise serializers.ValidationError(_("Enter a two-letter ISO 3166-1 country code, e.g. CN."))
        return value

    def _validate_month(self, value: str) -> str:
        value = (value or "").strip()
        if value and not MONTH_RE.match(value):
            raise serializers.ValidationError(_("Enter the month as YYYY-MM, e.g. 2024-03."))
        if value and value > timezone.localdate().strftime("%Y-%m"):
            raise serializers.ValidationError(_("The harvest month cannot be in the future."))
        return value

    def validate_harvest_begin_month(self, value: str) -> str:
        return self._validate_month(value)

    def validate_harvest_end_month(self, value: str) -> str:
        return self._validate_month(value)

    def validate_upstream_dds_reference(self, value: str) -> str:
        value = references.normalise_reference(value)
        if value and not references.is_reference(value):
            raise serializers.ValidationError(references.MSG_REFERENCE_FORMAT)
        return value

    def validate_upstream_dds_verification(self, value: str) -> str:
        value = references.normalise_verification(value)
        if value and not references.is_verification(value):
            raise serializers.ValidationError(references.MSG_VERIFICATION_FORMAT)
        return value

    def validate_location_geojson(self, value):
        if value in (None, "", {}):
            return None
        try:
            return services.validated_geojson(value)
        except FieldErrors as exc:
            # The service keys its messages by field; here they belong to this field directly.
            detail = exc.data.get("location_geojson", exc.data) if isinstance(exc.data, dict) else exc.data
            raise serializers.ValidationError(detail) from None

    def validate_lines(self, value):
        if len(value) > 200:
            raise serializers.ValidationError(_("At most 200 materials per delivery."))
        return value

    def validate(self, attrs):
        begin = attrs.get("harvest_begin_month", getattr(self.instance, "harvest_begin_month", ""))
        end = attrs.get("harvest_end_month", getattr(self.instance, "harvest_end_month", ""))
        if begin and end and begin > end:
            raise serializers.ValidationError(
                {"harvest_end_month": [_("The harvest cannot end before it begins.")]}
            )
        status = attrs.pop("status", None)
        is_draft = attrs.pop("is_draft", None)
        if status is not None and status not in (
            RawMaterialDelivery.Status.DRAFT,
            RawMaterialDelivery.Status.ACTIVE,
        ):
            raise serializers.ValidationError(
                {"status": [_("Save as draft or submit; other statuses are set with set-status.")]}
            )
        attrs["_as_draft"] = bool(is_draft) or status == RawMaterialDelivery.Status.DRAFT
        return attrs


class RawMaterialDeliveryListItemsSerializer(serializers.ListSerializer):
    """The page's material types in one statement for all its deliveries, not a prefetch of every line."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        types = delivery_material_types(
            [row.pk for row in rows], tenant_id=require_tenant_id(), using=RawMaterialLine.objects.db
        )
        today = timezone.localdate()
        for row in rows:
            row.list_material_types = types[row.pk]
            row.list_status = row.effective_status(today)
        return [self.child.to_representation(row) for row in rows]


class RawMaterialDeliveryListItemSerializer(ModelSerializer):
    """A delivery as the list shows it: its summary, without the lines, plots, files and checks that
    only its page needs (docs/performance.md, "Raw-material deliveries list")."""

    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True, default="")
    parent_vendor_cname = serializers.CharField(source="parent_vendor.cname", read_only=True, default="")
    status = serializers.SerializerMethodField()
    is_draft = serializers.SerializerMethodField()
    material_types = serializers.SerializerMethodField()
    lines_count = serializers.IntegerField(read_only=True)
    weight = serializers.SerializerMethodField()
    remaining_cartons = serializers.SerializerMethodField()

    class Meta:
        model = RawMaterialDelivery
        list_serializer_class = RawMaterialDeliveryListItemsSerializer
        fields = [
            "id",
            "parent_vendor",
            "parent_vendor_name",
            "parent_vendor_cname",
            "delivery_number",
            "description",
            "status",
            "is_draft",
            "country_code",
            "country_name",
            "material_types",
            "lines_count",
            "weight",
            "issued_cartons",
            "allowed_carton_cap",
            "remaining_cartons",
            "dds_reference_number",
            "submitted_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=RawMaterialDelivery.Status.choices))
    def get_status(self, obj) -> str:
        status = getattr(obj, "list_status", None)
        return status if status is not None else obj.effective_status()

    def get_is_draft(self, obj) -> bool:
        return obj.is_draft

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=MaterialType.choices)))
    def get_material_types(self, obj) -> list[str]:
        types = getattr(obj, "list_material_types", None)
        if types is None:
            types = list(dict.fromkeys(line.material_type for line in obj.lines.all() if line.material_type))
        return types

    @extend_schema_field(WeightSerializer)
    def get_weight(self, obj):
        return weight_balance(obj).as_text()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_remaining_cartons(self, obj) -> int | None:
        return remaining_cartons(obj)


class OutsideCountrySerializer(serializers.Serializer):
    plots = serializers.ListField(
        child=serializers.IntegerField(), help_text="The plots (0-based) outside their country of production"
    )
    confirmed = serializers.BooleanField(help_text="An internal user confirmed these plots as they are now")
    confirmed_at = serializers.DateTimeField(allow_null=True)
    confirmed_by_name = serializers.CharField()
    reason = serializers.CharField()


class OutsideCountryConfirmSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=2000,
        error_messages={
            "required": _("Say why the plots are right although they lie outside the country."),
            "blank": _("Say why the plots are right although they lie outside the country."),
        },
    )


class RawMaterialDeliveryDetailSerializer(RawMaterialDeliverySerializer):
    """One delivery: the list's fields plus the approvals over the cap and the plots lying outside their
    country of production with their confirmation."""

    cap_approvals = CapApprovalSerializer(many=True, read_only=True)
    outside_country = serializers.SerializerMethodField()

    class Meta(RawMaterialDeliverySerializer.Meta):
        fields = [*RawMaterialDeliverySerializer.Meta.fields, "cap_approvals", "outside_country"]

    @extend_schema_field(OutsideCountrySerializer)
    def get_outside_country(self, obj) -> dict:
        by = obj.outside_confirmed_by
        confirmed = obj.outside_confirmed()
        return {
            "plots": obj.plots_outside_country(),
            "confirmed": confirmed,
            "confirmed_at": obj.outside_confirmed_at if confirmed else None,
            "confirmed_by_name": (by.get_full_name() or by.username) if by and confirmed else "",
            "reason": obj.outside_confirmed_reason if confirmed else "",
        }


class RecordDdsSerializer(serializers.Serializer):
    """The numbers the EU information system answered for the tenant's filed statement (docs/regulation.md:
    reference number at most 14 characters, verification number 5 to 35)."""

    dds_reference_number = serializers.CharField(
        max_length=40,
        error_messages={
            "required": _("Enter the statement's reference number."),
            "blank": _("Enter the statement's reference number."),
        },
    )
    dds_verification_number = serializers.CharField(
        max_length=60,
        error_messages={
            "required": _("Enter the statement's verification number."),
            "blank": _("Enter the statement's verification number."),
        },
    )
    dds_filed_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the statement was filed (default: now)"
    )

    def validate_dds_reference_number(self, value: str) -> str:
        value = references.normalise_reference(value)
        if not references.is_reference(value):
            raise serializers.ValidationError(references.MSG_REFERENCE_FORMAT)
        return value

    def validate_dds_verification_number(self, value: str) -> str:
        value = references.normalise_verification(value)
        if not references.is_verification(value):
            raise serializers.ValidationError(references.MSG_VERIFICATION_FORMAT)
        return value

    def validate_dds_filed_at(self, value):
        if value is not None and value > timezone.now() + timedelta(minutes=5):
            raise serializers.ValidationError(_("The filing time cannot be in the future."))
        return value


class DeliveryStatusInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[RawMaterialDelivery.Status.ACTIVE, RawMaterialDelivery.Status.INACTIVE]
    )


class FileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class ProductionBatchSerializer(ModelSerializer):
    product_name = serializers.CharField(source="product.name", read_only=True)
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    purchase_order = serializers.CharField(source="purchase_order_line.order.order_number", read_only=True)
    purchase_order_id = serializers.IntegerField(source="purchase_order_line.order_id", read_only=True)
    used_kg = serializers.SerializerMethodField()
    production_date = serializers.SerializerMethodField()
    created_by_name = serializers.SerializerMethodField()

    class Meta:
        model = ProductionBatch
        fields = [
            "id",
            "delivery",
            "production_batch_code",
            "production_date",
            "product",
            "product_name",
            "article_number",
            "purchase_order_line",
            "purchase_order",
            "purchase_order_id",
            "container",
            "net_weight_per_carton_kg",
            "carton_count",
            "used_kg",
            "created_by_name",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.DecimalField(max_digits=14, decimal_places=3))
    def get_used_kg(self, obj) -> str:
        return str((obj.net_weight_per_carton_kg * obj.carton_count).quantize(obj.net_weight_per_carton_kg))

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_production_date(self, obj) -> str | None:
        match = BATCH_CODE_RE.match(obj.production_batch_code)
        return f"{match[1]}-{match[2]}-{match[3]}" if match else None

    def get_created_by_name(self, obj) -> str:
        user = obj.created_by
        return (user.name or user.username) if user else ""


class GenerateCartonsSerializer(serializers.Serializer):
    count = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_CARTONS_PER_REQUEST,
        error_messages={
            "required": _("Requested count is required"),
            "null": _("Requested count is required"),
            "invalid": _("Requested count is required"),
        },
    )
    production_batch_code = serializers.CharField(
        max_length=9,
        error_messages={
            "required": _("Production batch code is required"),
            "blank": _("Production batch code is required"),
            "null": _("Production batch code is required"),
        },
    )
    product = TenantRelatedField(
        queryset=Product.objects,
        error_messages={"required": _("Product is required"), "null": _("Product is required")},
    )
    purchase_order_line = TenantRelatedField(
        queryset=PurchaseOrderLine.objects,
        error_messages={
            "required": _("Purchase order line is required"),
            "null": _("Purchase order line is required"),
        },
    )
    container = serializers.CharField(max_length=50, allow_blank=True, required=False, default="")

    def validate_production_batch_code(self, value: str) -> str:
        value = value.strip().upper()
        match = BATCH_CODE_RE.match(value)
        valid = False
        if match:
            try:
                date(int(match[1]), int(match[2]), int(match[3]))
                valid = True
            except ValueError:
                valid = False
        if not valid:
            raise serializers.ValidationError(
                _("Enter the production batch code as a date and a letter, e.g. 20261121A.")
            )
        return value


class GenerationLimitParamsSerializer(serializers.Serializer):
    product = TenantRelatedField(queryset=Product.objects, required=False, allow_null=True)
    purchase_order_line = TenantRelatedField(
        queryset=PurchaseOrderLine.objects, required=False, allow_null=True
    )


class GenerationLimitsSerializer(serializers.Serializer):
    weight = serializers.IntegerField(help_text="Cartons the remaining weight covers.")
    order_line = serializers.IntegerField(
        allow_null=True,
        help_text="Cartons the order line still allows (ordered plus tolerance); null without a line.",
    )
    carton_cap = serializers.IntegerField(
        allow_null=True, help_text="Cartons left under the delivery's cap; null without a cap."
    )
    request = serializers.IntegerField(help_text="The most one request may ask for.")


class GenerationLimitSerializer(serializers.Serializer):
    """What the generate dialog shows: today's first free batch code and, once the product and line are
    chosen, the one limit of every rule and the rule that binds (apps/eudr/generation.py)."""

    next_batch_code = serializers.CharField()
    net_weight_per_carton_kg = serializers.DecimalField(max_digits=10, decimal_places=3, allow_null=True)
    max_cartons = serializers.IntegerField(allow_null=True)
    binding = serializers.ChoiceField(
        choices=["weight", "order_line", "carton_cap", "request"],
        allow_null=True,
        help_text="The rule that sets max_cartons.",
    )
    limits = GenerationLimitsSerializer(allow_null=True)


class GenerateCartonsResultSerializer(serializers.Serializer):
    generated = serializers.IntegerField()
    batch = ProductionBatchSerializer()
    delivery = RawMaterialDeliveryDetailSerializer()


class CartonLabelSerializer(ModelSerializer):
    qr_url = serializers.SerializerMethodField()
    life = serializers.SerializerMethodField(
        help_text="The carton's state: labelled, in_container, received, in_stock, picked, shipped, delivered "
        "or voided. Only labelled and in_container cartons can be voided."
    )
    voided_by = serializers.CharField(
        source="voided_by.username", read_only=True, default=None, allow_null=True
    )
    product_name = serializers.CharField(source="product.name", read_only=True)
    delivery_number = serializers.CharField(source="raw_material.delivery_number", read_only=True)

    class Meta:
        model = CartonLabel
        fields = [
            "id",
            "code",
            "qr_url",
            "production_batch_code",
            "batch_sequence",
            "article_number",
            "product",
            "product_name",
            "purchase_order",
            "purchase_order_line",
            "container",
            "raw_material",
            "delivery_number",
            "batch",
            "net_weight_kg",
            "status",
            "created_at",
            "voided_at",
            "voided_by",
            "void_reason",
            "life",
        ]
        read_only_fields = fields

    def get_life(self, obj) -> str:
        from apps.eudr.warehouse import warehouse

        try:
            carton = obj.warehouse_state
        except ObjectDoesNotExist:
            carton = None
        return str(warehouse().life_of(label=obj, carton=carton))

    def get_qr_url(self, obj) -> str:
        base = self.context.get("public_base_url")
        if base is None:
            base = public_base_url(self.context.get("request"))
            self.context["public_base_url"] = base
        return trace_url(base, obj.code)


class BulkDeleteSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_empty=True,
        max_length=services.MAX_CARTONS_PER_REQUEST,
        error_messages={"required": services.MSG_SELECT_LABELS, "null": services.MSG_SELECT_LABELS},
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    def validate_ids(self, value):
        if not value:
            raise serializers.ValidationError(services.MSG_SELECT_LABELS)
        return value


class BulkDeleteResultSerializer(serializers.Serializer):
    deleted = serializers.IntegerField()
    returned_kg = serializers.DecimalField(max_digits=14, decimal_places=3)


class SupplierPolicySerializer(ModelSerializer):
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, allow_null=True, required=False)
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True, default="")
    material_type = serializers.ChoiceField(choices=MaterialType.choices, allow_blank=True, required=False)

    class Meta:
        model = SupplierPolicy
        fields = [
            "id",
            "parent_vendor",
            "parent_vendor_name",
            "material_type",
            "min_consumption_per_carton",
            "loss_rate_percent",
            "cap_mode",
            "cap_value",
            "order_tolerance_percent",
            "valid_from",
            "is_active",
            "notes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    def validate(self, attrs):
        def value(name, default=None):
            return attrs.get(name, getattr(self.instance, name, default) if self.instance else default)

        cap_mode = value("cap_mode", SupplierPolicy.CapMode.BY_WEIGHT)
        cap_value = value("cap_value")
        if cap_mode == SupplierPolicy.CapMode.FIXED and not cap_value:
            raise serializers.ValidationError({"cap_value": [_("Enter the fixed number of cartons.")]})
        if cap_mode != SupplierPolicy.CapMode.FIXED:
            attrs["cap_value"] = None
        vendor = value("parent_vendor")
        material = value("material_type", "") or ""
        clash = SupplierPolicy.objects.filter(
            parent_vendor=vendor if vendor else None, material_type=material
        )
        if vendor is None:
            clash = SupplierPolicy.objects.filter(parent_vendor__isnull=True, material_type=material)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(
                {"material_type": [_("A policy for this parent vendor and material already exists.")]}
            )
        return attrs


class DeliveryFileLineSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    material_type = serializers.CharField(allow_blank=True)
    weight_kg = serializers.CharField(allow_null=True)
    pulp_type = serializers.CharField(allow_blank=True)
    pulp_brand = serializers.CharField(allow_blank=True)
    scientific_names = serializers.ListField(child=serializers.CharField())
    common_names = serializers.ListField(child=serializers.CharField())


class DeliveryFileRowErrorSerializer(serializers.Serializer):
    row = serializers.IntegerField(allow_null=True)
    field = serializers.CharField(allow_blank=True)
    message = serializers.CharField()


class DeliveryFileParseSerializer(serializers.Serializer):
    header = serializers.DictField(child=serializers.CharField(allow_blank=True))
    lines = DeliveryFileLineSerializer(many=True)
    errors = DeliveryFileRowErrorSerializer(many=True)
    rows = serializers.IntegerField()
