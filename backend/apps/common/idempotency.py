"""`Idempotency-Key`: a write a client may send again (a timeout, a double click, a flaky network) is
done once.

A view action decorated with `@idempotent` and called with the header:

1. inserts (tenant, user, key) in `IdempotentRequest`, inside the request's transaction. A second
   request with the same key waits on the unique index until the first one's transaction ends: if it
   committed, the second answers the first one's stored answer (with `Idempotent-Replayed: true`) and
   does nothing; if it rolled back (the write was refused or failed), the second runs as if it were the
   first. So the write and the record of its answer are committed together or not at all;
2. runs the action and stores its status and body with the key.

Two requests with the same key at the same moment (a client's retry while the first is still running):
the second waits in step 1 and answers the first one's answer, never a second write
(apps/common/tests/test_idempotency_concurrent.py, two threads on PostgreSQL). The action always runs in
one transaction with the key's row, also in a view outside the request's transaction (the decorator opens
one): a row whose answer is not stored yet is never visible to another request. Should one be seen all
the same (a row written by another process that stores its answer later), the request is refused with
409 `idempotency_key_in_progress` rather than answered with an empty body.

The same key with a different request (method, path or body) is refused with 422
`idempotency_key_reused`; a malformed key with 400 `idempotency_key_invalid`. Without the header nothing
changes. Keys are kept IDEMPOTENCY_KEY_HOURS (24) and purged daily (`common.purge_idempotent_requests`).
The web app sends a new key per submit (frontend/src/api/client.ts).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from apps.common.errors import IdempotencyKeyInProgress, IdempotencyKeyInvalid, IdempotencyKeyReused
from apps.common.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
_KEY = re.compile(r"[\x21-\x7e]{1,255}")
IN_PROGRESS = 0


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, cls=JSONEncoder, default=str)
    raw = f"{request.method}\n{request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def idempotent(action):
    """Decorates a DRF view method (create or an @action) that writes."""

    @functools.wraps(action)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return action(view, request, *args, **kwargs)
        if not _KEY.fullmatch(key):
            raise IdempotencyKeyInvalid()
        if not transaction.get_connection().in_atomic_block:
            # Outside the request's transaction (a non-atomic view): the key's row and the write must
            # still commit together, or a crash between them would leave a key without its answer.
            with transaction.atomic():
                response = _run(view, request, key, args, kwargs)
                if response.status_code >= 400:
                    transaction.set_rollback(True)  # as the request's transaction does: nothing kept
                return response
        return _run(view, request, key, args, kwargs)

    def _run(view, request, key, args, kwargs):
        fingerprint = _fingerprint(request)
        try:
            with transaction.atomic():
                record = IdempotentRequest.objects.create(
                    user=request.user, key=key, fingerprint=fingerprint, response_status=IN_PROGRESS
                )
        except IntegrityError:
            earlier = IdempotentRequest.objects.get(user=request.user, key=key)
            if earlier.fingerprint != fingerprint:
                raise IdempotencyKeyReused() from None
            if earlier.response_status == IN_PROGRESS:
                raise IdempotencyKeyInProgress() from None
            response = Response(earlier.response_body, status=earlier.response_status)
            response[REPLAYED_HEADER] = "true"
            return response
        response = action(view, request, *args, **kwargs)
        body = json.loads(json.dumps(response.data, cls=JSONEncoder))
        IdempotentRequest.objects.filter(pk=record.pk).update(
            response_status=response.status_code, response_body=body
        )
        return response

    return wrapper


def idempotent_requests_purge(*, now=None) -> int:
    """Deletes the tenant's keys older than IDEMPOTENCY_KEY_HOURS (call inside the tenant)."""
    now = now or timezone.now()
    hours = getattr(settings, "IDEMPOTENCY_KEY_HOURS", 24)
    deleted, _rows = IdempotentRequest.objects.filter(created_at__lt=now - timedelta(hours=hours)).delete()
    return deleted
