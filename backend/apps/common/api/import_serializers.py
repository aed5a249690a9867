"""The import job as the API shows it (apps/common/import_jobs.py). Its counts and `errors` have the same
names as the import report, so a client reads a finished job exactly like the report."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.model_serializer import ModelSerializer
from apps.common.models import ImportJob

IMPORT_PHASES = ["queued", "reading", "validating", "saving", "finished"]


class ImportRowErrorSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="The spreadsheet's row number (the header is row 1).")
    field = serializers.CharField()
    column = serializers.CharField()
    message = serializers.CharField()


class ImportJobSerializer(ModelSerializer):
    phase = serializers.SerializerMethodField(help_text="queued, reading, validating, saving or finished")
    total_rows = serializers.SerializerMethodField()
    processed_rows = serializers.SerializerMethodField(help_text="Rows done in the current phase.")
    progress = serializers.SerializerMethodField(help_text="0-100 over the whole job.")
    rows_total = serializers.IntegerField(source="total_rows", read_only=True)
    created = serializers.IntegerField(source="created_count", read_only=True)
    updated = serializers.IntegerField(source="updated_count", read_only=True)
    errors = serializers.SerializerMethodField()  # type: ignore[assignment]  # the row errors, not DRF's
    ignored_columns = serializers.SerializerMethodField()
    started_by = serializers.IntegerField(source="started_by_id", read_only=True, allow_null=True)
    started_by_name = serializers.SerializerMethodField()
    stuck = serializers.SerializerMethodField(
        help_text="Queued or running past IMPORT_JOB_STALE_SECONDS, or running while no worker holds it."
    )
    can_retry = serializers.SerializerMethodField(
        help_text="POST .../retry/ would start the same file again (a stuck job, or a failed one whose file is kept)."
    )
    can_cancel = serializers.SerializerMethodField(
        help_text="POST .../cancel/ would cancel it (queued, or stuck); a job a live worker runs cannot be."
    )
    retry_of = serializers.IntegerField(
        source="retry_of_id", read_only=True, allow_null=True, help_text="The failed job this one retries."
    )

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "kind",
            "dry_run",
            "status",
            "phase",
            "file_name",
            "total_rows",
            "processed_rows",
            "progress",
            "rows_total",
            "rows_valid",
            "rows_invalid",
            "to_create",
            "to_update",
            "created",
            "updated",
            "errors",
            "errors_truncated",
            "ignored_columns",
            "error",
            "message",
            "started_by",
            "started_by_name",
            "created_at",
            "started_at",
            "finished_at",
            "stuck",
            "can_retry",
            "can_cancel",
            "retry_of",
        ]
        read_only_fields = fields

    def _state(self, job: ImportJob) -> dict[str, Any]:
        from apps.common.import_jobs import RETRYABLE_ERRORS, job_state, job_stuck

        cached = getattr(job, "_state_cache", None)
        if cached is None:
            cached = job_state(job)
            stuck = job_stuck(job)
            cached["stuck"] = stuck
            cached["can_retry"] = stuck or (
                job.status == ImportJob.Status.FAILED and job.error in RETRYABLE_ERRORS and bool(job.file)
            )
            cached["can_cancel"] = job.status == ImportJob.Status.QUEUED or stuck
            job._state_cache = cached  # type: ignore[attr-defined]  # read once per serialized job
        return cached

    def get_stuck(self, job: ImportJob) -> bool:
        return self._state(job)["stuck"]

    def get_can_retry(self, job: ImportJob) -> bool:
        return self._state(job)["can_retry"]

    def get_can_cancel(self, job: ImportJob) -> bool:
        return self._state(job)["can_cancel"]

    @extend_schema_field(serializers.ChoiceField(choices=IMPORT_PHASES))
    def get_phase(self, job: ImportJob) -> str:
        return self._state(job)["phase"]

    def get_total_rows(self, job: ImportJob) -> int:
        return self._state(job)["total_rows"]

    def get_processed_rows(self, job: ImportJob) -> int:
        return self._state(job)["processed_rows"]

    def get_progress(self, job: ImportJob) -> int:
        return self._state(job)["progress"]

    @extend_schema_field(ImportRowErrorSerializer(many=True))
    def get_errors(self, job: ImportJob) -> list[dict[str, Any]]:
        return list(job.errors or [])

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_ignored_columns(self, job: ImportJob) -> list[str]:
        return list(job.ignored_columns or [])

    def get_started_by_name(self, job: ImportJob) -> str:
        user = job.started_by
        if user is None:
            return ""
        return user.get_full_name() or user.get_username()
