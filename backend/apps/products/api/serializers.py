from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.common.api.permissions import user_type
from apps.common.prices import PriceFieldsMixin
from apps.products.models import Product, ProductGroup
from apps.products.selectors import GroupIndex
from apps.products.services import ARTICLE_NUMBER_TAKEN, GROUP_CODE_TAKEN, GROUP_CYCLE, GROUP_NAME_TAKEN
from apps.products.validators import normalize_hs_code, validate_barcode, validate_currency, validate_hs_code


def group_index(context: dict) -> GroupIndex:
    """One GroupIndex per request (one query), shared by every row the serializer renders."""
    index = context.get("_group_index")
    if index is None:
        index = GroupIndex()
        context["_group_index"] = index
    return index


class HsCodeField(serializers.CharField):
    """Accepts the dotted and spaced forms of customs tariffs ("4819.10") and stores digits only."""

    def to_internal_value(self, data):
        return normalize_hs_code(super().to_internal_value(data))


class UpperCaseField(serializers.CharField):
    def to_internal_value(self, data):
        return super().to_internal_value(data).upper()


class DigitsField(serializers.CharField):
    def to_internal_value(self, data):
        return "".join(super().to_internal_value(data).split())


class ProductGroupSerializer(ModelSerializer):
    parent = TenantRelatedField(queryset=ProductGroup.objects, allow_null=True, required=False)
    parent_name = serializers.CharField(source="parent.name", read_only=True, default=None, allow_null=True)
    path = serializers.SerializerMethodField()
    depth = serializers.SerializerMethodField()
    product_count = serializers.SerializerMethodField()
    children_count = serializers.SerializerMethodField()

    class Meta:
        model = ProductGroup
        fields = [
            "id",
            "name",
            "code",
            "description",
            "parent",
            "parent_name",
            "path",
            "depth",
            "product_count",
            "children_count",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    @extend_schema_field(serializers.CharField())
    def get_path(self, obj: ProductGroup) -> str:
        index = group_index(self.context)
        return index.path(obj.pk) if obj.pk in index.nodes else obj.name

    @extend_schema_field(serializers.IntegerField())
    def get_depth(self, obj: ProductGroup) -> int:
        return group_index(self.context).depth(obj.pk)

    @extend_schema_field(serializers.IntegerField())
    def get_product_count(self, obj: ProductGroup) -> int:
        return getattr(obj, "product_count", 0)

    @extend_schema_field(serializers.IntegerField())
    def get_children_count(self, obj: ProductGroup) -> int:
        return getattr(obj, "children_count", 0)

    def validate_name(self, value: str) -> str:
        value = value.strip()
        taken = ProductGroup.objects.filter(name__iexact=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(GROUP_NAME_TAKEN)
        return value

    def validate_code(self, value: str) -> str:
        value = value.strip()
        if not value:
            return value
        taken = ProductGroup.objects.filter(code__iexact=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(GROUP_CODE_TAKEN)
        return value

    def validate_parent(self, value: ProductGroup | None) -> ProductGroup | None:
        if value is None or self.instance is None:
            return value
        if value.pk == self.instance.pk or self.instance.pk in group_index(self.context).ancestors(value.pk):
            raise serializers.ValidationError(GROUP_CYCLE)
        return value


class ProductGroupTreeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    description = serializers.CharField()
    parent = serializers.IntegerField(allow_null=True)
    depth = serializers.IntegerField()
    product_count = serializers.IntegerField()
    children_count = serializers.IntegerField()
    children = serializers.ListField(child=serializers.DictField(), help_text="Nodes of the same shape.")


# What a supplier user sees of a product: what the carton dialog and their orders need, no prices.
SUPPLIER_VISIBLE_FIELDS = frozenset(
    {
        "id",
        "article_number",
        "name",
        "name_zh",
        "unit",
        "weight_per_carton_kg",
        "carton_length_mm",
        "carton_width_mm",
        "carton_height_mm",
        "hs_code",
        "is_active",
        "barcode",
    }
)


class ProductSerializer(PriceFieldsMixin, ModelSerializer):
    price_fields = ("purchase_price", "sales_price")

    group = TenantRelatedField(queryset=ProductGroup.objects, allow_null=True, required=False)
    group_name = serializers.CharField(source="group.name", read_only=True, default=None, allow_null=True)
    group_path = serializers.SerializerMethodField()
    hs_code = HsCodeField(
        max_length=10, required=False, allow_blank=True, validators=[validate_hs_code], label=_("HS code")
    )
    currency = UpperCaseField(
        max_length=3, required=False, validators=[validate_currency], label=_("currency")
    )
    barcode = DigitsField(
        max_length=14,
        required=False,
        allow_blank=True,
        validators=[validate_barcode],
        label=_("barcode (EAN)"),
    )

    class Meta:
        model = Product
        fields = [
            "id",
            "article_number",
            "name",
            "name_zh",
            "group",
            "group_name",
            "group_path",
            "unit",
            "weight_per_carton_kg",
            "carton_length_mm",
            "carton_width_mm",
            "carton_height_mm",
            "hs_code",
            "is_active",
            "purchase_price",
            "sales_price",
            "currency",
            "description",
            "barcode",
            "visma_code",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {
            "carton_length_mm": {"min_value": 1, "max_value": 10000},
            "carton_width_mm": {"min_value": 1, "max_value": 10000},
            "carton_height_mm": {"min_value": 1, "max_value": 10000},
        }

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_group_path(self, obj: Product) -> str | None:
        if obj.group_id is None:
            return None
        index = group_index(self.context)
        return index.path(obj.group_id) if obj.group_id in index.nodes else None

    def validate_article_number(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        taken = Product.objects.filter(article_number=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(ARTICLE_NUMBER_TAKEN)
        return value

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        return value

    def validate_weight_per_carton_kg(self, value: Decimal | None) -> Decimal | None:
        if value is not None and value <= 0:
            raise serializers.ValidationError(_("Enter a weight greater than 0 kg."))
        return value

    def to_representation(self, instance):
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is not None and user_type(request.user) == "supplier":
            data = {key: value for key, value in data.items() if key in SUPPLIER_VISIBLE_FIELDS}
        return data
