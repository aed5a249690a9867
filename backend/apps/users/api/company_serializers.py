from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common import payment
from apps.common.api.model_serializer import ModelSerializer
from apps.tenancy import operator
from apps.tenancy.models import EudrImportRole, EudrPrimaryRole, EudrPurchaseRole, OperatorRole, Tenant
from apps.tenancy.services import COMPANY_SETTINGS_FIELDS


class TenantSerializer(ModelSerializer):
    id = serializers.CharField(read_only=True)

    class Meta:
        model = Tenant
        fields = ["id", "name"]


MISSING_CHOICES = [
    "legal_name",
    "address",
    "country",
    "identifier",
    "represented_operator_name",
    "represented_operator_street",
    "represented_operator_postal_code",
    "represented_operator_city",
    "represented_operator_country",
    "represented_operator_identifier",
]


class CompanySettingsSerializer(ModelSerializer):
    """The company settings: the operator of the tenant's due diligence statements (docs/regulation.md).

    `missing_for_statement` lists what a due diligence statement still needs (`identifier`: an EORI or
    VAT number); `can_edit` says whether the signed-in user may change the settings.
    """

    id = serializers.CharField(read_only=True)
    legal_name = serializers.CharField(max_length=300, allow_blank=True, required=False, trim_whitespace=True)
    address = serializers.CharField(max_length=500, allow_blank=True, required=False, trim_whitespace=True)
    country = serializers.CharField(max_length=2, allow_blank=True, required=False)
    eori_number = serializers.CharField(max_length=40, allow_blank=True, required=False)
    vat_number = serializers.CharField(max_length=40, allow_blank=True, required=False)
    email = serializers.EmailField(allow_blank=True, required=False)
    phone = serializers.CharField(max_length=50, allow_blank=True, required=False)
    operator_role = serializers.ChoiceField(choices=OperatorRole.choices, required=False)
    represented_operator_name = serializers.CharField(max_length=300, allow_blank=True, required=False)
    represented_operator_address = serializers.CharField(max_length=250, allow_blank=True, required=False)
    represented_operator_street = serializers.CharField(max_length=300, allow_blank=True, required=False)
    represented_operator_postal_code = serializers.CharField(max_length=80, allow_blank=True, required=False)
    represented_operator_city = serializers.CharField(max_length=200, allow_blank=True, required=False)
    represented_operator_country = serializers.CharField(max_length=2, allow_blank=True, required=False)
    represented_operator_eori = serializers.CharField(max_length=40, allow_blank=True, required=False)
    represented_operator_vat = serializers.CharField(max_length=40, allow_blank=True, required=False)
    represented_operator_email = serializers.EmailField(allow_blank=True, required=False)
    represented_operator_phone = serializers.CharField(max_length=50, allow_blank=True, required=False)
    allow_backorders = serializers.BooleanField(required=False)
    allow_negative_stock = serializers.BooleanField(required=False)
    eudr_import_role = serializers.ChoiceField(choices=EudrImportRole.choices, required=False)
    eudr_purchase_role = serializers.ChoiceField(choices=EudrPurchaseRole.choices, required=False)
    eudr_primary_role = serializers.ChoiceField(choices=EudrPrimaryRole.choices, required=False)
    eudr_is_sme = serializers.BooleanField(required=False)
    simplified_declaration_id = serializers.CharField(max_length=40, allow_blank=True, required=False)
    eudr_duties = serializers.SerializerMethodField()
    allow_unlabelled_shipping = serializers.BooleanField(required=False)
    registration_number = serializers.CharField(max_length=60, allow_blank=True, required=False)
    iban = serializers.CharField(max_length=60, allow_blank=True, required=False)
    bic = serializers.CharField(max_length=30, allow_blank=True, required=False)
    payment_terms_days = serializers.IntegerField(min_value=0, max_value=365, required=False)
    allow_uncovered_shipping = serializers.BooleanField(required=False)
    public_trace_max_age = serializers.IntegerField(min_value=0, max_value=86400, required=False)
    missing_for_statement = serializers.SerializerMethodField()
    can_edit = serializers.SerializerMethodField()

    class Meta:
        model = Tenant
        fields = [
            "id",
            "name",
            "code",
            *COMPANY_SETTINGS_FIELDS,
            "eudr_duties",
            "missing_for_statement",
            "can_edit",
            "updated_at",
        ]
        read_only_fields = ["id", "name", "code", "updated_at"]

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=MISSING_CHOICES)))
    def get_missing_for_statement(self, obj) -> list[str]:
        return operator.missing_for_statement(obj)

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=operator.DUTY_CHOICES)))
    def get_eudr_duties(self, obj) -> list[str]:
        return operator.eudr_duties(obj)

    def get_can_edit(self, obj) -> bool:
        return bool(self.context.get("can_edit"))

    # -- input ---------------------------------------------------------------------------------------

    def validate_country(self, value: str) -> str:
        value = (value or "").strip().upper()
        if value and value not in operator.EU_MEMBER_STATES:
            raise serializers.ValidationError(operator.MSG_EU_COUNTRY)
        return value

    def validate_represented_operator_country(self, value: str) -> str:
        value = (value or "").strip().upper()
        if value and not operator.is_country(value):
            raise serializers.ValidationError(operator.MSG_COUNTRY)
        return value

    def _eori(self, value: str) -> str:
        value = operator.normalise_identifier(value)
        if value and not operator.is_eori(value):
            raise serializers.ValidationError(operator.MSG_EORI)
        return value

    def _vat(self, value: str) -> str:
        value = operator.normalise_identifier(value)
        if value and not operator.is_vat(value):
            raise serializers.ValidationError(operator.MSG_VAT)
        return value

    def _phone(self, value: str) -> str:
        value = " ".join((value or "").split())
        if value and not operator.is_phone(value):
            raise serializers.ValidationError(operator.MSG_PHONE)
        return value

    def validate_eori_number(self, value: str) -> str:
        return self._eori(value)

    def validate_vat_number(self, value: str) -> str:
        return self._vat(value)

    def validate_phone(self, value: str) -> str:
        return self._phone(value)

    def validate_represented_operator_eori(self, value: str) -> str:
        return self._eori(value)

    def validate_represented_operator_vat(self, value: str) -> str:
        return self._vat(value)

    def validate_represented_operator_phone(self, value: str) -> str:
        return self._phone(value)

    def validate_registration_number(self, value: str) -> str:
        value = " ".join((value or "").split())
        if value and not operator.is_registration_number(value):
            raise serializers.ValidationError(operator.MSG_REGISTRATION)
        return value

    def validate_iban(self, value: str) -> str:
        value = payment.iban_compact(value)
        if value and not payment.iban_valid(value):
            raise serializers.ValidationError(operator.MSG_IBAN)
        return value

    def validate_bic(self, value: str) -> str:
        value = payment.bic_compact(value)
        if value and not payment.bic_valid(value):
            raise serializers.ValidationError(operator.MSG_BIC)
        return value

    def validate_simplified_declaration_id(self, value: str) -> str:
        value = operator.normalise_simplified_declaration_id(value)
        if value and not operator.is_simplified_declaration_id(value):
            raise serializers.ValidationError(operator.MSG_SD_ID)
        return value

    def validate(self, attrs):
        def value(name: str) -> str:
            return attrs[name] if name in attrs else getattr(self.instance, name, "")

        if value("operator_role") == OperatorRole.REPRESENTATIVE_OPERATOR:
            problems = {}
            required = _("Required when the company files as an authorised representative.")
            for name in (
                "represented_operator_name",
                "represented_operator_street",
                "represented_operator_postal_code",
                "represented_operator_city",
                "represented_operator_country",
            ):
                if not str(value(name)).strip():
                    problems[name] = [required]
            if not (value("represented_operator_eori") or value("represented_operator_vat")):
                problems["represented_operator_eori"] = [
                    _("Enter the represented operator's EORI or VAT number.")
                ]
            if problems:
                raise serializers.ValidationError(problems)
        if value("bic") and not value("iban"):
            raise serializers.ValidationError({"iban": [operator.MSG_BIC_WITHOUT_IBAN]})
        if value("eudr_primary_role") == EudrPrimaryRole.MICRO_SMALL_PRIMARY:
            problems = {}
            if not value("eudr_is_sme"):
                problems["eudr_is_sme"] = [operator.MSG_PRIMARY_NEEDS_SME]
            if not value("simplified_declaration_id"):
                problems["simplified_declaration_id"] = [operator.MSG_SD_ID_REQUIRED]
            if problems:
                raise serializers.ValidationError(problems)
        return attrs
