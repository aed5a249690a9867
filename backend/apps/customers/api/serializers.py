from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from apps.common import tax
from apps.common.api.model_serializer import ModelSerializer
from apps.customers.models import Customer, CustomerContact
from apps.customers.services import CUSTOMER_NUMBER_TAKEN
from apps.products.validators import validate_country_code, validate_currency


class UpperCaseField(serializers.CharField):
    def to_internal_value(self, data):
        return super().to_internal_value(data).strip().upper()


class CustomerContactSerializer(ModelSerializer):
    id = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        model = CustomerContact
        fields = ["id", "name", "role", "email", "phone"]

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        return value


def country_field(label):
    return UpperCaseField(
        max_length=2, required=False, allow_blank=True, validators=[validate_country_code], label=label
    )


class CustomerSerializer(ModelSerializer):
    contacts = CustomerContactSerializer(many=True, required=False)
    currency = UpperCaseField(
        max_length=3, required=False, validators=[validate_currency], label=_("currency")
    )
    billing_country = country_field(_("billing country"))
    delivery_country = country_field(_("delivery country"))
    vat_id_valid = serializers.SerializerMethodField(
        help_text="The VAT id is an EU VAT number valid by its country's format and check digits (checked "
        "offline; a customer without a valid one is not zero-rated as an EU business, docs/sales.md)."
    )

    class Meta:
        model = Customer
        fields = [
            "id",
            "number",
            "name",
            "email",
            "phone",
            "vat_id",
            "vat_id_valid",
            "visma_code",
            "currency",
            "payment_terms_days",
            "billing_street",
            "billing_post_code",
            "billing_city",
            "billing_country",
            "delivery_street",
            "delivery_post_code",
            "delivery_city",
            "delivery_country",
            "is_active",
            "notes",
            "contacts",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    def validate_number(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        taken = Customer.objects.filter(number=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(CUSTOMER_NUMBER_TAKEN)
        return value

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("This field may not be blank."))
        return value

    def get_vat_id_valid(self, obj) -> bool:
        return tax.vat_number_valid(obj.vat_id)

    def validate_vat_id(self, value: str) -> str:
        return "".join(value.split()).upper()

    def validate_contacts(self, value: list[dict]) -> list[dict]:
        own = set()
        if self.instance is not None:
            own = {c.pk for c in self.instance.contacts.all()}
        for item in value:
            if item.get("id") and item["id"] not in own:
                item["id"] = None  # another customer's (or tenant's) contact id: treated as a new contact
        return value
