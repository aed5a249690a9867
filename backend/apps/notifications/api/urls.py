from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("email-templates", views.EmailTemplateViewSet, basename="emailtemplate")
router.register("email-scenarios", views.EmailScenarioViewSet, basename="emailscenario")
router.register("email-log", views.EmailMessageViewSet, basename="emailmessage")

urlpatterns = [
    path("email-events/", views.EmailEventsView.as_view(), name="email-events"),
    path(
        "email-events/<str:name>/records/", views.EmailEventRecordsView.as_view(), name="email-event-records"
    ),
    path("smtp-settings/", views.SmtpSettingsView.as_view(), name="smtp-settings"),
    path("smtp-settings/test/", views.SmtpTestView.as_view(), name="smtp-settings-test"),
    *router.urls,
]
