"""The public trace answers, precomputed (GET /api/eudrtrack/{code}/, model `PublicTrace`).

Every scanned carton hits the public trace, anonymously and from phones, all day; what it shows changes
a few times in a carton's life. So the finished answer (the exact JSON body, its strong ETag and the
company's cache time) is written to one row per active carton, keyed by the public code, whenever
anything it shows changes, and a scan reads that row and nothing else (apps/eudr/public_trace_fast.py):
no tenant, no savepoint, no join. Every worker and every server reads the same rows, so nothing is
dropped or warmed per process.

What the answer shows, and what refreshes it (`connect()` and the explicit calls named here):
- the carton label (its fields and status): its save and delete; the services that void labels with an
  update and label generation's bulk insert call `changed()` themselves;
- its delivery and the delivery's lines (origin, species, certificates, plots, the delivery's own
  statement reference): their save and delete; the lines' bulk insert calls `changed()`;
- the parent vendor and the product: their save and delete (every carton of theirs);
- the statements and their coverage (apps/eudr/placing.py): a statement's save (its cartons), a coverage
  row's save; the coverage's bulk insert and its release call `changed()`;
- the warehouse history (apps/inventory): a carton's warehouse row and its events; the warehouse sends
  `public_trace_changed` on their save and delete and after its bulk writes (apps/inventory/trace.py);
- company settings: the country shown in the warehouse history and the trace's cache time
  (`Tenant.public_trace_max_age`).

The changes are collected per transaction and the affected cartons rebuilt once it commits (in batches:
one read per kind of row for many cartons), in a transaction of their own in the carton's tenant, under a
per-tenant lock so two rebuilds cannot write in the wrong order. A carton that stops being active has
its row deleted in the very transaction that voids it, so it disappears the moment that commits. If a
rebuild fails, the affected rows are deleted: the endpoint then builds the answer from the live rows
(the slow path) instead of serving an old one. `rebuild_all()` (management command
`rebuild_public_traces`, and the migration that made the table) rebuilds every tenant's.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, connections, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

logger = logging.getLogger(__name__)

BATCH = 500
# pg_advisory_xact_lock(LOCK_CLASS, tenant_id): one rebuild of a tenant's answers at a time.
LOCK_CLASS = 0x7E_ACE


def render(data: Any) -> bytes:
    """The response body the API answers (the envelope of apps/common/api/envelope.py), compact UTF-8."""
    return json.dumps(
        {"code": 200, "message": "success", "data": data},
        cls=JSONEncoder,
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8")


def etag_of(body: bytes) -> str:
    """A strong ETag: the body's hash, so it changes exactly when the answer does."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def serialise(payload: dict[str, Any]) -> Any:
    from apps.eudr.api.public_views import PublicTraceSerializer

    return PublicTraceSerializer(payload).data


def _max_ages(tenant_ids: Iterable[int]) -> dict[int, int]:
    from apps.tenancy.models import Tenant

    return dict(Tenant.objects.filter(pk__in=set(tenant_ids)).values_list("pk", "public_trace_max_age"))


def _lock_tenant(tenant_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, tenant_id])


def _rebuild(label_ids: list[int]) -> int:
    """Writes the answers of these labels of the current tenant (the active ones) and deletes those of the
    rest. Returns how many were written."""
    from apps.eudr.models import CartonLabel, PublicTrace
    from apps.eudr.public_trace import payloads_for

    written = 0
    for start in range(0, len(label_ids), BATCH):
        chunk = label_ids[start : start + BATCH]
        labels = list(
            CartonLabel.objects.select_related("raw_material__parent_vendor", "product").filter(
                pk__in=chunk, status=CartonLabel.Status.ACTIVE
            )
        )
        active = {label.pk for label in labels}
        gone = [pk for pk in chunk if pk not in active]
        if gone:
            PublicTrace.objects.filter(label_id__in=gone).delete()
        if not labels:
            continue
        max_ages = _max_ages(label.tenant_id for label in labels)
        payloads = payloads_for(labels)
        now = timezone.now()
        rows = []
        for label in labels:
            body = render(serialise(payloads[label.pk]))
            rows.append(
                PublicTrace(
                    code=label.code,
                    label_id=label.pk,
                    body=body,
                    etag=etag_of(body),
                    max_age=max_ages.get(label.tenant_id, 300),
                    built_at=now,
                )
            )
        PublicTrace.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["code"],
            update_fields=["label_id", "body", "etag", "max_age", "built_at"],
        )
        written += len(rows)
    return written


def store_one(label, payload: dict[str, Any]) -> tuple[bytes, str, int]:
    """The slow path's answer (built from the live rows in the request's transaction, tenant entered):
    kept unless a refresh wrote the row meanwhile, and only while the label is still active, so it never
    brings back a carton voided since it was read. Returns (body, etag, max_age)."""
    from apps.eudr.models import CartonLabel, PublicTrace

    max_age = _max_ages([label.tenant_id]).get(label.tenant_id, 300)
    body = render(serialise(payload))
    etag = etag_of(body)
    table = connection.ops.quote_name(PublicTrace._meta.db_table)
    labels = connection.ops.quote_name(CartonLabel._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            # table names of the models; every value bound
            f"INSERT INTO {table} (code, label_id, body, etag, max_age, built_at) "  # noqa: S608
            f"SELECT %s, %s, %s, %s, %s, %s WHERE EXISTS "
            f"(SELECT 1 FROM {labels} WHERE id = %s AND status = %s) ON CONFLICT DO NOTHING",
            [label.code, label.pk, body, etag, max_age, timezone.now(), label.pk, CartonLabel.Status.ACTIVE],
        )
    return body, etag, max_age


# --- What changed: collected per transaction, resolved to cartons and rebuilt once it commits ---------


@dataclass
class _Scope:
    labels: set[int] = field(default_factory=set)
    codes: set[str] = field(default_factory=set)
    deliveries: set[int] = field(default_factory=set)
    vendors: set[int] = field(default_factory=set)
    products: set[int] = field(default_factory=set)
    submissions: set[int] = field(default_factory=set)
    cartons: set[int] = field(default_factory=set)
    company: bool = False

    def label_ids(self) -> list[int]:
        from django.db.models import Q

        from apps.eudr.models import CartonLabel, DdsCoveredCarton
        from apps.eudr.warehouse import warehouse

        ids = set(self.labels)
        where = Q()
        if self.codes:
            where |= Q(code__in=self.codes)
        if self.deliveries:
            where |= Q(raw_material_id__in=self.deliveries)
        if self.vendors:
            where |= Q(raw_material__parent_vendor_id__in=self.vendors)
        if self.products:
            where |= Q(product_id__in=self.products)
        if where:
            ids.update(CartonLabel.objects.filter(where).values_list("pk", flat=True))
        if self.submissions:
            ids.update(
                DdsCoveredCarton.objects.filter(submission_id__in=self.submissions).values_list(
                    "label_id", flat=True
                )
            )
        if self.cartons:
            ids.update(warehouse().label_ids_of_cartons(self.cartons))
        if self.company:
            # The company's country shows in the warehouse history; its cache time in every answer.
            ids.update(warehouse().label_ids_in_warehouse())
        return sorted(ids)


class _Pending:
    """The changes of a connection's transaction, per tenant. Every change queues `flush` with on_commit;
    the first one run rebuilds everything collected and the others find nothing left (so a transaction
    that saves a thousand rows rebuilds once, and a change inside a savepoint that rolls back still
    rebuilds with the rest: the rebuild reads the committed rows, so that costs time, never truth)."""

    def __init__(self) -> None:
        self.by_tenant: dict[int, _Scope] = {}

    def scope(self, tenant_id: int) -> _Scope:
        return self.by_tenant.setdefault(tenant_id, _Scope())

    def flush(self) -> None:
        by_tenant, self.by_tenant = self.by_tenant, {}
        for tenant_id, scope in by_tenant.items():
            refresh(tenant_id, scope)


def _pending() -> _Pending | None:
    """The connection's collection, with a flush queued for this transaction; None outside one."""
    conn = connections["default"]
    if not conn.in_atomic_block:
        return None
    pending = getattr(conn, "_public_trace_pending", None)
    if pending is None:
        pending = _Pending()
        conn._public_trace_pending = pending  # type: ignore[attr-defined]
    transaction.on_commit(pending.flush)
    return pending


def changed(
    tenant_id: int | None,
    *,
    labels: Iterable[int] = (),
    codes: Iterable[str] = (),
    deliveries: Iterable[int] = (),
    vendors: Iterable[int] = (),
    products: Iterable[int] = (),
    submissions: Iterable[int] = (),
    cartons: Iterable[int] = (),
    company: bool = False,
) -> None:
    """Something the public answers of a tenant show changed: rebuild the affected ones once the
    transaction commits (at once outside a transaction)."""
    if tenant_id is None:
        return
    pending = _pending()
    scope = pending.scope(tenant_id) if pending is not None else _Scope()
    scope.labels.update(labels)
    scope.codes.update(codes)
    scope.deliveries.update(deliveries)
    scope.vendors.update(vendors)
    scope.products.update(products)
    scope.submissions.update(submissions)
    scope.cartons.update(cartons)
    scope.company = scope.company or company
    if pending is None:
        refresh(tenant_id, scope)


def withdrawn(label_ids: Iterable[int]) -> None:
    """These cartons stopped being active: their answers go in this very transaction (the carton is
    unknown to the public the moment it commits), and the commit's rebuild confirms it."""
    from apps.eudr.models import PublicTrace

    ids = list(label_ids)
    if ids:
        PublicTrace.objects.filter(label_id__in=ids).delete()


def refresh(tenant_id: int, scope: _Scope) -> None:
    """Rebuilds the answers the scope affects, in a transaction of its own in the tenant. On failure the
    affected answers are deleted instead (the endpoint then answers from the live rows)."""
    from apps.eudr.models import PublicTrace
    from apps.tenancy.context import tenant_context

    label_ids: list[int] = []
    try:
        with transaction.atomic(), tenant_context(tenant_id):
            _lock_tenant(tenant_id)
            label_ids = scope.label_ids()
            if scope.company:
                _company_max_age(tenant_id)
            _rebuild(label_ids)
    except Exception:
        logger.exception("public trace: rebuilding the answers of tenant %s failed", tenant_id)
        try:
            with transaction.atomic():
                PublicTrace.objects.filter(label_id__in=label_ids).delete()
        except Exception:
            logger.exception("public trace: could not delete the answers of tenant %s", tenant_id)


def _company_max_age(tenant_id: int) -> None:
    from apps.eudr.models import CartonLabel, PublicTrace

    max_age = _max_ages([tenant_id]).get(tenant_id, 300)
    PublicTrace.objects.filter(label_id__in=CartonLabel.objects.values("pk")).exclude(max_age=max_age).update(
        max_age=max_age
    )


def rebuild_tenant(tenant_id: int) -> int:
    """Every active carton's answer of one tenant, and no answer of a voided one. Returns how many."""
    from apps.eudr.models import CartonLabel
    from apps.tenancy.context import tenant_context

    with transaction.atomic(), tenant_context(tenant_id):
        _lock_tenant(tenant_id)
        return _rebuild(list(CartonLabel.objects.order_by("pk").values_list("pk", flat=True)))


def rebuild_all() -> dict[str, int]:
    """Every tenant's answers (upgrades: the payload's shape changed). Returns {tenant code: written}."""
    from apps.eudr.models import CartonLabel, PublicTrace
    from apps.tenancy.models import Tenant

    written = {}
    for tenant_id, code in Tenant.objects.order_by("pk").values_list("pk", "code"):
        written[code] = rebuild_tenant(tenant_id)
    # Rows of labels no tenant has any more (a label is never deleted by the app; a tenant may be).
    known = set()
    for tenant_id in Tenant.objects.values_list("pk", flat=True):
        from apps.tenancy.context import tenant_context

        with transaction.atomic(), tenant_context(tenant_id):
            known.update(CartonLabel.objects.values_list("pk", flat=True))
    stale = [pk for pk in PublicTrace.objects.values_list("label_id", flat=True) if pk not in known]
    if stale:
        PublicTrace.objects.filter(label_id__in=stale).delete()
    return written


# --- Model signals: save() and delete() of every row the answer shows ----------------------------------


def _label_saved(sender, instance, created=False, **kwargs) -> None:
    if instance.status != instance.Status.ACTIVE:
        withdrawn([instance.pk])
    changed(instance.tenant_id, labels=[instance.pk])


def _label_deleted(sender, instance, **kwargs) -> None:
    withdrawn([instance.pk])


def _delivery_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, deliveries=[instance.pk])


def _line_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, deliveries=[instance.delivery_id])


def _vendor_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, vendors=[instance.pk])


def _product_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, products=[instance.pk])


def _submission_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, submissions=[instance.pk])


def _coverage_changed(sender, instance, **kwargs) -> None:
    changed(instance.tenant_id, labels=[instance.label_id])


COMPANY_FIELDS = {"country", "public_trace_max_age"}


def _company_saved(sender, instance, update_fields=None, created=False, **kwargs) -> None:
    if created or (update_fields is not None and not COMPANY_FIELDS & set(update_fields)):
        return
    changed(instance.pk, company=True)


def _signalled(sender, tenant_id=None, **scope) -> None:
    scope.pop("signal", None)
    changed(tenant_id, **scope)


def connect() -> None:
    """Called from EudrConfig.ready()."""
    from apps.common.signals import public_trace_changed

    public_trace_changed.connect(_signalled, dispatch_uid="eudr.trace_store.signalled")
    from apps.eudr.models import (
        CartonLabel,
        DdsCoveredCarton,
        DdsSubmission,
        RawMaterialDelivery,
        RawMaterialLine,
    )
    from apps.products.models import Product
    from apps.suppliers.models import ParentVendor
    from apps.tenancy.models import Tenant

    handlers = (
        (RawMaterialDelivery, _delivery_changed, _delivery_changed),
        (RawMaterialLine, _line_changed, _line_changed),
        (ParentVendor, _vendor_changed, _vendor_changed),
        (Product, _product_changed, _product_changed),
        (DdsSubmission, _submission_changed, _submission_changed),
        (DdsCoveredCarton, _coverage_changed, _coverage_changed),
        (CartonLabel, _label_saved, _label_deleted),
    )
    for model, on_save, on_delete in handlers:
        uid = f"eudr-public-trace-{model._meta.label_lower}"
        post_save.connect(on_save, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(on_delete, sender=model, dispatch_uid=f"{uid}-delete")
    post_save.connect(_company_saved, sender=Tenant, dispatch_uid="eudr-public-trace-tenant-save")
