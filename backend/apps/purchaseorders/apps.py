from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PurchaseordersConfig(AppConfig):
    name = "apps.purchaseorders"
    label = "purchaseorders"
    verbose_name = _("Purchase orders")

    def ready(self) -> None:
        from apps.common.dashboard import register_count
        from apps.inventory.receiving import register_receipt_service
        from apps.purchaseorders import events, services

        events.register()
        register_receipt_service(services.receipt_for_cartons)
        register_count("purchase_orders_draft", "purchaseorders.purchaseorder", {"status": "draft"})
