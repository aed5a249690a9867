from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("shipments", views.ShipmentViewSet, basename="shipment")
router.register("dispatches", views.DispatchViewSet, basename="dispatch")
router.register("shipment-companies", views.ShipmentCompanyViewSet, basename="shipmentcompany")

urlpatterns = [*router.urls]
