"""Filing statements with the EU information system, and the tenant's TRACES credentials (docs/eudr.md).

GET  traces-account/                               the credentials (the key write-only: `has_auth_key`)
PUT  traces-account/                               save them (company settings permission)
POST traces-account/test/                          call the echo service with them
GET  raw-materials/{id}/dds-filing/                the live statement and the history of every filing
POST raw-materials/{id}/dds-filing/submit/         file the statement (Celery; 202)
POST raw-materials/{id}/dds-filing/amend/          amend it (within 72 hours)
POST raw-materials/{id}/dds-filing/withdraw/       withdraw it (within 72 hours)
POST raw-materials/{id}/dds-filing/refresh/        read its status and numbers (or retry an unanswered action)

Internal users only: the verification number is never shown to suppliers or publicly.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import translation
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response

from apps.common.api.model_serializer import ModelSerializer
from apps.common.api.viewsets import TenantScopedMixin
from apps.common.jobs import send_job_on_commit
from apps.eudr import filing
from apps.eudr.dds.package import check_delivery
from apps.eudr.errors import DdsInformationMissing
from apps.eudr.filing_models import DdsSubmission, DdsSubmissionEvent, TracesAccount, TracesEnvironment
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tasks import file_dds, file_dds_options
from apps.users.api.company_views import may_change_company_settings
from apps.users.errors import CompanySettingsForbidden

from .dds_views import ERROR_ENVELOPE, ID_PARAMETER

logger = logging.getLogger(__name__)

FILE_PERMISSION = "eudr.change_rawmaterialdelivery"
VIEW_PERMISSION = "eudr.view_rawmaterialdelivery"


class TracesAccountSerializer(ModelSerializer):
    auth_key = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=500,
        trim_whitespace=True,
        help_text="Write-only; empty or absent keeps the stored key",
    )
    has_auth_key = serializers.SerializerMethodField()
    username = serializers.CharField(max_length=200, allow_blank=True, required=False, trim_whitespace=True)
    client_id = serializers.CharField(max_length=100, allow_blank=True, required=False, trim_whitespace=True)
    environment = serializers.ChoiceField(choices=TracesEnvironment.choices, required=False)
    can_edit = serializers.SerializerMethodField()
    # Null until the account is first saved (the GET answers an unsaved default before that).
    updated_at = serializers.DateTimeField(read_only=True, allow_null=True)

    class Meta:
        model = TracesAccount
        fields = [
            "username",
            "auth_key",
            "has_auth_key",
            "client_id",
            "environment",
            "last_test_at",
            "last_test_ok",
            "last_test_message",
            "updated_at",
            "can_edit",
        ]
        read_only_fields = ["last_test_at", "last_test_ok", "last_test_message", "updated_at"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # Stored as the catalogue's English message and its values: said in the reader's language.
        if isinstance(instance, TracesAccount):
            data["last_test_message"] = filing.traces_test_message(instance)
        return data

    def get_has_auth_key(self, obj) -> bool:
        return bool(getattr(obj, "auth_key", ""))

    def get_can_edit(self, obj) -> bool:
        return bool(self.context.get("can_edit"))


class DdsEventSerializer(ModelSerializer):
    user = serializers.CharField(source="user.username", default="", read_only=True)

    class Meta:
        model = DdsSubmissionEvent
        fields = ["action", "outcome", "status", "message", "user", "created_at"]


class SystemMessageSerializer(serializers.Serializer):
    id = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField()


class DdsSubmissionSerializer(ModelSerializer):
    pending_action = serializers.CharField(
        read_only=True,
        help_text="The action queued or under way: submit, amend, withdraw, refresh; empty when none",
    )
    messages = SystemMessageSerializer(many=True, read_only=True)
    events = DdsEventSerializer(many=True, read_only=True)
    can_amend = serializers.SerializerMethodField()
    can_withdraw = serializers.SerializerMethodField()
    window_ends_at = serializers.SerializerMethodField()
    status_due_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When the system's status may be read (30 minutes after a submit or amend); null: now",
    )

    class Meta:
        model = DdsSubmission
        fields = [
            "id",
            "internal_reference",
            "environment",
            "status",
            "pending_action",
            "uuid",
            "reference_number",
            "verification_number",
            "system_status",
            "messages",
            "last_error",
            "submitted_at",
            "amended_at",
            "withdrawn_at",
            "checked_at",
            "status_due_at",
            "created_at",
            "window_ends_at",
            "can_amend",
            "can_withdraw",
            "events",
        ]
        read_only_fields = fields

    def _open(self, obj) -> bool:
        return (
            obj.status not in DdsSubmission.FINAL
            and bool(obj.uuid)
            and not obj.pending_action
            and filing._within_window(obj)
        )

    def get_can_amend(self, obj) -> bool:
        return self._open(obj)

    def get_can_withdraw(self, obj) -> bool:
        return self._open(obj)

    def get_window_ends_at(self, obj) -> str | None:
        return (obj.submitted_at + filing.AMEND_WINDOW).isoformat() if obj.submitted_at else None


class DdsFilingSerializer(serializers.Serializer):
    account_ready = serializers.BooleanField(help_text="The TRACES credentials are complete")
    environment = serializers.CharField(allow_blank=True)
    current = DdsSubmissionSerializer(
        allow_null=True, help_text="The live statement (not rejected or withdrawn)"
    )
    history = DdsSubmissionSerializer(many=True, help_text="Every filing of the delivery, newest first")


def enqueue_filing(request, submission: DdsSubmission) -> None:
    """Hands the submission's pending action to the `eudr.file_dds` task: inline in the embedded default
    (the answer already shows the outcome), else after this request's rows are committed (a broker that
    is down leaves the submission pending for `eudr.recover_filings`)."""
    options = file_dds_options(
        tenant_id=request.tenant.pk,
        submission_id=submission.pk,
        user_id=request.user.pk,
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    if file_dds.app.conf.task_always_eager:
        try:
            file_dds.apply_async(**options)
        except Exception:
            logger.exception("Filing task %s failed", options["kwargs"])
    else:
        send_job_on_commit(file_dds, **options)


class TracesAccountViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    allowed_user_types = ("internal",)
    serializer_class = TracesAccountSerializer
    queryset = TracesAccount.objects.all()
    # Read by those who work on EUDR deliveries; changed and tested only with the company settings
    # permission (checked in the actions: may_change_company_settings).
    action_permissions = {
        "retrieve": VIEW_PERMISSION,
        "update": VIEW_PERMISSION,
        "test": VIEW_PERMISSION,
    }

    def _context(self) -> dict:
        return {"request": self.request, "can_edit": may_change_company_settings(self.request)}

    def _payload(self, account) -> dict:
        return TracesAccountSerializer(account or TracesAccount(), context=self._context()).data

    @extend_schema(
        operation_id="eudr_traces_account_get",
        summary="The company's TRACES web-service credentials (the key is never returned)",
        responses={200: TracesAccountSerializer},
        tags=["eudr"],
    )
    def retrieve(self, request):
        return Response(self._payload(filing.traces_account_get()))

    @extend_schema(
        operation_id="eudr_traces_account_update",
        summary="Save the TRACES web-service credentials",
        request=TracesAccountSerializer,
        responses={200: TracesAccountSerializer},
        tags=["eudr"],
    )
    def update(self, request):
        if not may_change_company_settings(request):
            raise CompanySettingsForbidden()
        serializer = TracesAccountSerializer(data=request.data, partial=True, context=self._context())
        serializer.is_valid(raise_exception=True)
        account = filing.traces_account_save(data=serializer.validated_data, user=request.user)
        return Response(self._payload(account))

    @extend_schema(
        operation_id="eudr_traces_account_test",
        summary="Test the connection (the EU information system's echo service)",
        request=None,
        responses={200: TracesAccountSerializer, 400: OpenApiResponse(response=ERROR_ENVELOPE)},
        tags=["eudr"],
    )
    def test(self, request):
        if not may_change_company_settings(request):
            raise CompanySettingsForbidden()
        return Response(self._payload(filing.traces_account_test()))


class DdsFilingViewSet(TenantScopedMixin, viewsets.GenericViewSet):
    queryset = RawMaterialDelivery.objects.all()
    allowed_user_types = ("internal",)
    serializer_class = DdsFilingSerializer
    action_permissions = {
        "overview": VIEW_PERMISSION,
        "submit": FILE_PERMISSION,
        "amend": FILE_PERMISSION,
        "withdraw": FILE_PERMISSION,
        "refresh": FILE_PERMISSION,
    }

    def _overview(self, delivery) -> dict:
        account = filing.traces_account_get()
        submissions = list(
            DdsSubmission.objects.filter(delivery=delivery)
            .select_related("created_by")
            .prefetch_related(Prefetch("events", queryset=DdsSubmissionEvent.objects.select_related("user")))
        )
        current = next((s for s in submissions if s.status not in DdsSubmission.FINAL), None)
        return {
            "account_ready": bool(account and account.is_complete),
            "environment": account.environment if account else "",
            "current": DdsSubmissionSerializer(current).data if current else None,
            "history": DdsSubmissionSerializer(submissions, many=True).data,
        }

    def _enqueue(self, submission: DdsSubmission) -> None:
        enqueue_filing(self.request, submission)

    def _respond(self, delivery, code=status.HTTP_200_OK) -> Response:
        return Response(self._overview(delivery), status=code)

    @extend_schema(
        operation_id="eudr_dds_filing",
        summary="The delivery's statement as filed with the EU information system, and its history",
        parameters=[ID_PARAMETER],
        responses={200: DdsFilingSerializer},
        tags=["eudr"],
    )
    def overview(self, request, pk=None):
        return self._respond(self.get_object())

    def _queue(self, request, work) -> Response:
        delivery = self.get_object()
        with transaction.atomic():
            submission = work(delivery)
        self._enqueue(submission)
        return self._respond(delivery, status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="eudr_dds_filing_submit",
        summary="File the delivery's statement with the EU information system",
        description=(
            "Runs the package checks first (400 `dds_information_missing` with `data = {errors, warnings}`), "
            "then queues the submission (Celery; inline in the embedded default) and answers 202 with the "
            "overview. A retry of a submission that got no answer looks the statement up before filing again."
        ),
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: DdsFilingSerializer, 400: ERROR_ENVELOPE, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def submit(self, request, pk=None):
        delivery = self.get_object()
        _facts, found = check_delivery(delivery)
        errors = [c.as_dict() for c in found if c.severity == "error"]
        if errors:
            warnings = [c.as_dict() for c in found if c.severity != "error"]
            raise DdsInformationMissing(data={"errors": errors, "warnings": warnings})
        return self._queue(
            request,
            lambda d: filing.dds_submission_request(
                delivery_id=d.pk, user=request.user, queryset=self.get_queryset()
            ),
        )

    def _action(self, request, action: str) -> Response:
        return self._queue(
            request,
            lambda d: filing.dds_submission_action(delivery_id=d.pk, action=action, user=request.user),
        )

    @extend_schema(
        operation_id="eudr_dds_filing_amend",
        summary="Amend the filed statement with the delivery's current data (within 72 hours)",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: DdsFilingSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def amend(self, request, pk=None):
        delivery = self.get_object()
        _facts, found = check_delivery(delivery)
        errors = [c.as_dict() for c in found if c.severity == "error"]
        if errors:
            raise DdsInformationMissing(data={"errors": errors, "warnings": []})
        return self._action(request, DdsSubmission.Action.AMEND)

    @extend_schema(
        operation_id="eudr_dds_filing_withdraw",
        summary="Withdraw the filed statement (within 72 hours)",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: DdsFilingSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def withdraw(self, request, pk=None):
        return self._action(request, DdsSubmission.Action.WITHDRAW)

    @extend_schema(
        operation_id="eudr_dds_filing_refresh",
        summary="Read the statement's status and numbers from the system (or retry an unanswered action)",
        parameters=[ID_PARAMETER],
        request=None,
        responses={202: DdsFilingSerializer, 409: ERROR_ENVELOPE},
        tags=["eudr"],
    )
    def refresh(self, request, pk=None):
        return self._action(request, DdsSubmission.Action.REFRESH)
