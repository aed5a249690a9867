"""Demo warehouses with their locations (receiving, storage, shipping) for tenants 2 and 3.

The purchase-order demo receives goods before this app's turn in the loader, so it calls
`ensure_warehouses` itself; loading twice changes nothing.
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
    # Cartons are issued by the EUDR area, which loads after this one: the warehouse's own demo (stock,
    # a container to receive, cartons in stock) runs once every area has loaded.
    ctx.setdefault("after_all_areas", []).append(load_warehouse_floor)


DEMO_CONTAINER = "TGHU8912347"
# (article, warehouse, location, quantity): opening stock spread over several locations
OPENING_STOCK = [
    ("CT-SW-4030", "RTM", "A-01", "1200"),
    ("CT-SW-4030", "RTM", "A-02", "600"),
    ("CT-SW-6040", "RTM", "A-02", "800"),
    ("CT-SW-6040", "VNL", "C-01", "1500"),
    ("PA-TP-48", "RTM", "B-01", "240"),
    ("PA-DV-12", "RTM", "B-01", "35"),
    ("FB-2015", "VNL", "C-01", "4000"),
]
REORDER_POINTS = {"CT-SW-4030": "2500", "PA-DV-12": "100", "PA-TP-48": "150", "CT-DW-4030": "500"}


def load_warehouse_floor(ctx: dict) -> None:
    """Tenant 3: opening stock in several locations, reorder points, an arrived container with cartons
    to receive (issued from a raw-material delivery with weight left), and cartons of it already
    received and put away (in stock, ready to pick). Does nothing when the floor has cartons already."""
    from datetime import timedelta
    from decimal import Decimal

    from django.utils import timezone

    from apps.common.exceptions import DomainError
    from apps.eudr import services as eudr
    from apps.eudr.models import RawMaterialDelivery
    from apps.eudr.selectors import weight_balance
    from apps.inventory import services
    from apps.inventory.models import ReorderPoint, StockMove, WarehouseCarton
    from apps.logistics.models import ShipmentInfo, ShipmentPurchaseOrder
    from apps.products.models import Product
    from apps.purchaseorders.models import PurchaseOrderLine

    tenant = ctx["tenants"][3]
    user = ctx.get("users", {}).get("warehouse") or ctx.get("users", {}).get("admin")
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

        # The container: an open order line with room for the cartons, and a delivery with weight left.
        line = (
            PurchaseOrderLine.objects.filter(
                order__status="open", order__supplier__parent_vendor__code="PV-SEP"
            )
            .filter(product__weight_per_carton_kg__gt=0)
            .select_related("order", "product")
            .order_by("order__order_date", "line_number")
            .first()
        )
        if line is None or line.open_qty < 24:
            return
        deliveries = [
            d
            for d in RawMaterialDelivery.objects.filter(parent_vendor__code="PV-SEP", status="active")
            if weight_balance(d).remaining_kg > 40
        ]
        if not deliveries:
            return
        delivery = max(deliveries, key=lambda d: weight_balance(d).remaining_kg)
        today = timezone.localdate()
        try:
            eudr.cartons_generate(
                delivery_id=delivery.pk,
                count=24,
                production_batch_code=f"{today - timedelta(days=6):%Y%m%d}W",
                product=line.product,
                purchase_order_line=line,
                container=DEMO_CONTAINER,
                user=user,
            )
        except DomainError:  # the demo goes on without a container when the weight rules refuse
            return
        carrier = ctx.get("shipment_companies", {}).get(3, {}).get("Maersk")
        shipment = ShipmentInfo.objects.create(
            container_number=DEMO_CONTAINER,
            seal_number="MK-7730144",
            shipment_company=carrier,
            vessel="MAERSK ESSEN",
            voyage="447W",
            port_of_loading="CNSHA",
            port_of_discharge="NLRTM",
            etd=today - timedelta(days=33),
            eta=today - timedelta(days=1),
            status=ShipmentInfo.Status.ARRIVED,
        )
        ShipmentPurchaseOrder.objects.create(shipment=shipment, purchase_order=line.order)

        # 16 of the 24 cartons are received and put away; 8 wait at the dock for the demo.
        from apps.eudr.models import CartonLabel

        codes = list(
            CartonLabel.objects.filter(container=DEMO_CONTAINER)
            .order_by("batch_sequence")
            .values_list("code", flat=True)
        )
        for code in codes[:16]:
            services.carton_receive(code=code, shipment=shipment, user=user)
        services.cartons_receiving_post(shipment=shipment, user=user)
        shelves = [locations.get(("RTM", "A-01")), locations.get(("RTM", "A-02"))]
        for index, code in enumerate(codes[:16]):
            shelf = shelves[index % 2]
            if shelf is not None:
                services.carton_move(code=code, location=shelf, user=user)
