from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.logistics.models import Dispatch, ShipmentCompany, ShipmentInfo
from apps.logistics.services import TRANSITIONS
from apps.logistics.validators import normalize_container_number, validate_container_number, validate_unlocode
from apps.purchaseorders.models import PurchaseOrder
from apps.salesorders.models import Shipment as SalesShipment


class ShipmentCompanySerializer(ModelSerializer):
    shipments_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = ShipmentCompany
        fields = [
            "id",
            "name",
            "contact_name",
            "email",
            "phone",
            "website",
            "tracking_url_template",
            "shipments_count",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "shipments_count", "created_at", "updated_at"]
        # uniqueness per tenant is checked in validate_name (the model constraint includes the tenant)
        validators: list = []

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        if "/" in value:
            raise serializers.ValidationError(_("The name cannot contain a slash."))
        clash = ShipmentCompany.objects.filter(name__iexact=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(_("A shipment company with this name already exists."))
        return value


class ShipmentCompanyBriefSerializer(ModelSerializer):
    class Meta:
        model = ShipmentCompany
        fields = ["id", "name", "tracking_url_template"]


class CarriedOrderSerializer(ModelSerializer):
    supplier_name = serializers.CharField(source="supplier.name", read_only=True)

    class Meta:
        model = PurchaseOrder
        fields = ["id", "order_number", "supplier_name", "status", "promise_date"]


class ShipmentSerializer(ModelSerializer):
    shipment_company_detail = ShipmentCompanyBriefSerializer(
        source="shipment_company", read_only=True, allow_null=True
    )
    purchase_orders_detail = CarriedOrderSerializer(source="purchase_orders", many=True, read_only=True)
    purchase_orders = serializers.SerializerMethodField()
    tracking_url = serializers.SerializerMethodField()
    cartons_count = serializers.IntegerField(read_only=True, default=0)
    allowed_transitions = serializers.SerializerMethodField()

    class Meta:
        model = ShipmentInfo
        fields = [
            "id",
            "container_number",
            "seal_number",
            "shipment_company",
            "shipment_company_detail",
            "tracking_url",
            "vessel",
            "voyage",
            "port_of_loading",
            "port_of_discharge",
            "etd",
            "eta",
            "status",
            "note",
            "purchase_orders",
            "purchase_orders_detail",
            "cartons_count",
            "allowed_transitions",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_purchase_orders(self, obj) -> list[int]:
        return [order.pk for order in obj.purchase_orders.all()]

    def get_tracking_url(self, obj) -> str:
        return obj.shipment_company.tracking_url(obj.container_number) if obj.shipment_company else ""

    @extend_schema_field(
        serializers.ListField(child=serializers.ChoiceField(choices=ShipmentInfo.Status.choices))
    )
    def get_allowed_transitions(self, obj) -> list[str]:
        request = self.context.get("request")
        if request is not None and getattr(request.user, "is_supplier", False):
            return []
        return [str(status) for status in TRANSITIONS[obj.status]]


class ShipmentWriteSerializer(serializers.Serializer):
    container_number = serializers.CharField(max_length=20)
    seal_number = serializers.CharField(max_length=40, required=False, allow_blank=True)
    shipment_company = TenantRelatedField(queryset=ShipmentCompany.objects, required=False, allow_null=True)
    vessel = serializers.CharField(max_length=120, required=False, allow_blank=True)
    voyage = serializers.CharField(max_length=40, required=False, allow_blank=True)
    port_of_loading = serializers.CharField(max_length=5, required=False, allow_blank=True)
    port_of_discharge = serializers.CharField(max_length=5, required=False, allow_blank=True)
    etd = serializers.DateField(required=False, allow_null=True)
    eta = serializers.DateField(required=False, allow_null=True)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True)
    purchase_orders = TenantRelatedField(queryset=PurchaseOrder.objects, many=True, required=False)

    def validate_container_number(self, value: str) -> str:
        value = normalize_container_number(value)
        try:
            validate_container_number(value)
        except Exception as exc:  # django ValidationError -> DRF
            raise serializers.ValidationError(list(getattr(exc, "messages", [str(exc)]))) from exc
        return value

    def _port(self, value: str) -> str:
        value = (value or "").replace(" ", "").upper()
        try:
            validate_unlocode(value)
        except Exception as exc:
            raise serializers.ValidationError(list(getattr(exc, "messages", [str(exc)]))) from exc
        return value

    def validate_port_of_loading(self, value: str) -> str:
        return self._port(value)

    def validate_port_of_discharge(self, value: str) -> str:
        return self._port(value)

    def validate(self, attrs):
        instance = self.instance
        etd = attrs.get("etd", instance.etd if instance else None)
        eta = attrs.get("eta", instance.eta if instance else None)
        if etd and eta and eta < etd:
            raise serializers.ValidationError({"eta": [_("The ETA is before the ETD.")]})
        return attrs


class ShipmentTransitionSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=ShipmentInfo.Status.choices)


class DispatchSerializer(ModelSerializer):
    """An outbound shipment's transport. `sales_shipment` and `carrier` are ids of this company's rows."""

    sales_shipment = TenantRelatedField(queryset=SalesShipment.objects)
    carrier = TenantRelatedField(queryset=ShipmentCompany.objects, required=False, allow_null=True)
    shipment_number = serializers.CharField(source="sales_shipment.shipment_number", read_only=True)
    shipment_status = serializers.CharField(source="sales_shipment.status", read_only=True)
    order_number = serializers.CharField(source="sales_shipment.sales_order.order_number", read_only=True)
    customer_name = serializers.CharField(source="sales_shipment.sales_order.customer.name", read_only=True)
    carrier_name = serializers.CharField(source="carrier.name", read_only=True, default="")
    cartons_count = serializers.IntegerField(read_only=True, default=0)
    weight_kg = serializers.DecimalField(
        max_digits=12, decimal_places=3, min_value=Decimal("0"), required=False
    )

    class Meta:
        model = Dispatch
        fields = [
            "id",
            "sales_shipment",
            "shipment_number",
            "shipment_status",
            "order_number",
            "customer_name",
            "carrier",
            "carrier_name",
            "pickup_date",
            "vehicle",
            "tracking_number",
            "packages",
            "weight_kg",
            "cartons_count",
            "note",
            "updated_at",
        ]
        read_only_fields = ["id", "updated_at"]

    def validate_sales_shipment(self, shipment):
        taken = Dispatch.objects.filter(sales_shipment=shipment)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(_("This shipment already has a dispatch."))
        return shipment
