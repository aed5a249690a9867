from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InventoryConfig(AppConfig):
    name = "apps.inventory"
    label = "inventory"
    verbose_name = _("Inventory")

    def ready(self) -> None:
        from apps.inventory import trace

        trace.connect()
