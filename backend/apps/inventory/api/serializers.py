from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.inventory.models import (
    CartonEvent,
    Location,
    ReorderPoint,
    Stock,
    StockCount,
    StockCountLine,
    StockMove,
    Warehouse,
    WarehouseCarton,
)
from apps.logistics.models import ShipmentInfo
from apps.products.models import Product

QTY = {"max_digits": 14, "decimal_places": 3}


class LocationSerializer(ModelSerializer):
    class Meta:
        model = Location
        fields = ["id", "code", "name", "kind", "is_active"]
        read_only_fields = fields


class LocationWithWarehouseSerializer(ModelSerializer):
    warehouse_code = serializers.CharField(source="warehouse.code", read_only=True)

    class Meta:
        model = Location
        fields = ["id", "code", "name", "kind", "is_active", "warehouse", "warehouse_code"]
        read_only_fields = fields


class WarehouseSerializer(ModelSerializer):
    locations = LocationSerializer(many=True, read_only=True)

    class Meta:
        model = Warehouse
        fields = ["id", "code", "name", "address", "is_default", "is_active", "locations"]
        read_only_fields = fields


class StockSerializer(ModelSerializer):
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    product_unit = serializers.CharField(source="product.unit", read_only=True)
    product_group = serializers.IntegerField(source="product.group_id", read_only=True, allow_null=True)
    location_code = serializers.CharField(source="location.code", read_only=True)
    warehouse = serializers.IntegerField(source="location.warehouse_id", read_only=True)
    warehouse_code = serializers.CharField(source="location.warehouse.code", read_only=True)
    on_hand = serializers.DecimalField(**QTY, read_only=True)
    reserved = serializers.DecimalField(**QTY, read_only=True)
    available = serializers.DecimalField(**QTY, read_only=True)
    reorder_point = serializers.DecimalField(**QTY, read_only=True, allow_null=True)
    product_available = serializers.DecimalField(
        **QTY,
        read_only=True,
        help_text="Available of the product over all locations (what the reorder point compares with).",
    )
    below_reorder_point = serializers.SerializerMethodField(
        help_text="The product's available stock over all locations is below its reorder point."
    )

    class Meta:
        model = Stock
        fields = [
            "id",
            "product",
            "article_number",
            "product_name",
            "product_unit",
            "product_group",
            "location",
            "location_code",
            "warehouse",
            "warehouse_code",
            "quantity",
            "on_hand",
            "reserved",
            "available",
            "reorder_point",
            "product_available",
            "below_reorder_point",
            "updated_at",
        ]
        read_only_fields = fields

    def get_below_reorder_point(self, obj) -> bool:
        point = getattr(obj, "reorder_point", None)
        return point is not None and getattr(obj, "product_available", 0) < point


class ProductTotalSerializer(serializers.Serializer):
    product = serializers.IntegerField(source="product_id")
    article_number = serializers.CharField(source="product__article_number")
    product_name = serializers.CharField(source="product__name")
    product_unit = serializers.CharField(source="product__unit")
    locations = serializers.IntegerField()
    on_hand = serializers.DecimalField(**QTY)
    reserved = serializers.DecimalField(**QTY)
    available = serializers.DecimalField(**QTY)
    reorder_point = serializers.DecimalField(**QTY, allow_null=True)


class ReorderPointSerializer(ModelSerializer):
    """A product's reorder point. `product` is given when it is set (POST sets or changes it) and
    stays the same afterwards (PATCH changes the quantity)."""

    product = TenantRelatedField(queryset=Product.objects)
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    reorder_point = serializers.DecimalField(**QTY, min_value=Decimal("0"))

    class Meta:
        model = ReorderPoint
        fields = ["id", "product", "article_number", "product_name", "reorder_point"]
        read_only_fields = ["id", "article_number", "product_name"]

    def validate_product(self, product):
        if self.instance is not None and product.pk != self.instance.product_id:
            raise serializers.ValidationError(
                _("A reorder point stays with its product; set the other product's own.")
            )
        return product


class StockAsOfSerializer(serializers.Serializer):
    product = serializers.IntegerField()
    article_number = serializers.CharField()
    location = serializers.IntegerField()
    location_code = serializers.CharField()
    warehouse_code = serializers.CharField()
    quantity = serializers.DecimalField(**QTY)


class StockMoveSerializer(ModelSerializer):
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    from_location_code = serializers.CharField(source="from_location.code", read_only=True, default="")
    to_location_code = serializers.CharField(source="to_location.code", read_only=True, default="")
    created_by_name = serializers.SerializerMethodField()

    class Meta:
        model = StockMove
        fields = [
            "id",
            "kind",
            "product",
            "article_number",
            "quantity",
            "from_location",
            "from_location_code",
            "to_location",
            "to_location_code",
            "reference",
            "document_type",
            "document_id",
            "reason",
            "note",
            "moved_at",
            "created_by",
            "created_by_name",
        ]
        read_only_fields = fields

    def get_created_by_name(self, move) -> str:
        user = move.created_by
        if user is None:
            return ""
        return user.get_full_name() or user.username


class TransferSerializer(serializers.Serializer):
    product = TenantRelatedField(queryset=Product.objects)
    from_location = TenantRelatedField(queryset=Location.objects)
    to_location = TenantRelatedField(queryset=Location.objects)
    quantity = serializers.DecimalField(**QTY, min_value=Decimal("0.001"))
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class CountLineWriteSerializer(serializers.Serializer):
    product = TenantRelatedField(queryset=Product.objects)
    location = TenantRelatedField(queryset=Location.objects)
    counted_quantity = serializers.DecimalField(**QTY, min_value=Decimal("0"))
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class CountWriteSerializer(serializers.Serializer):
    lines = CountLineWriteSerializer(many=True, allow_empty=False, max_length=500)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class CountLineSerializer(ModelSerializer):
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    location_code = serializers.CharField(source="location.code", read_only=True)

    class Meta:
        model = StockCountLine
        fields = [
            "id",
            "product",
            "article_number",
            "location",
            "location_code",
            "expected_quantity",
            "counted_quantity",
            "difference",
            "reason",
            "stock_move",
        ]
        read_only_fields = fields


class CountSerializer(ModelSerializer):
    lines = CountLineSerializer(many=True, read_only=True)

    class Meta:
        model = StockCount
        fields = ["id", "number", "counted_at", "note", "created_by", "lines"]
        read_only_fields = fields


class CartonEventSerializer(ModelSerializer):
    location_code = serializers.CharField(source="location.code", read_only=True, default="")
    warehouse_code = serializers.CharField(source="location.warehouse.code", read_only=True, default="")
    customer_name = serializers.CharField(source="customer.name", read_only=True, default="")
    created_by_name = serializers.SerializerMethodField()

    class Meta:
        model = CartonEvent
        fields = [
            "id",
            "kind",
            "location",
            "location_code",
            "warehouse_code",
            "reference",
            "customer",
            "customer_name",
            "created_by_name",
            "created_at",
        ]
        read_only_fields = fields

    def get_created_by_name(self, event) -> str:
        user = event.created_by
        return (user.get_full_name() or user.username) if user else ""


class WarehouseCartonSerializer(ModelSerializer):
    code = serializers.CharField(source="label.code", read_only=True)
    article_number = serializers.CharField(source="label.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    purchase_order = serializers.CharField(source="label.purchase_order", read_only=True)
    production_batch_code = serializers.CharField(source="label.production_batch_code", read_only=True)
    location_code = serializers.CharField(source="location.code", read_only=True, default="")
    warehouse_code = serializers.CharField(source="location.warehouse.code", read_only=True, default="")
    container = serializers.CharField(source="inbound_shipment.container_number", read_only=True, default="")
    posted = serializers.SerializerMethodField()

    class Meta:
        model = WarehouseCarton
        fields = [
            "id",
            "code",
            "product",
            "article_number",
            "product_name",
            "purchase_order",
            "production_batch_code",
            "status",
            "posted",
            "location",
            "location_code",
            "warehouse_code",
            "inbound_shipment",
            "container",
            "received_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_posted(self, carton) -> bool:
        return carton.receipt_id is not None


class WarehouseCartonDetailSerializer(WarehouseCartonSerializer):
    events = CartonEventSerializer(many=True, read_only=True)
    net_weight_kg = serializers.DecimalField(
        source="label.net_weight_kg", max_digits=10, decimal_places=3, read_only=True
    )

    class Meta(WarehouseCartonSerializer.Meta):
        fields = [*WarehouseCartonSerializer.Meta.fields, "net_weight_kg", "events"]
        read_only_fields = fields


class ScanResultSerializer(serializers.Serializer):
    duplicate = serializers.BooleanField()
    carton = WarehouseCartonSerializer()


class _ScanSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=300)
    scan_id = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")


class ReceiveScanSerializer(_ScanSerializer):
    shipment = TenantRelatedField(queryset=ShipmentInfo.objects)
    location = TenantRelatedField(queryset=Location.objects, required=False, allow_null=True, default=None)


class MoveScanSerializer(_ScanSerializer):
    location = TenantRelatedField(queryset=Location.objects)


class InboundShipmentSerializer(ModelSerializer):
    carrier = serializers.CharField(source="shipment_company.name", read_only=True, default="")
    cartons_expected = serializers.IntegerField(read_only=True)
    cartons_received = serializers.IntegerField(read_only=True)
    cartons_pending = serializers.IntegerField(read_only=True)
    purchase_orders = serializers.SerializerMethodField()

    class Meta:
        model = ShipmentInfo
        fields = [
            "id",
            "container_number",
            "carrier",
            "vessel",
            "eta",
            "status",
            "purchase_orders",
            "cartons_expected",
            "cartons_received",
            "cartons_pending",
        ]
        read_only_fields = fields

    def get_purchase_orders(self, shipment) -> list[str]:
        return [order.order_number for order in shipment.purchase_orders.all()]


class InboundLineSerializer(serializers.Serializer):
    order_line = serializers.IntegerField()
    purchase_order = serializers.IntegerField()
    order_number = serializers.CharField()
    line_number = serializers.IntegerField()
    article_number = serializers.CharField()
    order_qty = serializers.DecimalField(**QTY)
    received_qty = serializers.DecimalField(**QTY)
    cartons_expected = serializers.IntegerField()
    cartons_received = serializers.IntegerField()
    cartons_pending = serializers.IntegerField()


class InboundShipmentDetailSerializer(InboundShipmentSerializer):
    lines = serializers.SerializerMethodField()

    class Meta(InboundShipmentSerializer.Meta):
        fields = [*InboundShipmentSerializer.Meta.fields, "lines"]
        read_only_fields = fields

    @extend_schema_field(InboundLineSerializer(many=True))
    def get_lines(self, shipment) -> list[dict]:
        from apps.inventory.selectors import inbound_lines

        return InboundLineSerializer(inbound_lines(shipment), many=True).data


class ReceiptRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    receipt_number = serializers.CharField()
    purchase_order = serializers.IntegerField(source="purchase_order_id")


class SearchHitSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="carton, sales_order, purchase_order, shipment or product")
    id = serializers.IntegerField()
    label = serializers.CharField()
    url = serializers.CharField()
    code = serializers.CharField()
