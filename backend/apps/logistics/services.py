"""Shipment writes: creation and changes with the orders a shipment carries, and status transitions.

Status: planned -> in_transit -> arrived -> received, one step at a time; one step back is allowed to
correct a mistake (in_transit -> planned, arrived -> in_transit); received is final.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.logistics.errors import (
    CompanyInUse,
    DispatchExists,
    IllegalShipmentTransition,
    ShipmentNotPlanned,
    ShipmentReadOnly,
)
from apps.logistics.models import ShipmentCompany, ShipmentInfo, ShipmentPurchaseOrder
from apps.notifications.emit import emit

Status = ShipmentInfo.Status

TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.PLANNED: (Status.IN_TRANSIT,),
    Status.IN_TRANSIT: (Status.ARRIVED, Status.PLANNED),
    Status.ARRIVED: (Status.RECEIVED, Status.IN_TRANSIT),
    Status.RECEIVED: (),
}


def _set_orders(shipment: ShipmentInfo, orders) -> None:
    wanted = {order.pk for order in orders}
    current = set(shipment.order_links.values_list("purchase_order_id", flat=True))
    if current - wanted:
        shipment.order_links.filter(purchase_order_id__in=current - wanted).delete()
    ShipmentPurchaseOrder.objects.bulk_create(
        [ShipmentPurchaseOrder(shipment=shipment, purchase_order_id=pk) for pk in sorted(wanted - current)]
    )


@transaction.atomic
def shipment_create(*, fields: dict[str, Any], purchase_orders=()) -> ShipmentInfo:
    shipment = ShipmentInfo(**fields)
    shipment.full_clean(exclude=["tenant", "purchase_orders"])
    shipment.save()
    _set_orders(shipment, purchase_orders)
    return shipment


@transaction.atomic
def shipment_update(*, shipment: ShipmentInfo, fields: dict[str, Any], purchase_orders=None) -> ShipmentInfo:
    """Changes a shipment that is not yet received (its row locked); status changes go through
    `shipment_transition`."""
    locked = ShipmentInfo.objects.select_for_update(of=("self",)).get(pk=shipment.pk)
    if locked.status == Status.RECEIVED:
        raise ShipmentReadOnly()
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save()
    if purchase_orders is not None:
        _set_orders(locked, purchase_orders)
    return locked


@transaction.atomic
def shipment_transition(*, shipment: ShipmentInfo, to_status: str) -> ShipmentInfo:
    locked = ShipmentInfo.objects.select_for_update(of=("self",)).get(pk=shipment.pk)
    if to_status not in TRANSITIONS[locked.status]:
        raise IllegalShipmentTransition(
            _("A shipment cannot go from %(from)s to %(to)s.")
            % {"from": Status(locked.status).label, "to": Status(to_status).label}
        )
    locked.status = to_status
    locked.save(update_fields=["status", "updated_at"])
    if to_status == Status.ARRIVED:
        emit("inbound_shipment.arrived", record=locked, key=f"arrived@{timezone.now().isoformat()}")
    return locked


@transaction.atomic
def shipment_delete(*, shipment: ShipmentInfo) -> None:
    locked = ShipmentInfo.objects.select_for_update(of=("self",)).get(pk=shipment.pk)
    if locked.status != Status.PLANNED:
        raise ShipmentNotPlanned()
    locked.order_links.all().delete()
    locked.delete()


@transaction.atomic
def shipment_company_delete(*, company: ShipmentCompany) -> None:
    if ShipmentInfo.objects.filter(shipment_company=company).exists():
        raise CompanyInUse()
    company.delete()


@transaction.atomic
def dispatch_save(*, serializer, sales_shipment):
    """Saves a dispatch (new or changed) for `sales_shipment`, which has at most one. The sales shipment's
    row is locked first, so two requests at once for the same shipment take turns: the second sees the
    first's dispatch (committed by then) and is refused with `dispatch_exists` instead of a duplicate
    key error. The one-to-one key stays the last guard (a savepoint turns its violation into the same
    refusal)."""
    from django.db import IntegrityError

    from apps.logistics.models import Dispatch
    from apps.salesorders.models import Shipment as SalesShipment

    SalesShipment.objects.select_for_update(of=("self",)).filter(pk=sales_shipment.pk).first()
    taken = Dispatch.objects.filter(sales_shipment_id=sales_shipment.pk)
    if serializer.instance is not None:
        taken = taken.exclude(pk=serializer.instance.pk)
    if taken.exists():
        raise DispatchExists(data={"sales_shipment": [str(DispatchExists.default_message)]})
    try:
        with transaction.atomic():
            return serializer.save()
    except IntegrityError as exc:
        raise DispatchExists(data={"sales_shipment": [str(DispatchExists.default_message)]}) from exc
