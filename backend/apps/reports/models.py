"""Saved reports: a report's question (dataset, filters, groups, pivot, measures) kept under a name."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel


class SavedReport(TenantModel):
    """A report definition as `POST /api/reports/run/` takes it, with how it is shown.

    Private reports are visible to their owner only; shared ones to everyone in the tenant who may use
    the report lab. Only the owner changes or deletes a report (others duplicate it).
    """

    class Chart(models.TextChoices):
        TABLE = "table", _("Table")
        BAR = "bar", _("Bar chart")
        STACKED = "stacked", _("Stacked bar chart")
        LINE = "line", _("Line chart")
        PIE = "pie", _("Pie chart")

    name = models.CharField(_("name"), max_length=200)
    description = models.CharField(_("description"), max_length=500, blank=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    shared = models.BooleanField(_("shared with the company"), default=False)
    definition = models.JSONField(_("definition"))
    chart = models.CharField(_("chart"), max_length=10, choices=Chart.choices, default=Chart.TABLE)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("saved report")
        verbose_name_plural = _("saved reports")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "owner", "name"], name="savedreport_tenant_owner_name_unique"
            )
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings")
        indexes = [
            tenant_ordering_index("savedreport_tenant_name", "name"),
            tenant_ordering_index("savedreport_tenant_updated", "updated_at"),
            tenant_ordering_index("savedreport_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name
