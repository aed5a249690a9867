from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SuppliersConfig(AppConfig):
    name = "apps.suppliers"
    label = "suppliers"
    verbose_name = _("Suppliers")
