"""The life of one carton, owned here and nowhere else.

A carton is its label (`eudr.CartonLabel`) and, once it reached the warehouse, its `WarehouseCarton` row.
Its state is one of:

    labelled      the label is printed (active), no container named on it, not in the warehouse
    in_container  the label names the container the carton travels in, not yet in the warehouse
    received      scanned in at the warehouse, its unit not yet posted to stock
    in_stock      posted to stock at a location (a purchase receipt stands for it)
    picked        on a sales shipment that has not shipped
    shipped       left the warehouse with its sales shipment
    delivered     the sales shipment was delivered
    voided        the label was voided before the carton was received (who, when and why are kept)

Every step is an `Action`; `TRANSITIONS` is the whole state machine. Every area that moves a carton
(purchasing's receipts, the warehouse's scans, the sales shipments, EUDR's label voiding) calls
`carton_check` / `cartons_transition` here, which refuse any other step with the area's domain error
naming the carton. The public trace reads the life from the same rows (`CartonEvent`).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.inventory.errors import (
    CartonAlreadyReceived,
    CartonAlreadyShipped,
    CartonCovered,
    CartonNotCovered,
    CartonNotInStock,
    CartonNotPicked,
    CartonNotVoidable,
    CartonPicked,
    CartonTransitionRefused,
    CartonVoided,
)
from apps.inventory.models import CartonEvent, WarehouseCarton


class Life(StrEnum):
    LABELLED = "labelled"
    IN_CONTAINER = "in_container"
    RECEIVED = "received"
    IN_STOCK = "in_stock"
    PICKED = "picked"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    VOIDED = "voided"


class Action(StrEnum):
    RECEIVE = "receive"
    STOCK = "stock"
    MOVE = "move"
    PICK = "pick"
    UNPICK = "unpick"
    SHIP = "ship"
    DELIVER = "deliver"
    VOID = "void"


LIFE_LABELS = {
    Life.LABELLED: _("labelled"),
    Life.IN_CONTAINER: _("in a container"),
    Life.RECEIVED: _("received, not yet in stock"),
    Life.IN_STOCK: _("in stock"),
    Life.PICKED: _("picked"),
    Life.SHIPPED: _("shipped"),
    Life.DELIVERED: _("delivered"),
    Life.VOIDED: _("voided"),
}

ACTION_LABELS = {
    Action.RECEIVE: _("received"),
    Action.STOCK: _("posted to stock"),
    Action.MOVE: _("moved"),
    Action.PICK: _("picked"),
    Action.UNPICK: _("taken off its shipment"),
    Action.SHIP: _("shipped"),
    Action.DELIVER: _("delivered"),
    Action.VOID: _("voided"),
}

# (state, action) -> state after. Nothing else is allowed.
TRANSITIONS: dict[tuple[Life, Action], Life] = {
    (Life.LABELLED, Action.RECEIVE): Life.RECEIVED,
    (Life.IN_CONTAINER, Action.RECEIVE): Life.RECEIVED,
    (Life.LABELLED, Action.VOID): Life.VOIDED,
    (Life.IN_CONTAINER, Action.VOID): Life.VOIDED,
    (Life.RECEIVED, Action.STOCK): Life.IN_STOCK,
    (Life.RECEIVED, Action.MOVE): Life.RECEIVED,
    (Life.IN_STOCK, Action.MOVE): Life.IN_STOCK,
    (Life.IN_STOCK, Action.PICK): Life.PICKED,
    (Life.PICKED, Action.UNPICK): Life.IN_STOCK,
    (Life.PICKED, Action.SHIP): Life.SHIPPED,
    (Life.SHIPPED, Action.DELIVER): Life.DELIVERED,
}

# The warehouse row's status for each state a warehouse row can have.
_STATUS = {
    Life.RECEIVED: WarehouseCarton.Status.RECEIVED,
    Life.IN_STOCK: WarehouseCarton.Status.IN_STOCK,
    Life.PICKED: WarehouseCarton.Status.PICKED,
    Life.SHIPPED: WarehouseCarton.Status.SHIPPED,
    Life.DELIVERED: WarehouseCarton.Status.DELIVERED,
}
_LIFE = {status: life for life, status in _STATUS.items()}

# The event each action writes into the carton's history.
_EVENT = {
    Action.RECEIVE: CartonEvent.Kind.RECEIVED,
    Action.STOCK: CartonEvent.Kind.STOCKED,
    Action.MOVE: CartonEvent.Kind.MOVED,
    Action.PICK: CartonEvent.Kind.PICKED,
    Action.UNPICK: CartonEvent.Kind.UNPICKED,
    Action.SHIP: CartonEvent.Kind.SHIPPED,
    Action.DELIVER: CartonEvent.Kind.DELIVERED,
}


def life_of(*, label, carton: WarehouseCarton | None) -> Life:
    """The one state of a carton from its label and its warehouse row (None: never in the warehouse)."""
    from apps.eudr.models import CartonLabel

    if label.status == CartonLabel.Status.VOIDED:
        return Life.VOIDED
    if carton is None:
        return Life.IN_CONTAINER if label.container else Life.LABELLED
    return _LIFE[carton.status]


def _refusal(state: Life, action: Action, code: str):
    """The domain error for a step the state machine does not allow, naming the carton."""
    data = {"code": code, "state": str(state), "action": str(action)}
    values = {"code": code}
    if state == Life.VOIDED:
        return CartonVoided(gettext("The label of carton %(code)s was voided.") % values, data=data)
    if action == Action.VOID:
        if state in (Life.SHIPPED, Life.DELIVERED):
            message = gettext(
                "Carton %(code)s was shipped to a customer: it can never be deleted or have its weight "
                "returned."
            )
        else:
            message = gettext(
                "Carton %(code)s was received into the warehouse: its label can no longer be voided."
            )
        return CartonNotVoidable(message % values, data=data)
    if action == Action.RECEIVE:
        return CartonAlreadyReceived(gettext("Carton %(code)s was already received.") % values, data=data)
    if state in (Life.SHIPPED, Life.DELIVERED) and action in (Action.MOVE, Action.PICK, Action.SHIP):
        return CartonAlreadyShipped(gettext("Carton %(code)s was already shipped.") % values, data=data)
    if action == Action.MOVE and state == Life.PICKED:
        return CartonPicked(gettext("Carton %(code)s is picked for a shipment.") % values, data=data)
    if action in (Action.MOVE, Action.PICK) and state in (Life.LABELLED, Life.IN_CONTAINER):
        return CartonNotInStock(
            gettext("Carton %(code)s was not received into the warehouse.") % values, data=data
        )
    if action == Action.PICK and state == Life.RECEIVED:
        return CartonNotInStock(gettext("Carton %(code)s was not received into stock.") % values, data=data)
    if action == Action.PICK and state == Life.PICKED:
        return CartonNotInStock(
            gettext("Carton %(code)s is picked for another shipment.") % values, data=data
        )
    if action == Action.SHIP:
        return CartonNotPicked(
            gettext("Carton %(code)s is %(state)s, not picked: it cannot ship.")
            % {**values, "state": LIFE_LABELS[state]},
            data=data,
        )
    return CartonTransitionRefused(
        gettext("Carton %(code)s is %(state)s: it cannot be %(action)s.")
        % {**values, "state": LIFE_LABELS[state], "action": ACTION_LABELS[action]},
        data=data,
    )


def carton_check(*, label, carton: WarehouseCarton | None, action: Action) -> Life:
    """The state the carton reaches by `action`, or the refusal (a domain error naming the carton)."""
    state = life_of(label=label, carton=carton)
    after = TRANSITIONS.get((state, action))
    if after is None:
        raise _refusal(state, action, label.code)
    return after


def carton_event(
    carton: WarehouseCarton,
    action: Action,
    *,
    user,
    location=None,
    reference="",
    scan_id="",
    customer_id=None,
) -> CartonEvent:
    """The history row of one step (not saved)."""
    return CartonEvent(
        carton=carton,
        kind=_EVENT[action],
        location=location,
        reference=reference[:100],
        scan_id=scan_id[:64],
        created_by=user,
        customer_id=customer_id,
    )


def carton_received(*, label, shipment, location, user, scan_id: str = "") -> WarehouseCarton:
    """labelled / in a container -> received: the carton's warehouse row is created at `location` with
    its `received` event. The caller holds the label's row lock and has checked the receiving rules."""
    from django.utils import timezone

    carton_check(
        label=label, carton=WarehouseCarton.objects.filter(label=label).first(), action=Action.RECEIVE
    )
    carton = WarehouseCarton.objects.create(
        label=label,
        product_id=label.product_id,
        status=WarehouseCarton.Status.RECEIVED,
        location=location,
        inbound_shipment=shipment,
        received_at=timezone.now(),
    )
    carton_event(
        carton,
        Action.RECEIVE,
        user=user,
        location=location,
        reference=shipment.container_number if shipment else "",
        scan_id=scan_id,
    ).save()
    return carton


def cartons_transition(
    *,
    label_ids: Iterable[int],
    action: Action,
    user,
    reference: str = "",
    customer_id: int | None = None,
    receipt=None,
    location=None,
    scan_id: str = "",
) -> list[WarehouseCarton]:
    """Moves the cartons of `label_ids` one step (`action`), all or none: locks their warehouse rows (pk
    order), checks every one against the state machine (the first refusal names its carton), writes the
    new status (shipping clears the location; stocking sets `receipt`; moving sets `location`) and one
    history event each. Returns the cartons in pk order."""
    ids = sorted(set(label_ids))
    if not ids:
        return []
    if action in (Action.RECEIVE, Action.VOID):
        raise ValueError("receive and void have their own services")
    rows = {
        c.label_id: c
        for c in WarehouseCarton.objects.select_for_update(of=("self",))
        .select_related("label", "location")
        .filter(label_id__in=ids)
        .order_by("pk")
    }
    from apps.eudr.models import CartonLabel

    for label in CartonLabel.objects.filter(pk__in=ids).exclude(pk__in=rows.keys()).order_by("pk"):
        carton_check(label=label, carton=None, action=action)
    cartons = [rows[i] for i in ids if i in rows]
    cartons.sort(key=lambda c: c.pk)
    after = {}
    for carton in cartons:
        after[carton.pk] = carton_check(label=carton.label, carton=carton, action=action)
    if action == Action.SHIP:
        uncovered_shipping_check(cartons)
    events = []
    fields = ["status", "updated_at"]
    for carton in cartons:
        where = carton.location
        carton.status = _STATUS[after[carton.pk]]
        if action == Action.SHIP:
            carton.location = None
        if action == Action.MOVE:
            carton.location = location
            where = location
        if action == Action.STOCK:
            carton.receipt = receipt
        events.append(
            carton_event(
                carton,
                action,
                user=user,
                location=where,
                reference=reference,
                scan_id=scan_id,
                customer_id=customer_id if action in (Action.PICK, Action.SHIP) else None,
            )
        )
    if action == Action.SHIP or action == Action.MOVE:
        fields.append("location")
    if action == Action.STOCK:
        fields.append("receipt")
    WarehouseCarton.objects.bulk_update(cartons, fields)
    CartonEvent.objects.bulk_create(events)
    if cartons:
        from apps.common.signals import public_trace_changed

        # The public trace shows the warehouse history; bulk writes send no model signal.
        public_trace_changed.send(
            sender=WarehouseCarton,
            tenant_id=cartons[0].tenant_id,
            labels=[carton.label_id for carton in cartons],
        )
    return cartons


def uncovered_shipping_check(cartons: list[WarehouseCarton]) -> list[int]:
    """An imported carton leaves for a customer only once an available statement of ours covers its
    placing (docs/eudr.md, "Statements around the placing"), unless the company allows it in Company
    settings. Returns the labels of the uncovered cartons that ship anyway (the documents say so)."""
    from apps.eudr.placing import cartons_not_covered

    uncovered, allowed = cartons_not_covered([c.label_id for c in cartons])
    if uncovered and not allowed:
        first = next(c for c in cartons if c.label_id == uncovered[0])
        raise CartonNotCovered(
            gettext(
                "Carton %(code)s is not covered by an available due diligence statement yet: file the "
                "statement of its container first (%(count)s carton(s) on this shipment)."
            )
            % {"code": first.label.code, "count": len(uncovered)},
            data={"code": first.label.code, "count": len(uncovered)},
        )
    return uncovered


def labels_void_check(*, labels) -> None:
    """Refuses voiding any label whose carton reached the warehouse (received, in stock, picked, shipped,
    delivered): the first such carton is named. Voided labels pass (voiding again changes nothing)."""
    labels = list(labels)
    rows = {
        c.label_id: c for c in WarehouseCarton.objects.filter(label_id__in=[label.pk for label in labels])
    }
    from apps.eudr.models import DdsCoveredCarton

    declared = set(
        DdsCoveredCarton.objects.filter(label_id__in=[label.pk for label in labels], active=True).values_list(
            "label_id", flat=True
        )
    )
    for label in sorted(labels, key=lambda label: label.pk):
        if life_of(label=label, carton=rows.get(label.pk)) == Life.VOIDED:
            continue
        carton_check(label=label, carton=rows.get(label.pk), action=Action.VOID)
        if label.pk in declared:
            raise CartonCovered(
                gettext(
                    "Carton %(code)s is declared by a due diligence statement: its label can no longer be "
                    "voided."
                )
                % {"code": label.code},
                data={"code": label.code},
            )
