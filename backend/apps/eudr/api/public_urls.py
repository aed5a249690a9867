"""/api/eudrtrack/: the public carton trace, outside any tenant (the carton's code decides it)."""

from django.urls import path

from .public_views import PublicTraceView

urlpatterns = [
    path("<str:code>/", PublicTraceView.as_view(), name="eudr-public-trace"),
]
