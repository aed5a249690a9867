from django.apps import AppConfig


class SalesordersConfig(AppConfig):
    name = "apps.salesorders"
    label = "salesorders"
    verbose_name = "Sales orders"
