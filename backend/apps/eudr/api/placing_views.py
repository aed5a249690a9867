"""Statements around the placing: what an import's containers hold, and filing its statement
(docs/eudr.md, "Statements around the placing"; apps/eudr/placing.py).

GET  placing-statements/preview/?shipments=1,2      what a statement for these containers would declare
POST placing-statements/                           file a statement for them (Celery; 202)
GET  placing-statements/{id}/                      one statement: status, numbers, containers, cartons
POST placing-statements/{id}/amend|withdraw|refresh/

Internal users only (the verification number is never shown to suppliers or publicly).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Prefetch, Sum
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response

from apps.common.api.viewsets import TenantScopedMixin
from apps.common.exceptions import FieldErrors, NotFound
from apps.eudr import filing, placing
from apps.eudr.filing_models import DdsCoveredCarton, DdsSubmission, DdsSubmissionEvent
from apps.logistics.models import ShipmentInfo

from .dds_views import ERROR_ENVELOPE, ID_PARAMETER
from .filing_views import FILE_PERMISSION, VIEW_PERMISSION, DdsSubmissionSerializer, enqueue_filing


class PlacingShipmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    container_number = serializers.CharField()


class PlacingCommoditySerializer(serializers.Serializer):
    hs_heading = serializers.CharField()
    cartons = serializers.IntegerField()
    net_weight_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    description = serializers.CharField(allow_blank=True)


class PlacingDeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    delivery_number = serializers.CharField()
    supplier = serializers.CharField(allow_blank=True)
    country = serializers.CharField(allow_blank=True)
    upstream_reference = serializers.CharField(allow_blank=True)


class PlacingStatementSerializer(DdsSubmissionSerializer):
    shipments = serializers.SerializerMethodField()
    cartons = serializers.SerializerMethodField()
    net_weight_kg = serializers.SerializerMethodField()
    customs_declaration_number = serializers.CharField(read_only=True)
    customs_declaration_date = serializers.DateField(read_only=True, allow_null=True)

    class Meta(DdsSubmissionSerializer.Meta):
        fields = [
            *DdsSubmissionSerializer.Meta.fields,
            "customs_declaration_number",
            "customs_declaration_date",
            "shipments",
            "cartons",
            "net_weight_kg",
        ]
        read_only_fields = fields

    def _totals(self, obj) -> dict:
        if not hasattr(obj, "_placing_totals"):
            obj._placing_totals = DdsCoveredCarton.objects.filter(submission=obj).aggregate(
                n=Count("pk"), kg=Sum("net_weight_kg")
            )
        return obj._placing_totals

    @extend_schema_field(PlacingShipmentSerializer(many=True))
    def get_shipments(self, obj) -> list[dict]:
        return [
            {"id": link.shipment_id, "container_number": link.shipment.container_number}
            for link in obj.shipment_links.all()
        ]

    def get_cartons(self, obj) -> int:
        return self._totals(obj)["n"] or 0

    def get_net_weight_kg(self, obj) -> str:
        return f"{self._totals(obj)['kg'] or 0:.3f}"


class PlacingPreviewSerializer(serializers.Serializer):
    cartons = serializers.IntegerField(help_text="Cartons in the containers that no statement covers yet")
    cartons_covered = serializers.IntegerField(help_text="Cartons already covered by a statement of ours")
    net_weight_kg = serializers.DecimalField(max_digits=14, decimal_places=3)
    commodities = PlacingCommoditySerializer(many=True)
    deliveries = PlacingDeliverySerializer(many=True)
    statements = PlacingStatementSerializer(many=True, help_text="Statements covering these containers")
    account_ready = serializers.BooleanField()


class PlacingRequestSerializer(serializers.Serializer):
    shipments = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=50
    )
    customs_declaration_number = serializers.CharField(max_length=40, required=False, allow_blank=True)
    customs_declaration_date = serializers.DateField(required=False, allow_null=True)

    def validate_customs_declaration_number(self, value: str) -> str:
        value = value.strip().upper()
        if value and not all(ch.isalnum() for ch in value):
            raise serializers.ValidationError(
                _("Enter the customs declaration's number as printed (letters and digits, e.g. the MRN).")
            )
        return value

    def validate(self, attrs):
        if attrs.get("customs_declaration_number") and not attrs.get("customs_declaration_date"):
            raise serializers.ValidationError(
                {"customs_declaration_date": _("Enter the date of the customs declaration.")}
            )
        return attrs


SHIPMENTS_PARAMETER = OpenApiParameter(
    "shipments", str, description="Inbound shipment ids, comma-separated (at most 50)", required=True
)


def _submissions():
    return (
        DdsSubmission.objects.filter(delivery__isnull=True)
        .select_related("created_by")
        .prefetch_related(
            Prefetch("events", queryset=DdsSubmissionEvent.objects.select_related("user")),
            "shipment_links__shipment",
        )
    )


class PlacingStatementViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    serializer_class = PlacingStatementSerializer
    action_permissions = {
        "preview": VIEW_PERMISSION,
        "retrieve": VIEW_PERMISSION,
        "create": FILE_PERMISSION,
        "amend": FILE_PERMISSION,
        "withdraw": FILE_PERMISSION,
        "refresh": FILE_PERMISSION,
    }

    def get_queryset(self):
        return _submissions()

    def _shipments(self, ids: list[int]) -> list[ShipmentInfo]:
        shipments = list(ShipmentInfo.objects.filter(pk__in=ids).order_by("pk"))
        if len(shipments) != len(set(ids)):
            raise NotFound(_("Inbound shipment not found."))
        return shipments

    @extend_schema(
        operation_id="eudr_placing_preview",
        summary="What a statement for these containers would declare",
        parameters=[SHIPMENTS_PARAMETER],
        responses={200: PlacingPreviewSerializer, 400: ERROR_ENVELOPE, 404: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def preview(self, request):
        raw = str(request.query_params.get("shipments", ""))
        try:
            ids = [int(part) for part in raw.split(",") if part.strip()]
        except ValueError:
            ids = []
        if not ids or len(ids) > 50 or any(i < 1 for i in ids):
            raise FieldErrors.on("shipments", _("Name the inbound shipments: ?shipments=1,2 (at most 50)."))
        shipments = self._shipments(ids)
        found = placing.placing_preview(shipments=shipments)
        statements = list(_submissions().filter(pk__in=[s.pk for s in found["statements"]]))
        statements.sort(key=lambda s: (s.created_at, s.pk), reverse=True)
        account = filing.traces_account_get()
        data = {
            **found,
            "statements": statements,
            "account_ready": bool(account and account.is_complete),
        }
        return Response(PlacingPreviewSerializer(data).data)

    @extend_schema(
        operation_id="eudr_placing_statement",
        summary="A statement around a placing: status, numbers, containers, cartons and history",
        parameters=[ID_PARAMETER],
        responses={200: PlacingStatementSerializer, 404: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def retrieve(self, request, pk=None):
        return Response(PlacingStatementSerializer(self.get_object()).data)

    def _answer(self, submission, code=status.HTTP_202_ACCEPTED) -> Response:
        fresh = _submissions().get(pk=submission.pk)
        return Response(PlacingStatementSerializer(fresh).data, status=code)

    def _enqueue(self, submission) -> None:
        enqueue_filing(self.request, submission)  # the same task and queue as a delivery's statement

    @extend_schema(
        operation_id="eudr_placing_statement_create",
        summary="File a statement for the cartons of these containers",
        description=(
            "Covers every labelled carton in the inbound shipments that no statement covers yet (409 "
            "`cartons_already_covered` when one is), after the filing gate of every delivery behind them "
            "and the checks of their information (409 `placing_information_missing` with `data.errors`). "
            "Queues the submission (Celery; inline in the embedded default) and answers 202."
        ),
        request=PlacingRequestSerializer,
        responses={
            202: PlacingStatementSerializer,
            400: ERROR_ENVELOPE,
            404: ERROR_ENVELOPE,
            409: ERROR_ENVELOPE,
        },
        tags=["eudr"],
    )
    def create(self, request):
        given = PlacingRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ids = given.validated_data["shipments"]
        self._shipments(ids)
        with transaction.atomic():
            submission = placing.placing_statement_request(
                shipment_ids=ids,
                customs_declaration_number=given.validated_data.get("customs_declaration_number", ""),
                customs_declaration_date=given.validated_data.get("customs_declaration_date"),
                user=request.user,
            )
        self._enqueue(submission)
        return self._answer(submission)

    def _action(self, request, pk, action: str) -> Response:
        submission = self.get_object()
        with transaction.atomic():
            submission = filing.dds_submission_action(
                submission_id=submission.pk, action=action, user=request.user
            )
        self._enqueue(submission)
        return self._answer(submission)

    @extend_schema(
        operation_id="eudr_placing_statement_amend",
        summary="Amend the statement (within 72 hours)",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: PlacingStatementSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def amend(self, request, pk=None):
        return self._action(request, pk, DdsSubmission.Action.AMEND)

    @extend_schema(
        operation_id="eudr_placing_statement_withdraw",
        summary="Withdraw the statement (within 72 hours): its cartons may be declared again",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: PlacingStatementSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def withdraw(self, request, pk=None):
        return self._action(request, pk, DdsSubmission.Action.WITHDRAW)

    @extend_schema(
        operation_id="eudr_placing_statement_refresh",
        summary="Read the statement's status and numbers (no sooner than 30 minutes after a submit or amend)",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: PlacingStatementSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def refresh(self, request, pk=None):
        return self._action(request, pk, DdsSubmission.Action.REFRESH)
