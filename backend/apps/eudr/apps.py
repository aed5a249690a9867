from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EudrConfig(AppConfig):
    name = "apps.eudr"
    label = "eudr"
    verbose_name = _("EUDR traceability")

    def ready(self) -> None:
        from apps.common.dashboard import register_count
        from apps.eudr import events, trace_store

        trace_store.connect()
        events.register()

        register_count("raw_materials", "eudr.rawmaterialdelivery", {"status": "active"})
        register_count("cartons", "eudr.cartonlabel", {"status": "active"})
        register_count("supplier_policies", "eudr.supplierpolicy", {"is_active": True})
