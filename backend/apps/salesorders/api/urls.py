from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("orders", views.SalesOrderViewSet, basename="salesorder")
router.register("shipments", views.ShipmentViewSet, basename="salesshipment")
router.register("invoices", views.InvoiceViewSet, basename="invoice")
router.register("deliveries", views.DeliveryViewSet, basename="salesdelivery")

urlpatterns = [*router.urls]
