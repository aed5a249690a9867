from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UsersConfig(AppConfig):
    name = "apps.users"
    label = "users"
    verbose_name = _("Users")

    def ready(self) -> None:
        from apps.tenancy.services import on_tenant_created

        from .roles import roles_ensure_defaults

        # A new company starts with the default roles (tenancy imports nothing of users).
        on_tenant_created(roles_ensure_defaults)
