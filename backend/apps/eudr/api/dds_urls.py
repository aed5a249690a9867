"""Routes of the due diligence package and the GeoJSON validation (included by apps/eudr/api/urls.py)."""

from django.urls import path

from .dds_views import DdsPackageViewSet, GeoJsonValidateViewSet
from .filing_views import DdsFilingViewSet, TracesAccountViewSet

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


# Filing with the EU information system and the TRACES credentials (filing_views.py).
filing_urlpatterns = [
    path(
        "traces-account/",
        TracesAccountViewSet.as_view({"get": "retrieve", "put": "update"}),
        name="eudr-traces-account",
    ),
    path(
        "traces-account/test/",
        TracesAccountViewSet.as_view({"post": "test"}),
        name="eudr-traces-account-test",
    ),
    path(
        "raw-materials/<int:pk>/dds-filing/",
        DdsFilingViewSet.as_view({"get": "overview"}),
        name="eudr-dds-filing",
    ),
    *[
        path(
            f"raw-materials/<int:pk>/dds-filing/{action}/",
            DdsFilingViewSet.as_view({"post": action}),
            name=f"eudr-dds-filing-{action}",
        )
        for action in ("submit", "amend", "withdraw", "refresh")
    ],
]
