from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommonConfig(AppConfig):
    name = "apps.common"
    label = "common"
    verbose_name = _("Common")

    def ready(self) -> None:
        from apps.common.api import schema  # noqa: F401  (registers the OpenAPI field extensions)
