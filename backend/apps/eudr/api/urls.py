from django.urls import path
from rest_framework.routers import DefaultRouter

from . import dds_urls, received_views, views
from .placing_views import PlacingStatementViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("raw-materials", views.RawMaterialDeliveryViewSet, basename="eudr-raw-material")
router.register("cartons", views.CartonLabelViewSet, basename="eudr-carton")
router.register("supplier-policies", views.SupplierPolicyViewSet, basename="eudr-supplier-policy")
router.register(
    "received-references", received_views.ReceivedReferenceViewSet, basename="eudr-received-reference"
)

urlpatterns = [*router.urls]
urlpatterns += dds_urls.urlpatterns  # due diligence packages, GeoJSON validation (dds_views.py)
urlpatterns += dds_urls.filing_urlpatterns  # filing with the EU information system (filing_views.py)

# Statements around the placing (placing_views.py).
urlpatterns += [
    path("placing-statements/", PlacingStatementViewSet.as_view({"post": "create"}), name="eudr-placing"),
    path(
        "placing-statements/preview/",
        PlacingStatementViewSet.as_view({"get": "preview"}),
        name="eudr-placing-preview",
    ),
    path(
        "placing-statements/<int:pk>/",
        PlacingStatementViewSet.as_view({"get": "retrieve"}),
        name="eudr-placing-statement",
    ),
    *[
        path(
            f"placing-statements/<int:pk>/{action}/",
            PlacingStatementViewSet.as_view({"post": action}),
            name=f"eudr-placing-statement-{action}",
        )
        for action in ("amend", "withdraw", "refresh")
    ],
]
