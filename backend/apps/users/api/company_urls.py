from django.urls import path

from .company_views import CompanySettingsView, TenantListView

urlpatterns = [
    path("", TenantListView.as_view(), name="tenant-list"),
    path("current/", CompanySettingsView.as_view(), name="tenant-company-settings"),
]
