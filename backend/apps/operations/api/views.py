"""Health endpoints for load balancers and monitors (docs/operations.md, "Health"): no sign-in, no
tenant, never cached, and outside the request transaction, so that a node whose database is down still
answers "not ready" instead of failing to open the transaction."""

from __future__ import annotations

from django.db import transaction
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import health
from ..errors import OperationsErrorCode


class HealthCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()
    required = serializers.BooleanField()


class HealthReadySerializer(serializers.Serializer):
    status = serializers.CharField()
    checks = serializers.DictField(child=HealthCheckSerializer())


class _HealthView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_classes: list = []


@method_decorator([never_cache, transaction.non_atomic_requests], name="dispatch")
class LiveView(_HealthView):
    """The process answers (a balancer restarts a node that stops answering this)."""

    @extend_schema(
        auth=[],
        responses=inline_serializer("HealthLive", {"status": serializers.CharField()}),
        tags=["health"],
    )
    def get(self, request):
        return Response({"status": "live"})


@method_decorator([never_cache, transaction.non_atomic_requests], name="dispatch")
class ReadyView(_HealthView):
    """This node can serve: 200 when every required check passes, 503 with the failing checks otherwise."""

    @extend_schema(
        auth=[],
        responses={
            200: HealthReadySerializer,
            503: HealthReadySerializer,
        },
        tags=["health"],
    )
    def get(self, request):
        is_ready, checks = health.readiness()
        if is_ready:
            return Response({"status": "ready", "checks": checks})
        return Response(
            {
                "code": 503,
                "message": _("This node is not ready to serve requests."),
                "error": OperationsErrorCode.NOT_READY,
                "data": {"status": "not_ready", "checks": checks},
            },
            status=503,
        )
