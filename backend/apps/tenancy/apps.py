from django.apps import AppConfig


class TenancyConfig(AppConfig):
    name = "apps.tenancy"
    label = "tenancy"
    verbose_name = "Tenancy"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import rls

        post_migrate.connect(rls.apply_policies_after_migrate, dispatch_uid="tenancy_rls_policies")
