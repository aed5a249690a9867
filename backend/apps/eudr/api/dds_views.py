"""Due diligence packages and GeoJSON validation (docs/eudr.md). Routes in dds_urls.py:

POST raw-materials/{id}/dds-package/                       start a package job (202; a finished job when
                                                           Celery is eager) or 400 dds_information_missing
GET  raw-materials/{id}/dds-package/checks/                the checks, without building
GET  raw-materials/{id}/dds-package/{job_id}/              the job's status and progress
GET  raw-materials/{id}/dds-package/{job_id}/download/     the ZIP (no envelope)
POST geojson/validate/                                     validate plots (JSON body or multipart `file`)

Internal users and supplier users (their own parent vendor's deliveries) with `eudr.view_rawmaterialdelivery`.
"""

from __future__ import annotations

import logging

from celery.result import AsyncResult
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.storage import default_storage
from django.db import transaction
from django.http import FileResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response

from apps.common.api.viewsets import TenantScopedMixin
from apps.eudr.dds import jobs
from apps.eudr.dds.package import check_delivery, download_name
from apps.eudr.errors import DdsInformationMissing, DdsJobNotFound, DdsPackageNotReady
from apps.eudr.geo import MAX_GEOJSON_BYTES, base64_size, too_large, validate_geojson
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tasks import build_dds_package

logger = logging.getLogger(__name__)

VIEW_PERMISSION = "eudr.view_rawmaterialdelivery"


# -- schema serializers (the responses are built from plain dicts; these document them exactly) -----------


class DdsCheckSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable key, e.g. species_missing, geolocation_self_intersection")
    message = serializers.CharField(help_text="In the request's language (Accept-Language)")
    severity = serializers.ChoiceField(choices=["error", "warning"])
    feature = serializers.IntegerField(allow_null=True, help_text="Plot index in the location GeoJSON")


class ChecksSerializer(serializers.Serializer):
    ready = serializers.BooleanField(help_text="True when no check is an error: the package can be built")
    errors = DdsCheckSerializer(many=True)
    warnings = DdsCheckSerializer(many=True)


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    step = serializers.CharField(help_text="queued, started, checks, statement, documents, summary, stored")


class DdsJobSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The job id (32 hex characters)")
    delivery = serializers.IntegerField()
    status = serializers.ChoiceField(choices=[jobs.QUEUED, jobs.RUNNING, jobs.DONE, jobs.FAILED])
    progress = ProgressSerializer()
    warnings = DdsCheckSerializer(many=True)
    errors = DdsCheckSerializer(many=True)
    message = serializers.CharField(help_text="Why a job failed (empty otherwise)")
    file_name = serializers.CharField(help_text="The ZIP's download name when done")
    size = serializers.IntegerField(allow_null=True, help_text="The ZIP's size in bytes when done")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    download_url = serializers.CharField(allow_null=True, help_text="Relative URL of the ZIP when done")


class GeoProblemSerializer(serializers.Serializer):
    feature = serializers.IntegerField(allow_null=True, help_text="Feature index; null for the whole file")
    code = serializers.CharField()
    message = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    position = serializers.ListField(
        child=serializers.FloatField(), allow_null=True, help_text="[longitude, latitude] of the problem"
    )


class GeoValidationSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    error_count = serializers.IntegerField()
    warning_count = serializers.IntegerField()
    problems = GeoProblemSerializer(many=True)
    feature_collection = serializers.JSONField(
        help_text="The normalised FeatureCollection (same feature order)"
    )
    areas_ha = serializers.ListField(child=serializers.FloatField(allow_null=True))
    total_area_ha = serializers.FloatField()


ERROR_ENVELOPE = inline_serializer(
    "EudrErrorEnvelope",
    fields={
        "code": serializers.IntegerField(),
        "message": serializers.CharField(),
        "error": serializers.CharField(),
        "data": serializers.JSONField(allow_null=True),
    },
)
JOB_ID_PARAMETER = OpenApiParameter("job_id", OpenApiTypes.STR, OpenApiParameter.PATH)
ID_PARAMETER = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Delivery id")


def _job_payload(job: dict, *, delivery_id: int, tenant_id: int) -> dict:
    done = job.get("status") == jobs.DONE
    return {
        "id": job["id"],
        "delivery": delivery_id,
        "status": job.get("status", jobs.QUEUED),
        "progress": job.get("progress") or {"done": 0, "total": 0, "step": "queued"},
        "warnings": job.get("warnings") or [],
        "errors": job.get("errors") or [],
        "message": job.get("message") or "",
        "file_name": job.get("file_name") or "",
        "size": job.get("size"),
        "created_at": job.get("created_at"),
        "finished_at": job.get("finished_at"),
        "download_url": (
            f"/api/eudr/raw-materials/{delivery_id}/dds-package/{job['id']}/download/?tenant_id={tenant_id}"
            if done
            else None
        ),
    }


class DdsPackageViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    queryset = RawMaterialDelivery.objects.all()
    allowed_user_types = ("internal", "supplier")
    supplier_scope = "parent_vendor"
    supplier_read_only = False
    action_permissions = {
        "start": VIEW_PERMISSION,
        "checks": VIEW_PERMISSION,
        "job": VIEW_PERMISSION,
        "download": VIEW_PERMISSION,
    }
    serializer_class = DdsJobSerializer

    def get_queryset(self):
        return super().get_queryset().select_related("parent_vendor")

    @extend_schema(
        operation_id="eudr_dds_package_checks",
        summary="Checks before packaging (errors refuse the package; warnings are carried along)",
        parameters=[ID_PARAMETER],
        responses={200: ChecksSerializer},
        tags=["eudr"],
    )
    def checks(self, request, pk=None):
        delivery = self.get_object()
        _facts, found = check_delivery(delivery)
        errors = [c.as_dict() for c in found if c.severity == "error"]
        return Response(
            {
                "ready": not errors,
                "errors": errors,
                "warnings": [c.as_dict() for c in found if c.severity != "error"],
            }
        )

    @extend_schema(
        operation_id="eudr_dds_package_start",
        summary="Start building the due diligence package (ZIP)",
        description=(
            "Runs the checks first: missing required information answers 400 `dds_information_missing` with "
            "`data = {errors: [...], warnings: [...]}`. Otherwise a job starts and its status is returned "
            "(202). In the embedded default Celery runs inline, so the job is already `done`; with a worker, "
            "poll `GET .../dds-package/{job_id}/` until `status` is `done` or `failed`."
        ),
        parameters=[ID_PARAMETER],
        request=None,
        responses={
            202: DdsJobSerializer,
            400: OpenApiResponse(
                response=ERROR_ENVELOPE, description="dds_information_missing: data = {errors, warnings}"
            ),
        },
        tags=["eudr"],
    )
    def start(self, request, pk=None):
        delivery = self.get_object()
        _facts, found = check_delivery(delivery)
        errors = [c.as_dict() for c in found if c.severity == "error"]
        warnings = [c.as_dict() for c in found if c.severity != "error"]
        if errors:
            raise DdsInformationMissing(data={"errors": errors, "warnings": warnings})
        tenant_id = request.tenant.pk
        job = jobs.job_create(tenant_id=tenant_id, delivery_id=delivery.pk, warnings=warnings)
        kwargs = {
            "tenant_id": tenant_id,
            "delivery_id": delivery.pk,
            "job_id": job["id"],
            "language": translation.get_language() or settings.LANGUAGE_CODE,
        }
        options = {"kwargs": kwargs, "task_id": job["id"]}
        queue = getattr(settings, "EUDR_DDS_QUEUE", None)
        if queue:
            options["queue"] = queue
        if build_dds_package.app.conf.task_always_eager:
            try:
                build_dds_package.apply_async(**options)
            except Exception:
                # The job record says "failed" with a message; the request itself succeeded.
                logger.exception("Due diligence package job %s failed", job["id"])
        else:
            # The worker must see this request's committed rows.
            transaction.on_commit(lambda: build_dds_package.apply_async(**options))
        job = jobs.job_get(tenant_id=tenant_id, delivery_id=delivery.pk, job_id=job["id"]) or job
        return Response(
            _job_payload(job, delivery_id=delivery.pk, tenant_id=tenant_id), status=status.HTTP_202_ACCEPTED
        )

    def _job_or_404(self, delivery, job_id: str) -> dict:
        if not jobs.is_job_id(job_id):
            raise DdsJobNotFound()
        job = jobs.job_get(tenant_id=self.request.tenant.pk, delivery_id=delivery.pk, job_id=job_id)
        if job is None:
            raise DdsJobNotFound()
        if (
            job.get("status") in (jobs.QUEUED, jobs.RUNNING)
            and not build_dds_package.app.conf.task_always_eager
        ):
            result = AsyncResult(job_id, app=build_dds_package.app)
            if result.state == "FAILURE":
                job = jobs.job_update(
                    tenant_id=self.request.tenant.pk,
                    delivery_id=delivery.pk,
                    job_id=job_id,
                    status=jobs.FAILED,
                    message=str(_("The package could not be built. Please try again.")),
                )
        return job

    @extend_schema(
        operation_id="eudr_dds_package_job",
        summary="Status and progress of a package job",
        parameters=[ID_PARAMETER, JOB_ID_PARAMETER],
        responses={200: DdsJobSerializer},
        tags=["eudr"],
    )
    def job(self, request, pk=None, job_id=None):
        delivery = self.get_object()
        job = self._job_or_404(delivery, job_id)
        return Response(_job_payload(job, delivery_id=delivery.pk, tenant_id=request.tenant.pk))

    @extend_schema(
        operation_id="eudr_dds_package_download",
        summary="Download the package ZIP (dds.json, geolocation.geojson, files/, summary.pdf)",
        parameters=[ID_PARAMETER, JOB_ID_PARAMETER],
        responses={
            (200, "application/zip"): OpenApiTypes.BINARY,
            409: OpenApiResponse(response=ERROR_ENVELOPE, description="dds_package_not_ready"),
        },
        tags=["eudr"],
    )
    def download(self, request, pk=None, job_id=None):
        delivery = self.get_object()
        if not jobs.is_job_id(job_id):
            raise DdsJobNotFound()
        tenant_id = request.tenant.pk
        job = jobs.job_get(tenant_id=tenant_id, delivery_id=delivery.pk, job_id=job_id)
        if job is not None and job.get("status") != jobs.DONE:
            raise DdsPackageNotReady()
        path = (job or {}).get("path") or jobs.package_path(
            tenant_id=tenant_id, delivery_id=delivery.pk, job_id=job_id
        )
        if not default_storage.exists(path):
            raise DdsJobNotFound()
        return FileResponse(
            default_storage.open(path, "rb"),
            as_attachment=True,
            filename=(job or {}).get("file_name") or download_name(delivery),
            content_type="application/zip",
        )


class GeoJsonValidateViewSet(TenantScopedMixin, viewsets.ViewSet):
    allowed_user_types = ("internal", "supplier")
    supplier_read_only = False
    action_permissions = {"validate": VIEW_PERMISSION}

    @extend_schema(
        operation_id="eudr_geojson_validate",
        summary="Validate plot geolocation against the EU information system's rules",
        description=(
            "Body: the GeoJSON itself (FeatureCollection, Feature or geometry) as application/json, or a "
            "multipart form with `file`. Always 200 when the input could be read: `valid` says whether it "
            f"passes; `problems` lists each finding per feature. At most {MAX_GEOJSON_BYTES // 1024 // 1024} MB."
        ),
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            },
        },
        responses={200: GeoValidationSerializer},
        tags=["eudr"],
    )
    def validate(self, request):
        if (request.content_type or "").startswith("multipart/"):
            upload = request.FILES.get("file")
            if upload is None:
                raise serializers.ValidationError({"file": [_("Choose a GeoJSON file.")]})
            if upload.size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                # Not read at all; below that, the size is measured as everywhere (geo.geojson_size).
                return Response(too_large(base64_size(upload.size)).as_dict())
            raw = upload.read()
        else:
            try:
                raw = request.body
            except RequestDataTooBig:
                return Response(
                    too_large(base64_size(int(request.META.get("CONTENT_LENGTH") or 0))).as_dict()
                )
        return Response(validate_geojson(raw).as_dict())
