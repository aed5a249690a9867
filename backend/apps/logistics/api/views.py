from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.common.api.permissions import user_type
from apps.common.api.viewsets import EXPORT_PARAMETER, TenantModelViewSet
from apps.common.idempotency import idempotent
from apps.logistics import selectors, services
from apps.logistics.models import Dispatch, ShipmentCompany, ShipmentInfo

from .filters import DispatchFilter, ShipmentCompanyFilter, ShipmentFilter
from .serializers import (
    DispatchSerializer,
    ShipmentCompanySerializer,
    ShipmentSerializer,
    ShipmentTransitionSerializer,
    ShipmentWriteSerializer,
)


@extend_schema_view(
    export=extend_schema(parameters=[EXPORT_PARAMETER], filters=True),
)
class ShipmentCompanyViewSet(TenantModelViewSet):
    """Carriers. The web app addresses one by name: `by-name/{name}/` or `?name=`."""

    queryset = ShipmentCompany.objects.all()
    serializer_class = ShipmentCompanySerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = ShipmentCompanyFilter
    search_fields = ["name", "contact_name", "email"]
    ordering_fields = ["name", "contact_name", "created_at"]
    ordering = ["name"]
    action_permissions = {"by_name": "logistics.view_shipmentcompany"}
    export_filename = "shipment-companies"
    export_columns = [
        ("Name", "name"),
        ("Contact", "contact_name"),
        ("E-mail", "email"),
        ("Phone", "phone"),
        ("Website", "website"),
        ("Tracking URL template", "tracking_url_template"),
        ("Shipments", "shipments_count"),
    ]

    def get_queryset(self):
        # a subquery per listed row, not a join with GROUP BY: the page is read in the order of an index
        # (docs/performance.md, "Indexes for the list orderings")
        shipments = (
            ShipmentInfo.objects.filter(shipment_company=OuterRef("pk"))
            .order_by()
            .values("shipment_company")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset()
            .annotate(shipments_count=Coalesce(Subquery(shipments, output_field=IntegerField()), 0))
        )

    def perform_destroy(self, instance):
        services.shipment_company_delete(company=instance)

    @extend_schema(
        parameters=[OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH)],
        responses=ShipmentCompanySerializer,
    )
    @action(detail=False, methods=["get"], url_path=r"by-name/(?P<name>[^/]+)")
    def by_name(self, request, name=None):
        """One carrier by its name (case-insensitive)."""
        company = get_object_or_404(self.get_queryset(), name__iexact=name)
        return Response(self.get_serializer(company).data)


@extend_schema_view(
    create=extend_schema(request=ShipmentWriteSerializer, responses={201: ShipmentSerializer}),
    update=extend_schema(request=ShipmentWriteSerializer, responses=ShipmentSerializer),
    partial_update=extend_schema(request=ShipmentWriteSerializer, responses=ShipmentSerializer),
    export=extend_schema(parameters=[EXPORT_PARAMETER], filters=True),
)
class ShipmentViewSet(TenantModelViewSet):
    """Inbound shipments. Supplier users read the shipments carrying their vendor's orders."""

    queryset = ShipmentInfo.objects.all()
    serializer_class = ShipmentSerializer
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_scope = "purchase_orders__supplier__parent_vendor"
    filterset_class = ShipmentFilter
    base_search_fields = ["container_number", "seal_number", "vessel", "voyage"]
    ordering_fields = ["container_number", "etd", "eta", "status", "created_at", "vessel"]
    ordering = ["-created_at", "-id"]
    action_permissions = {"transition": "logistics.change_shipmentinfo"}
    export_filename = "shipments"
    export_columns = [
        ("Container", "container_number"),
        ("Seal", "seal_number"),
        ("Shipment company", "shipment_company.name"),
        ("Vessel", "vessel"),
        ("Voyage", "voyage"),
        ("Port of loading", "port_of_loading"),
        ("Port of discharge", "port_of_discharge"),
        ("ETD", "etd"),
        ("ETA", "eta"),
        ("Status", "status"),
        ("Purchase orders", lambda s: ", ".join(o.order_number for o in s.purchase_orders.all())),
        ("Cartons", "cartons_count"),
    ]

    @property
    def search_fields(self) -> list[str]:
        # Supplier users do not search by order number: a shared container may carry other vendors' orders.
        request = getattr(self, "request", None)
        if request is not None and user_type(request.user) == "supplier":
            return self.base_search_fields
        return [*self.base_search_fields, "order_links__purchase_order__order_number"]

    def _vendor_id(self) -> int | None:
        user = self.request.user
        return user.parent_vendor_id if user_type(user) == "supplier" else None

    def scope_queryset(self, queryset):
        vendor_id = self._vendor_id()
        if user_type(self.request.user) != "supplier":
            return queryset
        if not vendor_id:
            return queryset.none()
        return selectors.shipments_visible_to_vendor(queryset, vendor_id)

    def get_queryset(self):
        return selectors.shipment_list_queryset(super().get_queryset(), parent_vendor_id=self._vendor_id())

    def get_serializer_class(self):
        if self.action in ("create", "update", "partial_update"):
            return ShipmentWriteSerializer
        return ShipmentSerializer

    def _detail(self, shipment, status_code=status.HTTP_200_OK):
        fresh = self.get_queryset().get(pk=shipment.pk)
        return Response(
            ShipmentSerializer(fresh, context=self.get_serializer_context()).data, status=status_code
        )

    @idempotent
    def create(self, request, *args, **kwargs):
        serializer = ShipmentWriteSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        orders = data.pop("purchase_orders", [])
        shipment = services.shipment_create(fields=data, purchase_orders=orders)
        return self._detail(shipment, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        shipment = self.get_object()
        serializer = ShipmentWriteSerializer(
            shipment,
            data=request.data,
            partial=kwargs.get("partial", False),
            context=self.get_serializer_context(),
        )
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        orders = data.pop("purchase_orders", None)
        services.shipment_update(shipment=shipment, fields=data, purchase_orders=orders)
        return self._detail(shipment)

    def perform_destroy(self, instance):
        services.shipment_delete(shipment=instance)

    @extend_schema(request=ShipmentTransitionSerializer, responses=ShipmentSerializer)
    @action(detail=True, methods=["post"])
    def transition(self, request, pk=None):
        """planned -> in_transit -> arrived -> received (one step back allowed before received); else 409."""
        shipment = self.get_object()
        serializer = ShipmentTransitionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.shipment_transition(shipment=shipment, to_status=serializer.validated_data["status"])
        return self._detail(shipment)


LOADING_DATE = OpenApiParameter(
    "date", OpenApiTypes.DATE, required=True, description="Pickup date (YYYY-MM-DD)."
)


@extend_schema_view(
    export=extend_schema(parameters=[EXPORT_PARAMETER], filters=True),
    loading_list=extend_schema(
        parameters=[LOADING_DATE],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    ),
)
class DispatchViewSet(TenantModelViewSet):
    """Outbound shipments by carrier: pickup date, vehicle, tracking number, packages and weight; the
    day's loading list as a PDF."""

    queryset = Dispatch.objects.all()
    serializer_class = DispatchSerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = DispatchFilter
    search_fields = [
        "tracking_number",
        "vehicle",
        "sales_shipment__shipment_number",
        "sales_shipment__sales_order__order_number",
        "sales_shipment__sales_order__customer__name",
        "carrier__name",
    ]
    ordering_fields = ["pickup_date", "packages", "weight_kg", "carrier__name"]
    ordering = ["-pickup_date", "carrier__name", "id"]
    action_permissions = {"loading_list": "logistics.view_dispatch"}
    export_filename = "dispatches"
    export_columns = [
        ("Pickup date", "pickup_date"),
        ("Carrier", "carrier.name"),
        ("Vehicle", "vehicle"),
        ("Shipment", "sales_shipment.shipment_number"),
        ("Tracking number", "tracking_number"),
        ("Packages", "packages"),
        ("Weight (kg)", "weight_kg"),
    ]

    def get_queryset(self):
        return selectors.dispatches(super().get_queryset())

    def perform_create(self, serializer):
        services.dispatch_save(
            serializer=serializer, sales_shipment=serializer.validated_data["sales_shipment"]
        )

    def perform_update(self, serializer):
        shipment = serializer.validated_data.get("sales_shipment", serializer.instance.sales_shipment)
        services.dispatch_save(serializer=serializer, sales_shipment=shipment)

    @action(detail=False, methods=["get"], url_path="loading-list")
    def loading_list(self, request):
        from django.http import HttpResponse
        from django.utils.dateparse import parse_date

        from apps.common.exceptions import FieldErrors
        from apps.logistics.loading_list_pdf import loading_list_pdf
        from apps.tenancy.models import Tenant

        text = request.query_params.get("date", "")
        day = parse_date(text) if len(text) == 10 else None
        if day is None:
            message = _("Give the pickup date as YYYY-MM-DD.")
            raise FieldErrors({"date": [message]}, message)
        rows = list(self.get_queryset().filter(pickup_date=day).order_by("carrier__name", "vehicle", "id"))
        company = Tenant.objects.get(pk=request.tenant.pk)
        pdf = loading_list_pdf(day=day, company=company.legal_name or company.name, dispatches=rows)
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="loading-list-{day.isoformat()}.pdf"'
        return response
