from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("mappings", views.MappingViewSet, basename="accounting-mapping")
router.register("sync-log", views.SyncEntryViewSet, basename="accounting-syncentry")

urlpatterns = [
    path("connection/", views.ConnectionView.as_view(), name="accounting-connection"),
    path("connection/test/", views.ConnectionTestView.as_view(), name="accounting-connection-test"),
    path("oauth/redirect-uri/", views.RedirectUriView.as_view(), name="accounting-oauth-redirect-uri"),
    path("oauth/start/", views.AuthorizationStartView.as_view(), name="accounting-oauth-start"),
    path("oauth/callback/", views.AuthorizationCallbackView.as_view(), name="accounting-oauth-callback"),
    path("dry-run/", views.DryRunView.as_view(), name="accounting-dry-run"),
    path("sync/", views.SyncView.as_view(), name="accounting-sync"),
    path("payment-status/", views.PaymentStatusView.as_view(), name="accounting-payment-status"),
    *router.urls,
]
