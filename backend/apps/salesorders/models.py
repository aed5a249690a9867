from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


class SalesOrder(TenantModel):
    """A customer's order. The sales area fills this in; it exists so that comments can refer to it."""

    order_number = models.CharField(_("order number"), max_length=50)
    customer = models.ForeignKey("customers.Customer", on_delete=models.PROTECT, related_name="sales_orders")
    order_date = models.DateField(_("order date"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("sales order")
        verbose_name_plural = _("sales orders")
        ordering = ["-order_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "order_number"], name="salesorder_tenant_number_unique")
        ]

    def __str__(self) -> str:
        return self.order_number
