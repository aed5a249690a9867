from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DueDiligenceConfig(AppConfig):
    name = "apps.duediligence"
    label = "duediligence"
    verbose_name = _("EUDR due diligence")

    def ready(self) -> None:
        from apps.duediligence import audit, retention, tasks

        audit.connect()
        retention.connect()
        tasks.connect()
