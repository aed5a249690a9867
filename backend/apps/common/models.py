from __future__ import annotations

import uuid
from pathlib import PurePath

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.files import tenant_prefix
from apps.tenancy.models import TenantModel

IMAGE_EXTENSIONS = ("jpg", "jpeg", "png", "gif", "bmp", "webp", "svg")


def attachment_path(instance: CommentAttachment, filename: str) -> str:
    suffix = PurePath(filename).suffix.lower()[:10]
    return f"{tenant_prefix(instance)}/comments/{uuid.uuid4().hex}{suffix}"


class Comment(TenantModel):
    """A note on an order, shipment or supplier (any model in COMMENTABLE_MODELS)."""

    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    content = models.TextField(_("content"), max_length=10000)
    status = models.CharField(_("status"), max_length=20, default="normal")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("comment")
        verbose_name_plural = _("comments")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tenant", "content_type", "object_id"], name="comment_target_idx")]


class CommentAttachment(TenantModel):
    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path, max_length=300)
    file_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    mime_type = models.CharField(max_length=120, blank=True)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("comment attachment")
        verbose_name_plural = _("comment attachments")
        ordering = ["created_at", "id"]

    @property
    def is_image(self) -> bool:
        return PurePath(self.file_name).suffix.lower().lstrip(".") in IMAGE_EXTENSIONS


def import_file_path(instance: ImportJob, filename: str) -> str:
    suffix = PurePath(filename).suffix.lower()[:10]
    return f"{tenant_prefix(instance)}/imports/{uuid.uuid4().hex}{suffix}"


class ImportJob(TenantModel):
    """One CSV/XLSX import (or dry run) of master data, run in the background (apps/common/imports.py).

    The uploaded file is kept in the storage until the job has run. Progress while the job runs lives in
    the cache (apps/common/import_jobs.py) because the rows are written in one transaction that other
    connections cannot see into; the final counts and row errors are stored here.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE_STATUSES = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(_("kind"), max_length=80)
    # The Importer class (dotted path) that runs the job, so that a retry runs the same one.
    importer = models.CharField(max_length=200, blank=True, default="", db_default="")
    dry_run = models.BooleanField(_("dry run"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    file = models.FileField(upload_to=import_file_path, max_length=300, blank=True)
    file_name = models.CharField(_("file name"), max_length=255, blank=True)
    total_rows = models.PositiveIntegerField(default=0)
    processed_rows = models.PositiveIntegerField(default=0)
    rows_valid = models.PositiveIntegerField(default=0)
    rows_invalid = models.PositiveIntegerField(default=0)
    to_create = models.PositiveIntegerField(default=0)
    to_update = models.PositiveIntegerField(default=0)
    created_count = models.PositiveIntegerField(default=0)
    updated_count = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    errors_truncated = models.BooleanField(default=False)
    ignored_columns = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=60, blank=True)
    message = models.CharField(max_length=500, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A retry is a new job that takes over the failed job's file (apps/common/import_jobs.py).
    retry_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="retries"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tenant", "kind", "-created_at"], name="importjob_kind_idx")]
        constraints = [
            # One import (not dry run) of a kind at a time per tenant, held by the database itself.
            models.UniqueConstraint(
                fields=["tenant", "kind"],
                condition=models.Q(status__in=["queued", "running"], dry_run=False),
                name="importjob_one_active_per_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"


def _tenant_without_constraint():
    """The tenant of rows the database writes from rows it already holds (the grams and their counts):
    no foreign-key constraint (a lookup per row written) and no index of its own (the primary key
    starts with it)."""
    return models.ForeignKey(
        "tenancy.Tenant",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
        editable=False,
    )


class SearchGram(TenantModel):
    """One trigram of a searchable row, for list search under row-level security (apps/common/search_index.py).

    Written only by PostgreSQL triggers on the searched tables (never through the ORM); read by the list
    search as `gram = ANY(...)`, an equality PostgreSQL may use under the tenant policy. The primary key
    (tenant, kind, gram, object_id) is the only index: the search reads it by gram, the triggers delete
    by the old row's grams. The tenant has no foreign-key constraint: it would cost a lookup per gram
    written, and the rows come from a trigger that copies the tenant of the searched row.
    """

    pk = models.CompositePrimaryKey("tenant", "kind", "gram", "object_id")
    tenant = _tenant_without_constraint()
    kind = models.SmallIntegerField()
    # in byte order (COLLATE "C", set on PostgreSQL by migration 0005): compared for equality only
    gram = models.TextField()
    object_id = models.BigIntegerField()

    class Meta:
        verbose_name = _("search gram")
        verbose_name_plural = _("search grams")
        base_manager_name = "unscoped"
        default_manager_name = "objects"


class SearchGramCount(TenantModel):
    """How many rows of a kind hold a gram, for the grams held by at least `COUNTED_GRAM_MIN` rows, and
    the kind's rows under the empty gram: the statistics that let a search skip probing the grams of a
    term too common for them (apps/common/search_index.py, `counts_refresh`).

    Written only by `counts_refresh` (hourly, `common.count_search_grams`, and after every rebuild of the
    grams), never per write: a count kept by the gram triggers would make every insert of a tenant wait on
    the rows of its common grams. Between refreshes the counts are stale, and that costs speed only: a
    search whose grams look common scans, one whose grams look rare probes, and both answer exactly.
    """

    pk = models.CompositePrimaryKey("tenant", "kind", "gram")
    tenant = _tenant_without_constraint()
    kind = models.SmallIntegerField()
    gram = models.TextField()  # "" for the count of the kind's rows
    postings = models.BigIntegerField()

    class Meta:
        verbose_name = _("search gram count")
        verbose_name_plural = _("search gram counts")
        base_manager_name = "unscoped"
        default_manager_name = "objects"


class IdempotentRequest(TenantModel):
    """The first answer to a write sent with an `Idempotency-Key` header (apps/common/idempotency.py):
    a repeat with the same key (same tenant and user) answers this instead of doing the write again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    # method, path and a hash of the body: the same key with another request is refused
    fingerprint = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    supplier_scope = None

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user", "key"], name="common_idempotent_request_key"),
        ]


def tenant_ordering_index(name: str, column: str) -> models.Index:
    """The index a list ordered by `column` reads for one tenant, ties in id order, readable both ways
    (docs/performance.md, "Indexes for the list orderings")."""
    return models.Index(fields=["tenant", column, "id"], name=name)
