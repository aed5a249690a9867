"""Received reference numbers (`/api/eudr/received-references/`): what a downstream operator or trader
keeps of its suppliers' statements for 5 years, each verified with the EU information system
(apps/eudr/verification.py, docs/eudr.md "Received reference numbers"). Internal users only."""

from __future__ import annotations

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.common.api.viewsets import TenantModelViewSet
from apps.eudr import references, verification
from apps.eudr.errors import ReceivedReferenceNotFound
from apps.eudr.received_models import ReceivedReference
from apps.suppliers.models import ParentVendor

from .dds_views import ERROR_ENVELOPE


class ReceivedReferenceSerializer(ModelSerializer):
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects)
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True)
    document_number = serializers.CharField(max_length=100, trim_whitespace=True)
    reference_number = serializers.CharField(
        max_length=40,
        help_text="A statement's reference number (26NLX7TVCZAQ2S) or a simplified declaration's identifier "
        "(S26FRNMNBSA96Q), as the EU information system writes them",
    )
    verification_number = serializers.CharField(max_length=60)
    received_on = serializers.DateField(required=False)
    notes = serializers.CharField(max_length=500, allow_blank=True, required=False)

    class Meta:
        model = ReceivedReference
        fields = [
            "id",
            "parent_vendor",
            "parent_vendor_name",
            "document_number",
            "received_on",
            "reference_number",
            "verification_number",
            "kind",
            "notes",
            "keep_until",
            "verification_result",
            "verification_status",
            "verified_at",
            "verification_message",
            "created_at",
        ]
        read_only_fields = [
            "id",
            "kind",
            "keep_until",
            "verification_result",
            "verification_status",
            "verified_at",
            "verification_message",
            "created_at",
        ]

    def validate_reference_number(self, value: str) -> str:
        value = references.normalise_reference(value)
        if not references.is_reference(value):
            raise serializers.ValidationError(references.MSG_REFERENCE_FORMAT)
        return value

    def validate_verification_number(self, value: str) -> str:
        value = references.normalise_verification(value)
        if not references.is_verification(value):
            raise serializers.ValidationError(references.MSG_VERIFICATION_FORMAT)
        return value

    def validate_received_on(self, value):
        if value and value > timezone.localdate():
            raise serializers.ValidationError(_("The receipt date cannot be in the future."))
        return value


ReferencedStatementSerializer = inline_serializer(
    "ReferencedStatement",
    fields={
        "activity_type": serializers.CharField(),
        "geolocation_confidential": serializers.BooleanField(),
        "commodities": serializers.ListField(child=serializers.DictField()),
    },
)


class ReceivedReferenceViewSet(TenantModelViewSet):
    """Kept 5 years from receipt: `DELETE` only on the day of entry (a mistake), else 409
    `received_reference_retained`. `POST {id}/verify/` asks the EU information system again;
    `GET {id}/statement/` reads the referenced statement (non-SME companies only)."""

    queryset = ReceivedReference.objects.select_related("parent_vendor")
    serializer_class = ReceivedReferenceSerializer
    allowed_user_types = ("internal",)
    http_method_names = ["get", "post", "delete", "head", "options"]
    search_fields = ["reference_number", "document_number", "parent_vendor__name", "notes"]
    ordering_fields = ["received_on", "reference_number", "verified_at", "created_at"]
    filterset_fields = ["parent_vendor", "kind", "verification_result"]
    export_filename = "received-references"
    action_permissions = {
        "verify": "eudr.change_receivedreference",
        "statement": "eudr.view_receivedreference",
    }

    def get_object(self):
        try:
            return super().get_object()
        except Http404:
            raise ReceivedReferenceNotFound() from None

    def perform_create(self, serializer):
        serializer.instance = verification.received_reference_create(
            data=serializer.validated_data, user=self.request.user
        )
        self.check_visible(serializer.instance)

    def perform_destroy(self, instance):
        verification.received_reference_delete(reference=instance)

    @extend_schema(
        operation_id="eudr_received_references_verify",
        summary="Verify the reference number again with the EU information system",
        request=None,
        responses={200: ReceivedReferenceSerializer, 404: ERROR_ENVELOPE},
    )
    @action(detail=True, methods=["post"])
    def verify(self, request, pk=None):
        reference = self.get_object()
        reference = verification.received_reference_verify(
            reference_id=reference.pk, queryset=self.get_queryset()
        )
        return Response(self.get_serializer(reference).data, status=status.HTTP_200_OK)

    @extend_schema(
        operation_id="eudr_received_references_statement",
        summary="Read the referenced statement (getDdsByIdentifiers; companies that are not SMEs)",
        responses={200: ReferencedStatementSerializer, 409: ERROR_ENVELOPE, 502: ERROR_ENVELOPE},
    )
    @action(detail=True, methods=["get"])
    def statement(self, request, pk=None):
        found = verification.received_reference_statement(reference=self.get_object())
        return Response(
            {
                "activity_type": found.activity_type,
                "geolocation_confidential": found.geolocation_confidential,
                "commodities": found.commodities,
            }
        )
