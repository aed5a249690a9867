"""Routes of the due diligence package and the GeoJSON validation (included by apps/eudr/api/urls.py)."""

from django.urls import path

from .dds_views import DdsPackageViewSet, GeoJsonValidateViewSet

urlpatterns = [
    path(
        "raw-materials/<int:pk>/dds-package/",
        DdsPackageViewSet.as_view({"post": "start"}),
        name="eudr-dds-package-start",
    ),
    path(
        "raw-materials/<int:pk>/dds-package/checks/",
        DdsPackageViewSet.as_view({"get": "checks"}),
        name="eudr-dds-package-checks",
    ),
    path(
        "raw-materials/<int:pk>/dds-package/<str:job_id>/",
        DdsPackageViewSet.as_view({"get": "job"}),
        name="eudr-dds-package-job",
    ),
    path(
        "raw-materials/<int:pk>/dds-package/<str:job_id>/download/",
        DdsPackageViewSet.as_view({"get": "download"}),
        name="eudr-dds-package-download",
    ),
    path(
        "geojson/validate/",
        GeoJsonValidateViewSet.as_view({"post": "validate"}),
        name="eudr-geojson-validate",
    ),
]
