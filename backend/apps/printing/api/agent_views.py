"""The print agent's API (/api/printer/): no tenant_id and no user; the agent's token decides the tenant.

The token travels as `Authorization: Agent <token>`. Its SHA-256 finds the agent's tenant (a row-level
security policy admits exactly the row with that hash, services._tenant_by_setting), then the tenant is
entered for the rest of the request, as a signed-in user's `?tenant_id=` would be.

The job poll is a bounded long-poll (`?wait=` up to 25 s): it checks for work with one indexed EXISTS a
second, outside a long transaction (the view is not atomic; each check and the claim are), and answers
as soon as there is a job or the wait is over.

A waiting poll holds a server thread, so the waiting is bounded twice (docs/printing.md, "Long poll"):
- at most ONE open poll per agent: a second poll of the same agent while the first waits is refused at
  once (429 `poll_already_open`, `Retry-After`), so one agent (or a stolen token) cannot take every
  thread by polling in parallel;
- at most PRINT_LONG_POLLS_MAX waiting polls on the server (default 4, half of gunicorn's 8 threads): a
  poll beyond that is refused at once (429 `polls_busy`, `Retry-After`) and the agent backs off.
A poll with `wait=0` (a short poll) never waits and is not counted.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.http import FileResponse
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.printing import errors, services
from apps.printing.models import PrintAgent, PrinterDevice
from apps.tenancy import context
from apps.tenancy.context import tenant_context

from .serializers import (
    AgentJobsSerializer,
    AgentPrinterSerializer,
    HeartbeatRequestSerializer,
    HeartbeatResponseSerializer,
    JobResultSerializer,
    PairRequestSerializer,
    PairResponseSerializer,
    PrintJobSerializer,
)

MAX_WAIT_SECONDS = 25
HEARTBEAT_SECONDS = 30
AGENT_FILE = Path(settings.BASE_DIR).parent / "printagent" / "cartontrace_printagent.py"


class PairingThrottle(ScopedRateThrottle):
    scope = "printer_pairing"

    def get_rate(self):
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)


def token_of(request) -> str:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    kind, _, token = header.partition(" ")
    return token.strip() if kind == "Agent" else ""


def agent_lookup(token: str) -> PrintAgent:
    """The active agent of `token` in the current tenant (entered by the caller)."""
    found = services.agent_tenant_for_token(token)
    if found is None:
        raise errors.AgentTokenInvalid()
    agent = PrintAgent.objects.filter(token_hash=found[1], is_active=True).first()
    if agent is None:
        raise errors.AgentTokenInvalid()
    return agent


class AgentView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if getattr(self, "needs_agent", True):
            found = services.agent_tenant_for_token(token_of(request))
            if found is None:
                raise errors.AgentTokenInvalid()
            self.tenant_id, self.token_hash = found

    def enter(self):
        """Enters the agent's tenant for the rest of this (atomic) request and returns the agent."""
        context.activate(self.tenant_id)
        agent = PrintAgent.objects.filter(token_hash=self.token_hash, is_active=True).first()
        if agent is None:
            raise errors.AgentTokenInvalid()
        return agent


class PairView(AgentView):
    needs_agent = False
    throttle_classes = [PairingThrottle]
    throttle_scope = "printer_pairing"

    @extend_schema(request=PairRequestSerializer, responses={201: PairResponseSerializer}, auth=[])
    def post(self, request):
        """Exchanges a one-time pairing code for the agent's token (shown only in this answer)."""
        serializer = PairRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        agent, token = services.agent_pair(
            code=serializer.validated_data["code"],
            hostname=serializer.validated_data["hostname"],
            version=serializer.validated_data["version"],
        )
        return Response({"token": token, "agent": agent.pk, "name": agent.name}, status=201)


class HeartbeatView(AgentView):
    @extend_schema(request=HeartbeatRequestSerializer, responses=HeartbeatResponseSerializer, auth=[])
    def post(self, request):
        """The agent is alive (every 30 s; offline after 90 s without one) and reports its printers'
        states; the answer lists the printers it must serve."""
        agent = self.enter()
        serializer = HeartbeatRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.agent_heartbeat(
            agent=agent,
            hostname=data["hostname"],
            version=data["version"],
            printers=[
                services.PrinterReport(printer_id=p["id"], status=p["state"]) for p in data["printers"]
            ],
        )
        printers = PrinterDevice.objects.filter(agent=agent, is_active=True).order_by("id")
        return Response(
            {
                "agent": agent.pk,
                "name": agent.name,
                "printers": AgentPrinterSerializer(printers, many=True).data,
                "heartbeat_seconds": HEARTBEAT_SECONDS,
                "poll_wait_seconds": MAX_WAIT_SECONDS,
            }
        )


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class JobPollView(AgentView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "wait",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                description="Seconds to wait for a job (0-25).",
            )
        ],
        responses=AgentJobsSerializer,
        auth=[],
    )
    def get(self, request):
        """The agent's next jobs (status becomes `sent`); waits up to `wait` seconds for one."""
        raw = request.query_params.get("wait", "0")
        wait = min(MAX_WAIT_SECONDS, max(0, int(raw))) if raw.isdigit() else 0
        if wait == 0:
            return self._poll(0)
        with poll_slot(self.token_hash, wait):
            return self._poll(wait)

    def _poll(self, wait: int):
        deadline = time.monotonic() + wait
        while True:
            with tenant_context(self.tenant_id):
                agent = PrintAgent.objects.filter(token_hash=self.token_hash, is_active=True).first()
                if agent is None:
                    raise errors.AgentTokenInvalid()
                PrintAgent.objects.filter(pk=agent.pk).update(last_seen_at=_now())
                if services.has_work(agent=agent) or time.monotonic() >= deadline:
                    jobs = services.jobs_claim(agent=agent)
                    return Response(AgentJobsSerializer({"jobs": jobs}).data)
            time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


_POLL_KEY = "printer:poll:{token_hash}"
_POLLS_OPEN_KEY = "printer:polls-open"


@contextlib.contextmanager
def poll_slot(token_hash: str, wait: int):
    """Holds the agent's one poll slot and one of the server's long-poll slots while a poll waits."""
    from django.core.cache import cache

    key = _POLL_KEY.format(token_hash=token_hash)
    mine = uuid.uuid4().hex
    if not cache.add(key, mine, timeout=wait + 10):
        refused = errors.PollAlreadyOpen()
        refused.retry_after = wait
        raise refused
    counted = False
    try:
        cache.add(_POLLS_OPEN_KEY, 0, timeout=None)
        counted = True
        if cache.incr(_POLLS_OPEN_KEY) > int(getattr(settings, "PRINT_LONG_POLLS_MAX", 4)):
            busy = errors.PollsBusy()
            busy.retry_after = 5
            raise busy
        yield
    finally:
        if counted:
            with contextlib.suppress(ValueError):
                cache.decr(_POLLS_OPEN_KEY)
        if cache.get(key) == mine:
            cache.delete(key)


def _now():
    from django.utils import timezone

    return timezone.now()


class JobResultView(AgentView):
    @extend_schema(request=JobResultSerializer, responses=PrintJobSerializer, auth=[])
    def post(self, request, job_id: int):
        """The job's result: printed, or failed with the error and the printer's `~HS` state. Idempotent."""
        agent = self.enter()
        serializer = JobResultSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        job = services.job_report(
            agent=agent,
            job_id=job_id,
            idempotency_key=str(data["idempotency_key"]),
            printed=data["printed"],
            error=data["error"],
            printer_status=data["printer_status"],
            data_sent=data["data_sent"],
        )
        return Response(PrintJobSerializer(job).data)


class AgentDownloadView(AgentView):
    needs_agent = False

    @extend_schema(responses={(200, "text/x-python"): OpenApiTypes.BINARY}, auth=[])
    def get(self, request):
        """The print agent: one Python file (standard library only, Python 3.9+)."""
        if not AGENT_FILE.is_file():
            raise errors.AgentFileMissing()
        response = FileResponse(AGENT_FILE.open("rb"), content_type="text/x-python; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="cartontrace_printagent.py"'
        return response
