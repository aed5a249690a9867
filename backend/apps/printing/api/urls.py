from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("devices", views.PrinterDeviceViewSet, basename="printerdevice")
router.register("agents", views.PrintAgentViewSet, basename="printagent")
router.register("jobs", views.PrintJobViewSet, basename="printjob")

urlpatterns = [
    path("templates/", views.TemplateListView.as_view(), name="printing-templates"),
    path("templates/preview/", views.TemplatePreviewView.as_view(), name="printing-template-preview"),
    *router.urls,
]
