from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("orders", views.PurchaseOrderViewSet, basename="purchaseorder")
router.register("receipts", views.ReceiptViewSet, basename="receipt")
router.register("supplier-invoices", views.SupplierInvoiceViewSet, basename="supplierinvoice")

urlpatterns = [*router.urls]
