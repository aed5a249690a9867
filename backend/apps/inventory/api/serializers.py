from rest_framework import serializers

from apps.inventory.models import Location, Stock, StockMove, Warehouse


class LocationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Location
        fields = ["id", "code", "name", "kind", "is_active"]
        read_only_fields = fields


class WarehouseSerializer(serializers.ModelSerializer):
    locations = LocationSerializer(many=True, read_only=True)

    class Meta:
        model = Warehouse
        fields = ["id", "code", "name", "address", "is_default", "is_active", "locations"]
        read_only_fields = fields


class StockSerializer(serializers.ModelSerializer):
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    location_code = serializers.CharField(source="location.code", read_only=True)
    warehouse = serializers.IntegerField(source="location.warehouse_id", read_only=True)
    warehouse_code = serializers.CharField(source="location.warehouse.code", read_only=True)

    class Meta:
        model = Stock
        fields = [
            "id",
            "product",
            "article_number",
            "product_name",
            "location",
            "location_code",
            "warehouse",
            "warehouse_code",
            "quantity",
            "updated_at",
        ]
        read_only_fields = fields


class StockMoveSerializer(serializers.ModelSerializer):
    article_number = serializers.CharField(source="product.article_number", read_only=True)
    from_location_code = serializers.CharField(source="from_location.code", read_only=True, default="")
    to_location_code = serializers.CharField(source="to_location.code", read_only=True, default="")

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
            "note",
            "moved_at",
        ]
        read_only_fields = fields
