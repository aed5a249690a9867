from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountingConfig(AppConfig):
    name = "apps.accounting"
    label = "accounting"
    verbose_name = _("Accounting")

    def ready(self) -> None:
        from apps.accounting import outbox
        from apps.accounting.api import invoice_state

        outbox.connect()
        invoice_state.register()  # the invoice answer's accounting state, and its OpenAPI schema
