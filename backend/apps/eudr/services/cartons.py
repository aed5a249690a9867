"""Cartons (labels): issuing them while weight remains, approvals over the cap, deleting them."""

from __future__ import annotations

import base64
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Sum
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.exceptions import Conflict, FieldErrors
from apps.eudr import errors, trace_store
from apps.eudr.generation import (
    MAX_CARTONS_PER_REQUEST,
    GenerationLimit,
    OrderLineRoom,
    generation_limit,
    net_weight_per_carton,
    order_line_room,
)
from apps.eudr.models import (
    CapApproval,
    CartonLabel,
    ProductionBatch,
    RawMaterialDelivery,
)
from apps.eudr.selectors import kg, weight_balance
from apps.eudr.warehouse import warehouse
from apps.notifications.emit import emit
from apps.purchaseorders.models import PurchaseOrderLine
from apps.tenancy.context import TenantNotSet, get_current_tenant_id
from config import fixed_clock

MIN_AVAILABLE_TO_GENERATE_KG = Decimal("10")  # docs/specification.md section 9
LABEL_INSERT_BATCH = 2_000
MSG_SELECT_LABELS = errors.MSG_SELECT_LABELS


# -- cap approvals ---------------------------------------------------------------------------------------


@transaction.atomic
def cap_approve(*, delivery_id: int, extra_cartons: int, reason: str, user) -> CapApproval:
    """Records an approval of cartons over the delivery's cap (who, when, how many, why) and adds it to the
    delivery's `approved_over_cap`. The weight rules still apply: an approval never creates weight."""
    delivery = get_object_or_404(RawMaterialDelivery.objects.select_for_update(of=("self",)), pk=delivery_id)
    if delivery.status == RawMaterialDelivery.Status.DRAFT:
        raise Conflict(_("Submit the draft first."), error=errors.EudrErrorCode.RAW_MATERIAL_DRAFT)
    approval = CapApproval.objects.create(
        delivery=delivery, extra_cartons=extra_cartons, reason=reason.strip(), approved_by=user
    )
    delivery.approved_over_cap += extra_cartons
    delivery.save(update_fields=["approved_over_cap", "updated_at"])
    emit(
        "cartons.over_cap_approved",
        record=delivery,
        key=str(approval.pk),
        extra={"extra_cartons": extra_cartons, "reason": approval.reason, "approved_by": user},
    )
    return approval


# -- cartons ---------------------------------------------------------------------------------------------


def new_public_code() -> str:
    """20 characters of base32 from 96 random bits: unguessable, globally unique in practice (and by the
    unique index)."""
    return base64.b32encode(fixed_clock.random_bytes(12)).decode("ascii").rstrip("=")


def _refuse_unless_active(delivery: RawMaterialDelivery) -> None:
    status = delivery.effective_status()
    if status == RawMaterialDelivery.Status.ACTIVE:
        return
    if status == RawMaterialDelivery.Status.DRAFT:
        raise errors.RawMaterialNotActive(
            _("This delivery is a draft: submit it before generating cartons."),
            error=errors.EudrErrorCode.RAW_MATERIAL_DRAFT,
        )
    if status == RawMaterialDelivery.Status.EXPIRED:
        raise errors.RawMaterialNotActive(
            _("A certificate of this delivery has expired: it cannot issue cartons."),
            error=errors.EudrErrorCode.RAW_MATERIAL_EXPIRED,
        )
    raise errors.RawMaterialNotActive(_("This delivery is inactive: it cannot issue cartons."))


def check_generation(
    *, delivery: RawMaterialDelivery, count: int, net_weight_kg: Decimal, limit: GenerationLimit | None = None
) -> None:
    """The weight and cap rules of docs/specification.md sections 4, 5 and 9, in this order:
    no weight left -> under 10 kg left -> the request needs more than remains -> over the cap (+ approved).
    Every refusal carries `max_cartons` and `binding`: the one limit of all rules (apps/eudr/generation.py)."""
    balance = weight_balance(delivery)
    remaining = balance.remaining_kg
    limit = limit or generation_limit(delivery=delivery, net_weight_kg=net_weight_kg)
    facts = {
        "remaining_kg": str(remaining),
        "required_kg": str(kg(net_weight_kg * count)),
        **limit.as_data(),
    }
    if balance.available_kg <= 0 or remaining <= 0:
        raise errors.NoWeightAvailable(data=facts)
    if remaining < MIN_AVAILABLE_TO_GENERATE_KG:
        raise errors.InsufficientWeightMin(data=facts)
    if net_weight_kg * count > remaining:
        raise errors.InsufficientWeight(data=facts)
    if delivery.allowed_carton_cap is not None:
        cap = delivery.allowed_carton_cap + delivery.approved_over_cap
        if delivery.issued_cartons + count > cap:
            emit(
                "cartons.over_cap",
                record=delivery,
                key=f"{delivery.issued_cartons}/{cap}",
                extra={"requested": count, "max_cartons": max(cap - delivery.issued_cartons, 0)},
                detached=True,
            )
            raise errors.WeightLimitExceeded(
                data={
                    **facts,
                    "allowed_carton_cap": delivery.allowed_carton_cap,
                    "approved_over_cap": delivery.approved_over_cap,
                    "issued_cartons": delivery.issued_cartons,
                }
            )


def _check_order_quantity(*, room: OrderLineRoom, count: int, limit: GenerationLimit | None = None) -> None:
    """Refuses labels beyond the line's ordered quantity plus the tolerance, over every delivery (`room`,
    read under the line's row lock, so concurrent generations on one line are counted one after the
    other). Voided labels do not count."""
    if room.issued + count <= room.limit:
        return
    values = {
        "ordered": f"{room.ordered.normalize():f}",
        "tolerance": f"{room.tolerance.normalize():f}",
        "limit": room.limit,
        "issued": room.issued,
        "remaining": room.remaining,
    }
    raise errors.OrderQuantityExceeded(
        _(
            "The purchase order line allows %(limit)s cartons (%(ordered)s ordered plus %(tolerance)s%% "
            "tolerance); %(issued)s are labelled, so at most %(remaining)s more."
        )
        % values,
        data={**values, **(limit.as_data() if limit is not None else {})},
    )


def cartons_generate(
    *,
    delivery_id: int,
    count: int,
    production_batch_code: str,
    product,
    purchase_order_line,
    container: str = "",
    user=None,
    delivery_queryset=None,
) -> ProductionBatch:
    """Issues `count` carton labels of one production batch from a delivery's remaining weight.

    Locks the delivery row (select_for_update), re-reads its balance inside the lock, checks the rules
    (status active; the purchase order line of the delivery's parent vendor and of this product; the net
    weight per carton = the line's weight per carton, else the product's, never below the policy's
    minimum consumption; weight and cap as in `check_generation`), then locks or creates the batch and
    bulk-inserts the labels with random public codes. One transaction: all labels or none.

    Continuing an existing batch (same code on the same delivery) needs the batch's product, order line,
    container (compared without case) and net weight per carton; anything else is refused, so every label
    of a batch carries the same facts and the batch's used weight stays carton count x net weight.
    """
    if not 1 <= count <= MAX_CARTONS_PER_REQUEST:
        raise FieldErrors(
            {"count": [_("Request between 1 and %(max)d cartons.") % {"max": MAX_CARTONS_PER_REQUEST}]}
        )
    queryset = delivery_queryset if delivery_queryset is not None else RawMaterialDelivery.objects.all()
    delivery = queryset.select_for_update(of=("self",)).select_related("parent_vendor").get(pk=delivery_id)
    _refuse_unless_active(delivery)
    # The line is locked too (after the delivery: one order everywhere), so a purchase order edit that
    # changes its product or weight per carton waits for this transaction, and the check it makes on
    # labels sees the ones issued here (apps/purchaseorders/services.py locks order, then lines).
    purchase_order_line = (
        PurchaseOrderLine.objects.select_for_update(of=("self",))
        .select_related("order__supplier")
        .get(pk=purchase_order_line.pk)
    )

    order = purchase_order_line.order
    if order.supplier.parent_vendor_id != delivery.parent_vendor_id:
        raise errors.GenerationInputError(
            _("The purchase order line belongs to another parent vendor's order."),
            error=errors.EudrErrorCode.PURCHASE_ORDER_LINE_MISMATCH,
            data={
                "purchase_order_line": [
                    _("The purchase order line belongs to another parent vendor's order.")
                ]
            },
        )
    if purchase_order_line.product_id != product.pk:
        raise errors.GenerationInputError(
            _("The product does not match the purchase order line's product."),
            error=errors.EudrErrorCode.PRODUCT_MISMATCH,
            data={"product": [_("The product does not match the purchase order line's product.")]},
        )
    if order.status == "cancelled":
        raise Conflict(
            _("The purchase order is cancelled."), error=errors.EudrErrorCode.PURCHASE_ORDER_CANCELLED
        )
    if order.status == "draft":  # docs/purchasing.md, "Lifecycle": cartons only for a confirmed order
        raise Conflict(
            _("The purchase order is a draft: confirm it before issuing carton labels."),
            error=errors.EudrErrorCode.PURCHASE_ORDER_NOT_CONFIRMED,
        )
    net_weight = net_weight_per_carton(
        delivery=delivery, product=product, purchase_order_line=purchase_order_line
    )
    if net_weight is None:
        raise errors.GenerationInputError(
            _("Neither the purchase order line nor the product has a weight per carton."),
            error=errors.EudrErrorCode.CARTON_WEIGHT_MISSING,
            data={"purchase_order_line": [_("Enter the weight per carton on the purchase order line.")]},
        )
    room = order_line_room(delivery=delivery, purchase_order_line=purchase_order_line)  # counted once
    limit = generation_limit(delivery=delivery, net_weight_kg=net_weight, room=room)
    check_generation(delivery=delivery, count=count, net_weight_kg=net_weight, limit=limit)
    _check_order_quantity(room=room, count=count, limit=limit)

    container = (container or "").strip()
    batch = _batch_for_generation(
        delivery=delivery,
        code=production_batch_code,
        product=product,
        purchase_order_line=purchase_order_line,
        container=container,
        net_weight=net_weight,
        user=user,
    )
    first = batch.last_sequence + 1
    # In the order drawn (a dict, not a set: a set's order follows the process's string hashing), so that
    # under a fixed clock (config/fixed_clock.py) the same label gets the same code on every load.
    codes: dict[str, None] = {}
    while len(codes) < count:
        codes[new_public_code()] = None
    _insert_labels(
        template=CartonLabel(
            tenant_id=delivery.tenant_id,
            batch=batch,
            raw_material=delivery,
            production_batch_code=batch.production_batch_code,
            product=product,
            article_number=product.article_number,
            purchase_order_line=purchase_order_line,
            purchase_order=order.order_number,
            container=batch.container,
            net_weight_kg=net_weight,
            status=CartonLabel.Status.ACTIVE,
            created_at=timezone.now(),
        ),
        codes=list(codes),
        first_sequence=first,
    )

    batch.last_sequence = first + count - 1
    batch.carton_count += count
    batch.save(update_fields=["last_sequence", "carton_count", "updated_at"])
    # The line's counter of active labels (the purchase order list reads it), under the line's lock.
    PurchaseOrderLine.objects.filter(pk=purchase_order_line.pk).update(
        cartons_issued=F("cartons_issued") + count
    )
    delivery.used_kg = kg(delivery.used_kg + net_weight * count)
    delivery.issued_cartons += count
    delivery.save(update_fields=["used_kg", "issued_cartons", "updated_at"])
    batch.generated_count = count  # type: ignore[attr-defined]  # this call's count, for the answer
    return batch


# The columns of a carton label row, in the order `_insert_labels` writes them.
_LABEL_COLUMNS = (
    "tenant_id",
    "batch_id",
    "raw_material_id",
    "code",
    "production_batch_code",
    "batch_sequence",
    "product_id",
    "article_number",
    "purchase_order_line_id",
    "purchase_order",
    "container",
    "net_weight_kg",
    "status",
    "created_at",
    "voided_at",
    "void_reason",
)


def _insert_labels(*, template: CartonLabel, codes, first_sequence: int) -> None:
    """Writes one label per code, numbered from `first_sequence`, every other column as in `template`.

    The rows differ only in code and sequence, so the model is not instantiated per row: the template's
    foreign keys are checked against the tenant once (as `bulk_create` would for every row), its values
    are converted for the database once. On PostgreSQL one INSERT ... SELECT over two arrays (codes and
    sequence numbers) writes them all: row-level security's WITH CHECK, the foreign keys and the unique
    indexes still apply to every row (COPY FROM, which would skip the statement, is refused on a table
    with row-level security). Elsewhere plain tuples go in batches of LABEL_INSERT_BATCH rows.
    """
    tenant_id = get_current_tenant_id()
    if tenant_id is None or template.tenant_id != tenant_id:
        raise TenantNotSet("carton labels written outside their tenant")
    # Written without the model: their public answers are built once the generation commits.
    trace_store.changed(tenant_id, codes=codes)
    CartonLabel.clean_tenant_relations_bulk([template])
    fields = {field.column: field for field in CartonLabel._meta.concrete_fields}
    fixed = {
        column: fields[column].get_db_prep_save(
            getattr(template, fields[column].attname), connection=connection
        )
        for column in _LABEL_COLUMNS
        if column not in ("code", "batch_sequence")
    }
    code_at, sequence_at = _LABEL_COLUMNS.index("code"), _LABEL_COLUMNS.index("batch_sequence")
    prefix = [fixed[column] for column in _LABEL_COLUMNS[:code_at]]
    middle = [fixed[column] for column in _LABEL_COLUMNS[code_at + 1 : sequence_at]]
    suffix = [fixed[column] for column in _LABEL_COLUMNS[sequence_at + 1 :]]
    table = connection.ops.quote_name(CartonLabel._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(column) for column in _LABEL_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement: the fixed values once, the codes and sequence numbers as two arrays.
            # (COPY FROM is refused on a table with row-level security.)
            values = ", ".join(
                "u.code"
                if column == "code"
                else "u.seq"
                if column == "batch_sequence"
                else f"%s::{fields[column].cast_db_type(connection)}"
                for column in _LABEL_COLUMNS
            )
            cursor.execute(
                # the names come from the model, every value is bound
                f"INSERT INTO {table} ({columns}) SELECT {values} "  # noqa: S608
                f"FROM unnest(%s::varchar[], %s::integer[]) AS u(code, seq)",
                [
                    *(fixed[column] for column in _LABEL_COLUMNS if column in fixed),
                    list(codes),
                    list(range(first_sequence, first_sequence + len(codes))),
                ],
            )
            return
        rows = ((*prefix, code, *middle, first_sequence + index, *suffix) for index, code in enumerate(codes))
        placeholders = ", ".join(["%s"] * len(_LABEL_COLUMNS))
        insert = f"INSERT INTO {table} ({columns}) VALUES ({placeholders})"  # noqa: S608 (names of the model)
        batch: list[tuple] = []
        for row in rows:
            batch.append(row)
            if len(batch) == LABEL_INSERT_BATCH:
                cursor.executemany(insert, batch)
                batch = []
        if batch:
            cursor.executemany(insert, batch)


def _batch_for_generation(
    *, delivery, code: str, product, purchase_order_line, container: str, net_weight: Decimal, user
) -> ProductionBatch:
    existing = (
        ProductionBatch.objects.select_for_update(of=("self",)).filter(production_batch_code=code).first()
    )
    if existing is not None:
        if existing.delivery_id != delivery.pk:
            raise Conflict(
                _("Production batch %(code)s belongs to another raw-material delivery.") % {"code": code},
                error=errors.EudrErrorCode.BATCH_CODE_IN_USE,
                data={"production_batch_code": [_("This batch code is used by another delivery.")]},
            )
        if existing.product_id != product.pk or existing.purchase_order_line_id != purchase_order_line.pk:
            raise errors.GenerationInputError(
                _("Production batch %(code)s was started for another product or order line.")
                % {"code": code},
                error=errors.EudrErrorCode.BATCH_MISMATCH,
                data={
                    "production_batch_code": [_("This batch was started for another product or order line.")]
                },
            )
        if existing.container.upper() != container.upper():
            # A batch's labels all name one container; another container is another batch.
            raise Conflict(
                _(
                    "Production batch %(code)s was started for container %(old)s, not %(new)s: use a new "
                    "batch code for this container."
                )
                % {"code": code, "old": existing.container or "-", "new": container or "-"},
                error=errors.EudrErrorCode.BATCH_CONTAINER_MISMATCH,
                data={"container": [_("This batch was started for another container.")]},
            )
        if existing.net_weight_per_carton_kg != net_weight:
            # The batch's used weight is its carton count x its net weight per carton: one weight only.
            raise Conflict(
                _(
                    "Production batch %(code)s was started with %(old)s kg per carton; the order line now "
                    "gives %(new)s kg: use a new batch code."
                )
                % {"code": code, "old": existing.net_weight_per_carton_kg, "new": net_weight},
                error=errors.EudrErrorCode.BATCH_WEIGHT_MISMATCH,
                data={
                    "production_batch_code": [_("This batch was started with another net weight per carton.")]
                },
            )
        return existing
    try:
        with transaction.atomic():
            return ProductionBatch.objects.create(
                delivery=delivery,
                production_batch_code=code,
                product=product,
                purchase_order_line=purchase_order_line,
                container=container or "",
                net_weight_per_carton_kg=net_weight,
                created_by=user,
            )
    except IntegrityError:
        # Another request created the same batch code for another delivery a moment ago.
        raise Conflict(
            _("Production batch %(code)s was just created by another request: try again.") % {"code": code},
            error=errors.EudrErrorCode.BATCH_CODE_IN_USE,
        ) from None


@transaction.atomic
def cartons_delete(*, ids: list[int], queryset, user=None, reason: str = "") -> dict[str, Any]:
    """Voids the selected labels (their codes are never reused; the trace page no longer finds them) and
    gives their weight back to their deliveries, keeping who voided them, when and why. Only a carton
    that never reached the warehouse can be voided (the carton's state machine,
    `apps.inventory.carton_life`): one received, in stock, picked, shipped or delivered (so also
    invoiced) refuses the whole request, naming it. `queryset`: the labels the user may see; an id outside it
    answers 404 and nothing is deleted. Locks the deliveries, then the labels' order lines, then the
    batches, in id order (the order carton generation takes them in); each line's `cartons_issued` counter
    goes down by its labels voided here."""
    if not ids:
        raise errors.LabelsNotSelected()
    wanted = set(ids)
    found = list(
        queryset.filter(pk__in=wanted).values(
            "pk", "raw_material_id", "batch_id", "purchase_order_line_id", "status", "net_weight_kg"
        )
    )
    if len(found) != len(wanted):
        raise errors.LabelsNotFound()
    active = [row for row in found if row["status"] == CartonLabel.Status.ACTIVE]
    delivery_ids = sorted({row["raw_material_id"] for row in active})
    batch_ids = sorted({row["batch_id"] for row in active})
    deliveries = {
        d.pk: d
        for d in RawMaterialDelivery.objects.select_for_update(of=("self",))
        .filter(pk__in=delivery_ids)
        .order_by("pk")
    }
    # The labels' order lines, after the deliveries and before the batches, as carton generation locks them.
    line_ids = sorted({row["purchase_order_line_id"] for row in active})
    list(PurchaseOrderLine.objects.select_for_update(of=("self",)).filter(pk__in=line_ids).order_by("pk"))
    batches = {
        b.pk: b
        for b in ProductionBatch.objects.select_for_update(of=("self",))
        .filter(pk__in=batch_ids)
        .order_by("pk")
    }
    # Re-read inside the locks: only labels still active are voided and counted. The labels are locked
    # so a scan at the warehouse (which locks the label first) cannot receive one while it is voided.
    still_active = CartonLabel.objects.filter(
        pk__in=[row["pk"] for row in active], status=CartonLabel.Status.ACTIVE
    )
    warehouse().labels_void_check(
        labels=list(
            still_active.select_for_update(of=("self",))
            .order_by("pk")
            .only("pk", "code", "status", "container")
        )
    )
    per_delivery: dict[int, list[Any]] = defaultdict(lambda: [0, Decimal(0)])
    per_batch: dict[int, int] = defaultdict(int)
    per_line: dict[int, int] = defaultdict(int)
    for row in (
        still_active.order_by()
        .values("raw_material_id", "batch_id", "purchase_order_line_id")
        .annotate(n=Count("id"), kg=Sum("net_weight_kg"))
    ):
        per_delivery[row["raw_material_id"]][0] += row["n"]
        per_delivery[row["raw_material_id"]][1] += row["kg"] or 0
        per_batch[row["batch_id"]] += row["n"]
        per_line[row["purchase_order_line_id"]] += row["n"]
    voided = still_active.update(
        status=CartonLabel.Status.VOIDED, voided_at=timezone.now(), voided_by=user, void_reason=reason[:200]
    )
    # An update() sends no signal: the voided cartons' public answers go in this transaction.
    voided_ids = [row["pk"] for row in active]
    trace_store.withdrawn(voided_ids)
    trace_store.changed(get_current_tenant_id(), labels=voided_ids)
    returned = Decimal(0)
    for delivery_id, (n, weight) in per_delivery.items():
        delivery = deliveries[delivery_id]
        delivery.used_kg = kg(max(delivery.used_kg - weight, Decimal(0)))
        delivery.issued_cartons = max(delivery.issued_cartons - n, 0)
        delivery.save(update_fields=["used_kg", "issued_cartons", "updated_at"])
        returned += weight
    for batch_id, n in per_batch.items():
        batch = batches[batch_id]
        batch.carton_count = max(batch.carton_count - n, 0)
        batch.save(update_fields=["carton_count", "updated_at"])
    for line_id, n in sorted(per_line.items()):
        PurchaseOrderLine.objects.filter(pk=line_id).update(cartons_issued=F("cartons_issued") - n)
    return {"deleted": voided, "returned_kg": str(kg(returned))}
