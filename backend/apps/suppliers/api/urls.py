from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# parent-vendors first: the supplier detail route ("<pk>/") would otherwise swallow it.
router.register("parent-vendors", views.ParentVendorViewSet, basename="parent-vendor")
router.register("", views.SupplierViewSet, basename="supplier")

urlpatterns = [*router.urls]
