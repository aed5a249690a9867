"""The outbox: what goes to the accounting system, in which order, and what came of it (the sync log).

- `enqueue_document(invoice)` runs inside the posting transaction (`invoice_post`,
  apps/salesorders/services/invoices.py): one query when the tenant has no enabled connection; otherwise a
  pending entry with the idempotency key "invoice:<pk>" / "credit_note:<pk>" (enqueueing twice finds the
  same row) and, after the commit, the Celery task `accounting.process_outbox`. A credit note's entry
  depends on its invoice's.
- `process_outbox(tenant_id)` takes the due pending entries in order, leases each (so two workers never
  push the same one), and for a document pushes first the customer and the articles it needs that are
  new or changed (the payload's hash against the mapping), then the document. No database transaction is
  held while the accounting system is called.
- A document tried before is looked up by its number first: when an earlier attempt reached the
  accounting system but its answer was lost, nothing is created twice.
- Temporary failures (5xx, network, 429) retry with exponential backoff (1, 2, 4 ... minutes, at most
  6 hours, MAX_ATTEMPTS in all; a Retry-After is respected); a validation error fails at once with the
  accounting system's message. Retry and skip are actions on the sync log.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.tenancy.context import tenant_context

from .adapters.base import (
    AccountingError,
    Adapter,
    ArticleData,
    CustomerData,
    DocumentData,
    DocumentLine,
    SupplierData,
    Temporary,
)
from .errors import EntryNotRetryable, EntryNotSkippable
from .models import AccountingConnection, Mapping, MappingKind, SupplierLevel, SyncEntry

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BACKOFF_BASE = timedelta(minutes=1)
BACKOFF_MAX = timedelta(hours=6)
LEASE = timedelta(minutes=10)
DEPENDENCY_WAIT = timedelta(minutes=2)
BATCH = 50

DOCUMENT_KINDS = (MappingKind.INVOICE, MappingKind.CREDIT_NOTE)


def payload_hash(data: Any) -> str:
    raw = json.dumps(asdict(data), sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()


def backoff(attempts: int) -> timedelta:
    return min(BACKOFF_BASE * (2 ** max(attempts - 1, 0)), BACKOFF_MAX)


# -- what the records look like in the accounting system -----------------------------------------------


def _mapping_ids(kind: str, keys: list[str]) -> dict[str, Mapping]:
    return {m.local_key: m for m in Mapping.objects.filter(kind=kind, local_key__in=keys)}


def customer_data(customer, terms: dict[str, Mapping] | None = None) -> CustomerData:
    terms = (
        terms
        if terms is not None
        else _mapping_ids(MappingKind.PAYMENT_TERM, [str(customer.payment_terms_days)])
    )
    term = terms.get(str(customer.payment_terms_days))
    return CustomerData(
        number=customer.number,
        name=customer.name,
        email=customer.email,
        phone=customer.phone,
        vat_id=customer.vat_id,
        currency=customer.currency,
        payment_terms_days=customer.payment_terms_days,
        payment_term=term.external_id if term else "",
        street=customer.billing_street,
        post_code=customer.billing_post_code,
        city=customer.billing_city,
        country=customer.billing_country or "",
    )


def article_data(product) -> ArticleData:
    return ArticleData(
        number=product.article_number,
        name=product.name,
        unit=product.unit,
        sales_price=product.sales_price,
        is_active=product.is_active,
    )


def supplier_data(record, level: str) -> SupplierData:
    if level == SupplierLevel.PARENT_VENDOR:
        return SupplierData(
            number=record.code or f"PV{record.pk}",
            name=record.name,
            email=record.email,
            phone=record.phone,
            country=record.country,
        )
    return SupplierData(
        number=record.number,
        name=record.name,
        email=record.email,
        phone=record.phone,
        country=record.country,
        address=record.address,
        currency=record.currency,
    )


@dataclass
class MasterPush:
    kind: str
    record_id: int
    label: str
    data: Any
    hash: str
    external_id: str = ""
    action: str = SyncEntry.Action.CREATE


@dataclass
class DocumentPlan:
    entry_id: int
    kind: str
    record_id: int
    number: str
    masters: list[MasterPush] = field(default_factory=list)
    document: DocumentData | None = None
    known_external_id: str = ""
    lookup_first: bool = False


def _master(kind: str, record_id: int, label: str, data: Any, mapping: Mapping | None) -> MasterPush | None:
    digest = payload_hash(data)
    if mapping is not None and mapping.external_id and mapping.payload_hash == digest:
        return None
    return MasterPush(
        kind=kind,
        record_id=record_id,
        label=label,
        data=data,
        hash=digest,
        external_id=mapping.external_id if mapping else "",
        action=SyncEntry.Action.UPDATE if mapping and mapping.external_id else SyncEntry.Action.CREATE,
    )


def document_masters(invoice) -> tuple[list[MasterPush], dict[str, str]]:
    """The customer and articles `invoice` needs that are new or changed, and the current external ids
    of all of them (key "customer:<pk>" / "article:<pk>")."""
    customer = invoice.customer
    lines = list(invoice.lines.select_related("product").order_by("id"))
    products = {line.product_id: line.product for line in lines}
    mappings = {
        (m.kind, m.local_key): m
        for m in Mapping.objects.filter(
            Q(kind=MappingKind.CUSTOMER, local_key=str(customer.pk))
            | Q(kind=MappingKind.ARTICLE, local_key__in=[str(pk) for pk in products])
            | Q(kind=MappingKind.PAYMENT_TERM, local_key=str(customer.payment_terms_days))
        )
    }
    terms = {k: m for (kind, k), m in mappings.items() if kind == MappingKind.PAYMENT_TERM}
    pushes: list[MasterPush] = []
    ids: dict[str, str] = {}
    cm = mappings.get((MappingKind.CUSTOMER, str(customer.pk)))
    push = _master(
        MappingKind.CUSTOMER,
        customer.pk,
        f"{customer.number} {customer.name}",
        customer_data(customer, terms),
        cm,
    )
    if push:
        pushes.append(push)
    ids[f"customer:{customer.pk}"] = cm.external_id if cm else ""
    for pk, product in sorted(products.items()):
        am = mappings.get((MappingKind.ARTICLE, str(pk)))
        push = _master(
            MappingKind.ARTICLE, pk, f"{product.article_number} {product.name}", article_data(product), am
        )
        if push:
            pushes.append(push)
        ids[f"article:{pk}"] = am.external_id if am else ""
    return pushes, ids


def document_data(invoice, ids: dict[str, str]) -> DocumentData:
    from apps.salesorders.models import Invoice

    rates = {f"{line.vat_rate:.2f}" for line in invoice.lines.all()}
    vat_codes = {
        m.local_key: m.external_id
        for m in Mapping.objects.filter(kind=MappingKind.VAT_CODE, local_key__in=rates)
    }
    term = Mapping.objects.filter(
        kind=MappingKind.PAYMENT_TERM, local_key=str(invoice.payment_terms_days)
    ).first()
    owner = invoice.sales_order.owner
    credited_number = credited_external = ""
    if invoice.kind == Invoice.Kind.CREDIT_NOTE and invoice.credited_invoice_id:
        credited_number = invoice.credited_invoice.number
        cm = Mapping.objects.filter(
            kind=MappingKind.INVOICE, local_key=str(invoice.credited_invoice_id)
        ).first()
        credited_external = cm.external_id if cm else ""
    return DocumentData(
        kind=invoice.kind,
        number=invoice.number,
        customer_number=invoice.customer.number,
        customer_external_id=ids.get(f"customer:{invoice.customer_id}", ""),
        issue_date=invoice.issue_date,
        due_date=invoice.due_date,
        currency=invoice.currency,
        total_gross=invoice.total_gross,
        note=invoice.note,
        owner=invoice.owner_visma_id or (getattr(owner, "visma_owner_id", "") if owner else ""),
        salesperson=(getattr(owner, "visma_code", "") if owner else "") or "",
        payment_term=term.external_id if term else "",
        credited_number=credited_number,
        credited_external_id=credited_external,
        lines=[
            DocumentLine(
                article_number=line.product.article_number,
                article_external_id=ids.get(f"article:{line.product_id}", ""),
                description=line.description or line.product.name,
                quantity=line.quantity,
                unit_price=line.unit_price,
                discount_percent=line.discount_percent,
                vat_rate=line.vat_rate,
                vat_code=vat_codes.get(f"{line.vat_rate:.2f}", ""),
            )
            for line in invoice.lines.all()
        ],
    )


# -- enqueueing ----------------------------------------------------------------------------------------


def _enabled_connection() -> AccountingConnection | None:
    return AccountingConnection.objects.filter(enabled=True).only("pk", "tenant_id").first()


def _document_entry(invoice, depends_on: SyncEntry | None = None) -> SyncEntry:
    entry, _created = SyncEntry.objects.get_or_create(
        idempotency_key=f"{invoice.kind}:{invoice.pk}",
        defaults={
            "kind": invoice.kind,
            "record_id": invoice.pk,
            "record_label": invoice.number,
            "action": SyncEntry.Action.CREATE,
            "depends_on": depends_on,
            "next_attempt_at": timezone.now(),
        },
    )
    return entry


def enqueue_document(invoice) -> SyncEntry | None:
    """Queues a posted invoice or credit note (inside the posting transaction); the worker is started
    after the commit. Nothing when the company has no enabled accounting connection."""
    from apps.salesorders.models import Invoice

    connection = _enabled_connection()
    if connection is None:
        return None
    depends_on = None
    if invoice.kind == Invoice.Kind.CREDIT_NOTE and invoice.credited_invoice_id:
        depends_on = _document_entry(invoice.credited_invoice)
    entry = _document_entry(invoice, depends_on)
    _kick_after_commit(connection.tenant_id)
    return entry


def _invoice_posted(sender, invoice, **kwargs) -> None:
    enqueue_document(invoice)


def _supplier_saved(sender, record, level: str, **kwargs) -> None:
    enqueue_supplier(record, level)


def connect() -> None:
    """Called from AccountingConfig.ready(): posted invoices and saved suppliers are queued here (sales and
    suppliers send `invoice_posted` and `supplier_saved` without importing accounting)."""
    from apps.common.signals import invoice_posted, supplier_saved

    invoice_posted.connect(_invoice_posted, dispatch_uid="accounting.outbox.invoice_posted")
    supplier_saved.connect(_supplier_saved, dispatch_uid="accounting.outbox.supplier_saved")


def _kick_after_commit(tenant_id: int) -> None:
    def kick() -> None:
        from .tasks import process_outbox as task

        try:
            task.delay(tenant_id=tenant_id)
        except Exception:  # the broker is down: the periodic run picks the entry up
            logger.exception("accounting: could not queue the outbox run of tenant %s", tenant_id)

    transaction.on_commit(kick)


def _queue_master(
    kind: str, record_id: int, label: str, digest: str, action: str, *, now=None
) -> tuple[SyncEntry, bool]:
    """Queues a push of a supplier or parent vendor whose payload hashes to `digest`; returns (entry,
    created). Never two entries that would send the same thing:

    - a pending entry of the record that no worker holds is kept (it sends the record as it is when it
      runs; only its label follows the record);
    - the latest entry already stands for this content (pending, failed or skipped: trying it again is
      the sync log's retry) -> nothing new;
    - otherwise a new entry, keyed "<kind>:<pk>:<hash>" (with a counter when the record returns to a
      content it had before)."""
    now = now or timezone.now()
    base_key = f"{kind}:{record_id}:{digest[:16]}"
    latest = (
        SyncEntry.objects.filter(kind=kind, record_id=record_id)
        .exclude(action=SyncEntry.Action.READ_STATUS)
        .order_by("-pk")
        .first()
    )
    if latest is not None and latest.status == SyncEntry.Status.PENDING:
        held = latest.leased_until is not None and latest.leased_until > now
        if not held:
            if latest.record_label != label[:300]:
                SyncEntry.objects.filter(pk=latest.pk).update(record_label=label[:300], updated_at=now)
            return latest, False
    if (
        latest is not None
        and latest.status != SyncEntry.Status.SENT
        and (latest.idempotency_key == base_key or latest.idempotency_key.startswith(base_key + ":"))
    ):
        return latest, False
    key = base_key
    taken = SyncEntry.objects.filter(
        Q(idempotency_key=base_key) | Q(idempotency_key__startswith=base_key + ":")
    )
    count = taken.count()
    if count:
        key = f"{base_key}:{count + 1}"
    entry = SyncEntry.objects.create(
        idempotency_key=key,
        kind=kind,
        record_id=record_id,
        record_label=label[:300],
        action=action,
        next_attempt_at=now,
    )
    return entry, True


def enqueue_supplier(record, level: str) -> SyncEntry | None:
    """Queues a supplier or parent vendor that was created or changed (inside its saving transaction;
    the worker starts after the commit), when the company's enabled connection pushes suppliers at this
    level. One query when there is no such connection; nothing when the record is inactive or its
    payload is what was last pushed (an unchanged save)."""
    connection = (
        AccountingConnection.objects.filter(enabled=True).only("pk", "tenant_id", "supplier_level").first()
    )
    if connection is None or connection.supplier_level != level or not record.is_active:
        return None
    kind = MappingKind.PARENT_VENDOR if level == SupplierLevel.PARENT_VENDOR else MappingKind.SUPPLIER
    digest = payload_hash(supplier_data(record, level))
    mapping = Mapping.objects.filter(kind=kind, local_key=str(record.pk)).first()
    if mapping is not None and mapping.external_id and mapping.payload_hash == digest:
        return None
    action = (
        SyncEntry.Action.UPDATE if mapping is not None and mapping.external_id else SyncEntry.Action.CREATE
    )
    entry, created = _queue_master(kind, record.pk, record.name, digest, action)
    if created:
        _kick_after_commit(connection.tenant_id)
    return entry


def sync_plan(connection: AccountingConnection) -> dict[str, list[dict[str, Any]]]:
    """What a sync would send now, without calling the accounting system: posted documents not yet in the
    outbox (from `options.documents_from`, else the connection's creation date), the customers and
    articles they need that are new or changed, and the suppliers (or parent vendors) that are."""
    from apps.salesorders.models import Invoice
    from apps.suppliers.models import ParentVendor, Supplier

    since = _documents_from(connection)
    queued = set(SyncEntry.objects.filter(kind__in=DOCUMENT_KINDS).values_list("record_id", flat=True))
    documents = [
        inv
        for inv in Invoice.objects.filter(status=Invoice.Status.POSTED, issue_date__gte=since)
        .select_related("customer", "sales_order__owner")
        .order_by("posted_at", "pk")
        if inv.pk not in queued
    ]
    pending_docs = list(
        Invoice.objects.filter(
            pk__in=SyncEntry.objects.filter(kind__in=DOCUMENT_KINDS, status=SyncEntry.Status.PENDING).values(
                "record_id"
            )
        ).select_related("customer")
    )
    seen: set[tuple[str, int]] = set()
    masters: list[dict[str, Any]] = []
    for inv in [*documents, *pending_docs]:
        pushes, _ids = document_masters(inv)
        for push in pushes:
            if (push.kind, push.record_id) in seen:
                continue
            seen.add((push.kind, push.record_id))
            masters.append(
                {"kind": push.kind, "record_id": push.record_id, "label": push.label, "action": push.action}
            )
    model = ParentVendor if connection.supplier_level == SupplierLevel.PARENT_VENDOR else Supplier
    kind = (
        MappingKind.PARENT_VENDOR
        if connection.supplier_level == SupplierLevel.PARENT_VENDOR
        else MappingKind.SUPPLIER
    )
    sup_maps = {m.local_key: m for m in Mapping.objects.filter(kind=kind)}
    for record in model.objects.filter(is_active=True).order_by("pk"):
        push = _master(
            kind,
            record.pk,
            record.name,
            supplier_data(record, connection.supplier_level),
            sup_maps.get(str(record.pk)),
        )
        if push:
            masters.append(
                {"kind": push.kind, "record_id": push.record_id, "label": push.label, "action": push.action}
            )
    docs = [
        {"kind": inv.kind, "record_id": inv.pk, "label": inv.number, "action": SyncEntry.Action.CREATE}
        for inv in [*documents, *pending_docs]
    ]
    return {"masters": masters, "documents": docs}


def _documents_from(connection: AccountingConnection):
    raw = (connection.options or {}).get("documents_from")
    if isinstance(raw, str):
        try:
            from datetime import date

            return date.fromisoformat(raw)
        except ValueError:
            pass
    return timezone.localdate(connection.created_at) if connection.created_at else timezone.localdate()


@transaction.atomic
def sync_start(connection: AccountingConnection) -> dict[str, int]:
    """Queues what `sync_plan` lists (suppliers as their own entries, documents with their customers and
    articles pushed first) and starts the worker after the commit."""
    from apps.salesorders.models import Invoice
    from apps.suppliers.models import ParentVendor, Supplier

    plan = sync_plan(connection)
    queued = 0
    level = connection.supplier_level
    model = ParentVendor if level == SupplierLevel.PARENT_VENDOR else Supplier
    sup_kinds = (MappingKind.SUPPLIER, MappingKind.PARENT_VENDOR)
    records = model.objects.in_bulk([m["record_id"] for m in plan["masters"] if m["kind"] in sup_kinds])
    now = timezone.now()
    for item in plan["masters"]:
        if item["kind"] not in sup_kinds or item["record_id"] not in records:
            continue
        digest = payload_hash(supplier_data(records[item["record_id"]], level))
        _entry, created = _queue_master(
            item["kind"], item["record_id"], item["label"], digest, item["action"], now=now
        )
        queued += int(created)
    invoices = Invoice.objects.in_bulk([d["record_id"] for d in plan["documents"]])
    for item in sorted(plan["documents"], key=lambda d: (d["kind"] != "invoice", d["record_id"])):
        invoice = invoices[item["record_id"]]
        depends_on = None
        if invoice.kind == Invoice.Kind.CREDIT_NOTE and invoice.credited_invoice_id:
            depends_on = _document_entry(invoice.credited_invoice)
        before = SyncEntry.objects.filter(idempotency_key=f"{invoice.kind}:{invoice.pk}").exists()
        _document_entry(invoice, depends_on)
        queued += int(not before)
    if connection.first_sync_at is None:
        AccountingConnection.objects.filter(pk=connection.pk).update(first_sync_at=now)
    SyncEntry.objects.filter(status=SyncEntry.Status.PENDING, next_attempt_at__gt=now).update(
        next_attempt_at=now
    )
    _kick_after_commit(connection.tenant_id)
    return {"queued": queued}


# -- sync log actions ----------------------------------------------------------------------------------


@transaction.atomic
def entry_retry(*, entry: SyncEntry) -> SyncEntry:
    entry = SyncEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.status not in (SyncEntry.Status.FAILED, SyncEntry.Status.SKIPPED):
        raise EntryNotRetryable()
    entry.status = SyncEntry.Status.PENDING
    entry.next_attempt_at = timezone.now()
    entry.leased_until = None
    entry.attempts = 0
    entry.error = ""
    entry.save(update_fields=["status", "next_attempt_at", "leased_until", "attempts", "error", "updated_at"])
    _kick_after_commit(entry.tenant_id)
    return entry


@transaction.atomic
def entry_skip(*, entry: SyncEntry) -> SyncEntry:
    entry = SyncEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.status not in (SyncEntry.Status.PENDING, SyncEntry.Status.FAILED):
        raise EntryNotSkippable()
    entry.status = SyncEntry.Status.SKIPPED
    entry.leased_until = None
    entry.save(update_fields=["status", "leased_until", "updated_at"])
    return entry


# -- the worker ----------------------------------------------------------------------------------------


def _connection_for_worker(tenant_id: int) -> AccountingConnection | None:
    with tenant_context(tenant_id):
        return AccountingConnection.objects.filter(enabled=True).first()


def process_outbox(tenant_id: int, *, adapter: Adapter | None = None, limit: int = BATCH) -> dict[str, int]:
    """Works through the due entries of one tenant; returns counts by outcome."""
    from .services import adapter_of

    connection = _connection_for_worker(tenant_id)
    counts = {"sent": 0, "failed": 0, "retry": 0, "waiting": 0}
    if connection is None:
        return counts
    own_adapter = adapter is None
    adapter = adapter or adapter_of(connection)
    try:
        now = timezone.now()
        with tenant_context(tenant_id):
            ids = list(
                SyncEntry.objects.filter(status=SyncEntry.Status.PENDING)
                .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
                .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
                .order_by("pk")
                .values_list("pk", flat=True)[:limit]
            )
        for entry_id in ids:
            outcome = process_entry(tenant_id, entry_id, adapter=adapter, connection=connection)
            if outcome:
                counts[outcome] += 1
    finally:
        if own_adapter:
            adapter.close()
    return counts


def _lease(tenant_id: int, entry_id: int) -> SyncEntry | None:
    now = timezone.now()
    with tenant_context(tenant_id):
        claimed = (
            SyncEntry.objects.filter(pk=entry_id, status=SyncEntry.Status.PENDING)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
            .update(leased_until=now + LEASE)
        )
        if not claimed:
            return None
        return SyncEntry.objects.select_related("depends_on").get(pk=entry_id)


def _finish(tenant_id: int, entry_id: int, **fields) -> None:
    fields.setdefault("leased_until", None)
    fields["updated_at"] = timezone.now()
    with tenant_context(tenant_id):
        SyncEntry.objects.filter(pk=entry_id).update(**fields)


def _failure_fields(entry: SyncEntry, exc: AccountingError) -> dict[str, Any]:
    attempts = entry.attempts + 1
    fields: dict[str, Any] = {
        "attempts": attempts,
        "error": exc.message[:2000],
        "http_status": exc.http_status,
    }
    if exc.retryable and attempts < MAX_ATTEMPTS:
        wait = backoff(attempts)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:
            wait = max(wait, timedelta(seconds=retry_after))
        fields.update(status=SyncEntry.Status.PENDING, next_attempt_at=timezone.now() + wait)
    else:
        fields.update(status=SyncEntry.Status.FAILED, next_attempt_at=None)
    return fields


def _save_mapping(kind: str, record_id: int, label: str, external_id: str, digest: str) -> None:
    Mapping.objects.update_or_create(
        kind=kind,
        local_key=str(record_id),
        defaults={
            "external_id": external_id,
            "payload_hash": digest,
            "pushed_at": timezone.now(),
            "local_label": label[:300],
        },
    )


def _push_master(adapter: Adapter, push: MasterPush) -> str:
    if push.kind == MappingKind.CUSTOMER:
        return adapter.upsert_customer(push.data, push.external_id)
    if push.kind == MappingKind.ARTICLE:
        return adapter.upsert_article(push.data, push.external_id)
    return adapter.upsert_supplier(push.data, push.external_id)


def _master_key(push: MasterPush) -> str:
    return f"{push.kind}:{push.record_id}:{push.hash[:16]}"


class _MasterWaits(Exception):
    """A document's customer or article is in its own backoff: the document waits for it, no call."""

    def __init__(self, until, message: str) -> None:
        super().__init__(message)
        self.until = until
        self.message = message


class _MasterFailed(AccountingError):
    """A document's customer or article failed and waits for a person: the document fails with its
    reason, without a call (so without counting an attempt)."""


def _master_entry(tenant_id: int, push: MasterPush, *, fresh_document: bool) -> SyncEntry:
    """The log entry of a push a document makes of its customer or an article (the same key a queued
    push of that content has), checked before the call so that one push counts its own attempts:

    - in its backoff (an earlier document's call failed a moment ago): `_MasterWaits`, nothing is sent;
    - failed (refused, or MAX_ATTEMPTS used up) and this document was tried or waited before: the
      document fails with that message, nothing is sent (a person's retry of the document or the entry,
      or a change of the record, which is another push, sends it again);
    - failed and this document is new or retried by a person (`fresh_document`): the push starts again
      from 0 attempts."""
    now = timezone.now()
    with transaction.atomic(), tenant_context(tenant_id):
        entry, _created = SyncEntry.objects.get_or_create(
            idempotency_key=_master_key(push),
            defaults={
                "kind": push.kind,
                "record_id": push.record_id,
                "record_label": push.label[:300],
                "action": push.action,
            },
        )
        entry = SyncEntry.objects.select_for_update().get(pk=entry.pk)
        held = entry.leased_until is not None and entry.leased_until > now  # its own run is sending it
        if entry.status == SyncEntry.Status.PENDING and (
            held or (entry.next_attempt_at is not None and entry.next_attempt_at > now)
        ):
            until = max(t for t in (entry.next_attempt_at, entry.leased_until, now) if t is not None)
            raise _MasterWaits(
                until,
                _("Waits for %(record)s, tried again at %(when)s: %(error)s")
                % {
                    "record": push.label,
                    "when": timezone.localtime(until).strftime("%Y-%m-%d %H:%M"),
                    "error": entry.error,
                },
            )
        if entry.status in (SyncEntry.Status.FAILED, SyncEntry.Status.SKIPPED):
            if not fresh_document:
                raise _MasterFailed(f"{push.label}: {entry.error}", http_status=entry.http_status)
            entry.attempts = 0
            entry.status = SyncEntry.Status.PENDING
            entry.save(update_fields=["attempts", "status", "updated_at"])
    return entry


def _settle_earlier(
    tenant_id: int, kind: str, record_id: int, *, sent: SyncEntry | None, external_id: str, since
) -> int:
    """A record sent successfully settles its earlier pushes that failed or still wait (older content, or
    the same content under an earlier key): they are marked sent with the record's id, so the sync log
    shows no failure for a record that is in the accounting system. Entries created after the content
    was read (`since`) may hold a newer change and stay; so does one a worker holds now."""
    now = timezone.now()
    with tenant_context(tenant_id):
        earlier = (
            SyncEntry.objects.filter(kind=kind, record_id=record_id, created_at__lte=since)
            .filter(status__in=(SyncEntry.Status.PENDING, SyncEntry.Status.FAILED))
            .exclude(action=SyncEntry.Action.READ_STATUS)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
        )
        if sent is not None:
            earlier = earlier.exclude(pk=sent.pk)
        return earlier.update(
            status=SyncEntry.Status.SENT,
            external_id=external_id,
            error="",
            http_status=None,
            next_attempt_at=None,
            leased_until=None,
            sent_at=now,
            updated_at=now,
        )


def _run_masters(
    tenant_id: int, adapter: Adapter, pushes: list[MasterPush], *, fresh_document: bool = True
) -> dict[str, str]:
    """Pushes new/changed master records; returns the external ids. Each push is one attempt on its own
    log entry (`_master_entry`), with the same backoff and MAX_ATTEMPTS as an entry of its own. Raises
    the first error (logged on the master's own entry too), or `_MasterWaits`."""
    ids: dict[str, str] = {}
    for push in pushes:
        started = timezone.now()
        entry = _master_entry(tenant_id, push, fresh_document=fresh_document)
        try:
            external_id = _push_master(adapter, push)
        except AccountingError as exc:
            _finish(tenant_id, entry.pk, **_failure_fields(entry, exc))
            exc.message = f"{push.label}: {exc.message}"
            raise
        with tenant_context(tenant_id):
            _save_mapping(push.kind, push.record_id, push.label, external_id, push.hash)
        _finish(
            tenant_id,
            entry.pk,
            status=SyncEntry.Status.SENT,
            attempts=entry.attempts + 1,
            external_id=external_id,
            error="",
            http_status=None,
            sent_at=timezone.now(),
            next_attempt_at=None,
        )
        _settle_earlier(
            tenant_id, push.kind, push.record_id, sent=entry, external_id=external_id, since=started
        )
        ids[f"{push.kind}:{push.record_id}"] = external_id
    return ids


def process_entry(
    tenant_id: int, entry_id: int, *, adapter: Adapter, connection: AccountingConnection
) -> str | None:
    entry = _lease(tenant_id, entry_id)
    if entry is None:
        return None
    if entry.kind in DOCUMENT_KINDS:
        return _process_document(tenant_id, entry, adapter)
    return _process_master_entry(tenant_id, entry, adapter, connection)


def _process_master_entry(
    tenant_id: int, entry: SyncEntry, adapter: Adapter, connection: AccountingConnection
) -> str:
    from apps.customers.models import Customer
    from apps.products.models import Product
    from apps.suppliers.models import ParentVendor, Supplier

    started = timezone.now()
    with tenant_context(tenant_id):
        mapping = Mapping.objects.filter(kind=entry.kind, local_key=str(entry.record_id)).first()
        if entry.kind == MappingKind.CUSTOMER:
            record = Customer.objects.filter(pk=entry.record_id).first()
            data = customer_data(record) if record else None
        elif entry.kind == MappingKind.ARTICLE:
            record = Product.objects.filter(pk=entry.record_id).first()
            data = article_data(record) if record else None
        elif entry.kind == MappingKind.PARENT_VENDOR:
            record = ParentVendor.objects.filter(pk=entry.record_id).first()
            data = supplier_data(record, SupplierLevel.PARENT_VENDOR) if record else None
        else:
            record = Supplier.objects.filter(pk=entry.record_id).first()
            data = supplier_data(record, SupplierLevel.SUPPLIER) if record else None
    if data is None:
        _finish(tenant_id, entry.pk, status=SyncEntry.Status.FAILED, error=_("The record no longer exists."))
        return "failed"
    push = MasterPush(
        kind=entry.kind,
        record_id=entry.record_id,
        label=entry.record_label,
        data=data,
        hash=payload_hash(data),
        external_id=mapping.external_id if mapping else "",
    )
    if mapping is not None and mapping.external_id and mapping.payload_hash == push.hash:
        # sent as it is now by an earlier entry (or a document's push): nothing to send twice
        _settle_earlier(
            tenant_id, entry.kind, entry.record_id, sent=entry, external_id=mapping.external_id, since=started
        )
        _finish(
            tenant_id,
            entry.pk,
            status=SyncEntry.Status.SENT,
            external_id=mapping.external_id,
            error="",
            http_status=None,
            sent_at=timezone.now(),
            next_attempt_at=None,
        )
        return "sent"
    try:
        external_id = _push_master(adapter, push)
    except AccountingError as exc:
        fields = _failure_fields(entry, exc)
        _finish(tenant_id, entry.pk, **fields)
        return "retry" if fields["status"] == SyncEntry.Status.PENDING else "failed"
    with tenant_context(tenant_id):
        _save_mapping(push.kind, push.record_id, push.label, external_id, push.hash)
    _finish(
        tenant_id,
        entry.pk,
        status=SyncEntry.Status.SENT,
        attempts=entry.attempts + 1,
        external_id=external_id,
        error="",
        http_status=None,
        sent_at=timezone.now(),
    )
    _settle_earlier(
        tenant_id, entry.kind, entry.record_id, sent=entry, external_id=external_id, since=started
    )
    return "sent"


def _process_document(tenant_id: int, entry: SyncEntry, adapter: Adapter) -> str:
    from apps.salesorders.models import Invoice

    dependency = entry.depends_on
    if dependency is not None and dependency.status != SyncEntry.Status.SENT:
        with tenant_context(tenant_id):
            linked = (
                Mapping.objects.filter(kind=MappingKind.INVOICE, local_key=str(dependency.record_id))
                .exclude(external_id="")
                .exists()
            )
        if not linked:
            _finish(
                tenant_id,
                entry.pk,
                next_attempt_at=timezone.now() + DEPENDENCY_WAIT,
                error=_("Waits for invoice %(number)s to be sent first.")
                % {"number": dependency.record_label},
            )
            return "waiting"
    with tenant_context(tenant_id):
        invoice = (
            Invoice.objects.select_related("customer", "sales_order__owner", "credited_invoice")
            .prefetch_related("lines__product")
            .filter(pk=entry.record_id)
            .first()
        )
        if invoice is None or invoice.status != Invoice.Status.POSTED:
            invoice = None
        else:
            pushes, ids = document_masters(invoice)
            mapping = Mapping.objects.filter(kind=entry.kind, local_key=str(invoice.pk)).first()
    if invoice is None:
        _finish(
            tenant_id,
            entry.pk,
            status=SyncEntry.Status.FAILED,
            error=_("The document is not a posted invoice."),
        )
        return "failed"
    try:
        # Never tried nor waited (new, or retried by a person: the retry clears both).
        fresh = entry.attempts == 0 and not entry.error
        ids.update(_run_masters(tenant_id, adapter, pushes, fresh_document=fresh))
        with tenant_context(tenant_id):
            data = document_data(invoice, ids)
        external_id = mapping.external_id if mapping and mapping.external_id else ""
        if not external_id:
            # Always, not only after a failed attempt: a worker that died after Visma wrote the document
            # and before this row recorded anything (attempts still 0) must not send it a second time.
            external_id = adapter.find_document(entry.kind, invoice.number) or ""
        action = SyncEntry.Action.CREATE
        if not external_id:
            external_id = adapter.create_document(data)
        else:
            action = entry.action
    except _MasterWaits as waits:
        _finish(tenant_id, entry.pk, next_attempt_at=waits.until, error=waits.message[:2000])
        return "waiting"
    except _MasterFailed as failed:
        _finish(
            tenant_id,
            entry.pk,
            status=SyncEntry.Status.FAILED,
            next_attempt_at=None,
            error=failed.message[:2000],
            http_status=failed.http_status,
        )
        return "failed"
    except AccountingError as exc:
        fields = _failure_fields(entry, exc)
        _finish(tenant_id, entry.pk, **fields)
        return "retry" if fields["status"] == SyncEntry.Status.PENDING else "failed"
    with tenant_context(tenant_id):
        _save_mapping(entry.kind, invoice.pk, invoice.number, external_id, payload_hash(data))
    _finish(
        tenant_id,
        entry.pk,
        status=SyncEntry.Status.SENT,
        action=action,
        attempts=entry.attempts + 1,
        external_id=external_id,
        error="",
        http_status=None,
        sent_at=timezone.now(),
        next_attempt_at=None,
    )
    return "sent"


# -- payment status ------------------------------------------------------------------------------------


def read_payment_status(
    tenant_id: int, *, adapter: Adapter | None = None, limit: int = 200
) -> dict[str, int]:
    """Reads the payment status of sent invoices that are not paid yet, stores it on the mapping and the
    invoice's amount paid (gross - posted credit notes - what the accounting system says is open). A
    change of status is written to the sync log."""
    from apps.salesorders.models import Invoice
    from apps.salesorders.services import invoice_paid_from_accounting

    from .services import adapter_of

    connection = _connection_for_worker(tenant_id)
    counts = {"read": 0, "changed": 0, "failed": 0}
    if connection is None:
        return counts
    with tenant_context(tenant_id):
        rows = list(
            Mapping.objects.filter(kind=MappingKind.INVOICE)
            .exclude(external_id="")
            .exclude(external_status="paid")
            .order_by("status_read_at", "pk")[:limit]
        )
    own = adapter is None
    adapter = adapter or adapter_of(connection)
    try:
        for mapping in rows:
            try:
                status = adapter.payment_status(mapping.kind, mapping.external_id)
            except AccountingError as exc:
                counts["failed"] += 1
                if isinstance(exc, Temporary):
                    break
                continue
            counts["read"] += 1
            with transaction.atomic(), tenant_context(tenant_id):
                changed = (
                    status.status != mapping.external_status
                    or status.open_amount != mapping.external_open_amount
                )
                Mapping.objects.filter(pk=mapping.pk).update(
                    external_status=status.status,
                    external_open_amount=status.open_amount,
                    status_read_at=timezone.now(),
                )
                invoice = Invoice.objects.select_for_update().filter(pk=int(mapping.local_key)).first()
                if invoice is not None and status.open_amount is not None:
                    from django.db.models import Sum

                    credited = Invoice.objects.filter(
                        credited_invoice=invoice, status=Invoice.Status.POSTED
                    ).aggregate(s=Sum("total_gross"))["s"] or Decimal("0")
                    paid = invoice.total_gross - credited - status.open_amount
                    paid = max(Decimal("0"), min(paid, invoice.total_gross - credited))
                    # the difference becomes a payment of the invoice's own (its paid total is the sum)
                    invoice_paid_from_accounting(
                        invoice=invoice,
                        paid=paid,
                        reference=f"{connection.get_provider_display()} {mapping.external_id}"[:140],
                    )
                if changed:
                    counts["changed"] += 1
                    SyncEntry.objects.get_or_create(
                        idempotency_key=f"status:{mapping.kind}:{mapping.local_key}:{status.status}:{status.open_amount}",
                        defaults={
                            "kind": mapping.kind,
                            "record_id": int(mapping.local_key),
                            "record_label": mapping.local_label,
                            "action": SyncEntry.Action.READ_STATUS,
                            "status": SyncEntry.Status.SENT,
                            "attempts": 1,
                            "external_id": mapping.external_id,
                            "sent_at": timezone.now(),
                            "error": "",
                        },
                    )
    finally:
        if own:
            adapter.close()
    return counts
