"""The due diligence API (docs/duediligence.md). Internal users only (concerns: warehouse users too).

GET  deliveries/{id}/                  countries and levels, the assessment, gate, concerns, hold, archives
GET  deliveries/{id}/audit/            the delivery's audit trail (its statements' too), newest first
POST deliveries/{id}/assessments/      record a risk assessment of the delivery's statement
POST deliveries/{id}/override/         file without a negligible assessment, with a reason (authorised)
POST deliveries/{id}/archive/          "delete" of a kept delivery: set inactive, with the reason
POST deliveries/{id}/void-statement/   "delete" of a recorded reference: voided, with the reason
GET  statements/{id}/audit/            one statement's audit trail
GET  assessments/?parent_vendor=       assessments of supplier relationships (and deliveries)
POST assessments/                      record a supplier relationship's assessment
GET  concerns/                         substantiated concerns (filters: open, delivery, parent_vendor)
POST concerns/                         record one
POST concerns/{id}/resolve/            resolve it with a reason
GET  deliveries/{id}/forest/{result}/map/  the plot drawn over its forest layer (PNG)
GET  benchmark/                        the country benchmark in use
GET  annual-report/?year=&language=    the annual review and public report (PDF, en + zh, or one)
GET  annual-report/figures/?year=      the same figures as data
GET  forest-layers/                    the forest layers of the installation (status, progress)
POST forest-layers/                    upload a GeoTIFF layer (multipart); processed in the background
GET  forest-layers/{id}/               one layer
DELETE forest-layers/{id}/             delete it (409 while a kept record's result rests on it)
POST forest-layers/{id}/process-again/ process a failed layer, or one whose job was lost, again
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from apps.common.api.pagination import StandardPagination
from apps.common.api.viewsets import TenantScopedMixin
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.models import RawMaterialDelivery
from apps.tenancy.permissions import tenant_permissions

from .. import benchmark as benchmarks
from .. import forest_layers, selectors, services
from ..errors import DeliveryNotFound, ForestLayerNotFound, ForestResultNotFound, StatementNotFound
from ..models import (
    AuditEntry,
    ForestLayer,
    RecordArchive,
    RetentionHold,
    RiskAssessment,
    SubstantiatedConcern,
)
from ..tasks import process_forest_layer
from .serializers import (
    AnnualFiguresSerializer,
    AuditEntrySerializer,
    BenchmarkSerializer,
    ConcernInputSerializer,
    ConcernSerializer,
    DueDiligenceOverviewSerializer,
    FilingOverrideSerializer,
    ForestLayerSerializer,
    ForestLayerUploadSerializer,
    ReasonSerializer,
    RecordArchiveSerializer,
    ResolutionSerializer,
    RiskAssessmentInputSerializer,
    RiskAssessmentSerializer,
)

OVERRIDE_PERMISSION = "duediligence.override_filing_gate"
MANAGE_LAYERS = "duediligence.manage_forestlayer"
TAGS = ["duediligence"]


def _visible_delivery(pk) -> RawMaterialDelivery:
    delivery = RawMaterialDelivery.objects.select_related("parent_vendor").filter(pk=pk).first()
    if delivery is None:
        raise DeliveryNotFound()
    return delivery


class DeliveryDueDiligenceViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    queryset = RiskAssessment.objects.all()
    serializer_class = DueDiligenceOverviewSerializer
    pagination_class = StandardPagination
    action_permissions = {
        "overview": ["eudr.view_rawmaterialdelivery", "duediligence.view_riskassessment"],
        "audit": ["eudr.view_rawmaterialdelivery", "duediligence.view_auditentry"],
        "assess": ["eudr.view_rawmaterialdelivery", "duediligence.add_riskassessment"],
        "override": ["eudr.view_rawmaterialdelivery", OVERRIDE_PERMISSION],
        "archive": "eudr.change_rawmaterialdelivery",
        "void_statement": "eudr.change_rawmaterialdelivery",
        "forest_map": ["eudr.view_rawmaterialdelivery", "duediligence.view_riskassessment"],
    }

    def _overview(self, request, delivery) -> Response:
        status = services.gate_status(delivery)
        data = {
            "delivery": delivery.pk,
            "benchmark": benchmarks.current().label,
            "countries": status["countries"],
            "simplified": status["simplified"],
            "assessment": status["assessment"],
            "assessments": RiskAssessment.objects.filter(delivery=delivery).select_related(
                "assessed_by", "parent_vendor"
            ),
            "override": status["override"],
            "can_override": OVERRIDE_PERMISSION in tenant_permissions(request.user, request.tenant),
            "blockers": status["blockers"],
            "can_file": status["can_file"],
            "concerns": SubstantiatedConcern.objects.filter(
                pk__in=[c.pk for c in selectors.open_concerns_for(delivery)]
            )
            | SubstantiatedConcern.objects.filter(delivery=delivery),
            "hold": RetentionHold.objects.filter(delivery=delivery).first(),
            "archives": RecordArchive.objects.filter(delivery=delivery).select_related("by"),
            "forest": selectors.forest_results(delivery),
            "forest_flagged": bool(status["forest_flags"]),
        }
        return Response(DueDiligenceOverviewSerializer(data).data)

    @extend_schema(
        operation_id="duediligence_delivery_overview", responses=DueDiligenceOverviewSerializer, tags=TAGS
    )
    def overview(self, request, pk=None):
        return self._overview(request, _visible_delivery(pk))

    @extend_schema(
        operation_id="duediligence_delivery_forest_map",
        responses={(200, "image/png"): OpenApiTypes.BINARY},
        tags=TAGS,
    )
    def forest_map(self, request, pk=None, result_id=None):
        delivery = _visible_delivery(pk)
        result = selectors.forest_results(delivery).filter(pk=result_id).first()
        png = forest_layers.forest_plot_png(result, delivery.location_geojson) if result else None
        if png is None:
            raise ForestResultNotFound()
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, max-age=300"
        return response

    @extend_schema(
        operation_id="duediligence_delivery_audit", responses=AuditEntrySerializer(many=True), tags=TAGS
    )
    def audit(self, request, pk=None):
        delivery = _visible_delivery(pk)
        page = self.paginate_queryset(selectors.audit_for_delivery(delivery.pk))
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)

    @extend_schema(
        operation_id="duediligence_delivery_assess",
        request=RiskAssessmentInputSerializer,
        responses={201: RiskAssessmentSerializer},
        tags=TAGS,
    )
    def assess(self, request, pk=None):
        delivery = _visible_delivery(pk)
        serializer = RiskAssessmentInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        assessment = services.assessment_create(
            delivery_id=delivery.pk,
            criteria=data["criteria"],
            conclusion=data["conclusion"],
            mitigation=data.get("mitigation"),
            summary=data.get("summary", ""),
            user=request.user,
        )
        return Response(RiskAssessmentSerializer(assessment).data, status=201)

    @extend_schema(
        operation_id="duediligence_delivery_override",
        request=ReasonSerializer,
        responses={201: FilingOverrideSerializer},
        tags=TAGS,
    )
    def override(self, request, pk=None):
        return _with_reason(request, pk, services.filing_override_record, FilingOverrideSerializer)

    @extend_schema(
        operation_id="duediligence_delivery_archive",
        request=ReasonSerializer,
        responses={201: RecordArchiveSerializer},
        tags=TAGS,
    )
    def archive(self, request, pk=None):
        return _with_reason(request, pk, services.delivery_archive, RecordArchiveSerializer)

    @extend_schema(
        operation_id="duediligence_delivery_void_statement",
        request=ReasonSerializer,
        responses={201: RecordArchiveSerializer},
        tags=TAGS,
    )
    def void_statement(self, request, pk=None):
        return _with_reason(request, pk, services.statement_void, RecordArchiveSerializer)


def _with_reason(request, pk, service, serializer_class) -> Response:
    """An action on a visible delivery that records who did it and why (override, archive, void)."""
    delivery = _visible_delivery(pk)
    serializer = ReasonSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    record = service(delivery_id=delivery.pk, reason=serializer.validated_data["reason"], user=request.user)
    return Response(serializer_class(record).data, status=201)


class StatementAuditViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    queryset = AuditEntry.objects.all()
    pagination_class = StandardPagination
    serializer_class = AuditEntrySerializer
    action_permissions = {"audit": ["eudr.view_rawmaterialdelivery", "duediligence.view_auditentry"]}

    @extend_schema(
        operation_id="duediligence_statement_audit", responses=AuditEntrySerializer(many=True), tags=TAGS
    )
    def audit(self, request, pk=None):
        if not DdsSubmission.objects.filter(pk=pk).exists():
            raise StatementNotFound()
        page = self.paginate_queryset(selectors.audit_for_submission(int(pk)))
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)


class AssessmentViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    queryset = RiskAssessment.objects.select_related("assessed_by", "parent_vendor")
    serializer_class = RiskAssessmentSerializer
    pagination_class = StandardPagination

    @extend_schema(
        operation_id="duediligence_assessments_list",
        parameters=[OpenApiParameter("parent_vendor", int), OpenApiParameter("delivery", int)],
        tags=TAGS,
    )
    def list(self, request):
        queryset = self.get_queryset()
        for name in ("parent_vendor", "delivery"):
            value = request.query_params.get(name, "")
            if value.isdigit():
                queryset = queryset.filter(**{f"{name}_id": int(value)})
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(RiskAssessmentSerializer(page, many=True).data)

    @extend_schema(
        operation_id="duediligence_assessments_create",
        request=RiskAssessmentInputSerializer,
        responses={201: RiskAssessmentSerializer},
        tags=TAGS,
    )
    def create(self, request):
        serializer = RiskAssessmentInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        delivery_id = data.get("delivery")
        if delivery_id is not None:
            _visible_delivery(delivery_id)
        assessment = services.assessment_create(
            delivery_id=delivery_id,
            parent_vendor=data.get("parent_vendor"),
            criteria=data["criteria"],
            conclusion=data["conclusion"],
            mitigation=data.get("mitigation"),
            summary=data.get("summary", ""),
            user=request.user,
        )
        return Response(RiskAssessmentSerializer(assessment).data, status=201)


class ConcernViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    # Anyone inside the company may record a concern (warehouse users too); resolving needs the permission.
    allowed_user_types = ("internal", "warehouse")
    queryset = SubstantiatedConcern.objects.select_related("raised_by", "resolved_by", "parent_vendor")
    serializer_class = ConcernSerializer
    pagination_class = StandardPagination
    action_permissions = {
        "list": "duediligence.view_substantiatedconcern",
        "create": [],
        "resolve": "duediligence.change_substantiatedconcern",
    }

    @extend_schema(
        operation_id="duediligence_concerns_list",
        parameters=[
            OpenApiParameter("open", bool),
            OpenApiParameter("delivery", int),
            OpenApiParameter("parent_vendor", int),
        ],
        tags=TAGS,
    )
    def list(self, request):
        queryset = self.get_queryset()
        params = request.query_params
        if params.get("open") in ("true", "1"):
            queryset = queryset.filter(resolved_at__isnull=True)
        elif params.get("open") in ("false", "0"):
            queryset = queryset.filter(resolved_at__isnull=False)
        for name in ("parent_vendor", "delivery"):
            value = params.get(name, "")
            if value.isdigit():
                queryset = queryset.filter(**{f"{name}_id": int(value)})
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(ConcernSerializer(page, many=True).data)

    @extend_schema(
        operation_id="duediligence_concerns_create",
        request=ConcernInputSerializer,
        responses={201: ConcernSerializer},
        tags=TAGS,
    )
    def create(self, request):
        serializer = ConcernInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        concern = services.concern_raise(
            parent_vendor=data.get("parent_vendor"),
            delivery_id=data.get("delivery"),
            submission_id=data.get("submission"),
            description=data["description"],
            source=data.get("source", ""),
            user=request.user,
        )
        return Response(ConcernSerializer(concern).data, status=201)

    @extend_schema(
        operation_id="duediligence_concerns_resolve",
        request=ResolutionSerializer,
        responses={200: ConcernSerializer},
        tags=TAGS,
    )
    def resolve(self, request, pk=None):
        serializer = ResolutionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        concern = services.concern_resolve(
            concern_id=int(pk), resolution=serializer.validated_data["resolution"], user=request.user
        )
        return Response(ConcernSerializer(concern).data)


class BenchmarkViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    serializer_class = BenchmarkSerializer
    action_permissions = {"retrieve": []}

    @extend_schema(operation_id="duediligence_benchmark", responses=BenchmarkSerializer, tags=TAGS)
    def retrieve(self, request):
        current = benchmarks.current()
        return Response(
            BenchmarkSerializer(
                {
                    "act_reference": current.act_reference,
                    "act_date": current.act_date,
                    "default_level": current.default_level,
                    "levels": current.levels,
                }
            ).data
        )


YEAR = OpenApiParameter("year", int, required=True, description="Calendar year of the report (2020 to 2100).")
LANGUAGE = OpenApiParameter(
    "language",
    str,
    enum=["en", "zh"],
    description="One language only; both (English, then Chinese) when absent.",
)


def _year(request) -> int:
    from django.utils.translation import gettext as _

    from apps.common.exceptions import FieldErrors

    text = request.query_params.get("year", "")
    year = int(text) if text.isascii() and text.isdigit() and len(text) == 4 else None
    if year is None or not 2020 <= year <= 2100:
        message = _("Give the year as four digits, 2020 or later.")
        raise FieldErrors({"year": [message]}, message)
    return year


class AnnualReportViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    """The annual review and public report as a PDF in English and Chinese (Art. 12), and its figures."""

    allowed_user_types = ("internal",)
    action_permissions = {
        "retrieve": "duediligence.view_riskassessment",
        "figures": "duediligence.view_riskassessment",
    }

    @extend_schema(
        operation_id="duediligence_annual_report",
        parameters=[YEAR, LANGUAGE],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
        tags=TAGS,
    )
    def retrieve(self, request):
        from django.utils.translation import gettext as _

        from apps.common.exceptions import FieldErrors
        from apps.tenancy.models import Tenant

        from ..annual_report import annual_report_pdf

        year = _year(request)
        language = request.query_params.get("language", "")
        if language not in ("", "en", "zh"):
            raise FieldErrors.on("language", _("Choose en or zh."))
        company = Tenant.objects.get(pk=request.tenant.pk)
        pdf = annual_report_pdf(year, company.legal_name or company.name, language=language or None)
        response = HttpResponse(pdf, content_type="application/pdf")
        suffix = f"-{language}" if language else ""
        response["Content-Disposition"] = f'inline; filename="due-diligence-{year}{suffix}.pdf"'
        return response

    @extend_schema(
        operation_id="duediligence_annual_figures",
        parameters=[YEAR],
        responses=AnnualFiguresSerializer,
        tags=TAGS,
    )
    def figures(self, request):
        from dataclasses import asdict

        from ..annual_report import annual_figures

        figures = annual_figures(_year(request))
        data = asdict(figures)
        data["countries"] = [
            {"country_code": code, "statements": n, "level": figures.risk_levels.get(code) or None}
            for code, n in figures.countries.items()
        ]
        data["assessments"] = {
            "negligible": figures.assessments.get(RiskAssessment.Conclusion.NEGLIGIBLE, 0),
            "not_negligible": figures.assessments.get(RiskAssessment.Conclusion.NOT_NEGLIGIBLE, 0),
        }
        return Response(AnnualFiguresSerializer(data).data)


def _queue_layer(layer_id: int) -> None:
    """Processing starts once the layer's row is committed (the worker must see it); in the embedded
    default (eager) it then runs inline, before the response."""
    from apps.common.jobs import send_job_on_commit

    send_job_on_commit(process_forest_layer, kwargs={"layer_id": layer_id})


class ForestLayerViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    """The installation's forest layers (docs/duediligence.md, "The 2020 forest check")."""

    # The installation's layers are few (a region's maps): one unpaginated list, as the schema says.
    pagination_class = None

    allowed_user_types = ("internal",)
    serializer_class = ForestLayerSerializer
    parser_classes = [MultiPartParser, FormParser]
    action_permissions = {
        "list": "duediligence.view_forestlayer",
        "retrieve": "duediligence.view_forestlayer",
        "create": MANAGE_LAYERS,
        "destroy": MANAGE_LAYERS,
        "process_again": MANAGE_LAYERS,
    }

    def get_queryset(self):
        return ForestLayer.objects.all()

    def _layer(self, pk) -> ForestLayer:
        layer = ForestLayer.objects.filter(pk=pk).first()
        if layer is None:
            raise ForestLayerNotFound()
        return layer

    @extend_schema(
        operation_id="duediligence_forest_layers_list", responses=ForestLayerSerializer(many=True), tags=TAGS
    )
    def list(self, request):
        return Response(ForestLayerSerializer(self.get_queryset(), many=True).data)

    @extend_schema(
        operation_id="duediligence_forest_layers_retrieve", responses=ForestLayerSerializer, tags=TAGS
    )
    def retrieve(self, request, pk=None):
        return Response(ForestLayerSerializer(self._layer(pk)).data)

    @extend_schema(
        operation_id="duediligence_forest_layers_create",
        request={"multipart/form-data": ForestLayerUploadSerializer},
        responses={201: ForestLayerSerializer},
        tags=TAGS,
    )
    def create(self, request):
        serializer = ForestLayerUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        layer = forest_layers.forest_layer_upload(
            file=data["file"],
            name=data["name"],
            kind=data["kind"],
            source=data.get("source", ""),
            layer_date=data["layer_date"],
            user=request.user,
        )
        _queue_layer(layer.pk)
        return Response(ForestLayerSerializer(layer).data, status=201)

    @extend_schema(
        operation_id="duediligence_forest_layers_process_again",
        request=None,
        responses={200: ForestLayerSerializer},
        tags=TAGS,
    )
    def process_again(self, request, pk=None):
        layer = forest_layers.forest_layer_process_again(layer_id=self._layer(pk).pk)
        _queue_layer(layer.pk)
        return Response(ForestLayerSerializer(layer).data)

    @extend_schema(operation_id="duediligence_forest_layers_destroy", responses={204: None}, tags=TAGS)
    def destroy(self, request, pk=None):
        forest_layers.forest_layer_delete(layer_id=self._layer(pk).pk)
        return Response(status=204)
