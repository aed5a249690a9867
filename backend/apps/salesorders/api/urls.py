from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("orders", views.SalesOrderViewSet, basename="salesorder")
router.register("quotations", views.SalesQuotationViewSet, basename="salesquotation")
router.register("shipments", views.ShipmentViewSet, basename="salesshipment")
router.register("invoices", views.InvoiceViewSet, basename="invoice")
router.register("deliveries", views.DeliveryViewSet, basename="salesdelivery")

urlpatterns = [
    path("invoices/<int:pk>/peppol/", views.InvoicePeppolSendView.as_view(), name="invoice-peppol"),
    path("peppol-settings/", views.PeppolSettingsView.as_view(), name="peppol-settings"),
    *router.urls,
]
