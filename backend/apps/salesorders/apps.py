from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SalesordersConfig(AppConfig):
    name = "apps.salesorders"
    label = "salesorders"
    verbose_name = _("Sales orders")

    def ready(self) -> None:
        from apps.inventory.selectors import register_order_search
        from apps.purchaseorders import einvoice_in
        from apps.salesorders import einvoice_check, events, selectors

        events.register()
        register_order_search(10, selectors.order_search)
        # received e-invoices are checked by the schemas and rules our own e-invoices are checked by
        einvoice_in.register_checker(einvoice_check.received_findings, einvoice_check.rule_text)
