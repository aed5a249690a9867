from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common import services
from apps.common.api.export import ANY_FILE_RESPONSES
from apps.common.api.import_serializers import ImportJobSerializer
from apps.common.api.pagination import StandardPagination
from apps.common.api.permissions import TenantMember, UserTypeAllowed, request_tenant
from apps.common.api.serializers import (
    AttachmentSerializer,
    CommentSerializer,
    ContentTypeSerializer,
    resolve_content_type,
)
from apps.common.commentable import COMMENTABLE_MODELS, commentable_content_types, visible_records
from apps.common.errors import ImportNotFound, NotCommentAuthor
from apps.common.exceptions import NotFound
from apps.common.imports import ERROR_ENVELOPE
from apps.common.models import Comment, CommentAttachment, ImportJob

ALL_USER_TYPES = ("internal", "warehouse", "supplier")
TENANT_MEMBER_PERMISSIONS = [permissions.IsAuthenticated, TenantMember, UserTypeAllowed]


class ContentTypeListView(APIView):
    """Content types of the records the product knows (docs/specification.md section 7); not paginated."""

    permission_classes = TENANT_MEMBER_PERMISSIONS
    allowed_user_types = ALL_USER_TYPES

    @extend_schema(
        parameters=[OpenApiParameter("app_label", OpenApiTypes.STR, required=False)],
        responses=ContentTypeSerializer(many=True),
    )
    def get(self, request):
        app_labels = {label.split(".")[0] for label in COMMENTABLE_MODELS}
        from django.apps import apps

        app_labels |= {config.label for config in apps.get_app_configs() if config.name.startswith("apps.")}
        queryset = ContentType.objects.filter(app_label__in=app_labels).order_by("app_label", "model")
        if request.query_params.get("app_label"):
            queryset = queryset.filter(app_label=request.query_params["app_label"])
        return Response(ContentTypeSerializer(queryset, many=True).data)


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter(
                "content_type",
                OpenApiTypes.STR,
                required=False,
                description="Content type id or name (purchaseorder, salesorder, shipment, supplier).",
            ),
            OpenApiParameter("object_id", OpenApiTypes.INT, required=False),
        ]
    ),
)
class CommentViewSet(viewsets.ModelViewSet):
    """Comments on orders, shipments and suppliers. Visible exactly to those who may view the record;
    editable and deletable by their author."""

    serializer_class = CommentSerializer
    permission_classes = TENANT_MEMBER_PERMISSIONS
    allowed_user_types = ALL_USER_TYPES
    queryset = Comment.objects.none()
    filter_backends: list = []

    def get_queryset(self):
        user, tenant = self.request.user, request_tenant(self.request)
        visible = Q(pk__in=[])
        for content_type_id, model in commentable_content_types().items():
            visible |= Q(
                content_type_id=content_type_id,
                object_id__in=visible_records(model, user, tenant).values("pk"),
            )
        queryset = (
            Comment.objects.filter(visible)
            .select_related("author", "content_type")
            .prefetch_related("attachments")
        )
        params = self.request.query_params
        if self.action == "list" and params.get("content_type"):
            try:
                content_type = resolve_content_type(params["content_type"])
            except serializers.ValidationError:
                return queryset.none()
            queryset = queryset.filter(content_type=content_type)
        if self.action == "list" and params.get("object_id"):
            object_id = params["object_id"]
            queryset = queryset.filter(object_id=int(object_id)) if object_id.isdigit() else queryset.none()
        return queryset

    def perform_create(self, serializer):
        serializer.save(author=self.request.user)

    def _require_author(self, comment: Comment) -> None:
        if comment.author_id != self.request.user.pk:
            raise NotCommentAuthor()

    def perform_update(self, serializer):
        self._require_author(serializer.instance)
        serializer.save()

    def perform_destroy(self, instance):
        self._require_author(instance)
        services.comment_delete(comment=instance)

    @extend_schema(
        request={
            "multipart/form-data": inline_serializer("AttachmentUpload", {"file": serializers.FileField()})
        },
        responses=AttachmentSerializer,
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def add_attachment(self, request, pk=None):
        comment = self.get_object()
        self._require_author(comment)
        attachment = services.comment_add_attachment(
            comment=comment, upload=request.FILES.get("file"), user=request.user
        )
        return Response(AttachmentSerializer(attachment).data, status=201)

    @extend_schema(request=None, responses={200: None})
    @action(detail=True, methods=["delete"], url_path=r"remove_attachment/(?P<attachment_id>\d+)")
    def remove_attachment(self, request, pk=None, attachment_id=None):
        comment = self.get_object()
        self._require_author(comment)
        attachment = get_object_or_404(CommentAttachment.objects.filter(comment=comment), pk=attachment_id)
        services.comment_remove_attachment(attachment=attachment)
        return Response(None)


class AttachmentDownloadView(APIView):
    """The file of a comment attachment, for users who may see the commented record."""

    permission_classes = TENANT_MEMBER_PERMISSIONS
    allowed_user_types = ALL_USER_TYPES

    @extend_schema(responses=ANY_FILE_RESPONSES)
    def get(self, request, pk: int):
        attachment = get_object_or_404(CommentAttachment.objects.select_related("comment"), pk=pk)
        comment = attachment.comment
        model = commentable_content_types().get(comment.content_type_id)
        if (
            model is None
            or not visible_records(model, request.user, request.tenant).filter(pk=comment.object_id).exists()
        ):
            raise _not_found()
        inline = attachment.is_image and not attachment.file_name.lower().endswith(".svg")
        response = FileResponse(
            attachment.file.open("rb"),
            as_attachment=not inline,
            filename=attachment.file_name,
            content_type=attachment.mime_type or "application/octet-stream",
        )
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "sandbox"
        return response


def _not_found():
    return NotFound()


class DashboardView(APIView):
    """Counts of the areas the user may view, for the home page."""

    permission_classes = TENANT_MEMBER_PERMISSIONS
    allowed_user_types = ALL_USER_TYPES

    @extend_schema(
        responses=inline_serializer(
            "Dashboard", {"counts": serializers.DictField(child=serializers.IntegerField())}
        ),
    )
    def get(self, request):
        from apps.common.dashboard import dashboard_counts

        return Response({"counts": dashboard_counts(request.user, request.tenant)})


IMPORT_STATUSES = [choice for choice, _label in ImportJob.Status.choices]


class ImportJobListView(generics.ListAPIView):
    """The tenant's import jobs, newest first, paginated: `?kind=products.product` (the model's label),
    `?status=queued,running` (one or more, comma-separated), `?dry_run=false`. An import dialog opened
    while an import of its kind runs finds that job here and follows its progress.

    Internal users see the jobs of the kinds they may import (the add and change permissions of the
    model, as for starting one); other kinds are left out."""

    permission_classes = TENANT_MEMBER_PERMISSIONS
    serializer_class = ImportJobSerializer
    pagination_class = StandardPagination
    filter_backends: list = []

    @extend_schema(
        operation_id="common_imports_list",
        parameters=[
            OpenApiParameter(
                "kind", OpenApiTypes.STR, description="app_label.model_name, e.g. products.product"
            ),
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                description="One or more of queued, running, done, failed (comma-separated).",
            ),
            OpenApiParameter("dry_run", OpenApiTypes.BOOL),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        from apps.common.import_jobs import import_jobs_list, importable_kinds
        from apps.tenancy.permissions import tenant_permissions

        params = ImportJobListParamsSerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        filters = params.validated_data
        return import_jobs_list(
            kinds=importable_kinds(tenant_permissions(self.request.user, request_tenant(self.request))),
            kind=filters.get("kind", ""),
            statuses=filters.get("status"),
            dry_run=filters.get("dry_run"),
        )


class ImportJobListParamsSerializer(serializers.Serializer):
    kind = serializers.CharField(required=False, allow_blank=True, max_length=80)
    status = serializers.CharField(required=False, allow_blank=True, max_length=100)
    dry_run = serializers.BooleanField(required=False, allow_null=True, default=None)

    def validate_status(self, value: str) -> list[str]:
        statuses = [part.strip() for part in value.split(",") if part.strip()]
        unknown = [part for part in statuses if part not in IMPORT_STATUSES]
        if unknown:
            raise serializers.ValidationError(
                _("Choose one of: %(choices)s.") % {"choices": ", ".join(IMPORT_STATUSES)}
            )
        return statuses


class ImportJobView(APIView):
    """An import job's status, progress, counts and row errors (apps/common/import_jobs.py).

    Internal users of the tenant who may import that kind of record (its add and change permissions)
    see it; anyone else gets 404."""

    permission_classes = TENANT_MEMBER_PERMISSIONS

    @extend_schema(
        operation_id="common_imports_retrieve",
        responses={200: ImportJobSerializer},
    )
    def get(self, request, pk: int):
        return Response(ImportJobSerializer(importable_job(request, pk)).data)


def importable_job(request, pk: int) -> ImportJob:
    """The tenant's job `pk` when the user may import its kind (add and change permissions), else 404."""
    from apps.common.import_jobs import import_permissions, with_worker_alive
    from apps.tenancy.permissions import tenant_permissions

    job = with_worker_alive(ImportJob.objects.select_related("started_by")).filter(pk=pk).first()
    if job is None:
        raise ImportNotFound()
    held = tenant_permissions(request.user, request.tenant)
    if not all(perm in held for perm in import_permissions(job.kind)):
        raise ImportNotFound()
    return job


class ImportJobRetryView(APIView):
    """Starts a failed or stuck import's file again as a new job (apps/common/import_jobs.py, 7): 202 with
    the new job, which `retry_of` links to the old one. Whoever may start that import may retry it."""

    permission_classes = TENANT_MEMBER_PERMISSIONS

    @extend_schema(
        operation_id="common_imports_retry",
        request=None,
        responses={
            202: ImportJobSerializer,
            409: OpenApiResponse(
                response=ERROR_ENVELOPE,
                description="import_not_retryable: running under a live worker, finished, or its file is "
                "not kept; import_in_progress: another import of this kind runs (data.job).",
            ),
        },
    )
    def post(self, request, pk: int):
        from apps.common.import_jobs import job_retry

        job = job_retry(job_id=importable_job(request, pk).pk, user=request.user)
        return Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ImportJobCancelView(APIView):
    """Cancels a queued or stuck import (apps/common/import_jobs.py, 7); nothing of it is imported. An
    import a live worker is writing is refused (409 import_running): it finishes on its own."""

    permission_classes = TENANT_MEMBER_PERMISSIONS

    @extend_schema(
        operation_id="common_imports_cancel",
        request=None,
        responses={
            200: ImportJobSerializer,
            409: OpenApiResponse(
                response=ERROR_ENVELOPE,
                description="import_running: a live worker is writing it; import_not_cancellable: it has "
                "already finished.",
            ),
        },
    )
    def post(self, request, pk: int):
        from apps.common.import_jobs import job_cancel

        job = job_cancel(job_id=importable_job(request, pk).pk)
        return Response(ImportJobSerializer(job).data)
