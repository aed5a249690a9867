from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    """What an operator runs the product with: health endpoints, request ids in logs and tasks, the
    production checks and the backup verification (docs/operations.md)."""

    name = "apps.operations"
    label = "operations"
    verbose_name = _("Operations")

    def ready(self) -> None:
        from . import checks, metrics, request_id  # noqa: F401  (registers the system checks)

        request_id.connect_task_signals()
        metrics.connect_task_signals()
