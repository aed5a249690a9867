"""Reads of the accounting integration for other areas (the invoice page shows its accounting state)."""

from __future__ import annotations

from typing import Any

from .models import Mapping, SyncEntry


def document_state(invoice) -> dict[str, Any] | None:
    """Where a posted invoice or credit note stands in the accounting system: the outbox entry's status and
    error, the external id and the payment status read back. None when it was never queued. Two queries."""
    if not invoice.pk or invoice.status != "posted":
        return None
    entry = (
        SyncEntry.objects.filter(kind=invoice.kind, record_id=invoice.pk)
        .exclude(action=SyncEntry.Action.READ_STATUS)
        .order_by("-pk")
        .only("pk", "status", "error", "external_id", "sent_at", "next_attempt_at")
        .first()
    )
    mapping = Mapping.objects.filter(kind=invoice.kind, local_key=str(invoice.pk)).first()
    if entry is None and mapping is None:
        return None
    return {
        "sync_entry": entry.pk if entry else None,
        "sync_status": entry.status if entry else "sent",
        "error": entry.error if entry and entry.status != SyncEntry.Status.SENT else "",
        "external_id": (mapping.external_id if mapping else "") or (entry.external_id if entry else ""),
        "sent_at": entry.sent_at if entry else (mapping.pushed_at if mapping else None),
        "external_status": mapping.external_status if mapping else "",
        "external_open_amount": mapping.external_open_amount if mapping else None,
        "status_read_at": mapping.status_read_at if mapping else None,
    }
