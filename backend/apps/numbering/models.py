"""The counters of the document series (apps/numbering/services.py gives the numbers)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


class Counter(TenantModel):
    """The last number given in one series (apps.numbering.services.SERIES) and year of a tenant. Taking a
    number locks this row (SELECT ... FOR UPDATE) until the taking transaction ends."""

    series = models.CharField(max_length=40)
    year = models.PositiveIntegerField()
    last_value = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("number sequence")
        verbose_name_plural = _("number sequences")
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "series", "year"], name="numbering_counter_tenant_series_year"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}-{self.year}: {self.last_value}"
