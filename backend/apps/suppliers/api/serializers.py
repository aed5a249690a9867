from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.suppliers import services
from apps.suppliers.models import ParentVendor, Supplier

MAX_CONTACTS = 20


def _upper(value: str) -> str:
    return (value or "").strip().upper()


class ParentVendorSerializer(ModelSerializer):
    supplier_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = ParentVendor
        fields = [
            "id",
            "name",
            "cname",
            "code",
            "contact",
            "email",
            "phone",
            "country",
            "is_active",
            "supplier_count",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    def to_internal_value(self, data):
        if hasattr(data, "copy") and isinstance(data.get("country"), str):
            data = data.copy()
            data["country"] = _upper(data["country"])
        if hasattr(data, "copy") and isinstance(data.get("code"), str):
            data = data.copy()
            data["code"] = data["code"].strip().upper()
        return super().to_internal_value(data)

    def _others(self):
        queryset = ParentVendor.objects.all()
        return queryset.exclude(pk=self.instance.pk) if self.instance is not None else queryset

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if self._others().filter(name__iexact=value).exists():
            raise serializers.ValidationError(_("A parent vendor with this name already exists."))
        return value

    def validate_code(self, value: str) -> str:
        if value and self._others().filter(code__iexact=value).exists():
            raise serializers.ValidationError(_("A parent vendor with this code already exists."))
        return value

    def create(self, validated_data):
        return services.parent_vendor_save(vendor=ParentVendor(), data=validated_data)

    def update(self, instance, validated_data):
        return services.parent_vendor_save(vendor=instance, data=validated_data)


class ParentVendorRefSerializer(ModelSerializer):
    class Meta:
        model = ParentVendor
        fields = ["id", "name", "cname", "code"]


class SupplierContactSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    role = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")


class SupplierSerializer(ModelSerializer):
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects)
    parent_vendor_detail = serializers.SerializerMethodField()
    contacts = SupplierContactSerializer(many=True, required=False)

    class Meta:
        model = Supplier
        fields = [
            "id",
            "number",
            "name",
            "parent_vendor",
            "parent_vendor_detail",
            "country",
            "address",
            "contacts",
            "email",
            "phone",
            "visma_code",
            "payment_terms",
            "currency",
            "is_active",
            "notes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    def to_internal_value(self, data):
        if hasattr(data, "copy"):
            data = data.copy()
            for key in ("country", "currency"):
                if isinstance(data.get(key), str):
                    data[key] = _upper(data[key])
        return super().to_internal_value(data)

    @extend_schema_field(ParentVendorRefSerializer)
    def get_parent_vendor_detail(self, supplier: Supplier):
        return ParentVendorRefSerializer(supplier.parent_vendor).data

    def validate_number(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        others = Supplier.objects.filter(number__iexact=value)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise serializers.ValidationError(_("A supplier with this number already exists."))
        return value

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        return value

    def validate_contacts(self, value: list) -> list:
        if len(value) > MAX_CONTACTS:
            raise serializers.ValidationError(
                _("At most %(max)d contacts per supplier.") % {"max": MAX_CONTACTS}
            )
        return [dict(contact) for contact in value]

    def create(self, validated_data):
        return services.supplier_save(supplier=Supplier(), data=validated_data)

    def update(self, instance, validated_data):
        return services.supplier_save(supplier=instance, data=validated_data)
