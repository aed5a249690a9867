"""Demo warehouses with their locations (receiving, storage, shipping) for tenants 2 and 3, and the
warehouse floor of tenant 3: opening stock in several locations, reorder points, a container whose
cartons are received and put away (the stock the sales demo picks and ships), and a container at the
dock with cartons to receive.

The purchase-order demo receives goods before this app's turn in the loader, so it calls
`ensure_warehouses` itself; loading twice changes nothing. The floor needs the purchase orders, the
inbound shipments' carriers and the EUDR deliveries (whose weight the cartons draw on): `DEMO_AFTER`.
"""

from __future__ import annotations

from apps.inventory.models import Location, Warehouse
from apps.tenancy.context import tenant_context

WAREHOUSES = {
    3: [
        (
            "RTM",
            "Rotterdam distribution centre",
            "Havenweg 12, 3089 JA Rotterdam",
            True,
            [
                ("RECV", "Receiving dock", Location.Kind.RECEIVING),
                ("A-01", "Aisle A, rack 01", Location.Kind.STORAGE),
                ("A-02", "Aisle A, rack 02", Location.Kind.STORAGE),
                ("B-01", "Aisle B, rack 01", Location.Kind.STORAGE),
                ("SHIP", "Shipping dock", Location.Kind.SHIPPING),
            ],
        ),
        (
            "VNL",
            "Venlo overflow warehouse",
            "Celsiusweg 40, 5928 PR Venlo",
            False,
            [
                ("RECV", "Receiving dock", Location.Kind.RECEIVING),
                ("C-01", "Block C", Location.Kind.STORAGE),
            ],
        ),
    ],
    2: [
        (
            "GOT",
            "Göteborg warehouse",
            "Hamnvägen 3, 418 34 Göteborg",
            True,
            [
                ("RECV", "Receiving", Location.Kind.RECEIVING),
                ("H-01", "Hall 1", Location.Kind.STORAGE),
                ("SHIP", "Dispatch", Location.Kind.SHIPPING),
            ],
        ),
    ],
}


def ensure_warehouses(ctx: dict) -> dict[int, dict[str, Warehouse]]:
    result: dict[int, dict[str, Warehouse]] = ctx.setdefault("warehouses", {})
    for tenant_id, warehouses in WAREHOUSES.items():
        with tenant_context(ctx["tenants"][tenant_id]):
            by_code = result.setdefault(tenant_id, {})
            for code, name, address, is_default, locations in warehouses:
                warehouse, _ = Warehouse.objects.get_or_create(
                    code=code, defaults={"name": name, "address": address, "is_default": is_default}
                )
                for location_code, location_name, kind in locations:
                    Location.objects.get_or_create(
                        warehouse=warehouse,
                        code=location_code,
                        defaults={"name": location_name, "kind": kind},
                    )
                by_code[code] = warehouse
    return result


def load(ctx: dict) -> None:
    ensure_warehouses(ctx)
    load_warehouse_floor(ctx)


# The areas whose demo data the warehouse floor needs (load_demo loads this module after them); the
# sales demo in turn loads after this one, so its shipments carry cartons that are in stock.
DEMO_AFTER = ("purchaseorders", "logistics", "eudr")

# Arrived ten days ago: every carton received, posted to stock and put away.
STOCKED_CONTAINER = "MSKU4812733"
# At the dock today: its cartons wait to be scanned in.
DEMO_CONTAINER = "TGHU8912347"
DEMO_CONTAINER_CARTONS = 24
# (order description, article, cartons, shelves they are put away on): the stocked container's cartons
STOCKED_CARTONS = [
    ("Kitchenware master cartons", "CT-DW-4030", 30, ("A-01", "A-02")),
    ("Kitchenware master cartons", "CT-DW-6040", 30, ("A-02",)),
    ("E-commerce cartons Q3", "CT-SW-3525", 30, ("B-01", "A-01")),
]
# (order description, article): the line whose cartons the container at the dock carries
DOCK_LINE = ("Kitchenware master cartons", "CT-DW-4030")
# (article, warehouse, location, quantity): opening stock spread over several locations
OPENING_STOCK = [
    ("CT-SW-4030", "RTM", "A-01", "1200"),
    ("CT-SW-4030", "RTM", "A-02", "600"),
    ("CT-SW-6040", "RTM", "A-02", "800"),
    ("CT-SW-6040", "VNL", "C-01", "1500"),
    ("CT-DW-6040", "RTM", "B-01", "300"),
    ("CT-DW-6040", "VNL", "C-01", "450"),
    ("PA-TP-48", "RTM", "B-01", "240"),
    ("PA-DV-12", "RTM", "B-01", "35"),
    ("FB-2015", "VNL", "C-01", "4000"),
]
REORDER_POINTS = {"CT-SW-4030": "2500", "PA-DV-12": "100", "PA-TP-48": "150", "CT-DW-4030": "500"}


def load_warehouse_floor(ctx: dict) -> None:
    """Tenant 3's warehouse floor (see the module's docstring). Everything goes through the services
    (stock moves, carton labels issued against a raw-material delivery's weight, scans, receipts, put-away),
    so the ledger, the receipts and the cartons' histories are real. Does nothing when the floor has
    cartons already."""
    from datetime import timedelta
    from decimal import Decimal

    from django.utils import timezone

    from apps.common.exceptions import DomainError
    from apps.eudr import services as eudr
    from apps.eudr.models import CartonLabel, RawMaterialDelivery
    from apps.eudr.selectors import weight_balance
    from apps.inventory import services
    from apps.inventory.models import ReorderPoint, StockMove, WarehouseCarton
    from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
    from apps.products.models import Product

    # the purchase order lines the cartons are made for, reached through the label's relation (inventory
    # imports no purchasing; the purchasing demo ran first, DEMO_AFTER)
    PurchaseOrderLine = CartonLabel._meta.get_field("purchase_order_line").related_model
    tenant = ctx["tenants"][3]
    user = ctx.get("users", {}).get("warehouse") or ctx.get("users", {}).get("admin")
    today = timezone.localdate()
    with tenant_context(tenant):
        if WarehouseCarton.objects.exists() or StockMove.objects.filter(reference="Opening balance").exists():
            return
        products = {p.article_number: p for p in Product.objects.all()}
        locations = {
            (loc.warehouse.code, loc.code): loc for loc in Location.objects.select_related("warehouse")
        }
        moves = [
            services.MoveSpec(
                product_id=products[article].pk, quantity=Decimal(qty), to_location=locations[(wh, code)]
            )
            for article, wh, code, qty in OPENING_STOCK
            if article in products and (wh, code) in locations
        ]
        if moves:
            services.stock_moves_post(
                moves=moves,
                kind=StockMove.Kind.ADJUSTMENT,
                reference="Opening balance",
                reason="Opening balance",
                user=user,
                moved_at=timezone.now() - timedelta(days=30),
            )
        for article, point in REORDER_POINTS.items():
            if article in products:
                ReorderPoint.objects.get_or_create(
                    product=products[article], defaults={"reorder_point": point}
                )

        def open_line(description: str, article: str):
            return (
                PurchaseOrderLine.objects.filter(
                    order__status__in=("confirmed", "sent", "partly_received"),
                    order__description=description,
                    product__article_number=article,
                )
                .select_related("order__supplier", "product")
                .first()
            )

        def delivery_for(line, count: int):
            """The vendor's active delivery with the most weight left, if it covers `count` cartons."""
            vendor_id = line.order.supplier.parent_vendor_id
            balances = [
                (weight_balance(d).remaining_kg, d)
                for d in RawMaterialDelivery.objects.filter(parent_vendor_id=vendor_id, status="active")
            ]
            weight = line.weight_per_carton or line.product.weight_per_carton_kg or Decimal("0")
            balances = [(left, d) for left, d in balances if left > (weight + 1) * count * 2]
            return max(balances, key=lambda pair: pair[0])[1] if balances else None

        def issue(line, count: int, container: str, days_ago: int, suffix: str) -> list[str]:
            delivery = delivery_for(line, count)
            if delivery is None:
                return []
            try:
                eudr.cartons_generate(
                    delivery_id=delivery.pk,
                    count=count,
                    production_batch_code=f"{today - timedelta(days=days_ago):%Y%m%d}{suffix}",
                    product=line.product,
                    purchase_order_line=line,
                    container=container,
                    user=user,
                )
            except DomainError:  # the demo goes on without these cartons when the weight rules refuse
                return []
            return list(
                CartonLabel.objects.filter(purchase_order_line=line, container=container)
                .order_by("batch_sequence")
                .values_list("code", flat=True)
            )

        carriers = ctx.get("shipment_companies", {}).get(3, {})

        def container_of(number, seal, carrier, vessel, voyage, etd, eta, status, orders):
            shipment = ShipmentInfo.objects.create(
                container_number=number,
                seal_number=seal,
                shipment_company=carriers.get(carrier),
                vessel=vessel,
                voyage=voyage,
                port_of_loading="CNSHA",
                port_of_discharge="NLRTM",
                etd=etd,
                eta=eta,
                status=status,
            )
            for order in {order.pk: order for order in orders}.values():
                ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=order)
            return shipment

        # 1. The stocked container: cartons of three products, received, posted and put away on the
        #    shelves (the cartons the sales demo's shipments pick and ship).
        stocked = [(open_line(d, a), n, shelves) for d, a, n, shelves in STOCKED_CARTONS]
        stocked = [
            (line, n, shelves) for line, n, shelves in stocked if line is not None and line.open_qty >= n
        ]
        if stocked:
            shipment = container_of(
                STOCKED_CONTAINER,
                "MK-6618203",
                "Maersk",
                "MAERSK KENTUCKY",
                "438W",
                today - timedelta(days=42),
                today - timedelta(days=10),
                ShipmentInfo.Status.RECEIVED,
                [line.order for line, _n, _s in stocked],
            )
            put_away: list[tuple[str, Location]] = []
            for index, (line, count, shelves) in enumerate(stocked):
                # one production batch per line (a batch code is one product's run)
                codes = issue(line, count, STOCKED_CONTAINER, 48, "STU"[index % 3])
                for position, code in enumerate(codes):
                    services.carton_receive(code=code, shipment=shipment, user=user)
                    shelf = locations.get(("RTM", shelves[position % len(shelves)]))
                    if shelf is not None:
                        put_away.append((code, shelf))
            if put_away:
                services.cartons_receiving_post(shipment=shipment, user=user)
                for code, shelf in put_away:
                    services.carton_move(code=code, location=shelf, user=user)
            # The statement around this import's placing, filed before customs released it: its cartons
            # may ship to customers (docs/eudr.md, "Statements around the placing").
            from apps.eudr.placing import available_statement_record

            available_statement_record(
                shipment=shipment,
                reference_number="26NLPLC7Q4M2X9",
                verification_number="PLCVERIF42",
                submitted_at=timezone.now() - timedelta(days=12),
            )

        # 2. The container at the dock: its cartons wait to be scanned in (/warehouse/shipments).
        line = open_line(*DOCK_LINE)
        if line is None or line.open_qty < DEMO_CONTAINER_CARTONS:
            return
        if not issue(line, DEMO_CONTAINER_CARTONS, DEMO_CONTAINER, 6, "W"):
            return
        container_of(
            DEMO_CONTAINER,
            "MK-7730144",
            "Maersk",
            "MAERSK ESSEN",
            "447W",
            today - timedelta(days=33),
            today,
            ShipmentInfo.Status.ARRIVED,
            [line.order],
        )
