from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters.utils import translate_validation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from apps.common.api.export import download_responses
from apps.common.api.pdf import PDF_RESPONSE, PdfNegotiationMixin, pdf_response
from apps.common.api.permissions import user_type
from apps.common.api.search import JoinFreeSearchFilter
from apps.common.api.viewsets import DocumentViewSet, document_schema_view
from apps.common.idempotency import idempotent
from apps.common.prices import hide_prices, without_price_columns, without_price_orderings
from apps.purchaseorders import errors, pdf, selectors, services
from apps.purchaseorders.models import PurchaseOrder, Receipt, ReceiptLine, SupplierInvoice
from apps.tenancy.permissions import tenant_permissions

from .filters import PurchaseOrderFilter, ReceiptFilter, SupplierInvoiceFilter
from .serializers import (
    OrderSummarySerializer,
    OwnerOptionSerializer,
    PurchaseOrderDetailSerializer,
    PurchaseOrderSerializer,
    PurchaseOrderWriteSerializer,
    ReceiptDetailSerializer,
    ReceiptSerializer,
    ReceiptWriteSerializer,
    SupplierInvoiceDecisionSerializer,
    SupplierInvoiceDetailSerializer,
    SupplierInvoiceSerializer,
    SupplierInvoiceUploadSerializer,
    TransitionSerializer,
)


def _line_inputs(lines: list[dict]) -> list[services.LineInput]:
    return [
        services.LineInput(
            id=line.get("id"),
            line_number=line.get("line_number"),
            product=line["product"],
            product_number=line.get("product_number", ""),
            line_description=line.get("line_description"),
            order_qty=line["order_qty"],
            unit_cost=line["unit_cost"],
            weight_per_carton=line.get("weight_per_carton"),
            weight_given="weight_per_carton" in line,
            delivery_date=line.get("delivery_date"),
            delivery_date_given="delivery_date" in line,
        )
        for line in lines
    ]


def owner_options_response(view, request) -> Response:
    """A page of who may own an order (the tenant's internal members), `?search=` over their names,
    `?id=` finding one: the owner select of the purchase and the sales order forms."""
    users = selectors.owner_candidates(request.query_params.get("search", ""))
    wanted = request.query_params.get("id", "")
    if wanted:
        users = users.filter(pk=int(wanted)) if wanted.isdigit() else users.none()
    page = view.paginate_queryset(users)
    return view.get_paginated_response(OwnerOptionSerializer(page, many=True).data)


def released_for(request, queryset):
    """A supplier user never sees a draft (docs/purchasing.md, "Lifecycle")."""
    if user_type(request.user) == "supplier":
        return queryset.exclude(**PurchaseOrder.supplier_exclude)
    return queryset


@document_schema_view(detail=PurchaseOrderDetailSerializer, write=PurchaseOrderWriteSerializer)
class PurchaseOrderViewSet(PdfNegotiationMixin, DocumentViewSet):
    """Purchase orders. Supplier users read their parent vendor's orders only; warehouse users read."""

    queryset = PurchaseOrder.objects.all()
    serializer_class = PurchaseOrderSerializer
    detail_serializer_class = PurchaseOrderDetailSerializer
    write_serializer_class = PurchaseOrderWriteSerializer
    detail_actions = ("retrieve", "by_number")
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_scope = "supplier__parent_vendor"
    filterset_class = PurchaseOrderFilter
    search_fields = [
        "order_number",
        "description",
        "supplier__name",
        "supplier__number",
        "lines__product_number",
    ]
    all_ordering_fields = [
        "order_number",
        "order_date",
        "promise_date",
        "total_amount",
        "status",
        "type",
        "currency",
        "supplier__name",
        "created_at",
    ]
    ordering = ["-order_date", "-id"]
    pdf_actions = ("pdf",)
    action_permissions = {
        "transition": "purchaseorders.change_purchaseorder",
        "confirm": "purchaseorders.change_purchaseorder",
        "send": "purchaseorders.change_purchaseorder",
        "close": "purchaseorders.change_purchaseorder",
        "cancel": "purchaseorders.change_purchaseorder",
        "pdf": "purchaseorders.view_purchaseorder",
        "summary": "purchaseorders.view_purchaseorder",
        "by_number": "purchaseorders.view_purchaseorder",
        "owners": "purchaseorders.view_purchaseorder",
    }
    export_filename = "purchase-orders"
    export_columns = [
        ("Order number", "order_number"),
        ("Order date", "order_date"),
        ("Supplier number", "supplier.number"),
        ("Supplier", "supplier.name"),
        ("Parent vendor", "supplier.parent_vendor.name"),
        ("Type", "type"),
        ("Status", "status"),
        ("Currency", "currency"),
        ("Total amount", "total_amount"),
        ("Promise date", "promise_date"),
        ("Lines", "lines_count"),
        ("Ordered quantity", "ordered_qty"),
        ("Received quantity", "received_total_qty"),
        ("Cartons issued", "cartons_issued"),
        ("Owner", lambda order: order.owner.username if order.owner else ""),
        ("Description", "description"),
    ]

    @property
    def ordering_fields(self):
        return without_price_orderings(
            self.all_ordering_fields, {"total_amount"}, getattr(self, "request", None)
        )

    def get_export_columns(self):
        return without_price_columns(self.export_columns, {"Total amount"}, self.request)

    def get_queryset(self):
        queryset = selectors.order_list_queryset(released_for(self.request, super().get_queryset()))
        if self.action in (
            "retrieve",
            "by_number",
            "create",
            "update",
            "partial_update",
            "transition",
            "confirm",
            "send",
            "close",
            "cancel",
        ):
            queryset = queryset.prefetch_related(
                Prefetch("lines", queryset=selectors.order_lines_queryset(), to_attr="annotated_lines")
            )
        return queryset

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        supplier = data["supplier"]
        order = services.purchase_order_create(
            supplier=supplier,
            order_date=data["order_date"],
            lines=_line_inputs(data["lines"]),
            order_number=data.get("order_number", ""),
            currency=data.get("currency") or getattr(supplier, "currency", "") or "EUR",
            description=data.get("description", ""),
            type=data.get("type", PurchaseOrder.Type.STANDARD),
            promise_date=data.get("promise_date"),
            owner=data.get("owner", request.user),
        )
        return self.detail_response(order, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        order = self.get_object()
        data = self.write_data(order, partial=kwargs.get("partial", False))
        lines = data.pop("lines", None)
        data.pop("order_number", None)
        services.purchase_order_update(
            order=order, fields=data, lines=_line_inputs(lines) if lines is not None else None
        )
        return self.detail_response(order)

    def perform_destroy(self, instance):
        services.purchase_order_delete(order=instance)

    @extend_schema(request=TransitionSerializer, responses=PurchaseOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def transition(self, request, pk=None):
        """Moves the order to `status` through the act of that name (confirmed, sent, closed, cancelled:
        the same as the confirm, send, close and cancel actions); anything else 409."""
        order = self.get_object()
        serializer = TransitionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        to_status = serializer.validated_data["status"]
        act = services.ACTIONS.get(to_status)
        if act is None:
            raise errors.IllegalTransition(
                _("A purchase order cannot go from %(from)s to %(to)s.")
                % {
                    "from": PurchaseOrder.Status(order.status).label,
                    "to": PurchaseOrder.Status(to_status).label,
                }
            )
        if act is services.purchase_order_send:
            services.purchase_order_send(order=order, user=request.user)
        else:
            act(order=order)
        return self.detail_response(order)

    @extend_schema(request=None, responses=PurchaseOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """draft -> confirmed: the order can be received, labelled and is seen by the supplier portal.
        Nothing is e-mailed. 409 illegal_transition from any other status."""
        order = self.get_object()
        services.purchase_order_confirm(order=order)
        return self.detail_response(order)

    @extend_schema(request=None, responses=PurchaseOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def send(self, request, pk=None):
        """confirmed (or sent: again) -> sent, e-mailing the supplier the order's PDF (the e-mail scenarios
        of purchase_order.sent, else one message to the supplier's addresses). A draft: 409
        order_not_confirmed; a supplier without an e-mail address: 409 supplier_no_email."""
        order = self.get_object()
        services.purchase_order_send(order=order, user=request.user)
        return self.detail_response(order)

    @extend_schema(request=None, responses=PurchaseOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """received -> closed, or partly_received -> closed (short: the rest will not come)."""
        order = self.get_object()
        services.purchase_order_close(order=order)
        return self.detail_response(order)

    @extend_schema(request=None, responses=PurchaseOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """draft, confirmed or sent -> cancelled; once goods were received 409 order_has_receipts."""
        order = self.get_object()
        services.purchase_order_cancel(order=order)
        return self.detail_response(order)

    @extend_schema(
        parameters=[
            OpenApiParameter("language", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=list(pdf.LANGUAGES))
        ],
        responses=PDF_RESPONSE,
    )
    @action(detail=True, methods=["get"])
    def pdf(self, request, pk=None):
        """The order as a PDF in the supplier's language (or `?language=en|zh`)."""
        order = self.get_object()
        if hide_prices(request):
            raise PermissionDenied()
        language = request.query_params.get("language") or None
        return pdf_response(pdf.purchase_order_pdf(order, language), f"{order.order_number}.pdf")

    @extend_schema(responses=OrderSummarySerializer, filters=True)
    @action(detail=False, methods=["get"])
    def summary(self, request):
        """Counts and amounts per status for the list's filters (the status filter itself is ignored, so
        the numbers can label status tabs)."""
        params = request.query_params.copy()
        params.pop("status", None)
        filterset = PurchaseOrderFilter(
            params, queryset=released_for(request, super().get_queryset()), request=request
        )
        if not filterset.is_valid():
            raise translate_validation(filterset.errors)
        queryset = JoinFreeSearchFilter().filter_queryset(request, filterset.qs, self)
        orders = PurchaseOrder.objects.filter(pk__in=queryset.values("pk"))
        summary = selectors.order_status_summary(orders)
        if hide_prices(request):  # counts only: the sums are prices (apps/common/prices.py)
            for entry in (summary["total"], *summary["statuses"].values()):
                entry["amounts"] = {}
        return Response(summary)

    @extend_schema(
        parameters=[
            OpenApiParameter("search", OpenApiTypes.STR, OpenApiParameter.QUERY),
            OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.QUERY),
        ],
        responses=OwnerOptionSerializer(many=True),
        filters=False,
    )
    @action(detail=False, methods=["get"])
    def owners(self, request):
        """Who may own an order (internal members of the tenant), paginated, for the owner select and
        filter; `?id=` finds one. Not for supplier users."""
        if user_type(request.user) == "supplier":
            raise PermissionDenied()
        return owner_options_response(self, request)

    @extend_schema(
        parameters=[
            OpenApiParameter("order_number", OpenApiTypes.STR, OpenApiParameter.PATH),
        ],
        responses=PurchaseOrderDetailSerializer,
    )
    @action(detail=False, methods=["get"], url_path=r"by-number/(?P<order_number>[^/]+)")
    def by_number(self, request, order_number=None):
        """One order by its order number (the web app's route uses it)."""
        order = get_object_or_404(self.get_queryset(), order_number=order_number)
        return Response(PurchaseOrderDetailSerializer(order, context=self.get_serializer_context()).data)


@document_schema_view(
    detail=ReceiptDetailSerializer,
    write=ReceiptWriteSerializer,
    actions=("list", "retrieve", "create", "export"),
)
class ReceiptViewSet(DocumentViewSet):
    """Goods receipts against purchase orders. Posted receipts are not edited or deleted."""

    http_method_names = ["get", "post", "head", "options"]
    queryset = Receipt.objects.all()
    serializer_class = ReceiptSerializer
    detail_serializer_class = ReceiptDetailSerializer
    write_serializer_class = ReceiptWriteSerializer
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_scope = "purchase_order__supplier__parent_vendor"
    filterset_class = ReceiptFilter
    search_fields = [
        "receipt_number",
        "purchase_order__order_number",
        "purchase_order__supplier__name",
        "note",
    ]
    ordering_fields = ["receipt_number", "receipt_date", "created_at", "purchase_order__order_number"]
    ordering = ["-receipt_date", "-id"]
    export_filename = "purchase-receipts"
    export_columns = [
        ("Receipt number", "receipt_number"),
        ("Receipt date", "receipt_date"),
        ("Order number", "purchase_order.order_number"),
        ("Supplier", "purchase_order.supplier.name"),
        ("Warehouse", "warehouse.code"),
        ("Lines", "lines_count"),
        ("Quantity", "total_qty"),
        ("Over-receipt", "over_receipt"),
        ("Note", "note"),
    ]

    def get_queryset(self):
        queryset = selectors.receipt_list_queryset(super().get_queryset())
        if self.action in ("retrieve", "create"):
            queryset = queryset.prefetch_related(
                Prefetch(
                    "lines",
                    queryset=ReceiptLine.objects.select_related("order_line", "stock_move__to_location"),
                )
            )
        return queryset

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        order = data["purchase_order"]
        if self.scope_queryset(PurchaseOrder.objects.filter(pk=order.pk)).count() == 0:
            raise errors.PurchaseOrderNotFound()
        receipt = services.receipt_create(
            purchase_order=order,
            lines=[
                services.ReceiptLineInput(order_line_id=line["order_line"], quantity=line["quantity"])
                for line in data["lines"]
            ],
            user=request.user,
            warehouse=data.get("warehouse"),
            receipt_date=data.get("receipt_date"),
            note=data.get("note", ""),
            allow_over_receipt=data.get("allow_over_receipt", False),
            may_over_receive="purchaseorders.allow_over_receipt"
            in tenant_permissions(request.user, request.tenant),
        )
        return self.detail_response(receipt, status.HTTP_201_CREATED)


SYNTAX_MEDIA_TYPES = {"ubl": "application/xml", "cii": "application/xml", "facturx_pdf": "application/pdf"}


@document_schema_view(
    detail=SupplierInvoiceDetailSerializer,
    write=None,
    actions=("list", "retrieve", "destroy", "export"),
    create=extend_schema(
        request={"multipart/form-data": SupplierInvoiceUploadSerializer},
        responses={201: SupplierInvoiceDetailSerializer},
    ),
)
class SupplierInvoiceViewSet(DocumentViewSet):
    """Supplier invoices read from uploaded e-invoices (UBL, CII, Factur-X PDF) and their 3-way match.
    Internal users only (the purchasing roles' permissions); supplier and warehouse users 403."""

    http_method_names = ["get", "post", "delete", "head", "options"]
    parser_classes = [JSONParser, MultiPartParser, FormParser]
    queryset = SupplierInvoice.objects.all()
    serializer_class = SupplierInvoiceSerializer
    detail_serializer_class = SupplierInvoiceDetailSerializer
    allowed_user_types = ("internal",)
    filterset_class = SupplierInvoiceFilter
    search_fields = [
        "invoice_number",
        "seller_name",
        "order_reference",
        "supplier__name",
        "purchase_order__order_number",
    ]
    all_ordering_fields = [
        "issue_date",
        "due_date",
        "invoice_number",
        "total_gross",
        "status",
        "match_status",
        "created_at",
    ]
    ordering = ["-issue_date", "-id"]
    action_permissions = {
        "approve": "purchaseorders.change_supplierinvoice",
        "reject": "purchaseorders.change_supplierinvoice",
        "original": "purchaseorders.view_supplierinvoice",
    }
    export_filename = "supplier-invoices"
    export_columns = [
        ("Invoice number", "invoice_number"),
        ("Type", "kind"),
        ("Issue date", "issue_date"),
        ("Due date", "due_date"),
        ("Seller", "seller_name"),
        ("Supplier", lambda invoice: invoice.supplier.name if invoice.supplier else ""),
        (
            "Order number",
            lambda invoice: invoice.purchase_order.order_number if invoice.purchase_order else "",
        ),
        ("Currency", "currency"),
        ("Total net", "total_net"),
        ("Total VAT", "total_vat"),
        ("Total gross", "total_gross"),
        ("Status", "status"),
        ("Match", "match_status"),
    ]

    @property
    def ordering_fields(self):
        return without_price_orderings(
            self.all_ordering_fields, {"total_gross"}, getattr(self, "request", None)
        )

    def get_export_columns(self):
        return without_price_columns(
            self.export_columns, {"Total net", "Total VAT", "Total gross"}, self.request
        )

    def get_queryset(self):
        return super().get_queryset().select_related("supplier__parent_vendor", "purchase_order")

    @idempotent
    def create(self, request, *args, **kwargs):
        """Uploads an e-invoice (multipart `file`: UBL or CII XML, or a Factur-X PDF) and answers the draft
        supplier invoice read from it. 400 einvoice_invalid for a file that is not one (the message says
        why), 409 supplier_invoice_duplicate for an invoice number the supplier already sent."""
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        if upload is None:
            raise ValidationError({"file": [_("Choose an e-invoice file (XML or Factur-X PDF).")]})
        invoice = services.supplier_invoice_import(tenant=request.tenant, file=upload, user=request.user)
        return self.detail_response(invoice, status.HTTP_201_CREATED)

    def perform_destroy(self, instance):
        services.supplier_invoice_delete(invoice=instance)

    def _decision(self, request) -> str:
        serializer = SupplierInvoiceDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data.get("reason", "")

    @extend_schema(request=SupplierInvoiceDecisionSerializer, responses=SupplierInvoiceDetailSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """draft -> approved. While the 3-way match is not `matched`: 409 supplier_invoice_mismatch unless
        a `reason` is given (kept on the invoice)."""
        invoice = self.get_object()
        services.supplier_invoice_approve(invoice=invoice, user=request.user, reason=self._decision(request))
        return self.detail_response(invoice)

    @extend_schema(request=SupplierInvoiceDecisionSerializer, responses=SupplierInvoiceDetailSerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """draft -> rejected (an optional `reason`); its quantities no longer count as invoiced."""
        invoice = self.get_object()
        services.supplier_invoice_reject(invoice=invoice, user=request.user, reason=self._decision(request))
        return self.detail_response(invoice)

    @extend_schema(responses=download_responses("application/xml", "application/pdf"), filters=False)
    @action(detail=True, methods=["get"])
    def original(self, request, pk=None):
        """The uploaded file as it came (XML or the Factur-X PDF)."""
        invoice = self.get_object()
        with invoice.original_file.open("rb") as handle:
            content = handle.read()
        response = HttpResponse(
            content, content_type=SYNTAX_MEDIA_TYPES.get(invoice.syntax, "application/xml")
        )
        name = invoice.original_filename or f"{invoice.invoice_number}.xml"
        safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)[:120] or "invoice.xml"
        response["Content-Disposition"] = f'attachment; filename="{safe}"'
        return response
