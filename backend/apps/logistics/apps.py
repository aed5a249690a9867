from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LogisticsConfig(AppConfig):
    name = "apps.logistics"
    label = "logistics"
    verbose_name = _("Logistics")

    def ready(self) -> None:
        from apps.common.dashboard import register_count
        from apps.logistics import events

        events.register()
        register_count("shipments_in_transit", "logistics.shipmentinfo", {"status": "in_transit"})
