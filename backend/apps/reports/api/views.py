"""The report lab's API: datasets, run, drill-down, export, checks, and saved reports."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from apps.common.api.export import EXPORT_FORMATS, SPREADSHEET_RESPONSES
from apps.common.api.viewsets import TenantModelViewSet, TenantScopedMixin
from apps.reports import selectors
from apps.reports.export import report_export
from apps.reports.models import SavedReport

from .serializers import (
    DatasetCheckSerializer,
    DatasetSerializer,
    DefinitionSerializer,
    DrillResultSerializer,
    DrillSerializer,
    RunResultSerializer,
    SavedReportSerializer,
    checked_definition,
)

ALL_TYPES = ("internal", "warehouse", "supplier")
VIEW = "reports.view_savedreport"


class ReportLabViewSet(TenantScopedMixin, viewsets.ViewSet):
    """Using the report lab needs `reports.view_savedreport`; each dataset needs its model's view
    permission; a supplier user sees only their parent vendor's rows (selectors.py)."""

    allowed_user_types = ALL_TYPES
    supplier_read_only = False  # POST here reads; nothing is written.
    permission_model = SavedReport
    action_permissions = {"datasets": VIEW, "run": VIEW, "drill": VIEW, "export": VIEW, "checks": VIEW}

    @extend_schema(responses=DatasetSerializer(many=True))
    @action(detail=False, methods=["get"])
    def datasets(self, request):
        datasets = selectors.datasets_for(user=request.user, tenant=request.tenant)
        prices = selectors.may_see_prices(user=request.user, tenant=request.tenant)
        serializer = DatasetSerializer(context={"prices": prices})
        return Response([serializer.to_representation(d) for d in datasets])

    @extend_schema(request=DefinitionSerializer, responses=RunResultSerializer)
    @action(detail=False, methods=["post"])
    def run(self, request):
        definition = checked_definition(request.data, request=request)
        return Response(selectors.report_run(definition=definition, user=request.user))

    @extend_schema(request=DrillSerializer, responses=DrillResultSerializer)
    @action(detail=False, methods=["post"])
    def drill(self, request):
        definition = checked_definition(request.data, request=request)
        params = DrillSerializer(
            data={k: v for k, v in request.data.items() if k in ("cell", "page", "page_size")}, partial=True
        )
        params.is_valid(raise_exception=True)
        cell = params.validated_data.get("cell") or {}
        keys = {g.key for g in definition.group_by} | ({definition.pivot.key} if definition.pivot else set())
        if any(key not in keys for key in cell):
            raise ValidationError({"cell": [_("A cell names only the report's groups and pivot.")]})
        try:
            result = selectors.report_drill(
                definition=definition,
                cell=cell,
                user=request.user,
                page=params.validated_data.get("page", 1),
                page_size=params.validated_data.get("page_size", 50),
                prices=selectors.may_see_prices(user=request.user, tenant=request.tenant),
            )
        except (ValueError, TypeError) as exc:
            raise ValidationError({"cell": [_("A cell value does not fit its field.")]}) from exc
        return Response(result)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=list(EXPORT_FORMATS), required=True
            ),
        ],
        request=DefinitionSerializer,
        responses=SPREADSHEET_RESPONSES,
    )
    @action(detail=False, methods=["post"])
    def export(self, request):
        fmt = request.query_params.get("format", "")
        if fmt not in EXPORT_FORMATS:
            raise ValidationError(
                {"format": [_("Choose one of: %(formats)s.") % {"formats": ", ".join(EXPORT_FORMATS)}]}
            )
        definition = checked_definition(request.data, request=request)
        result = selectors.report_run(definition=definition, user=request.user)
        return report_export(
            result=result, definition=definition, fmt=fmt, filename=f"report-{definition.dataset.name}"
        )

    @extend_schema(responses=DatasetCheckSerializer(many=True))
    @action(detail=False, methods=["get"])
    def checks(self, request):
        if not request.user.is_staff:
            raise PermissionDenied(_("Only staff can run the report checks."))
        return Response(selectors.report_checks(user=request.user, tenant=request.tenant))


@extend_schema_view()
class SavedReportViewSet(TenantModelViewSet):
    """Saved reports: your own and those shared with the company; only the owner changes or deletes."""

    queryset = SavedReport.objects.select_related("owner")
    serializer_class = SavedReportSerializer
    allowed_user_types = ALL_TYPES
    supplier_read_only = False
    search_fields = ["name", "description"]
    ordering_fields = ["name", "updated_at", "created_at"]
    action_permissions = {"duplicate": "reports.add_savedreport"}

    def get_queryset(self):
        from django.db.models import Q

        return super().get_queryset().filter(Q(owner=self.request.user) | Q(shared=True))

    def _require_owner(self, report: SavedReport) -> None:
        if report.owner_id != self.request.user.pk:
            raise PermissionDenied(
                _("Only the report's owner can change or delete it; duplicate it instead.")
            )

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)

    def perform_update(self, serializer):
        self._require_owner(serializer.instance)
        serializer.save()

    def perform_destroy(self, instance):
        self._require_owner(instance)
        instance.delete()

    @extend_schema(request=None, responses={201: SavedReportSerializer})
    @action(detail=True, methods=["post"])
    def duplicate(self, request, pk=None):
        report = self.get_object()
        taken = set(SavedReport.objects.filter(owner=request.user).values_list("name", flat=True))
        base = _("%(name)s (copy)") % {"name": report.name}
        name, n = base[:200], 2
        while name in taken:
            name, n = f"{base} {n}"[:200], n + 1
        copy = SavedReport.objects.create(
            name=name,
            description=report.description,
            owner=request.user,
            shared=False,
            definition=report.definition,
            chart=report.chart,
        )
        return Response(self.get_serializer(copy).data, status=201)
