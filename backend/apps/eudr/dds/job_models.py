"""The due diligence package jobs (apps/eudr/dds/jobs.py): one row per build, so a job's state
(queued, running, done, failed), its checks, its message and the stored ZIP's name outlive a Redis that
restarts empty. Only the progress of a running build is in the cache (the build writes in one
transaction that no reader can see into); a job read without it shows the progress last stored."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


class DdsPackageJob(TenantModel):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    # The job id the API and the Celery task use (32 hex characters); also the ZIP's name in the storage.
    key = models.CharField(max_length=32)
    delivery = models.ForeignKey("eudr.RawMaterialDelivery", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    errors = models.JSONField(default=list, blank=True)
    message = models.CharField(max_length=1000, blank=True)
    path = models.CharField(max_length=500, blank=True)
    file_name = models.CharField(max_length=300, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = None  # reached through its delivery, which the view scopes

    class Meta:
        verbose_name = _("due diligence package job")
        verbose_name_plural = _("due diligence package jobs")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "key"], name="eudr_ddspackagejob_tenant_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.status}"
