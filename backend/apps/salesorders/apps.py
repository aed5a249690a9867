from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SalesordersConfig(AppConfig):
    name = "apps.salesorders"
    label = "salesorders"
    verbose_name = _("Sales orders")

    def ready(self) -> None:
        from apps.inventory.selectors import register_order_search
        from apps.salesorders import events, selectors

        events.register()
        register_order_search(10, selectors.order_search)
