"""EUDR endpoints: raw-material deliveries (with the wizard's drafts, files, cap approvals, batches and
carton generation), carton labels (list, bulk delete, PDF/CSV export) and supplier policies.

Thin: parse input, call one service or selector, serialize. Supplier users work on their own parent
vendor's deliveries and labels only (`supplier_scope`; another vendor's rows answer 404).
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from apps.common.api.export import (
    ANY_FILE_RESPONSES,
    CSV_MEDIA_TYPE,
    PDF_MEDIA_TYPE,
    SPREADSHEET_RESPONSES,
    download_responses,
    export_response,
)
from apps.common.api.permissions import user_type
from apps.common.api.viewsets import CompiledListMixin, TenantModelViewSet, TenantScopedMixin
from apps.common.idempotency import idempotent
from apps.eudr import delivery_file, errors, generation, services
from apps.eudr.api.list_page import compiled_page
from apps.eudr.errors import GeoJsonTooLarge
from apps.eudr.geo import too_large
from apps.eudr.labels_pdf import LABEL_TEMPLATES, labels_pdf_stream
from apps.eudr.models import CartonLabel, FileKind, ProductionBatch, RawMaterialDelivery, SupplierPolicy
from apps.eudr.selectors import batches_with_totals, deliveries_for_list, label_prints

from . import filters
from .serializers import (
    BulkDeleteResultSerializer,
    BulkDeleteSerializer,
    CapApprovalInputSerializer,
    CapApprovalSerializer,
    CartonLabelSerializer,
    DeliveryFileParseSerializer,
    DeliveryStatusInputSerializer,
    FileUploadSerializer,
    GenerateCartonsResultSerializer,
    GenerateCartonsSerializer,
    GenerationLimitParamsSerializer,
    GenerationLimitSerializer,
    OutsideCountryConfirmSerializer,
    ProductionBatchSerializer,
    RawMaterialDeliveryDetailSerializer,
    RawMaterialDeliveryListItemSerializer,
    RawMaterialDeliverySerializer,
    RecordDdsSerializer,
    SupplierPolicySerializer,
    public_base_url,
    trace_url,
)


class DownloadNegotiationMixin:
    """`?format=` names the file format of a download here, not a DRF renderer."""

    download_actions: tuple[str, ...] = ()

    def perform_content_negotiation(self, request, force=False):
        if getattr(self, "action", None) in self.download_actions:
            renderer = self.get_renderers()[0]
            return renderer, renderer.media_type
        return super().perform_content_negotiation(request, force)


KIND_PARAMETER = OpenApiParameter(
    "kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(FileKind.values), description="Which document."
)


class RawMaterialDeliveryViewSet(CompiledListMixin, DownloadNegotiationMixin, TenantModelViewSet):
    """Raw-material deliveries: `POST` with `is_draft: true` (or `status: "draft"`) saves the wizard's
    partial work on the server, `PATCH` resumes it, `POST {id}/submit/` validates fully and activates.
    `POST` without draft submits straight away."""

    queryset = RawMaterialDelivery.objects.all()
    serializer_class = RawMaterialDeliverySerializer
    filterset_class = filters.RawMaterialDeliveryFilter
    search_fields = [
        "delivery_number",
        "description",
        "forest_supplier_name",
        "material_sc_number",
        "parent_vendor__name",
        "parent_vendor__cname",
    ]
    ordering_fields = ["created_at", "updated_at", "delivery_number", "status", "issued_cartons"]
    allowed_user_types = ("internal", "supplier")
    internal_only_actions = {
        "set_status": _("Only internal users change a delivery's status."),
        "approve_over_cap": None,
        "record_dds": _("Only internal users record the filed due diligence statement."),
        "clear_dds": _("Only internal users record the filed due diligence statement."),
        "confirm_outside_country": _("Only internal users confirm plots outside their country."),
    }
    supplier_scope = "parent_vendor"
    supplier_read_only = False
    download_actions = ("export", "delivery_file_template")

    def handle_exception(self, exc):
        # A body over the server's request limit (DATA_UPLOAD_MAX_MEMORY_SIZE) is refused while it is read:
        # the only field that large is the plots' GeoJSON, so it is answered as such, a clean 400.
        if isinstance(exc, RequestDataTooBig):
            exc = GeoJsonTooLarge(
                too_large(int(self.request.META.get("CONTENT_LENGTH") or 0)).problems[0].message
            )
        return super().handle_exception(exc)

    action_permissions = {
        "submit": "eudr.change_rawmaterialdelivery",
        "set_status": "eudr.change_rawmaterialdelivery",
        "approve_over_cap": "eudr.approve_over_cap",
        "record_dds": "eudr.change_rawmaterialdelivery",
        "confirm_outside_country": "eudr.change_rawmaterialdelivery",
        "clear_dds": "eudr.change_rawmaterialdelivery",
        "generate_cartons": "eudr.add_cartonlabel",
        "generation_limit": "eudr.add_cartonlabel",
        "batches": "eudr.view_productionbatch",
        "files": "eudr.view_rawmaterialdelivery",
        "upload_file": "eudr.change_rawmaterialdelivery",
        "remove_file": "eudr.change_rawmaterialdelivery",
        "parse_delivery_file": "eudr.add_rawmaterialdelivery",
        "delivery_file_template": "eudr.view_rawmaterialdelivery",
    }
    export_filename = "raw-materials"
    export_columns = [
        ("Delivery number", "delivery_number"),
        ("Parent vendor", "parent_vendor.name"),
        ("Status", lambda d: d.effective_status()),
        ("Country", "country_code"),
        ("Forest supplier", "forest_supplier_name"),
        ("FM certification", "fm_certification_type"),
        ("COC certification", "coc_certification"),
        ("Harvest begin", "harvest_begin_month"),
        ("Harvest end", "harvest_end_month"),
        ("Original kg", "original_kg"),
        ("Used kg", "used_kg"),
        ("Issued cartons", "issued_cartons"),
        ("Allowed carton cap", "allowed_carton_cap"),
        ("Policy source", "policy_source"),
        ("Created", "created_at"),
    ]

    def compiled_rows(self, limit):
        # The list as it opens (no filter, no search: any ordering it offers, any page) is read through
        # statements compiled once per process and written from their rows (apps/eudr/api/list_page.py):
        # the same answer as the ORM's way, which serves every other request.
        return compiled_page(self, limit)

    def get_serializer_class(self):
        if self.action == "list":
            return RawMaterialDeliveryListItemSerializer
        return RawMaterialDeliveryDetailSerializer

    def get_queryset(self):
        if self.action in ("list", "export"):
            return deliveries_for_list(super().get_queryset(), page_only=self.action == "list")
        queryset = (
            super().get_queryset().select_related("parent_vendor", "dds_filed_by").prefetch_related("lines")
        )
        if self.action == "retrieve":
            queryset = queryset.prefetch_related("cap_approvals__approved_by")
        return queryset

    def scoped_queryset(self):
        """The deliveries this user may see, without the list's joins and counts (for row locks)."""
        return TenantScopedMixin.get_queryset(self)

    def get_export_rows(self, queryset):
        return queryset.select_related("parent_vendor").iterator(chunk_size=2000)

    def _supplier_vendor(self):
        user = self.request.user
        if user_type(user) != "supplier":
            return None
        if not user.parent_vendor_id:
            raise PermissionDenied(_("Your account is not linked to a parent vendor."))
        return user.parent_vendor

    def _input(self, serializer) -> tuple[dict, list | None, bool]:
        data = dict(serializer.validated_data)
        lines = data.pop("lines", None)
        as_draft = data.pop("_as_draft", False)
        vendor = self._supplier_vendor()
        if vendor is not None:
            data["parent_vendor"] = vendor
        return data, lines, as_draft

    def _detail(self, pk: int, status: int = 200) -> Response:
        instance = self.get_queryset().prefetch_related("cap_approvals__approved_by").get(pk=pk)
        return Response(self.get_serializer(instance).data, status=status)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data, lines, as_draft = self._input(serializer)
        delivery = services.raw_material_create(
            data=data, lines=lines or [], user=request.user, as_draft=as_draft
        )
        self.check_visible(delivery)
        return self._detail(delivery.pk, status=201)

    def update(self, request, *args, **kwargs):
        instance = self.get_object()
        serializer = self.get_serializer(instance, data=request.data, partial=kwargs.get("partial", False))
        serializer.is_valid(raise_exception=True)
        data, lines, as_draft = self._input(serializer)
        services.raw_material_update(
            delivery_id=instance.pk,
            data=data,
            lines=lines,
            user=request.user,
            queryset=self.scoped_queryset(),
        )
        self.check_visible(instance)
        if (
            not as_draft
            and instance.status == RawMaterialDelivery.Status.DRAFT
            and (
                request.data.get("status") == RawMaterialDelivery.Status.ACTIVE
                or request.data.get("is_draft") is False
            )
        ):
            services.raw_material_submit(delivery_id=instance.pk, user=request.user)
        return self._detail(instance.pk)

    def perform_destroy(self, instance):
        services.raw_material_delete(delivery=instance)

    @extend_schema(request=None, responses=RawMaterialDeliveryDetailSerializer)
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        """Validates the draft fully (docs/specification.md section 5), snapshots the supplier policy and activates it."""
        instance = self.get_object()
        services.raw_material_submit(
            delivery_id=instance.pk, user=request.user, queryset=self.scoped_queryset()
        )
        return self._detail(instance.pk)

    @extend_schema(request=DeliveryStatusInputSerializer, responses=RawMaterialDeliveryDetailSerializer)
    @action(detail=True, methods=["post"], url_path="set-status")
    def set_status(self, request, pk=None):
        """Internal users set a submitted delivery active or inactive."""
        instance = self.get_object()
        serializer = DeliveryStatusInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.raw_material_set_status(
            delivery_id=instance.pk, status=serializer.validated_data["status"], user=request.user
        )
        return self._detail(instance.pk)

    @extend_schema(request=CapApprovalInputSerializer, responses={201: CapApprovalSerializer})
    @action(detail=True, methods=["post"], url_path="approve-over-cap")
    def approve_over_cap(self, request, pk=None):
        """Approves extra cartons over the cap (internal users with eudr.approve_over_cap); recorded with
        who, when, how many and why, and listed in the delivery's `cap_approvals`."""
        instance = self.get_object()
        serializer = CapApprovalInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        approval = services.cap_approve(
            delivery_id=instance.pk, user=request.user, **serializer.validated_data
        )
        return Response(CapApprovalSerializer(approval).data, status=201)

    @extend_schema(request=OutsideCountryConfirmSerializer, responses=RawMaterialDeliveryDetailSerializer)
    @action(detail=True, methods=["post"], url_path="confirm-outside-country")
    def confirm_outside_country(self, request, pk=None):
        """Confirms, with a reason, that the plots lying outside their country of production are right
        (internal users). Until then they are an error of the statement and hidden from the public trace;
        409 `no_plot_outside_country` when every plot lies inside."""
        instance = self.get_object()
        serializer = OutsideCountryConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.raw_material_confirm_outside(
            delivery_id=instance.pk, reason=serializer.validated_data["reason"], user=request.user
        )
        return self._detail(instance.pk)

    @extend_schema(request=RecordDdsSerializer, responses=RawMaterialDeliveryDetailSerializer)
    @action(detail=True, methods=["post"], url_path="filed-dds")
    def record_dds(self, request, pk=None):
        """Records the tenant's filed due diligence statement for this delivery: the reference and
        verification number the EU information system answered (internal users). The public trace shows
        the reference number, never the verification number."""
        instance = self.get_object()
        serializer = RecordDdsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.raw_material_record_dds(
            delivery_id=instance.pk,
            reference_number=data["dds_reference_number"],
            verification_number=data["dds_verification_number"],
            filed_at=data.get("dds_filed_at"),
            user=request.user,
        )
        return self._detail(instance.pk)

    @extend_schema(request=None, responses=RawMaterialDeliveryDetailSerializer)
    @record_dds.mapping.delete
    def clear_dds(self, request, pk=None):
        """Removes a recorded statement entered by mistake (internal users)."""
        instance = self.get_object()
        services.raw_material_clear_dds(delivery_id=instance.pk)
        return self._detail(instance.pk)

    @extend_schema(request=GenerateCartonsSerializer, responses={201: GenerateCartonsResultSerializer})
    @action(detail=True, methods=["post"], url_path="generate-cartons")
    @idempotent
    def generate_cartons(self, request, pk=None):
        """Issues carton labels from the delivery's remaining weight (refusals: `no_weight_available`,
        `insufficient_weight_min`, `insufficient_weight`, `weight_limit_exceeded`, and inactive/draft/
        expired deliveries)."""
        instance = self.get_object()
        serializer = GenerateCartonsSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        batch = services.cartons_generate(
            delivery_id=instance.pk,
            count=data["count"],
            production_batch_code=data["production_batch_code"],
            product=data["product"],
            purchase_order_line=data["purchase_order_line"],
            container=data.get("container", ""),
            user=request.user,
            delivery_queryset=self.scoped_queryset(),
        )
        delivery = self.get_queryset().get(pk=instance.pk)
        batch = batches_with_totals(ProductionBatch.objects.filter(pk=batch.pk)).get()
        return Response(
            {
                "generated": data["count"],
                "batch": ProductionBatchSerializer(batch).data,
                "delivery": self.get_serializer(delivery).data,
            },
            status=201,
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("product", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("purchase_order_line", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False),
        ],
        responses=GenerationLimitSerializer,
        filters=False,
    )
    @action(detail=True, methods=["get"], url_path="generation-limit")
    def generation_limit(self, request, pk=None):
        """Before generating: today's first free batch code and, for a product and order line, how many
        cartons one request may issue and which rule (weight, order line, carton cap, request size) binds."""
        instance = self.get_object()
        params = GenerationLimitParamsSerializer(
            data=request.query_params, context=self.get_serializer_context()
        )
        params.is_valid(raise_exception=True)
        product = params.validated_data.get("product")
        line = params.validated_data.get("purchase_order_line")
        answer: dict = {
            "next_batch_code": generation.next_batch_code(timezone.localdate()),
            "net_weight_per_carton_kg": None,
            "max_cartons": None,
            "binding": None,
            "limits": None,
        }
        weight = generation.net_weight_per_carton(
            delivery=instance, product=product, purchase_order_line=line
        )
        if weight is not None and (product is not None or line is not None):
            answer.update(
                generation.generation_limit(
                    delivery=instance, net_weight_kg=weight, purchase_order_line=line
                ).as_data()
            )
        return Response(GenerationLimitSerializer(answer).data)

    @extend_schema(responses=ProductionBatchSerializer(many=True), filters=False)
    @action(detail=True, methods=["get"])
    def batches(self, request, pk=None):
        """The delivery's production batches with their carton counts and used weight (paginated)."""
        instance = self.get_object()
        queryset = batches_with_totals(ProductionBatch.objects.filter(delivery=instance)).order_by(
            "-created_at", "-id"
        )
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(ProductionBatchSerializer(page, many=True).data)

    @extend_schema(parameters=[KIND_PARAMETER], responses=ANY_FILE_RESPONSES)
    @action(detail=True, methods=["get"], url_path=r"files/(?P<kind>[a-z_]+)", url_name="files")
    def files(self, request, pk=None, kind=None):
        """Downloads one of the delivery's documents."""
        instance = self.get_object()
        if kind not in FileKind.values or not getattr(instance, kind):
            raise errors.DeliveryFileNotFound()
        field = getattr(instance, kind)
        meta = (instance.files_meta or {}).get(kind, {})
        try:
            handle = field.open("rb")
        except FileNotFoundError:
            raise errors.DeliveryFileNotFound() from None
        response = FileResponse(
            handle,
            as_attachment=True,
            filename=meta.get("name") or field.name.rsplit("/", 1)[-1],
            content_type=meta.get("content_type") or "application/octet-stream",
        )
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "sandbox"
        return response

    @extend_schema(
        parameters=[KIND_PARAMETER],
        request={"multipart/form-data": FileUploadSerializer},
        responses=RawMaterialDeliveryDetailSerializer,
    )
    @files.mapping.post
    def upload_file(self, request, pk=None, kind=None):
        """Uploads (or replaces) one document: PDF, image, CSV, XLSX or GeoJSON, at most 20 MB (25 MB for
        the location file)."""
        instance = self.get_object()
        if kind not in FileKind.values:
            raise errors.DeliveryFileNotFound()
        services.raw_material_attach_file(
            delivery_id=instance.pk,
            kind=kind,
            upload=request.FILES.get("file"),
            queryset=self.scoped_queryset(),
        )
        return self._detail(instance.pk)

    @extend_schema(parameters=[KIND_PARAMETER], request=None, responses=RawMaterialDeliveryDetailSerializer)
    @files.mapping.delete
    def remove_file(self, request, pk=None, kind=None):
        instance = self.get_object()
        services.raw_material_remove_file(delivery_id=instance.pk, kind=kind, queryset=self.scoped_queryset())
        return self._detail(instance.pk)

    @extend_schema(
        request={"multipart/form-data": FileUploadSerializer},
        responses=DeliveryFileParseSerializer,
        filters=False,
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="parse-delivery-file",
        parser_classes=[MultiPartParser, FormParser],
    )
    def parse_delivery_file(self, request):
        """Reads a delivery file (CSV or XLSX, the template's columns) and returns the material lines and
        header fields it holds, with row errors. Stores nothing."""
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationError({"file": [services.MSG_DELIVERY_FILE_REQUIRED]})
        try:
            result = delivery_file.parse_delivery_file(upload)
        except ValueError as exc:
            raise ValidationError({"file": [str(exc)]}) from None
        return Response(result)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=["csv", "xlsx"], required=False
            )
        ],
        responses=SPREADSHEET_RESPONSES,
        filters=False,
    )
    @action(detail=False, methods=["get"], url_path="delivery-file-template")
    def delivery_file_template(self, request):
        """The delivery file template to fill in (one row per material)."""
        fmt = request.query_params.get("format", "xlsx")
        if fmt == "csv":
            response = HttpResponse(delivery_file.template_csv(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = 'attachment; filename="delivery-file-template.csv"'
            return response
        if fmt != "xlsx":
            raise ValidationError({"format": [_("Choose csv or xlsx.")]})
        response = HttpResponse(
            delivery_file.template_xlsx(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = 'attachment; filename="delivery-file-template.xlsx"'
        return response


class CartonLabelViewSet(
    DownloadNegotiationMixin,
    TenantScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Carton labels. The list shows active labels unless `status` says otherwise; `bulk-delete` voids a
    selection and returns its weight; `export` streams the filtered labels as PDF or CSV."""

    queryset = CartonLabel.objects.all()
    serializer_class = CartonLabelSerializer
    filterset_class = filters.CartonLabelFilter
    search_fields = ["code", "article_number", "production_batch_code", "purchase_order", "container"]
    ordering_fields = ["created_at", "production_batch_code", "batch_sequence", "article_number"]
    ordering = ["-created_at", "production_batch_code", "batch_sequence"]
    allowed_user_types = ("internal", "supplier")
    supplier_scope = "raw_material__parent_vendor"
    supplier_read_only = False
    download_actions = ("export",)
    action_permissions = {
        "bulk_delete": "eudr.delete_cartonlabel",
        "export": "eudr.view_cartonlabel",
    }

    def get_queryset(self):
        return (
            super().get_queryset().select_related("product", "raw_material", "voided_by", "warehouse_state")
        )

    def get_serializer_context(self):
        context = super().get_serializer_context()
        context["public_base_url"] = public_base_url(self.request)
        return context

    @extend_schema(request=BulkDeleteSerializer, responses=BulkDeleteResultSerializer, filters=False)
    @action(detail=False, methods=["post"], url_path="bulk-delete")
    def bulk_delete(self, request):
        """Deletes (voids) the selected labels and gives their weight back to their deliveries, recording
        who and why (`reason`). Without a selection: 400 with docs/specification.md's message "Please select labels to
        delete" (also on `ids`). A label whose carton was received into the warehouse (in stock, picked,
        shipped, delivered, invoiced) is refused with 409 `carton_not_voidable`, nothing voided."""
        if not (request.data.get("ids") if hasattr(request.data, "get") else None):
            raise errors.LabelsNotSelected()
        serializer = BulkDeleteSerializer(data=request.data)
        if not serializer.is_valid():
            raise ValidationError(serializer.errors)
        result = services.cartons_delete(
            ids=serializer.validated_data["ids"],
            queryset=super().get_queryset(),
            user=request.user,
            reason=serializer.validated_data["reason"],
        )
        return Response(result)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=["pdf", "csv"], required=True
            ),
            OpenApiParameter(
                "template",
                OpenApiTypes.STR,
                OpenApiParameter.QUERY,
                enum=list(LABEL_TEMPLATES),
                required=False,
                description="PDF label layout: default 100x150 mm, compact 100x50 mm.",
            ),
        ],
        responses=download_responses(PDF_MEDIA_TYPE, CSV_MEDIA_TYPE),
    )
    @action(detail=False, methods=["get"])
    def export(self, request):
        """The filtered labels as CSV rows or as a PDF with one label per page (real QR codes of the
        public trace URL). Streamed: memory stays flat however many labels."""
        fmt = request.query_params.get("format", "pdf")
        template = request.query_params.get("template", "default")
        if fmt not in ("pdf", "csv"):
            raise ValidationError({"format": [_("Choose pdf or csv.")]})
        if template not in LABEL_TEMPLATES:
            raise ValidationError({"template": [_("Choose compact or default.")]})
        queryset = self.filter_queryset(self.get_queryset())
        base = public_base_url(request)
        stamp = timezone.now().strftime("%Y%m%d-%H%M")
        if fmt == "csv":
            columns = [
                ("Code", "code"),
                ("QR URL", lambda label: trace_url(base, label.code)),
                ("Production batch code", "production_batch_code"),
                ("Batch sequence", "batch_sequence"),
                ("Article number", "article_number"),
                ("Product", "product.name"),
                ("Purchase order", "purchase_order"),
                ("Container", "container"),
                ("Raw material", "raw_material.delivery_number"),
                ("Origin country", "raw_material.country_code"),
                ("Net weight kg", "net_weight_kg"),
                ("Status", "status"),
                ("Created", "created_at"),
            ]
            return export_response(
                rows=queryset.select_related("raw_material__parent_vendor", "product").iterator(
                    chunk_size=2000
                ),
                columns=columns,
                filename="carton-labels",
                fmt="csv",
            )
        response = StreamingHttpResponse(
            labels_pdf_stream(label_prints(queryset), template=template, base_url=base),
            content_type="application/pdf",
        )
        response["Content-Disposition"] = f'attachment; filename="carton-labels-{template}-{stamp}.pdf"'
        return response


class SupplierPolicyViewSet(DownloadNegotiationMixin, TenantModelViewSet):
    """Supplier policies (internal users: Purchasing and Administrator roles). A delivery copies the policy
    in force when it is submitted; editing a policy never changes existing deliveries."""

    queryset = SupplierPolicy.objects.select_related("parent_vendor")
    serializer_class = SupplierPolicySerializer
    filterset_class = filters.SupplierPolicyFilter
    search_fields = ["parent_vendor__name", "parent_vendor__cname", "notes"]
    ordering_fields = ["parent_vendor__name", "material_type", "valid_from", "updated_at"]
    allowed_user_types = ("internal",)
    export_filename = "supplier-policies"
    download_actions = ("export",)

    def perform_destroy(self, instance):
        # Deliveries keep their snapshot; the link to the policy is cleared (SET_NULL).
        instance.delete()
