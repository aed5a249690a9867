from __future__ import annotations

from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpResponse
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common import tax
from apps.common.api.pdf import PDF_RESPONSE, PdfNegotiationMixin
from apps.common.api.pdf import pdf_response as _pdf
from apps.common.api.permissions import TENANT_PERMISSION_CLASSES
from apps.common.api.viewsets import (
    DocumentViewSet,
    TenantReadOnlyViewSet,
    document_schema_view,
)
from apps.common.idempotency import idempotent
from apps.purchaseorders.api.serializers import OwnerOptionSerializer
from apps.purchaseorders.api.views import owner_options_response
from apps.salesorders import cii, pdf, selectors, services, ubl
from apps.salesorders.errors import InvoiceNotFound, LineNotFound, PeppolSettingsMissing, ShipmentNotFound
from apps.salesorders.models import (
    EInvoiceDelivery,
    Invoice,
    InvoicePayment,
    PeppolSettings,
    SalesOrder,
    SalesOrderLine,
    SalesQuotation,
    Shipment,
    ShipmentCarton,
)

from .filters import DeliveryFilter, InvoiceFilter, SalesOrderFilter, SalesQuotationFilter, ShipmentFilter
from .serializers import (
    CartonCodesSerializer,
    CreditNoteSerializer,
    DeliverySerializer,
    EInvoiceDeliverySerializer,
    EInvoiceEmailSerializer,
    InvoiceCreateSerializer,
    InvoiceDetailSerializer,
    InvoicePostSerializer,
    InvoiceSerializer,
    InvoiceUpdateSerializer,
    PaymentSerializer,
    PeppolSettingsSerializer,
    QuotationAcceptedSerializer,
    SalesOrderDetailSerializer,
    SalesOrderSerializer,
    SalesOrderWriteSerializer,
    SalesQuotationDetailSerializer,
    SalesQuotationSerializer,
    SalesQuotationWriteSerializer,
    SalesShipmentDetailSerializer,
    SalesShipmentSerializer,
    SalesShipmentWriteSerializer,
    VatTreatmentQuerySerializer,
    VatTreatmentSerializer,
)

UBL_RESPONSE = {(200, "application/xml"): OpenApiTypes.BINARY}


def _line_inputs(lines: list[dict]) -> list[services.LineInput]:
    return [
        services.LineInput(
            id=line.get("id"),
            product=line["product"],
            quantity=line["quantity"],
            unit_price=line["unit_price"],
            discount_percent=line.get("discount_percent") or 0,
            vat_rate=line.get("vat_rate"),
            requested_date=line.get("requested_date"),
            confirmed_date=line.get("confirmed_date"),
            description=line.get("description"),
        )
        for line in lines
    ]


@document_schema_view(detail=SalesOrderDetailSerializer, write=SalesOrderWriteSerializer)
class SalesOrderViewSet(DocumentViewSet):
    """Sales orders. The status follows the line quantities; `confirm/`, `cancel/` and `close/` are the
    actions set by hand (an illegal one is a 409 with its own `error`). Only a draft may be deleted."""

    queryset = SalesOrder.objects.all()
    serializer_class = SalesOrderSerializer
    detail_serializer_class = SalesOrderDetailSerializer
    write_serializer_class = SalesOrderWriteSerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = SalesOrderFilter
    search_fields = [
        "order_number",
        "customer_reference",
        "description",
        "customer__name",
        "customer__number",
    ]
    ordering_fields = [
        "order_number",
        "order_date",
        "status",
        "total_net",
        "total_gross",
        "currency",
        "customer__name",
        "created_at",
    ]
    ordering = ["-order_date", "-id"]
    action_permissions = {
        "confirm": "salesorders.change_salesorder",
        "cancel": "salesorders.change_salesorder",
        "close": "salesorders.change_salesorder",
    }
    export_filename = "sales-orders"
    export_columns = [
        ("Order number", "order_number"),
        ("Order date", "order_date"),
        ("Customer number", "customer.number"),
        ("Customer", "customer.name"),
        ("Customer reference", "customer_reference"),
        ("Status", "status"),
        ("Currency", "currency"),
        ("Net", "total_net"),
        ("VAT", "total_vat"),
        ("Gross", "total_gross"),
        ("Ordered quantity", "ordered_qty"),
        ("Shipped quantity", "shipped_qty"),
        ("Invoiced quantity", "invoiced_qty"),
        ("Owner", lambda order: order.owner.username if order.owner else ""),
    ]

    def get_queryset(self):
        queryset = selectors.order_list_queryset(super().get_queryset())
        if self.action not in ("list", "export"):
            queryset = selectors.order_detail_prefetch(queryset)
        return queryset

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        lines = _line_inputs(data.pop("lines"))
        data.pop("unchanged_since", None)  # an update's precondition
        order = services.sales_order_create(
            customer=data.pop("customer"),
            order_date=data.pop("order_date"),
            order_number=data.pop("order_number", ""),
            lines=lines,
            user=request.user,
            confirm=data.pop("confirm", False),
            **data,
        )
        return self.detail_response(order, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        order = self.get_object()
        data = self.write_data(order, partial=kwargs.get("partial", False))
        lines = data.pop("lines", None)
        data.pop("order_number", None)
        data.pop("confirm", None)
        unchanged_since = data.pop("unchanged_since", None)
        services.sales_order_update(
            order=order,
            fields=data,
            lines=_line_inputs(lines) if lines is not None else None,
            unchanged_since=unchanged_since,
        )
        return self.detail_response(order)

    def perform_destroy(self, instance):
        services.sales_order_delete(order=instance)

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
        """Who may own a sales order (the internal members of the tenant that the `owner` field
        accepts), paginated, for the order form's owner select; `?id=` finds one."""
        return owner_options_response(self, request)

    @extend_schema(parameters=[VatTreatmentQuerySerializer], responses=VatTreatmentSerializer, filters=False)
    @action(detail=False, methods=["get"], url_path="vat-treatment")
    def vat_treatment(self, request):
        """The VAT proposed for goods sold to `customer` and shipped to `ship_to_country` (default: the
        customer's delivery country): domestic rate, intra-EU supply to a business (0 %, reverse
        charge), export (0 %) or distance sale to a consumer (the seller's rate), with the legal
        mention. New order lines without a `vat_rate` get this rate."""
        query = VatTreatmentQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        customer = query.validated_data["customer"]
        treatment = services.customer_vat_treatment(
            customer=customer, destination_country=(query.validated_data.get("ship_to_country") or "").upper()
        )
        return Response(
            VatTreatmentSerializer(
                {
                    "case": treatment.case,
                    "category": treatment.category,
                    "rate": treatment.rate,
                    "reverse_charge": treatment.reverse_charge,
                    "exemption_code": treatment.exemption_code,
                    "mention": treatment.mention,
                    "customer_vat_number_valid": tax.vat_number_valid(customer.vat_id),
                    "rates_as_of": tax.rates_table()["as_of"],
                }
            ).data
        )

    @extend_schema(request=None, responses=SalesOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """draft -> confirmed; reserves the stock (409 `insufficient_available_stock` if short)."""
        order = services.sales_order_confirm(order=self.get_object())
        return self.detail_response(order)

    @extend_schema(request=None, responses=SalesOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """-> cancelled while nothing has shipped; releases the reservations."""
        order = services.sales_order_cancel(order=self.get_object())
        return self.detail_response(order)

    @extend_schema(request=None, responses=SalesOrderDetailSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """-> closed once something has shipped; the rest will not ship (reservations released)."""
        order = services.sales_order_close(order=self.get_object())
        return self.detail_response(order)


def _quotation_line_inputs(lines: list[dict]) -> list[services.QuotationLineInput]:
    return [
        services.QuotationLineInput(
            id=line.get("id"),
            product=line["product"],
            quantity=line["quantity"],
            unit_price=line["unit_price"],
            discount_percent=line.get("discount_percent") or 0,
            vat_rate=line.get("vat_rate"),
            description=line.get("description"),
        )
        for line in lines
    ]


@document_schema_view(detail=SalesQuotationDetailSerializer, write=SalesQuotationWriteSerializer)
class SalesQuotationViewSet(PdfNegotiationMixin, DocumentViewSet):
    """Quotations: draft -> sent (`send/`) -> accepted (`accept/`: makes the sales order, once) or
    declined (`decline/`); `cancel/` withdraws one. `expired` is derived from `valid_until`. Only drafts and
    sent ones may be changed, only drafts deleted; `pdf/` is the quotation in its language."""

    queryset = SalesQuotation.objects.all()
    serializer_class = SalesQuotationSerializer
    detail_serializer_class = SalesQuotationDetailSerializer
    write_serializer_class = SalesQuotationWriteSerializer
    allowed_user_types = ("internal",)
    filterset_class = SalesQuotationFilter
    search_fields = ["quotation_number", "customer_reference", "terms", "customer__name", "customer__number"]
    ordering_fields = [
        "quotation_number",
        "quotation_date",
        "valid_until",
        "status",
        "total_net",
        "total_gross",
        "customer__name",
        "created_at",
    ]
    ordering = ["-quotation_date", "-id"]
    pdf_actions = ("pdf",)
    action_permissions = {
        "send": "salesorders.change_salesquotation",
        "decline": "salesorders.change_salesquotation",
        "cancel": "salesorders.change_salesquotation",
        "accept": ["salesorders.change_salesquotation", "salesorders.add_salesorder"],
        "pdf": "salesorders.view_salesquotation",
    }
    export_filename = "sales-quotations"
    export_columns = [
        ("Quotation number", "quotation_number"),
        ("Quotation date", "quotation_date"),
        ("Valid until", "valid_until"),
        ("Customer number", "customer.number"),
        ("Customer", "customer.name"),
        ("Customer reference", "customer_reference"),
        ("Status", "status"),
        ("Currency", "currency"),
        ("Net", "total_net"),
        ("VAT", "total_vat"),
        ("Gross", "total_gross"),
        (
            "Sales order",
            lambda quotation: quotation.sales_order.order_number if quotation.sales_order else "",
        ),
    ]

    def get_queryset(self):
        queryset = selectors.quotation_list_queryset(super().get_queryset())
        if self.action not in ("list", "export"):
            queryset = selectors.quotation_detail_prefetch(queryset)
        return queryset

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        lines = _quotation_line_inputs(data.pop("lines"))
        quotation = services.quotation_create(
            customer=data.pop("customer"),
            quotation_date=data.pop("quotation_date"),
            valid_until=data.pop("valid_until"),
            lines=lines,
            user=request.user,
            **data,
        )
        return self.detail_response(quotation, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        quotation = self.get_object()
        data = self.write_data(quotation, partial=kwargs.get("partial", False))
        lines = data.pop("lines", None)
        services.quotation_update(
            quotation=quotation,
            fields=data,
            lines=_quotation_line_inputs(lines) if lines is not None else None,
        )
        return self.detail_response(quotation)

    def perform_destroy(self, instance):
        services.quotation_delete(quotation=instance)

    @extend_schema(request=None, responses=SalesQuotationDetailSerializer)
    @action(detail=True, methods=["post"])
    def send(self, request, pk=None):
        """draft -> sent: the quotation went to the customer."""
        return self.detail_response(services.quotation_send(quotation=self.get_object()))

    @extend_schema(request=None, responses=SalesQuotationDetailSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        """draft/sent -> declined: the customer said no."""
        return self.detail_response(services.quotation_decline(quotation=self.get_object()))

    @extend_schema(request=None, responses=SalesQuotationDetailSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """draft/sent -> cancelled: withdrawn."""
        return self.detail_response(services.quotation_cancel(quotation=self.get_object()))

    @extend_schema(request=None, responses=QuotationAcceptedSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The customer accepted: makes a draft sales order with the quotation's lines and links it, once
        (409 `quotation_already_accepted` the second time, 409 `quotation_expired` past its validity)."""
        quotation = self.get_object()
        order = services.quotation_accept(quotation=quotation, user=request.user)
        fresh = self.get_queryset().get(pk=quotation.pk)
        return Response(
            QuotationAcceptedSerializer(
                {"sales_order": order.pk, "order_number": order.order_number, "quotation": fresh},
                context=self.get_serializer_context(),
            ).data
        )

    @extend_schema(responses=PDF_RESPONSE)
    @action(detail=True, methods=["get"])
    def pdf(self, request, pk=None):
        """The quotation PDF in the quotation's language."""
        quotation = self.get_object()
        return _pdf(pdf.quotation_pdf(quotation), f"{quotation.quotation_number}.pdf")


def _shipment_prefetch(queryset):
    return queryset.prefetch_related(
        Prefetch("lines", queryset=selectors.shipment_lines_queryset(), to_attr="annotated_lines"),
        Prefetch(
            "cartons",
            queryset=ShipmentCarton.objects.select_related("carton").order_by("id"),
            to_attr="annotated_cartons",
        ),
    )


@document_schema_view(detail=SalesShipmentDetailSerializer, write=SalesShipmentWriteSerializer)
class ShipmentViewSet(PdfNegotiationMixin, DocumentViewSet):
    """Sales shipments: draft -> picked -> shipped -> delivered. `ship/` posts the stock moves and
    consumes the reservations in one transaction; `cartons/` puts carton labels on the shipment."""

    queryset = Shipment.objects.all()
    serializer_class = SalesShipmentSerializer
    detail_serializer_class = SalesShipmentDetailSerializer
    write_serializer_class = SalesShipmentWriteSerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = ShipmentFilter
    search_fields = [
        "shipment_number",
        "sales_order__order_number",
        "sales_order__customer__name",
        "tracking_number",
    ]
    ordering_fields = ["shipment_number", "status", "planned_date", "shipped_at", "created_at"]
    ordering = ["-created_at", "-id"]
    pdf_actions = ("delivery_note",)
    action_permissions = {
        "pick": "salesorders.pick_shipment",
        "ship": "salesorders.pick_shipment",
        "deliver": "salesorders.change_shipment",
        "cartons": "salesorders.pick_shipment",
        "cartons_remove": "salesorders.pick_shipment",
        "delivery_note": "salesorders.view_shipment",
    }
    export_filename = "sales-shipments"
    export_columns = [
        ("Shipment number", "shipment_number"),
        ("Order number", "sales_order.order_number"),
        ("Customer", "sales_order.customer.name"),
        ("Warehouse", "warehouse.code"),
        ("Status", "status"),
        ("Planned date", "planned_date"),
        ("Shipped at", "shipped_at"),
        ("Quantity", "total_qty"),
        ("Cartons", "cartons_count"),
        ("Carrier", "carrier"),
        ("Tracking number", "tracking_number"),
    ]

    def get_queryset(self):
        queryset = selectors.shipment_list_queryset(super().get_queryset())
        if self.action not in ("list", "export"):
            queryset = _shipment_prefetch(queryset)
        return queryset

    @staticmethod
    def _lines(order: SalesOrder, lines: list[dict]) -> list[services.ShipmentLineInput]:
        found = {
            line.pk: line
            for line in SalesOrderLine.objects.filter(pk__in=[line["order_line"] for line in lines])
        }
        result = []
        for line in lines:
            order_line = found.get(line["order_line"])
            if order_line is None or order_line.order_id != order.pk:
                raise LineNotFound()
            result.append(services.ShipmentLineInput(order_line=order_line, quantity=line["quantity"]))
        return result

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        order = data.pop("sales_order")
        lines = self._lines(order, data.pop("lines"))
        shipment = services.shipment_create(sales_order=order, lines=lines, user=request.user, **data)
        return self.detail_response(shipment, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        shipment = self.get_object()
        data = self.write_data(shipment, partial=kwargs.get("partial", False))
        data.pop("sales_order", None)
        lines = data.pop("lines", None)
        services.shipment_update(
            shipment=shipment,
            fields=data,
            lines=self._lines(shipment.sales_order, lines) if lines is not None else None,
        )
        return self.detail_response(shipment)

    def perform_destroy(self, instance):
        services.shipment_delete(shipment=instance)

    @extend_schema(request=None, responses=SalesShipmentDetailSerializer)
    @action(detail=True, methods=["post"])
    def pick(self, request, pk=None):
        """draft -> picked."""
        return self.detail_response(services.shipment_pick(shipment=self.get_object()))

    @extend_schema(request=None, responses=SalesShipmentDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def ship(self, request, pk=None):
        """draft/picked -> shipped: stock moves out of the warehouse, reservations consumed, all at once."""
        return self.detail_response(services.shipment_ship(shipment=self.get_object(), user=request.user))

    @extend_schema(request=None, responses=SalesShipmentDetailSerializer)
    @action(detail=True, methods=["post"])
    def deliver(self, request, pk=None):
        """shipped -> delivered."""
        return self.detail_response(services.shipment_deliver(shipment=self.get_object()))

    @extend_schema(request=CartonCodesSerializer, responses=SalesShipmentDetailSerializer)
    @action(detail=True, methods=["post"])
    def cartons(self, request, pk=None):
        """Puts cartons on the shipment by their public codes (all or nothing; `data.code` names a refused
        code: carton_not_found, carton_voided, carton_wrong_product, carton_on_other_shipment,
        shipment_already_shipped)."""
        shipment = self.get_object()
        serializer = CartonCodesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.shipment_cartons_add(
            shipment=shipment, codes=serializer.validated_data["codes"], user=request.user
        )
        return self.detail_response(shipment)

    @extend_schema(request=CartonCodesSerializer, responses=SalesShipmentDetailSerializer)
    @action(detail=True, methods=["post"], url_path="cartons/remove")
    def cartons_remove(self, request, pk=None):
        """Takes cartons off a shipment that has not shipped."""
        shipment = self.get_object()
        serializer = CartonCodesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.shipment_cartons_remove(shipment=shipment, codes=serializer.validated_data["codes"])
        return self.detail_response(shipment)

    @extend_schema(responses=PDF_RESPONSE)
    @action(detail=True, methods=["get"], url_path="delivery-note")
    def delivery_note(self, request, pk=None):
        """The delivery note PDF: lines, cartons per line and the DDS reference numbers behind them."""
        shipment = self.get_object()
        return _pdf(pdf.delivery_note_pdf(shipment), f"delivery-note-{shipment.shipment_number}.pdf")


@document_schema_view(
    detail=InvoiceDetailSerializer,
    write=InvoiceCreateSerializer,
    actions=("list", "retrieve", "create", "destroy", "export"),
    partial_update=extend_schema(request=InvoiceUpdateSerializer, responses=InvoiceDetailSerializer),
)
class InvoiceViewSet(PdfNegotiationMixin, DocumentViewSet):
    """Invoices and credit notes. Created as drafts from an order or shipments (what shipped and is not
    invoiced yet); `post/` gives the gapless number and freezes it; `credit-note/` corrects a posted one."""

    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = Invoice.objects.all()
    serializer_class = InvoiceSerializer
    detail_serializer_class = InvoiceDetailSerializer
    write_serializer_class = InvoiceCreateSerializer
    filterset_class = InvoiceFilter
    search_fields = ["number", "sales_order__order_number", "customer__name", "customer__number", "note"]
    ordering_fields = [
        "number",
        "issue_date",
        "due_date",
        "total_gross",
        "status",
        "created_at",
        "customer__name",
    ]
    ordering = ["-created_at", "-id"]
    pdf_actions = ("pdf", "ubl", "facturx", "facturx_xml")
    action_permissions = {
        "post": "salesorders.change_invoice",
        "credit_note": "salesorders.add_invoice",
        "payments": "salesorders.change_invoice",
        "pdf": "salesorders.view_invoice",
        "ubl": "salesorders.view_invoice",
        "facturx": "salesorders.view_invoice",
        "facturx_xml": "salesorders.view_invoice",
        "send_email": "salesorders.change_invoice",
        "deliveries": "salesorders.view_invoice",
    }
    export_filename = "sales-invoices"
    export_columns = [
        ("Number", "number"),
        ("Kind", "kind"),
        ("Status", "status"),
        ("Issue date", "issue_date"),
        ("Due date", "due_date"),
        ("Order number", "sales_order.order_number"),
        ("Customer", "customer.name"),
        ("Customer accounting code", "customer_accounting_code"),
        ("Owner accounting id", "owner_visma_id"),
        ("Currency", "currency"),
        ("Net", "total_net"),
        ("VAT", "total_vat"),
        ("Gross", "total_gross"),
        ("Paid", "amount_paid"),
    ]

    def get_queryset(self):
        queryset = selectors.invoice_list_queryset(super().get_queryset())
        if self.action not in ("list", "export"):
            queryset = queryset.prefetch_related(
                Prefetch("lines", queryset=selectors.invoice_lines_queryset(), to_attr="annotated_lines"),
                "shipments",
                Prefetch("payments", queryset=InvoicePayment.objects.select_related("created_by")),
            )
        return queryset

    def get_serializer_class(self):
        if self.action == "partial_update":
            return InvoiceUpdateSerializer
        return super().get_serializer_class()

    @idempotent
    def create(self, request, *args, **kwargs):
        data = self.write_data()
        shipments = []
        if data.get("shipments"):
            ids = sorted(set(data["shipments"]))
            shipments = list(Shipment.objects.filter(pk__in=ids))
            if len(shipments) != len(ids):
                raise ShipmentNotFound()
        invoice = services.invoice_create(
            sales_order=data.get("sales_order"),
            shipments=shipments,
            user=request.user,
            note=data.get("note", ""),
        )
        return self.detail_response(invoice, status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        invoice = self.get_object()
        serializer = InvoiceUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = dict(serializer.validated_data)
        unchanged_since = fields.pop("unchanged_since", None)
        services.invoice_update(invoice=invoice, fields=fields, unchanged_since=unchanged_since)
        return self.detail_response(invoice)

    def perform_destroy(self, instance):
        services.invoice_delete(invoice=instance)

    @extend_schema(request=InvoicePostSerializer, responses=InvoiceDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def post(self, request, pk=None):
        """Posts a draft: the next gapless number of its series and year; never edited afterwards."""
        invoice = self.get_object()
        serializer = InvoicePostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.invoice_post(
            invoice=invoice, user=request.user, issue_date=serializer.validated_data.get("issue_date")
        )
        return self.detail_response(invoice)

    @extend_schema(request=CreditNoteSerializer, responses={201: InvoiceDetailSerializer})
    @action(detail=True, methods=["post"], url_path="credit-note")
    @idempotent
    def credit_note(self, request, pk=None):
        """A credit note of a posted invoice: in full (no `lines`) or of the given quantities."""
        invoice = self.get_object()
        serializer = CreditNoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        lines = [
            services.CreditLineInput(invoice_line_id=line["invoice_line"], quantity=line["quantity"])
            for line in data.get("lines") or []
        ]
        credit = services.credit_note_create(
            invoice=invoice,
            lines=lines or None,
            user=request.user,
            note=data.get("note", ""),
            post=data["post"],
        )
        return self.detail_response(credit, status.HTTP_201_CREATED)

    @extend_schema(request=PaymentSerializer, responses=InvoiceDetailSerializer)
    @action(detail=True, methods=["post"])
    def payments(self, request, pk=None):
        """Records a payment received against a posted invoice: its amount (not more than is open), the day
        it was received (today when left out, never after today) and its reference. Answers the invoice,
        its payments listed in `payments`."""
        invoice = self.get_object()
        serializer = PaymentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.invoice_payment_record(
            invoice=invoice,
            amount=data["amount"],
            received_on=data.get("received_on"),
            reference=data.get("reference", ""),
            user=request.user,
        )
        return self.detail_response(invoice)

    @extend_schema(responses=PDF_RESPONSE)
    @action(detail=True, methods=["get"])
    def pdf(self, request, pk=None):
        """The invoice (or credit note) PDF in the invoice's language."""
        invoice = self.get_object()
        name = invoice.number or f"draft-{invoice.pk}"
        return _pdf(pdf.invoice_pdf(invoice), f"{name}.pdf")

    @extend_schema(responses=UBL_RESPONSE)
    @action(detail=True, methods=["get"])
    def ubl(self, request, pk=None):
        """The posted invoice or credit note as an EN 16931 e-invoice: UBL 2.1, Peppol BIS Billing 3.0,
        checked against the rules it must keep before it is answered (409 `ubl_invalid` names the broken
        rules; 409 `ubl_not_posted` for a draft)."""
        invoice = self.get_object()
        content = ubl.invoice_ubl(invoice)
        response = HttpResponse(content, content_type="application/xml")
        response["Content-Disposition"] = f'attachment; filename="{invoice.number}.xml"'
        return response

    @extend_schema(responses=PDF_RESPONSE)
    @action(detail=True, methods=["get"])
    def facturx(self, request, pk=None):
        """The posted invoice or credit note as a Factur-X e-invoice (EN 16931 profile): its PDF as PDF/A-3
        with the CII XML embedded as `factur-x.xml`. The content is checked against the EN 16931 rules and
        the XML against the Factur-X XSD before it is answered (409 `facturx_invalid` names the broken
        rules; 409 `ubl_not_posted` for a draft)."""
        invoice = self.get_object()
        response = HttpResponse(cii.invoice_facturx_pdf(invoice), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{invoice.number}-factur-x.pdf"'
        return response

    @extend_schema(responses=UBL_RESPONSE)
    @action(detail=True, methods=["get"], url_path="facturx-xml")
    def facturx_xml(self, request, pk=None):
        """The Factur-X CII XML alone (what the Factur-X PDF embeds), checked as `facturx/` is."""
        invoice = self.get_object()
        response = HttpResponse(cii.invoice_facturx_xml(invoice), content_type="application/xml")
        response["Content-Disposition"] = 'attachment; filename="factur-x.xml"'
        return response

    @extend_schema(request=EInvoiceEmailSerializer, responses={201: EInvoiceDeliverySerializer})
    @action(detail=True, methods=["post"], url_path="send-email")
    def send_email(self, request, pk=None):
        """E-mails the posted document's e-invoice files (UBL, Factur-X, the PDF) to the given addresses,
        else to the customer's invoice contacts or e-mail address, through the e-mail log (queued after
        commit). Each file is checked as its download is (409 `ubl_invalid`, `facturx_invalid`,
        `ubl_not_posted`); 409 `einvoice_no_recipient` when nobody is known."""
        invoice = self.get_object()
        serializer = EInvoiceEmailSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        delivery = services.einvoice_email_send(
            invoice=invoice,
            formats=serializer.validated_data["formats"],
            recipients=serializer.validated_data.get("to") or None,
            user=request.user,
        )
        return Response(EInvoiceDeliverySerializer(delivery).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=EInvoiceDeliverySerializer(many=True), filters=False)
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def deliveries(self, request, pk=None):
        """The document's e-invoice deliveries, newest first and at most 100, as a plain list (not a
        page): through Peppol (sent with the access point's message id, or failed with the reason) and
        by e-mail (with the message's status in the log)."""
        invoice = self.get_object()
        rows = EInvoiceDelivery.objects.filter(invoice=invoice).select_related(
            "email_message", "requested_by"
        )
        return Response(EInvoiceDeliverySerializer(rows[:100], many=True).data)


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class InvoicePeppolSendView(APIView):
    """Sends a posted invoice or credit note through the company's Peppol access point (the UBL
    e-invoice, checked first). The delivery is recorded whatever the access point answers: 200 with the
    delivery (`sent`, the access point's `message_id`), or 502 `peppol_delivery_failed` with the reason
    (`data.reason`: address_refused, rate_limited, timeout, unreachable, unauthorized, rejected,
    unavailable, bad_answer) and the failed delivery kept. 409 `peppol_not_configured`,
    `peppol_disabled`, `peppol_no_receiver` (the customer has no VAT number of a Peppol scheme),
    `peppol_already_sent`, `ubl_invalid`, `ubl_not_posted`."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = Invoice
    action = "peppol_send"
    action_permissions = {"peppol_send": "salesorders.change_invoice"}

    def initial(self, request, *args, **kwargs):
        # Outside the request transaction (the delivery is recorded even when the access point refuses
        # it): the permission checks and the look-up get a transaction of their own.
        with transaction.atomic():
            super().initial(request, *args, **kwargs)
            if not Invoice.objects.filter(pk=kwargs["pk"]).exists():
                raise InvoiceNotFound()

    @extend_schema(request=None, responses=EInvoiceDeliverySerializer)
    def post(self, request, pk: int):
        delivery = services.einvoice_peppol_send(
            tenant_id=request.tenant.pk, invoice_id=pk, user=request.user
        )
        return Response(EInvoiceDeliverySerializer(delivery).data)


class PeppolSettingsView(APIView):
    """The company's Peppol access point (one per tenant): its API's URL, the API key (write-only,
    stored encrypted) and the company's sender participant ID. For the company's administrator."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = PeppolSettings

    @extend_schema(responses=PeppolSettingsSerializer)
    def get(self, request):
        config = PeppolSettings.objects.first()
        if config is None:
            raise PeppolSettingsMissing()
        return Response(PeppolSettingsSerializer(config).data)

    @extend_schema(request=PeppolSettingsSerializer, responses=PeppolSettingsSerializer)
    def put(self, request):
        instance = PeppolSettings.objects.first()
        serializer = PeppolSettingsSerializer(instance, data=request.data, partial=instance is not None)
        serializer.is_valid(raise_exception=True)
        config = services.peppol_settings_save(data=serializer.validated_data)
        return Response(PeppolSettingsSerializer(config).data)

    @extend_schema(responses={204: None})
    def delete(self, request):
        services.peppol_settings_delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryViewSet(TenantReadOnlyViewSet):
    """The delivery schedule: order lines of confirmed orders still to ship, by due date (confirmed, else
    requested delivery date), with what unshipped shipments already plan for them; `is_late` when due
    before today."""

    queryset = SalesOrderLine.objects.all()
    serializer_class = DeliverySerializer
    allowed_user_types = ("internal", "warehouse")
    permission_model = SalesOrder
    filterset_class = DeliveryFilter
    search_fields = [
        "order__order_number",
        "order__customer__name",
        "product__article_number",
        "product__name",
    ]
    ordering_fields = ["due_date", "order__order_number", "order__customer__name", "open_qty"]
    ordering = ["due_date", "order_id", "line_number"]

    def get_queryset(self):
        return selectors.delivery_queryset(super().get_queryset())
