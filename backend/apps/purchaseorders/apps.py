from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PurchaseordersConfig(AppConfig):
    name = "apps.purchaseorders"
    label = "purchaseorders"
    verbose_name = _("Purchase orders")

    def ready(self) -> None:
        from apps.common.dashboard import register_count
        from apps.purchaseorders import events

        events.register()
        register_count("purchase_orders_on_hold", "purchaseorders.purchaseorder", {"status": "on_hold"})
