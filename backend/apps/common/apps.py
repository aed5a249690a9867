from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommonConfig(AppConfig):
    name = "apps.common"
    label = "common"
    verbose_name = _("Common")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate

        from apps.common import db_times, search_index
        from apps.common.api import schema  # noqa: F401  (registers the OpenAPI field extensions)

        post_migrate.connect(search_index.sync_after_migrate, dispatch_uid="common_search_grams")
        connection_created.connect(db_times.register, dispatch_uid="common_db_times")
