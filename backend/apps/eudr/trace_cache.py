"""A cache of the finished public trace payload per carton (GET /api/eudrtrack/{code}/).

Every scanned carton hits the public trace, anonymously and from phones; its answer changes only when
something it shows changes. So the view keeps the serialised payload and its ETag in Django's cache
(Redis in production, local memory in the embedded default, which runs one server process) under
`eudr:public-trace:<generation>:<code hash>`, for a day at most.

Invalidation is by generation: any change to a row the payload shows (a carton label, its delivery and
the delivery's lines, the parent vendor, the product) puts a new random generation in the cache once the
transaction commits, so every entry written under the old one is never read again (they expire). The
model signals below cover `save()` and `delete()`, including deletes of a queryset; writes that bypass
them (`QuerySet.update`, e.g. voiding labels in `services.cartons_delete`, which voids labels) call `invalidate()`
themselves. Coarse on purpose: those rows change a few times a day, scans happen all day, and a
generation cannot miss a carton the way per-carton keys could when a delivery or a product changes.
Unknown and voided codes are not cached (every such request reads the database, and is throttled).
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

GENERATION_KEY = "eudr:public-trace:generation"
TIMEOUT = 24 * 3600


def _generation() -> str:
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        cache.add(GENERATION_KEY, uuid.uuid4().hex, None)
        generation = cache.get(GENERATION_KEY) or "0"
    return generation


def _key(generation: str, code: str) -> str:
    digest = hashlib.sha256(code.encode("utf-8")).hexdigest()[:40]
    return f"eudr:public-trace:{generation}:{digest}"


def get(code: str) -> tuple[Any, str] | None:
    """(serialised payload, ETag) of the carton with this normalised code, when cached."""
    return cache.get(_key(_generation(), code))


def put(code: str, data: Any, etag: str, *, generation: str) -> None:
    """Keeps the payload under the generation read *before* it was built, so a change committed
    meanwhile makes it unreadable instead of serving the old payload for a day."""
    cache.set(_key(generation, code), (data, etag), TIMEOUT)


def current_generation() -> str:
    return _generation()


def _bump() -> None:
    cache.set(GENERATION_KEY, uuid.uuid4().hex, None)


def invalidate() -> None:
    """Forgets every cached payload: at once (so the changing transaction itself, and a request that
    reads after its own write, never sees an old payload) and again once the transaction commits (so a
    payload another request built from the old rows meanwhile is never read)."""
    _bump()
    transaction.on_commit(_bump)


def _on_change(sender, **kwargs) -> None:
    invalidate()


def connect() -> None:
    """Called from EudrConfig.ready(): the rows the public payload shows."""
    from apps.eudr.models import (
        CartonLabel,
        DdsSubmission,
        ProductionBatch,
        RawMaterialDelivery,
        RawMaterialLine,
    )
    from apps.products.models import Product
    from apps.suppliers.models import ParentVendor

    # A statement's status decides which reference a covered carton shows (apps/eudr/placing.py).
    models = (
        CartonLabel,
        ProductionBatch,
        RawMaterialDelivery,
        RawMaterialLine,
        ParentVendor,
        Product,
        DdsSubmission,
    )
    for model in models:
        uid = f"eudr-public-trace-{model._meta.label_lower}"
        post_save.connect(_on_change, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_on_change, sender=model, dispatch_uid=f"{uid}-delete")
