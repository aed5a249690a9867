from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.common import spa
from apps.operations.metrics import metrics_view

api_patterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (Content-Security-Policy).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("tenants/", include("apps.users.api.company_urls")),
    path("users/", include("apps.users.api.urls")),
    path("common/", include("apps.common.api.urls")),
    path("products/", include("apps.products.api.urls")),
    path("customers/", include("apps.customers.api.urls")),
    path("suppliers/", include("apps.suppliers.api.urls")),
    path("purchaseorders/", include("apps.purchaseorders.api.urls")),
    path("salesorders/", include("apps.salesorders.api.urls")),
    path("logistics/", include("apps.logistics.api.urls")),
    path("inventory/", include("apps.inventory.api.urls")),
    path("eudr/", include("apps.eudr.api.urls")),
    path("duediligence/", include("apps.duediligence.api.urls")),
    path("core/", include("apps.notifications.api.urls")),
    path("reports/", include("apps.reports.api.urls")),
    path("eudrtrack/", include("apps.eudr.api.public_urls")),
    path("printing/", include("apps.printing.api.urls")),
    path("printer/", include("apps.printing.api.agent_urls")),
    path("accounting/", include("apps.accounting.api.urls")),
    path("health/", include("apps.operations.api.urls")),
    path("metrics/", metrics_view, name="metrics"),
]

urlpatterns = [
    path("api/", include(api_patterns)),
    re_path(r"^eudrtrace/.*$", spa.trace_index, name="trace-page"),
    re_path(r"^(?!api/|static/|media/|assets/).*$", spa.app_index, name="app"),
]
