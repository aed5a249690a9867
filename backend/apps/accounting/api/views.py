"""The accounting API (/api/accounting/): the connection, its test, the mappings, the sync log (with retry
and skip), the dry run and "sync now". The connection and every action need `accounting.manage`; reading
the mappings and the sync log needs their view permission (or manage)."""

from __future__ import annotations

from django.db import transaction
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounting import oauth, outbox, services
from apps.accounting.errors import ConnectionDisabled, ConnectionMissing
from apps.accounting.models import AccountingConnection, Mapping, SyncEntry
from apps.common.api.permissions import TenantMember, TenantModelPermissions, UserTypeAllowed
from apps.common.api.viewsets import TenantScopedMixin
from apps.tenancy.permissions import tenant_permissions

from . import filters
from .serializers import (
    AuthorizationCallbackSerializer,
    AuthorizationStartSerializer,
    ConnectionSerializer,
    DryRunSerializer,
    MappingSerializer,
    PaymentStatusRunSerializer,
    RedirectUriSerializer,
    SyncEntrySerializer,
    SyncStartedSerializer,
    TestResultSerializer,
)

MANAGE = "accounting.manage"


class AccountingPermission(TenantModelPermissions):
    """`accounting.manage` for writes and actions; reads accept the model's view permission too."""

    def has_permission(self, request, view) -> bool:
        held = tenant_permissions(request.user, getattr(request, "tenant", None))
        if MANAGE in held:
            return True
        read = getattr(view, "read_permission", None)
        return bool(read) and request.method in ("GET", "HEAD", "OPTIONS") and read in held


PERMISSIONS = [IsAuthenticated, TenantMember, UserTypeAllowed, AccountingPermission]


def _connection() -> AccountingConnection:
    connection = services.connection_get()
    if connection is None:
        raise ConnectionMissing()
    return connection


class ConnectionView(APIView):
    """The company's accounting connection (one per company). Secrets are write-only."""

    permission_classes = PERMISSIONS

    @extend_schema(responses=ConnectionSerializer)
    def get(self, request):
        return Response(ConnectionSerializer(_connection()).data)

    @extend_schema(request=ConnectionSerializer, responses=ConnectionSerializer)
    def put(self, request):
        instance = services.connection_get()
        serializer = ConnectionSerializer(instance, data=request.data, partial=instance is not None)
        serializer.is_valid(raise_exception=True)
        connection = services.connection_save(data=serializer.validated_data)
        return Response(ConnectionSerializer(connection).data)


class ConnectionTestView(APIView):
    """Tests the saved connection: gets a token and reads something harmless; says in words what is wrong."""

    permission_classes = PERMISSIONS

    @extend_schema(request=None, responses=TestResultSerializer)
    def post(self, request):
        return Response(services.connection_test(connection=_connection()))


class RedirectUriView(APIView):
    """The redirect URI to register with Visma eAccounting for the consent flow."""

    permission_classes = PERMISSIONS

    @extend_schema(responses=RedirectUriSerializer)
    def get(self, request):
        return Response({"redirect_uri": oauth.redirect_uri_for(request)})


class AuthorizationStartView(APIView):
    """Starts the eAccounting consent flow: a single-use state for this company and user, valid for
    10 minutes, and the URL of Visma's authorization page to send the browser to."""

    permission_classes = PERMISSIONS

    @extend_schema(request=None, responses=AuthorizationStartSerializer)
    def post(self, request):
        result = oauth.authorization_start(
            connection=_connection(), user=request.user, redirect_uri=oauth.redirect_uri_for(request)
        )
        return Response(AuthorizationStartSerializer(result).data)


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class AuthorizationCallbackView(APIView):
    """Finishes the consent flow with what Visma sent to the redirect URI: checks and spends the state,
    exchanges the code for tokens (stored encrypted) and tests the connection."""

    permission_classes = PERMISSIONS

    def initial(self, request, *args, **kwargs):
        # Outside the request transaction, the tenant setting the permission check's query of the user's
        # roles needs under row-level security (transaction-local) would be gone before that query ran:
        # the checks get a transaction of their own.
        with transaction.atomic():
            super().initial(request, *args, **kwargs)

    @extend_schema(request=AuthorizationCallbackSerializer, responses=TestResultSerializer)
    def post(self, request):
        serializer = AuthorizationCallbackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(
            oauth.authorization_finish(
                tenant_id=request.tenant.pk, user=request.user, **serializer.validated_data
            )
        )


class DryRunView(APIView):
    """What a sync would create or update now; calls nothing in the accounting system."""

    permission_classes = PERMISSIONS

    @extend_schema(responses=DryRunSerializer)
    def get(self, request):
        return Response(outbox.sync_plan(_connection()))


class SyncView(APIView):
    """Queues what the dry run lists and starts the worker."""

    permission_classes = PERMISSIONS

    @extend_schema(request=None, responses=SyncStartedSerializer)
    def post(self, request):
        connection = _connection()
        if not connection.enabled:
            raise ConnectionDisabled()
        return Response(outbox.sync_start(connection))


class PaymentStatusView(APIView):
    """Reads the payment status of the sent invoices now (otherwise hourly)."""

    permission_classes = PERMISSIONS

    @extend_schema(request=None, responses=PaymentStatusRunSerializer)
    def post(self, request):
        connection = _connection()
        if not connection.enabled:
            raise ConnectionDisabled()
        return Response(outbox.read_payment_status(request.tenant.pk))


class MappingViewSet(
    TenantScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Local records and their ids in the accounting system. The external id can be corrected; deleting a
    mapping makes the next push look the record up (or create it) again. VAT codes and payment terms are
    mapped by hand (POST)."""

    permission_classes = PERMISSIONS
    read_permission = "accounting.view_mapping"
    queryset = Mapping.objects.all()
    serializer_class = MappingSerializer
    filterset_class = filters.MappingFilter
    search_fields = ["local_label", "local_key", "external_id"]
    ordering_fields = ["kind", "local_label", "external_id", "pushed_at", "updated_at"]
    ordering = ["kind", "local_label", "id"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]


class SyncEntryViewSet(
    TenantScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """The sync log: every push and read, with its outcome and the accounting system's message."""

    permission_classes = PERMISSIONS
    read_permission = "accounting.view_syncentry"
    queryset = SyncEntry.objects.all()
    serializer_class = SyncEntrySerializer
    filterset_class = filters.SyncEntryFilter
    search_fields = ["record_label", "external_id", "error", "idempotency_key"]
    ordering_fields = [
        "created_at",
        "updated_at",
        "sent_at",
        "status",
        "kind",
        "action",
        "attempts",
        "next_attempt_at",
    ]
    ordering = ["-created_at", "-id"]

    @extend_schema(request=None, responses=SyncEntrySerializer)
    @action(detail=True, methods=["post"])
    def retry(self, request, pk=None):
        entry = outbox.entry_retry(entry=self.get_object())
        return Response(SyncEntrySerializer(entry).data, status=status.HTTP_200_OK)

    @extend_schema(request=None, responses=SyncEntrySerializer)
    @action(detail=True, methods=["post"])
    def skip(self, request, pk=None):
        entry = outbox.entry_skip(entry=self.get_object())
        return Response(SyncEntrySerializer(entry).data)
