from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PurchaseordersConfig(AppConfig):
    name = "apps.purchaseorders"
    label = "purchaseorders"
    verbose_name = _("Purchase orders")

    def ready(self) -> None:
        from apps.common.dashboard import register_count
        from apps.inventory import receiving
        from apps.inventory.selectors import register_order_search
        from apps.purchaseorders import events, selectors, services

        events.register()
        receiving.register_purchasing(
            receiving.Purchasing(
                receipt_create=services.receipt_for_cartons,
                order_line_locked=services.order_line_locked,
                receipt_with_room=selectors.receipt_with_room,
                orders_locked=services.orders_locked,
            )
        )
        register_order_search(20, selectors.order_search)
        register_count("purchase_orders_draft", "purchaseorders.purchaseorder", {"status": "draft"})
