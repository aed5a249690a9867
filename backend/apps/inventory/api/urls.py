from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("warehouses", views.WarehouseViewSet, basename="warehouse")
router.register("locations", views.LocationViewSet, basename="location")
router.register("stock", views.StockViewSet, basename="stock")
router.register("moves", views.StockMoveViewSet, basename="stockmove")
router.register("reorder-points", views.ReorderPointViewSet, basename="reorderpoint")
router.register("transfers", views.TransferViewSet, basename="transfer")
router.register("counts", views.StockCountViewSet, basename="stockcount")
router.register("cartons", views.WarehouseCartonViewSet, basename="warehousecarton")
router.register("inbound", views.InboundShipmentViewSet, basename="inbound")

urlpatterns = [
    path("search/", views.WarehouseSearchView.as_view(), name="warehouse-search"),
    *router.urls,
]
