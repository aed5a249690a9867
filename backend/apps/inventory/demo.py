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
