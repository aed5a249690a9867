from django.apps import AppConfig


class SuppliersConfig(AppConfig):
    name = "apps.suppliers"
    label = "suppliers"
    verbose_name = "Suppliers"
