from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("comments", views.CommentViewSet, basename="comment")

urlpatterns = [
    path("content-types/", views.ContentTypeListView.as_view(), name="content-type-list"),
    path(
        "attachments/<int:pk>/download/", views.AttachmentDownloadView.as_view(), name="attachment-download"
    ),
    path("dashboard/", views.DashboardView.as_view(), name="dashboard"),
    path("imports/", views.ImportJobListView.as_view(), name="import-job-list"),
    path("imports/<int:pk>/", views.ImportJobView.as_view(), name="import-job"),
    path("imports/<int:pk>/retry/", views.ImportJobRetryView.as_view(), name="import-job-retry"),
    path("imports/<int:pk>/cancel/", views.ImportJobCancelView.as_view(), name="import-job-cancel"),
    *router.urls,
]
