from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("saved", views.SavedReportViewSet, basename="savedreport")
router.register("", views.ReportLabViewSet, basename="reportlab")

urlpatterns = [*router.urls]
