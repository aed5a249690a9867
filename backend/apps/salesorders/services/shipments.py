"""Shipments of a sales order: their lines, picking and shipping (stock moves), and their cartons."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.inventory import services as inventory
from apps.inventory.models import Location, Stock, StockMove, Warehouse, WarehouseCarton
from apps.notifications.emit import emit
from apps.numbering import services as numbering
from apps.salesorders.errors import (
    CartonNotFound,
    CartonOnOtherShipment,
    CartonsNotPicked,
    CartonVoided,
    CartonWrongProduct,
    CodesRequired,
    DuplicateLine,
    IllegalShipmentAction,
    InvalidQuantity,
    LineNotFound,
    NoOpenQuantity,
    OverShipment,
    ShipmentAlreadyShipped,
    ShipmentLinesRequired,
    ShipmentReadOnly,
)
from apps.salesorders.models import (
    SalesOrder,
    SalesOrderLine,
    Shipment,
    ShipmentCarton,
    ShipmentLine,
)
from apps.salesorders.services._common import ZERO, Status, _lock_order, _order_warehouse, _refreshed
from apps.salesorders.services.orders import order_refresh
from apps.tenancy.models import Tenant

# -- shipments ----------------------------------------------------------------------------------------------


@dataclass
class ShipmentLineInput:
    order_line: SalesOrderLine
    quantity: Decimal


SHIPPABLE = (Status.CONFIRMED, Status.PARTIALLY_SHIPPED, Status.PARTIALLY_INVOICED)


def _pending_quantities(order_line_ids, exclude_shipment: int | None = None) -> dict[int, Decimal]:
    """Quantity per order line on shipments that have not shipped yet."""
    qs = ShipmentLine.objects.filter(
        order_line_id__in=list(order_line_ids),
        shipment__status__in=[Shipment.Status.DRAFT, Shipment.Status.PICKED],
    )
    if exclude_shipment is not None:
        qs = qs.exclude(shipment_id=exclude_shipment)
    return dict(qs.values("order_line_id").annotate(q=Sum("quantity")).values_list("order_line_id", "q"))


def _check_shipment_lines(order: SalesOrder, lines: list[ShipmentLineInput], exclude_shipment=None) -> None:
    if not lines:
        raise ShipmentLinesRequired()
    ids = [item.order_line.pk for item in lines]
    if len(set(ids)) != len(ids):
        raise DuplicateLine()
    pending = _pending_quantities(ids, exclude_shipment)
    fresh = {line.pk: line for line in SalesOrderLine.objects.select_for_update().filter(pk__in=ids)}
    for item in lines:
        line = fresh.get(item.order_line.pk)
        if line is None or line.order_id != order.pk:
            raise LineNotFound()
        if item.quantity <= 0:
            raise InvalidQuantity()
        open_qty = line.quantity - line.quantity_shipped - (pending.get(line.pk) or ZERO)
        if item.quantity > open_qty:
            raise OverShipment(
                _("Line %(number)s has %(open)s open; %(quantity)s cannot ship.")
                % {"number": line.line_number, "open": max(open_qty, ZERO), "quantity": item.quantity},
                data={"order_line": line.pk, "open": str(max(open_qty, ZERO))},
            )


def _shipment_number_taken(number: str) -> bool:
    return Shipment.objects.filter(shipment_number=number).exists()


@transaction.atomic
def shipment_create(
    *,
    sales_order: SalesOrder,
    lines: list[ShipmentLineInput],
    user=None,
    warehouse: Warehouse | None = None,
    **fields: Any,
) -> Shipment:
    """A draft shipment of open quantities of one confirmed order (each line at most what is open,
    minus what other unshipped shipments already hold)."""
    order = _lock_order(sales_order)
    if order.status not in SHIPPABLE:
        raise NoOpenQuantity()
    _check_shipment_lines(order, lines)
    today = timezone.localdate()
    shipment = Shipment.objects.create(
        shipment_number=numbering.number_next(
            numbering.SALES_SHIPMENT, year=today.year, taken=_shipment_number_taken
        ).text,
        sales_order=order,
        warehouse=warehouse or _order_warehouse(order),
        created_by=user,
        **{key: value for key, value in fields.items() if value is not None},
    )
    ShipmentLine.objects.bulk_create(
        [
            ShipmentLine(shipment=shipment, order_line=item.order_line, quantity=item.quantity)
            for item in lines
        ]
    )
    return shipment


def _lock_shipment(shipment: Shipment) -> Shipment:
    return Shipment.objects.select_for_update(of=("self",)).select_related("sales_order").get(pk=shipment.pk)


@transaction.atomic
def shipment_update(
    *, shipment: Shipment, fields: dict[str, Any], lines: list[ShipmentLineInput] | None
) -> Shipment:
    """Changes a shipment that has not shipped: its dates, carrier, note and (draft only) its lines."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status in (Shipment.Status.SHIPPED, Shipment.Status.DELIVERED):
        raise ShipmentReadOnly()
    for name, value in fields.items():
        setattr(shipment, name, value)
    shipment.save()
    if lines is not None:
        _check_shipment_lines(shipment.sales_order, lines, exclude_shipment=shipment.pk)
        keep = {item.order_line.pk: item for item in lines}
        for line in list(shipment.lines.all()):
            if line.order_line_id not in keep:
                # its cartons come off the shipment and are in stock again (the carton's state machine)
                label_ids = list(line.cartons.values_list("carton_id", flat=True))
                line.delete()
                inventory.cartons_unpicked(label_ids=label_ids, reference=shipment.shipment_number)
            else:
                line.quantity = keep.pop(line.order_line_id).quantity
                line.save(update_fields=["quantity"])
        ShipmentLine.objects.bulk_create(
            [
                ShipmentLine(shipment=shipment, order_line=item.order_line, quantity=item.quantity)
                for item in keep.values()
            ]
        )
    return _refreshed(given, shipment)


@transaction.atomic
def shipment_delete(*, shipment: Shipment) -> None:
    shipment = _lock_shipment(shipment)
    if shipment.status in (Shipment.Status.SHIPPED, Shipment.Status.DELIVERED):
        raise ShipmentReadOnly()
    label_ids = list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True))
    number = shipment.shipment_number
    shipment.delete()
    # its picked cartons are in stock again where they are
    inventory.cartons_unpicked(label_ids=label_ids, reference=number)


@transaction.atomic
def shipment_pick(*, shipment: Shipment) -> Shipment:
    """draft -> picked."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status != Shipment.Status.DRAFT:
        raise IllegalShipmentAction()
    shipment.status = Shipment.Status.PICKED
    shipment.save(update_fields=["status", "updated_at"])
    return _refreshed(given, shipment)


def _issue_moves(
    shipment: Shipment, lines: list[ShipmentLine], cartons_at: dict[tuple[int, int], int] | None = None
) -> list[inventory.MoveSpec]:
    """Where each line's goods leave from, so that the stock of a shelf follows its cartons (one carton is
    one unit): first the cartons picked for the shipment, from where they are (`cartons_at`: cartons per
    product and location); then goods without a carton in stock; then, only if that is not enough, any
    stock. Within each, shipping locations first, then storage, then receiving, the fullest first. What
    no location holds is taken from the first location (the move service then refuses it unless negative
    stock is allowed)."""
    product_ids = {line.order_line.product_id for line in lines}
    rank = {Location.Kind.SHIPPING: 0, Location.Kind.STORAGE: 1, Location.Kind.RECEIVING: 2}
    stock_rows = list(
        Stock.objects.filter(
            product_id__in=product_ids, location__warehouse_id=shipment.warehouse_id, quantity__gt=0
        ).select_related("location")
    )
    stock_rows.sort(key=lambda row: (rank.get(row.location.kind, 3), -row.quantity, row.location.code))
    left = {row.pk: row.quantity for row in stock_rows}
    picked = dict(cartons_at or {})
    # cartons in stock that stay on their shelf: their units are not taken while others are there
    shelved: dict[tuple[int, int], int] = {}
    for key in (
        WarehouseCarton.objects.filter(
            product_id__in=product_ids,
            location__warehouse_id=shipment.warehouse_id,
            status=WarehouseCarton.Status.IN_STOCK,
        )
        .order_by()
        .values_list("product_id", "location_id")
    ):
        shelved[key] = shelved.get(key, 0) + 1
    taken: dict[tuple[int, int], Decimal] = {}
    for line in lines:
        need = line.quantity
        product_id = line.order_line.product_id
        for step in ("picked", "loose", "any"):
            for row in stock_rows:
                if need <= 0:
                    break
                key = (product_id, row.location_id)
                if row.product_id != product_id or left[row.pk] <= 0:
                    continue
                take = min(need, left[row.pk])
                if step == "picked":
                    take = min(take, Decimal(picked.get(key, 0)))
                elif step == "loose":
                    take = min(
                        take, left[row.pk] - Decimal(shelved.get(key, 0)) - Decimal(picked.get(key, 0))
                    )
                if take <= 0:
                    continue
                if step == "picked":
                    picked[key] -= int(take)
                left[row.pk] -= take
                need -= take
                taken[key] = taken.get(key, Decimal("0")) + take
        if need > 0:
            raise inventory.InsufficientStock(
                _("The warehouse holds too little of %(product)s to ship this shipment.")
                % {"product": line.order_line.product}
            )
    locations = {row.location_id: row.location for row in stock_rows}
    return [
        inventory.MoveSpec(product_id=product_id, quantity=quantity, from_location=locations[location_id])
        for (product_id, location_id), quantity in taken.items()
    ]


def labelled_product_ids(product_ids) -> set[int]:
    """The products among `product_ids` that carry EUDR carton labels (an active label exists): their
    goods ship as picked cartons."""
    from apps.eudr.models import CartonLabel

    return set(
        CartonLabel.objects.filter(product_id__in=list(product_ids), status=CartonLabel.Status.ACTIVE)
        .order_by()
        .values_list("product_id", flat=True)
        .distinct()
    )


def _check_picked_cartons(lines: list[ShipmentLine]) -> None:
    """Labelled goods ship as their picked cartons: a line of a labelled product may not ship more than
    its picked cartons, unless the company allows shipping unlabelled stock; then what ships without a
    carton is kept on the line (`unlabelled_quantity`, printed on the delivery note)."""
    labelled = labelled_product_ids({line.order_line.product_id for line in lines})
    if not labelled:
        return
    picked = dict(
        ShipmentCarton.objects.filter(shipment_line__in=[line.pk for line in lines])
        .values("shipment_line_id")
        .annotate(n=Count("pk"))
        .values_list("shipment_line_id", "n")
    )
    short = []
    for line in lines:
        if line.order_line.product_id not in labelled:
            continue
        missing = line.quantity - Decimal(picked.get(line.pk, 0))
        if missing > 0:
            short.append((line, missing))
    if not short:
        return
    from apps.tenancy.context import get_current_tenant_id

    allowed = (
        Tenant.objects.filter(pk=get_current_tenant_id() or 0)
        .values_list("allow_unlabelled_shipping", flat=True)
        .first()
    )
    if not allowed:
        line, missing = short[0]
        raise CartonsNotPicked(
            _(
                "%(article)s: %(picked)s of %(quantity)s cartons are picked; pick the %(missing)s missing "
                "or ship only what is picked."
            )
            % {
                "article": line.order_line.product.article_number,
                "picked": picked.get(line.pk, 0),
                "quantity": f"{line.quantity.normalize():f}",
                "missing": f"{missing.normalize():f}",
            },
            data={
                "lines": [
                    {
                        "shipment_line": row.pk,
                        "order_line": row.order_line_id,
                        "quantity": str(row.quantity),
                        "picked": picked.get(row.pk, 0),
                        "missing": str(gap),
                    }
                    for row, gap in short
                ]
            },
        )
    for line, missing in short:
        line.unlabelled_quantity = missing
        ShipmentLine.objects.filter(pk=line.pk).update(unlabelled_quantity=missing)


@transaction.atomic
def shipment_ship(*, shipment: Shipment, user=None) -> Shipment:
    """draft/picked -> shipped, all or nothing: re-checks the open quantities under the order lines' row
    locks, posts the issue moves out of the warehouse (`stock_moves_post`), consumes the reservations,
    adds to `quantity_shipped` and derives the order's status."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise IllegalShipmentAction()
    order = _lock_order(shipment.sales_order)
    if order.status not in SHIPPABLE:
        raise NoOpenQuantity()
    lines = list(shipment.lines.select_related("order_line__product").order_by("order_line_id"))
    if not lines:
        raise ShipmentLinesRequired()
    locked = {
        line.pk: line
        for line in SalesOrderLine.objects.select_for_update(of=("self",))
        .filter(pk__in=[line.order_line_id for line in lines])
        .order_by("pk")
    }
    carton_ids = list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True))
    for line in lines:
        order_line = locked[line.order_line_id]
        if line.quantity > order_line.quantity - order_line.quantity_shipped:
            raise OverShipment(data={"order_line": order_line.pk})
        line.order_line = order_line
    _check_picked_cartons(lines)
    cartons_at: dict[tuple[int, int], int] = {}
    for product_id, location_id in WarehouseCarton.objects.filter(
        label_id__in=carton_ids, location__isnull=False
    ).values_list("product_id", "location_id"):
        cartons_at[(product_id, location_id)] = cartons_at.get((product_id, location_id), 0) + 1
    inventory.stock_moves_post(
        moves=_issue_moves(shipment, lines, cartons_at),
        kind=StockMove.Kind.ISSUE,
        reference=shipment.shipment_number,
        user=user,
        note=order.order_number,
        document_type=StockMove.Document.SHIPMENT,
        document_id=shipment.pk,
    )
    if carton_ids:
        # The cartons' warehouse history: shipped, to this order's customer.
        inventory.cartons_shipped(
            label_ids=carton_ids, reference=shipment.shipment_number, customer_id=order.customer_id, user=user
        )
    for line in lines:
        inventory.reservations_consume(order_line=line.order_line, quantity=line.quantity)
        SalesOrderLine.objects.filter(pk=line.order_line_id).update(
            quantity_shipped=F("quantity_shipped") + line.quantity
        )
    shipment.status = Shipment.Status.SHIPPED
    shipment.shipped_at = timezone.now()
    shipment.save(update_fields=["status", "shipped_at", "updated_at"])
    order_refresh(order=order)
    emit("sales_shipment.shipped", record=shipment)
    return _refreshed(given, shipment)


@transaction.atomic
def shipment_deliver(*, shipment: Shipment) -> Shipment:
    """shipped -> delivered."""
    given = shipment
    shipment = _lock_shipment(shipment)
    if shipment.status != Shipment.Status.SHIPPED:
        raise IllegalShipmentAction()
    shipment.status = Shipment.Status.DELIVERED
    shipment.delivered_at = timezone.now()
    shipment.save(update_fields=["status", "delivered_at", "updated_at"])
    inventory.cartons_delivered(
        label_ids=list(ShipmentCarton.objects.filter(shipment=shipment).values_list("carton_id", flat=True)),
        reference=shipment.shipment_number,
    )
    return _refreshed(given, shipment)


def _normalise_codes(codes) -> list[str]:
    seen: list[str] = []
    for code in codes:
        code = "".join(str(code).split())
        if code and code not in seen:
            seen.append(code)
    return seen


def _carton_checks(
    *, shipment: Shipment, cartons: dict[str, Any], codes: list[str], lines_by_product
) -> None:
    """Each refusal has its own error key and names the code. Extend here (one place) with further
    checks on a carton before it may go on a shipment."""
    for code in codes:
        carton = cartons.get(code)
        if carton is None:
            # unknown, or another tenant's (row-level security hides it): the same answer
            raise CartonNotFound(CartonNotFound.default_message % {"code": code}, data={"code": code})
        if carton.status != carton.Status.ACTIVE:
            raise CartonVoided(CartonVoided.default_message % {"code": code}, data={"code": code})
        if carton.product_id not in lines_by_product:
            raise CartonWrongProduct(CartonWrongProduct.default_message % {"code": code}, data={"code": code})
        current = getattr(carton, "sales_shipment_carton", None)
        if current is not None and current.shipment_id != shipment.pk:
            raise CartonOnOtherShipment(
                CartonOnOtherShipment.default_message
                % {"code": code, "shipment": current.shipment.shipment_number},
                data={"code": code, "shipment": current.shipment_id},
            )


@transaction.atomic
def shipment_cartons_add(*, shipment: Shipment, codes: list[str], user=None) -> list[ShipmentCarton]:
    """Puts cartons (by their public code) on a shipment that has not shipped, each on the shipment line
    of its product. All or nothing: the first refused code refuses the request (`data.code` names it).
    A code already on this shipment is accepted again (a second scan). A carton is on one shipment only:
    checked here and guaranteed by the one-to-one key (a concurrent add of the same carton loses)."""
    from apps.eudr.models import CartonLabel

    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise ShipmentAlreadyShipped()
    codes = _normalise_codes(codes)
    if not codes:
        raise CodesRequired()
    cartons = {
        carton.code: carton
        for carton in CartonLabel.objects.filter(code__in=codes).select_related(
            "sales_shipment_carton__shipment"
        )
    }
    lines_by_product: dict[int, ShipmentLine] = {}
    for line in shipment.lines.select_related("order_line").order_by("id"):
        lines_by_product.setdefault(line.order_line.product_id, line)
    _carton_checks(shipment=shipment, cartons=cartons, codes=codes, lines_by_product=lines_by_product)
    new_labels = [
        cartons[code] for code in codes if getattr(cartons[code], "sales_shipment_carton", None) is None
    ]
    if new_labels:
        # The warehouse's rules: received into stock and still there; no more cartons than the line's quantity.
        room: dict[int, Decimal] = {}
        for line in shipment.lines.select_related("order_line"):
            room[line.order_line.product_id] = (
                room.get(line.order_line.product_id, Decimal("0")) + line.quantity
            )
        on_shipment = dict(
            ShipmentCarton.objects.filter(shipment=shipment)
            .values("carton__product_id")
            .annotate(n=Count("pk"))
            .values_list("carton__product_id", "n")
        )
        inventory.cartons_pick_check(labels=new_labels, picked_per_product=on_shipment, room_per_product=room)
    new = [
        ShipmentCarton(
            shipment=shipment,
            shipment_line=lines_by_product[cartons[code].product_id],
            carton=cartons[code],
            added_by=user,
        )
        for code in codes
        if getattr(cartons[code], "sales_shipment_carton", None) is None
    ]
    try:
        with transaction.atomic():
            ShipmentCarton.objects.bulk_create(new)
    except IntegrityError as exc:
        raise CartonOnOtherShipment(
            _("One of the cartons was put on another shipment meanwhile."), error=CartonOnOtherShipment.error
        ) from exc
    if new_labels:
        inventory.cartons_picked(
            labels=new_labels,
            reference=shipment.shipment_number,
            customer_id=shipment.sales_order.customer_id,
            user=user,
        )
    return list(ShipmentCarton.objects.filter(shipment=shipment, carton__code__in=codes))


@transaction.atomic
def shipment_cartons_remove(*, shipment: Shipment, codes: list[str]) -> int:
    shipment = _lock_shipment(shipment)
    if shipment.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
        raise ShipmentAlreadyShipped()
    removing = ShipmentCarton.objects.filter(shipment=shipment, carton__code__in=_normalise_codes(codes))
    label_ids = list(removing.values_list("carton_id", flat=True))
    deleted, _detail = removing.delete()
    inventory.cartons_unpicked(label_ids=label_ids, reference=shipment.shipment_number)
    return deleted
