from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("warehouses", views.WarehouseViewSet, basename="warehouse")
router.register("stock", views.StockViewSet, basename="stock")
router.register("moves", views.StockMoveViewSet, basename="stockmove")

urlpatterns = [*router.urls]
