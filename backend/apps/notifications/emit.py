"""How the business code tells the e-mail scenarios that something happened.

    from apps.notifications.emit import emit
    emit("purchase_order.sent", record=order)

Call it inside the business transaction, after the write. It costs one query when no scenario of the
event is enabled (and nothing else happens). Otherwise the occurrence is handed over when the
transaction commits (`transaction.on_commit`): the messages are made in a transaction of their own and
queued to Celery. A rolled-back write sends nothing.

`detached=True` is for an event that is the refusal itself (cartons over the cap): the request's
transaction is rolled back, so the occurrence is kept aside and handed over when the request has
finished (or at once outside a transaction).

`key` names the occurrence (a status, a date, a job id): together with the scenario, the record and the
address it makes the dedupe key, so the same occurrence never mails the same person twice.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import connection, transaction
from django.db.models import Model, QuerySet

from apps.tenancy.context import get_current_tenant_id, tenant_context

logger = logging.getLogger(__name__)

_detached = threading.local()


def _enabled_scenarios(event: str, scenario_ids: Iterable[int] | None = None) -> list[int]:
    from .models import EmailScenario

    queryset = EmailScenario.objects.filter(event=event, enabled=True)
    if scenario_ids is not None:
        queryset = queryset.filter(pk__in=list(scenario_ids))
    return list(queryset.values_list("pk", flat=True))


def scenarios_enabled(event: str) -> bool:
    """Whether an enabled scenario reacts to `event` (an area that would otherwise compose its own
    message asks this first: apps/purchaseorders/services.py purchase_order_send)."""
    return bool(_enabled_scenarios(event))


def _plain(extra: dict[str, Any] | None) -> dict[str, Any]:
    """JSON-safe extra values (they travel through Celery and the on_commit hook)."""
    result = {}
    for name, value in (extra or {}).items():
        if value is not None and not isinstance(value, (str, int, float, bool, list, dict)):
            value = str(value)  # Decimal, dates, model instances
        result[name] = value
    return result


def emit(
    event: str,
    *,
    record: Model | None = None,
    pk: int | None = None,
    key: str = "",
    extra: dict[str, Any] | None = None,
    detached: bool = False,
    scenario_ids: Iterable[int] | None = None,
) -> None:
    """One occurrence of `event` about `record` (or the record with primary key `pk`)."""
    emit_many(
        event,
        pks=[record.pk if record is not None else pk],
        key=key,
        extra=extra,
        detached=detached,
        scenario_ids=scenario_ids,
    )


def emit_many(
    event: str,
    *,
    pks: Iterable[int] | QuerySet,
    key: str = "",
    extra: dict[str, Any] | None = None,
    detached: bool = False,
    scenario_ids: Iterable[int] | None = None,
) -> None:
    """The same event for many records (a queryset is read only when a scenario is enabled)."""
    tenant_id = get_current_tenant_id()
    if tenant_id is None:
        logger.warning("E-mail event %s outside a tenant: ignored", event)
        return
    ids = _enabled_scenarios(event, scenario_ids)
    if not ids:
        return
    if isinstance(pks, QuerySet):
        pks = pks.values_list("pk", flat=True)
    payload = {
        "tenant_id": tenant_id,
        "event": event,
        "pks": [int(pk) for pk in pks if pk is not None],
        "key": str(key),
        "extra": _plain(extra),
        "scenario_ids": ids,
    }
    if not payload["pks"]:
        return
    if detached and connection.in_atomic_block:
        pending = getattr(_detached, "pending", None)
        if pending is None:
            pending = _detached.pending = []
        pending.append(payload)
        return
    transaction.on_commit(lambda: dispatch(payload))


def dispatch(payload: dict[str, Any]) -> None:
    """Makes the occurrence's messages (own transaction, in its tenant) and queues them. Never raises: a
    failing e-mail must not break the business action that already committed."""
    from .services import messages_for_event, queue

    try:
        with transaction.atomic(), tenant_context(payload["tenant_id"]):
            made = []
            for pk in payload["pks"]:
                made += messages_for_event(
                    event_name=payload["event"],
                    record_pk=pk,
                    key=payload["key"],
                    extra=payload["extra"],
                    scenario_ids=payload["scenario_ids"],
                )
        queue([(m.tenant_id, m.pk, m.send_after) for m in made if m.status == "queued"])
    except Exception:
        logger.exception("E-mail event %s could not be handled", payload.get("event"))


def flush_detached(**kwargs) -> None:
    pending = getattr(_detached, "pending", None) or []
    _detached.pending = []
    for payload in pending:
        dispatch(payload)


def _reset_detached(**kwargs) -> None:
    _detached.pending = []


request_started.connect(_reset_detached, dispatch_uid="notifications-reset-detached")
request_finished.connect(flush_detached, dispatch_uid="notifications-flush-detached")


def compose(*, event_name: str, record, recipients, subject: str, body_text: str, attachments=(), user=None):
    """A message a person sends from a record's page (no scenario), with the given text and attachments:
    made, logged and queued like every other (notifications.services.message_compose). The one way an
    area sends such a message, as `emit` is for scenarios."""
    from .services import message_compose

    return message_compose(
        event_name=event_name,
        record=record,
        recipients=recipients,
        subject=subject,
        body_text=body_text,
        attachments=attachments,
        user=user,
    )
