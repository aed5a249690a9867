"""Stock reads: stock rows with reserved/available, per-product totals, stock as of a moment replayed from
the ledger, carton history, inbound shipments with expected/received cartons, and the warehouse search."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import (
    Count,
    DecimalField,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from apps.inventory.models import (
    CartonEvent,
    ReorderPoint,
    Reservation,
    Stock,
    StockMove,
    Warehouse,
    WarehouseCarton,
)

QTY = DecimalField(max_digits=14, decimal_places=3)
ZERO = Value(Decimal("0"), output_field=QTY)
DZERO = Decimal("0")


def _reserved_subquery(**outer):
    rows = Reservation.objects.filter(status="active", **{k: OuterRef(v) for k, v in outer.items()})
    total = rows.order_by().values(*outer.keys()).annotate(total=Sum("quantity")).values("total")
    return Coalesce(Subquery(total, output_field=QTY), ZERO)


def _reorder_point_subquery(product_ref: str):
    points = ReorderPoint.objects.filter(product_id=OuterRef(product_ref)).values("reorder_point")[:1]
    return Subquery(points, output_field=QTY)


def _product_available_subquery(product_ref: str):
    on_hand = (
        Stock.objects.filter(product_id=OuterRef(product_ref))
        .order_by()
        .values("product_id")
        .annotate(total=Sum("quantity"))
        .values("total")
    )
    return ExpressionWrapper(
        Coalesce(Subquery(on_hand, output_field=QTY), ZERO) - _reserved_subquery(product_id=product_ref),
        output_field=QTY,
    )


def stock_rows(queryset: QuerySet) -> QuerySet:
    """Stock per product and location with `on_hand`, `reserved` (active reservations held on that
    location) and `available` (on hand - reserved), the product's reorder point and `product_available`
    (what is available of the product over all locations: what the reorder point compares with, so a
    row is "low" by the product's total, never by one shelf). One query."""
    return (
        queryset.select_related("product__group", "location__warehouse")
        .annotate(
            on_hand=F("quantity"),
            reserved=_reserved_subquery(product_id="product_id", location_id="location_id"),
            reorder_point=_reorder_point_subquery("product_id"),
            product_available=_product_available_subquery("product_id"),
        )
        .annotate(available=ExpressionWrapper(F("on_hand") - F("reserved"), output_field=QTY))
    )


def below_reorder_point(queryset: QuerySet, product_ref: str = "product_id") -> QuerySet:
    """Rows of products whose available quantity over all locations is below their reorder point."""
    return queryset.annotate(
        _product_available=_product_available_subquery(product_ref),
        _reorder=_reorder_point_subquery(product_ref),
    ).filter(_reorder__isnull=False, _product_available__lt=F("_reorder"))


def product_totals(queryset: QuerySet) -> QuerySet:
    """Totals per product across the locations of `queryset` (stock rows, already filtered): on hand,
    reserved (every active reservation of the product, also those held on a warehouse without a
    location), available, number of locations."""
    return (
        queryset.order_by()
        .values("product_id", "product__article_number", "product__name", "product__unit")
        .annotate(
            on_hand=Coalesce(Sum("quantity"), ZERO),
            locations=Count("location_id", filter=~Q(quantity=0)),
            reserved=_reserved_subquery(product_id="product_id"),
            reorder_point=_reorder_point_subquery("product_id"),
        )
        .annotate(available=ExpressionWrapper(F("on_hand") - F("reserved"), output_field=QTY))
        .order_by("product__article_number")
    )


def stock_as_of(
    *, at: datetime, product_id: int | None = None, location_ids=None
) -> dict[tuple[int, int], Decimal]:
    """Stock per product and location at the moment `at`, replayed from the ledger (never from `Stock`):
    the sum of the quantities moved into the location minus those moved out, over moves up to `at`.
    Rows with zero are left out. Answers dicts of product, location and quantity."""
    moves = StockMove.objects.filter(moved_at__lte=at)
    if product_id is not None:
        moves = moves.filter(product_id=product_id)
    incoming = moves.filter(to_location__isnull=False)
    outgoing = moves.filter(from_location__isnull=False)
    if location_ids is not None:
        incoming = incoming.filter(to_location_id__in=location_ids)
        outgoing = outgoing.filter(from_location_id__in=location_ids)
    totals: dict[tuple[int, int], Decimal] = {}
    for row in incoming.order_by().values("product_id", "to_location_id").annotate(q=Sum("quantity")):
        key = (row["product_id"], row["to_location_id"])
        totals[key] = totals.get(key, Decimal("0")) + row["q"]
    for row in outgoing.order_by().values("product_id", "from_location_id").annotate(q=Sum("quantity")):
        key = (row["product_id"], row["from_location_id"])
        totals[key] = totals.get(key, Decimal("0")) - row["q"]
    return {key: qty for key, qty in totals.items() if qty != 0}


def carton_history(carton: WarehouseCarton) -> QuerySet:
    return CartonEvent.objects.filter(carton=carton).select_related(
        "location__warehouse", "customer", "created_by"
    )


PUBLIC_EVENT_KINDS = (
    CartonEvent.Kind.RECEIVED,
    CartonEvent.Kind.STOCKED,
    CartonEvent.Kind.MOVED,
    CartonEvent.Kind.SHIPPED,
    CartonEvent.Kind.DELIVERED,
)
# The public name of a step: a move inside the warehouse is shown as "put away" (never where to).
PUBLIC_KIND = {CartonEvent.Kind.MOVED: "put_away"}


def public_carton_history(label) -> list[dict]:
    """What the public trace may show of a carton's warehouse history: the kind of step (received,
    stocked, put_away, shipped, delivered), its date and the country of the company that held it. Never a customer,
    a user, a location or warehouse, or a document number. Moves on one day are one "put away" step."""
    return public_carton_histories([label])[label.pk]


def public_carton_histories(labels) -> dict[int, list[dict]]:
    """`public_carton_history` of many labels of one or more tenants, in three reads at most."""
    labels = list(labels)
    result: dict[int, list[dict]] = {label.pk: [] for label in labels}
    states = dict(WarehouseCarton.objects.filter(label_id__in=list(result)).values_list("pk", "label_id"))
    if not states:
        return result
    from apps.tenancy.models import Tenant

    tenant_of = {label.pk: label.tenant_id for label in labels}
    countries = dict(Tenant.objects.filter(pk__in=set(tenant_of.values())).values_list("pk", "country"))
    for carton_id, kind, created_at in (
        CartonEvent.objects.filter(carton_id__in=list(states), kind__in=PUBLIC_EVENT_KINDS)
        .order_by("created_at", "id")
        .values_list("carton_id", "kind", "created_at")
    ):
        label_id = states[carton_id]
        steps = result[label_id]
        step = {
            "kind": PUBLIC_KIND.get(kind, kind),
            "date": created_at.date(),
            "country_code": countries.get(tenant_of[label_id]) or "",
        }
        if steps and step == steps[-1] and step["kind"] == "put_away":
            continue
        steps.append(step)
    return result


def inbound_shipments(queryset: QuerySet) -> QuerySet:
    """Inbound shipments with the cartons expected (active labels of the container or of the orders it
    carries), scanned in (received, posted or not) and scanned but not yet posted."""
    from apps.eudr.models import CartonLabel

    # The container's labelled cartons: labels naming it, labels naming no container of an order it
    # carries, and whatever was received with it (so received can never exceed expected).
    expected = (
        CartonLabel.objects.filter(status=CartonLabel.Status.ACTIVE)
        .filter(
            Q(container=OuterRef("container_number"))
            | Q(container="", purchase_order_line__order__shipment_links__shipment_id=OuterRef("pk"))
            | Q(warehouse_state__inbound_shipment_id=OuterRef("pk"))
        )
        .order_by()
        .annotate(one=Value(1))
        .values("one")
        .annotate(n=Count("pk", distinct=True))
        .values("n")
    )
    received = (
        WarehouseCarton.objects.filter(inbound_shipment_id=OuterRef("pk"))
        .order_by()
        .annotate(one=Value(1))
        .values("one")
        .annotate(n=Count("pk"), pending=Count("pk", filter=Q(receipt__isnull=True, status="received")))
    )
    return queryset.select_related("shipment_company").annotate(
        cartons_expected=Coalesce(Subquery(expected.values("n"), output_field=IntegerField()), 0),
        cartons_received=Coalesce(Subquery(received.values("n"), output_field=IntegerField()), 0),
        cartons_pending=Coalesce(Subquery(received.values("pending"), output_field=IntegerField()), 0),
    )


def inbound_lines(shipment) -> list[dict]:
    """Per purchase order line of the shipment: cartons expected and scanned in (posted or pending)."""
    from apps.eudr.models import CartonLabel

    labels = CartonLabel.objects.filter(status=CartonLabel.Status.ACTIVE).filter(
        Q(container=shipment.container_number)
        | Q(container="", purchase_order_line__order__shipment_links__shipment=shipment)
        | Q(warehouse_state__inbound_shipment=shipment)
    )
    rows = (
        labels.order_by()
        .values(
            "purchase_order_line_id",
            "purchase_order_line__order__order_number",
            "purchase_order_line__order_id",
            "purchase_order_line__line_number",
            "purchase_order_line__product_number",
            "purchase_order_line__order_qty",
            "purchase_order_line__received_qty",
        )
        .annotate(
            expected=Count("pk", distinct=True),
            received=Count(
                "warehouse_state", distinct=True, filter=Q(warehouse_state__inbound_shipment=shipment)
            ),
            pending=Count(
                "warehouse_state",
                distinct=True,
                filter=Q(warehouse_state__inbound_shipment=shipment, warehouse_state__receipt__isnull=True),
            ),
        )
        .order_by("purchase_order_line__order__order_number", "purchase_order_line__line_number")
    )
    return [
        {
            "order_line": row["purchase_order_line_id"],
            "purchase_order": row["purchase_order_line__order_id"],
            "order_number": row["purchase_order_line__order__order_number"],
            "line_number": row["purchase_order_line__line_number"],
            "article_number": row["purchase_order_line__product_number"],
            "order_qty": row["purchase_order_line__order_qty"],
            "received_qty": row["purchase_order_line__received_qty"],
            "cartons_expected": row["expected"],
            "cartons_received": row["received"],
            "cartons_pending": row["pending"],
        }
        for row in rows
    ]


@dataclass
class SearchHit:
    type: str
    id: int
    label: str
    url: str
    code: str = ""


OrderSearch = Callable[[str, int], list[SearchHit]]

# The order searches of the areas above the warehouse (sales orders, purchase orders), registered on start
# by their AppConfig.ready with a rank (their hits follow the cartons' in rank order): the warehouse search
# finds their orders without importing them.
_ORDER_SEARCHES: list[tuple[int, OrderSearch]] = []


def register_order_search(rank: int, search: OrderSearch) -> None:
    """`search(text, limit)` answers at most `limit` hits of orders whose number contains `text`."""
    if all(existing is not search for _, existing in _ORDER_SEARCHES):
        _ORDER_SEARCHES.append((rank, search))


def warehouse_search(*, q: str, limit: int = 8, user_types=("internal",)) -> list[SearchHit]:
    """One field finds a carton by code, a sales or purchase order by number, an inbound shipment by
    container, a product by article number. An exact carton code answers that carton alone (a scan)."""
    from apps.eudr.models import CartonLabel
    from apps.inventory.services import normalise_code
    from apps.logistics.models import ShipmentInfo
    from apps.products.models import Product

    text = (q or "").strip()[:100]
    if len(text) < 2:
        return []
    code = normalise_code(text)
    exact = CartonLabel.objects.filter(code=code).values_list("pk", "code", "article_number").first()
    if exact:
        return [
            SearchHit(
                "carton",
                exact[0],
                f"{exact[1]} · {exact[2]}",
                f"/warehouse/inventory?carton={exact[1]}",
                exact[1],
            )
        ]
    hits: list[SearchHit] = []
    for pk, carton_code, article in CartonLabel.objects.filter(code__istartswith=code).values_list(
        "pk", "code", "article_number"
    )[:limit]:
        hits.append(
            SearchHit(
                "carton",
                pk,
                f"{carton_code} · {article}",
                f"/warehouse/inventory?carton={carton_code}",
                carton_code,
            )
        )
    for _rank, search in sorted(_ORDER_SEARCHES, key=lambda entry: entry[0]):
        hits += search(text, limit)
    for pk, container in ShipmentInfo.objects.filter(container_number__icontains=text).values_list(
        "pk", "container_number"
    )[:limit]:
        hits.append(SearchHit("shipment", pk, container, f"/warehouse/shipments?shipment={pk}"))
    for pk, article, name in Product.objects.filter(
        Q(article_number__icontains=text) | Q(barcode=text)
    ).values_list("pk", "article_number", "name")[:limit]:
        hits.append(SearchHit("product", pk, f"{article} · {name}", f"/warehouse/inventory?product={pk}"))
    return hits


def stock_available(*, product_ids: Iterable[int], warehouse: Warehouse | None = None) -> dict[int, Decimal]:
    """Available stock per product: on hand (the sum of its `Stock` rows, in `warehouse`'s locations or
    everywhere) minus its active reservations (in `warehouse` or everywhere). Two queries for any number
    of products; every asked product has an entry.

    Reservations are made under a row lock on the products (services.reservations_reserve), so two
    concurrent confirmations never take this below zero; it can only be negative where the company
    allows backorders (reserving more than is there) or negative stock.
    """
    ids = sorted({int(pk) for pk in product_ids})
    if not ids:
        return {}
    stock = Stock.objects.filter(product_id__in=ids)
    reserved = Reservation.objects.filter(product_id__in=ids, status=Reservation.Status.ACTIVE)
    if warehouse is not None:
        stock = stock.filter(location__warehouse=warehouse)
        reserved = reserved.filter(warehouse=warehouse)
    on_hand = dict(stock.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    held = dict(reserved.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    return {pk: (on_hand.get(pk) or DZERO) - (held.get(pk) or DZERO) for pk in ids}


def stock_reserved(*, product_ids: Iterable[int], warehouse: Warehouse | None = None) -> dict[int, Decimal]:
    """Active reserved quantity per product (in `warehouse` or everywhere); one query."""
    ids = sorted({int(pk) for pk in product_ids})
    qs = Reservation.objects.filter(product_id__in=ids, status=Reservation.Status.ACTIVE)
    if warehouse is not None:
        qs = qs.filter(warehouse=warehouse)
    held = dict(qs.values("product_id").annotate(q=Sum("quantity")).values_list("product_id", "q"))
    return {pk: held.get(pk) or DZERO for pk in ids}


@dataclass(frozen=True)
class PickPlace:
    """Where a product can be picked in a warehouse: a location and how much stands there."""

    product_id: int
    location_id: int
    code: str
    name: str
    cartons: int | None  # labelled products: cartons in stock there, not yet on a shipment
    quantity: Decimal  # units on hand there


def pick_places(
    *, warehouse_id: int, labelled_product_ids: Iterable[int], unlabelled_product_ids: Iterable[int]
) -> list[PickPlace]:
    """The locations of `warehouse_id` that hold each product, nearest first (docs/warehouse.md, "Pick
    lists"): a labelled product where its cartons stand in stock (received and put away, not picked), an
    unlabelled one where the ledger has units on hand. "Nearest" is the order of the location codes, which
    a warehouse numbers along its walking path (aisle, bay, level), so a picker walking the list walks the
    warehouse once. Two queries whatever the number of lines."""
    labelled, unlabelled = sorted(set(labelled_product_ids)), sorted(set(unlabelled_product_ids))
    place = ("product_id", "location_id", "location__code", "location__name")
    rows: list[tuple[dict, bool]] = []
    if labelled:
        cartons = (
            WarehouseCarton.objects.filter(
                status=WarehouseCarton.Status.IN_STOCK,
                product_id__in=labelled,
                location__warehouse_id=warehouse_id,
            )
            .order_by()
            .values(*place)
            .annotate(quantity=Count("id"))
        )
        rows += [(row, True) for row in cartons]
    if unlabelled:
        stock = Stock.objects.filter(
            product_id__in=unlabelled, location__warehouse_id=warehouse_id, quantity__gt=0
        ).values(*place, "quantity")
        rows += [(row, False) for row in stock]
    places = [
        PickPlace(
            product_id=row["product_id"],
            location_id=row["location_id"],
            code=row["location__code"],
            name=row["location__name"],
            cartons=row["quantity"] if counted else None,
            quantity=Decimal(row["quantity"]),
        )
        for row, counted in rows
    ]
    return sorted(places, key=lambda place: (place.code, place.location_id, place.product_id))
