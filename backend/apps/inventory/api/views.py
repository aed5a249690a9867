"""Inventory endpoints: warehouses and locations, stock (with reserved/available, totals, as of a moment),
the move ledger, transfers, counts, cartons in the warehouse (scans, history), inbound shipments to receive
and the warehouse search. Views parse, call one service or selector, and serialize."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.permissions import TENANT_PERMISSION_CLASSES
from apps.common.api.viewsets import (
    TenantModelViewSet,
    TenantReadOnlyViewSet,
    TenantScopedMixin,
)
from apps.common.exceptions import FieldErrors
from apps.common.idempotency import idempotent
from apps.inventory import selectors, services
from apps.inventory.models import (
    CartonEvent,
    Location,
    ReorderPoint,
    Stock,
    StockCount,
    StockCountLine,
    StockMove,
    Warehouse,
    WarehouseCarton,
)
from apps.logistics.models import ShipmentInfo

from .filters import LocationFilter, StockFilter, StockMoveFilter, WarehouseCartonFilter
from .serializers import (
    CountSerializer,
    CountWriteSerializer,
    InboundShipmentDetailSerializer,
    InboundShipmentSerializer,
    LocationWithWarehouseSerializer,
    MoveScanSerializer,
    ProductTotalSerializer,
    ReceiptRefSerializer,
    ReceiveScanSerializer,
    ReorderPointSerializer,
    ScanResultSerializer,
    SearchHitSerializer,
    StockAsOfSerializer,
    StockMoveSerializer,
    StockSerializer,
    TransferSerializer,
    WarehouseCartonDetailSerializer,
    WarehouseCartonSerializer,
    WarehouseSerializer,
)

WAREHOUSE_USERS = ("internal", "warehouse")


class WarehouseViewSet(TenantReadOnlyViewSet):
    queryset = Warehouse.objects.all()
    serializer_class = WarehouseSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_fields = ["is_active", "is_default"]
    search_fields = ["code", "name"]
    ordering_fields = ["code", "name"]
    ordering = ["-is_default", "code"]

    def get_queryset(self):
        return (
            super()
            .get_queryset()
            .prefetch_related(Prefetch("locations", queryset=Location.objects.order_by("code")))
        )


class LocationViewSet(TenantReadOnlyViewSet):
    """Locations; `?code=A-01` or `?code=RTM/A-01` finds a scanned location label."""

    queryset = Location.objects.all()
    serializer_class = LocationWithWarehouseSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_class = LocationFilter
    search_fields = ["code", "name", "warehouse__code"]
    ordering_fields = ["code", "warehouse__code"]
    ordering = ["warehouse__code", "code"]

    def get_queryset(self):
        return super().get_queryset().select_related("warehouse")


AS_OF_PARAMETER = OpenApiParameter(
    "at", OpenApiTypes.DATETIME, required=True, description="Moment (ISO date-time, or a date = its end)."
)


@extend_schema_view(
    totals=extend_schema(responses=ProductTotalSerializer(many=True)),
    as_of=extend_schema(parameters=[AS_OF_PARAMETER], responses=StockAsOfSerializer(many=True), filters=True),
)
class StockViewSet(TenantReadOnlyViewSet):
    """Stock per product and location: `on_hand`, `reserved`, `available` (= on hand - reserved)."""

    queryset = Stock.objects.all()
    serializer_class = StockSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_class = StockFilter
    search_fields = ["product__article_number", "product__name", "location__code"]
    ordering_fields = [
        "quantity",
        "on_hand",
        "reserved",
        "available",
        "product__article_number",
        "location__code",
        "updated_at",
    ]
    ordering = ["product__article_number", "location__code"]
    action_permissions = {"totals": "inventory.view_stock", "as_of": "inventory.view_stockmove"}

    def get_queryset(self):
        return selectors.stock_rows(super().get_queryset())

    @action(detail=False, methods=["get"])
    def totals(self, request):
        """Per product across the (filtered) locations."""
        rows = self.filter_queryset(self.get_queryset())
        queryset = selectors.product_totals(rows)
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(ProductTotalSerializer(page, many=True).data)

    @action(detail=False, methods=["get"], url_path="as-of")
    def as_of(self, request):
        """Stock per product and location at a past moment, replayed from the move ledger."""
        at = _parse_moment(request.query_params.get("at", ""))
        filtered = self.filter_queryset(Stock.objects.all()) if _has_location_filter(request) else None
        product = request.query_params.get("product")
        product_id = int(product) if product and product.isdigit() else None
        location_ids = None
        if filtered is not None:
            location_ids = set(filtered.values_list("location_id", flat=True))
            warehouse = request.query_params.get("warehouse")
            location_filter = request.query_params.get("location")
            locations = Location.objects.all()
            if warehouse and warehouse.isdigit():
                locations = locations.filter(warehouse_id=int(warehouse))
            if location_filter and location_filter.isdigit():
                locations = locations.filter(pk=int(location_filter))
            location_ids = set(locations.values_list("pk", flat=True))
        totals = selectors.stock_as_of(at=at, product_id=product_id, location_ids=location_ids)
        products = dict(
            selectors.Stock._meta.get_field("product")
            .related_model.objects.filter(pk__in={k[0] for k in totals})
            .values_list("pk", "article_number")
        )
        locations = {
            row[0]: row[1:]
            for row in Location.objects.filter(pk__in={k[1] for k in totals}).values_list(
                "pk", "code", "warehouse__code"
            )
        }
        rows = sorted(
            (
                {
                    "product": product_id,
                    "article_number": products.get(product_id, ""),
                    "location": location_id,
                    "location_code": locations.get(location_id, ("", ""))[0],
                    "warehouse_code": locations.get(location_id, ("", ""))[1],
                    "quantity": quantity,
                }
                for (product_id, location_id), quantity in totals.items()
            ),
            key=lambda row: (row["article_number"], row["warehouse_code"], row["location_code"]),
        )
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(StockAsOfSerializer(page, many=True).data)


def _has_location_filter(request) -> bool:
    return bool(request.query_params.get("warehouse") or request.query_params.get("location"))


def _parse_moment(text: str):
    from datetime import datetime, time

    from django.utils import timezone

    moment = parse_datetime(text) if text else None
    if moment is None and text:
        day = parse_date(text) if len(text) == 10 else None
        if day is not None:
            moment = datetime.combine(day, time.max)
    if moment is None:
        message = _("Give a date or date-time (ISO 8601).")
        raise FieldErrors({"at": [message]}, message)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


class StockMoveViewSet(TenantReadOnlyViewSet):
    """The append-only move ledger: every receipt, issue, transfer and adjustment, with its source document
    and user."""

    queryset = StockMove.objects.all()
    serializer_class = StockMoveSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_class = StockMoveFilter
    search_fields = ["reference", "product__article_number", "note", "reason"]
    ordering_fields = ["moved_at", "quantity"]
    ordering = ["-moved_at", "-id"]

    def get_queryset(self):
        return super().get_queryset().select_related("product", "from_location", "to_location", "created_by")


@extend_schema_view(
    create=extend_schema(responses={201: ReorderPointSerializer}),
)
class ReorderPointViewSet(TenantModelViewSet):
    """Reorder points, one per product: below it (available over all locations) the product is listed
    by the stock's `below_reorder_point` filter. POST sets a product's point (creates or changes it)."""

    queryset = ReorderPoint.objects.all()
    serializer_class = ReorderPointSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_fields = ["product"]
    search_fields = ["product__article_number", "product__name"]
    ordering_fields = ["product__article_number", "reorder_point"]
    ordering = ["product__article_number", "id"]
    export_filename = "reorder-points"

    def get_queryset(self):
        return super().get_queryset().select_related("product")

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        point = services.reorder_point_set(
            product_id=serializer.validated_data["product"].pk,
            reorder_point=serializer.validated_data["reorder_point"],
        )
        return Response(
            self.get_serializer(self.get_queryset().get(pk=point.pk)).data, status=status.HTTP_201_CREATED
        )


class TransferViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    """`POST /api/inventory/transfers/`: move a quantity between two locations (one transfer move)."""

    queryset = StockMove.objects.all()
    serializer_class = TransferSerializer
    allowed_user_types = WAREHOUSE_USERS
    action_permissions = {"create": "inventory.add_stockmove"}

    @extend_schema(request=TransferSerializer, responses={201: StockMoveSerializer})
    def create(self, request):
        serializer = TransferSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        move = services.stock_transfer(
            product_id=data["product"].pk,
            from_location=data["from_location"],
            to_location=data["to_location"],
            quantity=data["quantity"],
            user=request.user,
            note=data["note"],
        )
        return Response(StockMoveSerializer(move).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    create=extend_schema(request=CountWriteSerializer, responses={201: CountSerializer}),
)
class StockCountViewSet(TenantScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Stock counts: counted quantity per product and location; differences posted as adjustments."""

    queryset = StockCount.objects.all()
    serializer_class = CountSerializer
    allowed_user_types = WAREHOUSE_USERS
    search_fields = ["number", "note"]
    ordering_fields = ["counted_at", "number"]
    ordering = ["-counted_at", "-id"]

    def get_queryset(self):
        lines = StockCountLine.objects.select_related("product", "location").order_by("id")
        return super().get_queryset().prefetch_related(Prefetch("lines", queryset=lines))

    def create(self, request, *args, **kwargs):
        serializer = CountWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = services.stock_count_post(
            lines=[
                services.CountLineInput(
                    product_id=line["product"].pk,
                    location=line["location"],
                    counted_quantity=line["counted_quantity"],
                    reason=line["reason"],
                )
                for line in data["lines"]
            ],
            user=request.user,
            note=data["note"],
        )
        count = self.get_queryset().get(pk=count.pk)
        return Response(CountSerializer(count).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    retrieve=extend_schema(responses=WarehouseCartonDetailSerializer),
    receive=extend_schema(request=ReceiveScanSerializer, responses={201: ScanResultSerializer}),
    move=extend_schema(request=MoveScanSerializer, responses={201: ScanResultSerializer}),
)
class WarehouseCartonViewSet(TenantReadOnlyViewSet):
    """Cartons in the warehouse, found by their label code; scanning in (receive) and moving (put-away).
    A scan carries the phone's `scan_id`: the same scan sent twice (offline queue) is recorded once."""

    queryset = WarehouseCarton.objects.all()
    serializer_class = WarehouseCartonSerializer
    allowed_user_types = WAREHOUSE_USERS
    filterset_class = WarehouseCartonFilter
    search_fields = ["label__code", "label__article_number", "label__purchase_order"]
    ordering_fields = ["updated_at", "received_at", "status"]
    ordering = ["-updated_at", "-id"]
    lookup_field = "label__code"
    lookup_url_kwarg = "code"
    lookup_value_regex = "[^/]+"
    action_permissions = {
        "receive": "inventory.add_warehousecarton",
        "move": "inventory.change_warehousecarton",
    }

    def get_queryset(self):
        queryset = (
            super()
            .get_queryset()
            .select_related("label", "product", "location__warehouse", "inbound_shipment", "receipt")
        )
        if self.action == "retrieve":
            events = CartonEvent.objects.select_related("location__warehouse", "customer", "created_by")
            queryset = queryset.prefetch_related(
                Prefetch("events", queryset=events.order_by("created_at", "id"))
            )
        return queryset

    def get_object(self):
        code = services.normalise_code(self.kwargs["code"])
        return get_object_or_404(self.get_queryset(), label__code=code)

    def get_serializer_class(self):
        return WarehouseCartonDetailSerializer if self.action == "retrieve" else WarehouseCartonSerializer

    def _scan_answer(self, result) -> Response:
        carton = self.get_queryset().get(pk=result.carton.pk)
        return Response(
            {"duplicate": result.duplicate, "carton": WarehouseCartonSerializer(carton).data},
            status=status.HTTP_200_OK if result.duplicate else status.HTTP_201_CREATED,
        )

    @action(detail=False, methods=["post"])
    def receive(self, request):
        serializer = ReceiveScanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.carton_receive(
            code=data["code"],
            shipment=data["shipment"],
            location=data["location"],
            user=request.user,
            scan_id=data["scan_id"],
        )
        return self._scan_answer(result)

    @action(detail=False, methods=["post"])
    def move(self, request):
        serializer = MoveScanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.carton_move(
            code=data["code"], location=data["location"], user=request.user, scan_id=data["scan_id"]
        )
        return self._scan_answer(result)


@extend_schema_view(
    retrieve=extend_schema(responses=InboundShipmentDetailSerializer),
    post_receipts=extend_schema(request=None, responses={201: ReceiptRefSerializer(many=True)}),
)
class InboundShipmentViewSet(TenantReadOnlyViewSet):
    """Inbound shipments (containers) to receive, with their cartons expected and scanned in."""

    queryset = ShipmentInfo.objects.all()
    serializer_class = InboundShipmentSerializer
    allowed_user_types = WAREHOUSE_USERS
    permission_model = ShipmentInfo
    filterset_fields = ["status"]
    search_fields = ["container_number", "vessel", "purchase_orders__order_number"]
    ordering_fields = ["eta", "container_number", "status"]
    ordering = ["eta", "id"]
    action_permissions = {"post_receipts": ["inventory.add_warehousecarton", "purchaseorders.add_receipt"]}

    def get_queryset(self):
        # the shipment's purchase orders, reached through its relation (inventory imports no purchasing)
        orders = ShipmentInfo._meta.get_field("purchase_orders").related_model.objects.order_by(
            "order_number"
        )
        return selectors.inbound_shipments(
            super().get_queryset().prefetch_related(Prefetch("purchase_orders", queryset=orders))
        )

    def get_serializer_class(self):
        return InboundShipmentDetailSerializer if self.action == "retrieve" else InboundShipmentSerializer

    @action(detail=True, methods=["post"], url_path="post-receipts")
    @idempotent
    def post_receipts(self, request, pk=None):
        """Posts the scanned cartons to stock: one purchase receipt per order, one line per order line."""
        shipment = self.get_object()
        receipts = services.cartons_receiving_post(shipment=shipment, user=request.user)
        return Response(ReceiptRefSerializer(receipts, many=True).data, status=status.HTTP_201_CREATED)


class WarehouseSearchView(TenantScopedMixin, APIView):
    """`GET /api/inventory/search/?q=`: typed hits (carton, sales_order, purchase_order, shipment,
    product), each with the page to open. An exact carton code answers that carton alone."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = WAREHOUSE_USERS
    permission_model = Stock

    @extend_schema(
        parameters=[OpenApiParameter("q", OpenApiTypes.STR, required=True)],
        responses=SearchHitSerializer(many=True),
    )
    def get(self, request):
        query = request.query_params.get("q", "")
        if not isinstance(query, str):
            raise serializers.ValidationError({"q": [_("Enter text to search.")]})
        hits = selectors.warehouse_search(q=query)
        return Response(SearchHitSerializer(hits, many=True).data)
