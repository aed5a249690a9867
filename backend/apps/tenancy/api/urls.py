from django.urls import path

from .views import CompanySettingsView, TenantListView

urlpatterns = [
    path("", TenantListView.as_view(), name="tenant-list"),
    path("current/", CompanySettingsView.as_view(), name="tenant-company-settings"),
]
