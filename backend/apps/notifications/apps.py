from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = _("E-mail notifications")

    def ready(self) -> None:
        from . import emit  # noqa: F401  (connects the request signals of detached events)
