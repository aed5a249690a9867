"""Read-only inventory endpoints (warehouses with locations, stock per product and location, posted
moves). Stock changes only through services (receipts now; the warehouse area adds its own moves)."""

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_view

from apps.common.api.viewsets import TENANT_PARAMETER, TenantReadOnlyViewSet
from apps.inventory.models import Location, Stock, StockMove, Warehouse

from .filters import StockFilter, StockMoveFilter
from .serializers import StockMoveSerializer, StockSerializer, WarehouseSerializer

_T = extend_schema(parameters=[TENANT_PARAMETER])


@extend_schema_view(list=_T, retrieve=_T)
class WarehouseViewSet(TenantReadOnlyViewSet):
    queryset = Warehouse.objects.all()
    serializer_class = WarehouseSerializer
    allowed_user_types = ("internal", "warehouse")
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


@extend_schema_view(list=_T, retrieve=_T)
class StockViewSet(TenantReadOnlyViewSet):
    queryset = Stock.objects.all()
    serializer_class = StockSerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = StockFilter
    search_fields = ["product__article_number", "product__name", "location__code"]
    ordering_fields = ["quantity", "product__article_number", "location__code", "updated_at"]
    ordering = ["product__article_number", "location__code"]

    def get_queryset(self):
        return super().get_queryset().select_related("product", "location__warehouse")


@extend_schema_view(list=_T, retrieve=_T)
class StockMoveViewSet(TenantReadOnlyViewSet):
    queryset = StockMove.objects.all()
    serializer_class = StockMoveSerializer
    allowed_user_types = ("internal", "warehouse")
    filterset_class = StockMoveFilter
    search_fields = ["reference", "product__article_number", "note"]
    ordering_fields = ["moved_at", "quantity"]
    ordering = ["-moved_at", "-id"]

    def get_queryset(self):
        return super().get_queryset().select_related("product", "from_location", "to_location")
