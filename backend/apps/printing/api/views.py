"""Management API of printing (/api/printing/, tenant-scoped like every other area)."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.permissions import TENANT_PERMISSION_CLASSES, user_type
from apps.common.api.viewsets import TenantModelViewSet, TenantScopedMixin
from apps.eudr.api.serializers import public_base_url
from apps.eudr.models import CartonLabel
from apps.printing import selectors, services, zpl
from apps.printing.errors import LabelNotFound, PrinterNotFound
from apps.printing.models import PrintAgent, PrinterDevice, PrintJob

from . import filters
from .serializers import (
    LabelPreviewSerializer,
    PairingCodeRequestSerializer,
    PairingCodeSerializer,
    PreviewRequestSerializer,
    PrintAgentSerializer,
    PrinterDeviceSerializer,
    PrintJobCreateSerializer,
    PrintJobDetailSerializer,
    PrintJobSerializer,
    TemplateSerializer,
)

TEMPLATE_SIZES = {"default": (Decimal("100"), Decimal("150")), "compact": (Decimal("100"), Decimal("50"))}


class PrinterDeviceViewSet(TenantModelViewSet):
    """Label printers. Supplier users see (read-only) the printers of their parent vendor."""

    queryset = PrinterDevice.objects.all()
    serializer_class = PrinterDeviceSerializer
    filterset_class = filters.PrinterDeviceFilter
    search_fields = ["name", "site", "host"]
    ordering_fields = ["name", "site", "last_seen_at", "last_status", "created_at"]
    ordering = ["name"]
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_scope = "parent_vendor"
    action_permissions = {
        "test_label": "printing.add_printjob",
        "status_check": "printing.add_printjob",
    }

    def get_queryset(self):
        return super().get_queryset().select_related("agent", "warehouse", "parent_vendor")

    def _queue(self, request, source: str) -> Response:
        printer = self.get_object()
        job = services.print_job_create(printer=printer, source=source, user=request.user)
        return Response(PrintJobSerializer(job).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: PrintJobSerializer})
    @action(detail=True, methods=["post"], url_path="test-label")
    def test_label(self, request, pk=None):
        """Queues a test label (the printer's name, size and resolution, a QR code)."""
        return self._queue(request, PrintJob.Source.TEST_LABEL)

    @extend_schema(request=None, responses={201: PrintJobSerializer})
    @action(detail=True, methods=["post"], url_path="status-check")
    def status_check(self, request, pk=None):
        """Queues a status check: the agent asks the printer `~HS` and reports it in words."""
        return self._queue(request, PrintJob.Source.STATUS_CHECK)


class PrintAgentViewSet(
    TenantScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Paired print agents and their health (online: a heartbeat in the last 90 s). `pairing-code` makes a
    one-time code for /printer/integration; `revoke` switches an agent's token off."""

    queryset = PrintAgent.objects.all()
    serializer_class = PrintAgentSerializer
    filterset_class = filters.PrintAgentFilter
    search_fields = ["name", "hostname"]
    ordering_fields = ["name", "last_seen_at", "created_at"]
    ordering = ["name"]
    http_method_names = ["get", "post", "patch", "head", "options"]
    action_permissions = {"pairing_code": "printing.add_printagent", "revoke": "printing.change_printagent"}

    def get_queryset(self):
        return self.scope_queryset(selectors.agents_list())

    @extend_schema(request=PairingCodeRequestSerializer, responses={201: PairingCodeSerializer})
    @action(detail=False, methods=["post"], url_path="pairing-code")
    def pairing_code(self, request):
        """A one-time pairing code, valid for 15 minutes; the agent exchanges it for its token."""
        serializer = PairingCodeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row, code = services.pairing_code_create(
            name=serializer.validated_data["name"],
            parent_vendor=serializer.validated_data.get("parent_vendor"),
            user=request.user,
        )
        return Response(
            PairingCodeSerializer({"code": code, "name": row.name, "expires_at": row.expires_at}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses=PrintAgentSerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        agent = services.agent_revoke(agent=self.get_object())
        return Response(PrintAgentSerializer(agent).data)


class PrintJobViewSet(
    TenantScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """The print log: every job ever queued (a reprint is a new job, "copy N"). POST queues carton labels
    (a selection or the labels table's filter), a test label, a status check or, for staff, raw ZPL."""

    queryset = PrintJob.objects.all()
    serializer_class = PrintJobSerializer
    filterset_class = filters.PrintJobFilter
    search_fields = ["printer__name", "error"]
    ordering_fields = ["created_at", "status", "finished_at"]
    ordering = ["-created_at", "-id"]
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_scope = "printer__parent_vendor"
    supplier_read_only = False
    action_permissions = {"reprint": "printing.add_printjob"}

    def get_queryset(self):
        services.jobs_expire_due()
        queryset = (
            selectors.jobs_list()
            if self.action == "list"
            else PrintJob.objects.select_related("printer__agent", "user")
        )
        if self.action == "list" and not self.request.query_params.get("source"):
            # Status checks (`~HS` questions to a printer) print nothing: the log lists them only when
            # asked for by `source=status_check`; each stays readable by its id.
            queryset = queryset.exclude(source=PrintJob.Source.STATUS_CHECK)
        return self.scope_queryset(queryset)

    def get_serializer_class(self):
        return PrintJobDetailSerializer if self.action == "retrieve" else PrintJobSerializer

    def _printer(self, printer: PrinterDevice) -> PrinterDevice:
        """The printer must be one the user may use (a supplier user: one of its parent vendor's)."""
        user = self.request.user
        if user_type(user) == "supplier" and printer.parent_vendor_id != getattr(
            user, "parent_vendor_id", None
        ):
            raise PrinterNotFound()
        return printer

    @extend_schema(request=PrintJobCreateSerializer, responses={201: PrintJobSerializer})
    def create(self, request):
        serializer = PrintJobCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        printer = self._printer(data["printer"])
        source = data["source"]
        kwargs = {"printer": printer, "source": source, "user": request.user, "copies": data["copies"]}
        if source == PrintJob.Source.RAW_ZPL:
            if not request.user.is_staff:
                raise PermissionDenied(_("Only staff can send raw ZPL."))
            kwargs["raw_zpl"] = data["zpl"]
        elif source == PrintJob.Source.CARTON_LABELS:
            from apps.tenancy.permissions import tenant_permissions

            if "eudr.view_cartonlabel" not in tenant_permissions(request.user, request.tenant):
                raise PermissionDenied()
            labels_queryset = CartonLabel.objects.all()
            if user_type(request.user) == "supplier":
                labels_queryset = labels_queryset.filter(
                    raw_material__parent_vendor_id=getattr(request.user, "parent_vendor_id", 0)
                )
            filter_data = data.get("filter") or {}
            kwargs.update(
                labels=selectors.labels_for_print(
                    queryset=labels_queryset, ids=data.get("labels"), filters=filter_data
                ),
                label_filter={k: str(v) for k, v in filter_data.items()} if not data.get("labels") else {},
                template=data.get("template", ""),
                base_url=public_base_url(request),
            )
        job = services.print_job_create(**kwargs)
        return Response(PrintJobSerializer(job).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: PrintJobSerializer})
    @action(detail=True, methods=["post"])
    def reprint(self, request, pk=None):
        """Prints the job's labels again as a new job that says "COPY N"."""
        job = self.get_object()
        self._printer(job.printer)
        new = services.print_job_reprint(job=job, user=request.user)
        return Response(PrintJobSerializer(new).data, status=status.HTTP_201_CREATED)


class TemplateListView(APIView):
    """The ZPL label templates and their standard label sizes (those of the PDF labels)."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal", "warehouse", "supplier")
    permission_model = PrinterDevice

    @extend_schema(responses=TemplateSerializer(many=True))
    def get(self, request):
        rows = [{"name": n, "width_mm": w, "height_mm": h} for n, (w, h) in TEMPLATE_SIZES.items()]
        return Response(TemplateSerializer(rows, many=True).data)


class TemplatePreviewView(APIView):
    """A carton's label as a printer lays it out: the ZPL and the same elements for an on-screen preview.
    Sizes come from `printer`, or from `dpi` and the label size, or from the template's standard size."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal", "warehouse", "supplier")
    permission_model = CartonLabel

    @extend_schema(request=PreviewRequestSerializer, responses=LabelPreviewSerializer)
    def post(self, request):
        serializer = PreviewRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        labels = CartonLabel.objects.select_related("raw_material__parent_vendor", "product")
        printers = PrinterDevice.objects.all()
        if user_type(request.user) == "supplier":
            vendor = getattr(request.user, "parent_vendor_id", 0)
            labels = labels.filter(raw_material__parent_vendor_id=vendor)
            printers = printers.filter(parent_vendor_id=vendor)
        label = labels.filter(pk=data["label"]).first()
        if label is None:
            raise LabelNotFound()
        template = data["template"]
        width, height = TEMPLATE_SIZES[template]
        dpi = 203
        if data.get("printer"):
            printer = printers.filter(pk=data["printer"]).filter(Q(is_active=True)).first()
            if printer is None:
                raise PrinterNotFound()
            dpi, width, height = printer.dpi, printer.label_width_mm, printer.label_height_mm
        dpi = int(data.get("dpi") or dpi)
        width = data.get("label_width_mm") or width
        height = data.get("label_height_mm") or height
        url = f"{public_base_url(request)}/eudrtrace/{label.code}"
        layout = zpl.carton_layout(label, url, template=template, dpi=dpi, width_mm=width, height_mm=height)
        payload = {
            **zpl.to_preview(layout),
            "zpl": zpl.to_zpl(layout),
            "template": template,
            "label_width_mm": width,
            "label_height_mm": height,
        }
        return Response(LabelPreviewSerializer(payload).data)
