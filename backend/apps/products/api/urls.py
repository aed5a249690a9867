from rest_framework.routers import DefaultRouter

from . import views

# Groups first: /api/products/groups/ must not be read as the detail route of a product id.
groups_router = DefaultRouter(trailing_slash=True)
groups_router.include_root_view = False
groups_router.register("groups", views.ProductGroupViewSet, basename="product-group")

products_router = DefaultRouter(trailing_slash=True)
products_router.include_root_view = False
products_router.register("", views.ProductViewSet, basename="product")

urlpatterns = [*groups_router.urls, *products_router.urls]
