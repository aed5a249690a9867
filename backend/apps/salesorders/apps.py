from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SalesordersConfig(AppConfig):
    name = "apps.salesorders"
    label = "salesorders"
    verbose_name = _("Sales orders")

    def ready(self) -> None:
        from apps.salesorders import events

        events.register()
