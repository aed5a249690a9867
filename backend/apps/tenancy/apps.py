from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TenancyConfig(AppConfig):
    name = "apps.tenancy"
    label = "tenancy"
    verbose_name = _("Tenancy")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import rls

        post_migrate.connect(rls.apply_policies_after_migrate, dispatch_uid="tenancy_rls_policies")
