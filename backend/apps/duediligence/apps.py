from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DueDiligenceConfig(AppConfig):
    name = "apps.duediligence"
    label = "duediligence"
    verbose_name = _("EUDR due diligence")

    def ready(self) -> None:
        from apps.duediligence import audit, retention, services, tasks
        from apps.eudr import gates

        gates.register_filing_gate(services.filing_gate_check)
        gates.register_retention_check(retention.refuse_if_kept)
        audit.connect()
        retention.connect()
        tasks.connect()
