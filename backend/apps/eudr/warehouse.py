"""What the EUDR area reads of the warehouse (docs/architecture.md, "Dependencies between areas").

The warehouse sits above EUDR: its cartons are EUDR carton labels scanned in, stocked, picked and shipped
(`apps.inventory` reads the labels), so no EUDR module imports inventory. What EUDR shows of a carton's
warehouse life (its state in the label list, the refusal to void a carton that reached the warehouse, the
warehouse history on the public trace, the imported cartons of the shipping gate) comes from the
functions the warehouse registers here on start (`InventoryConfig.ready`, apps/inventory/trace.py). The
warehouse also tells the public trace store when a carton's warehouse row or events change
(`apps.common.signals.public_trace_changed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Warehouse:
    # The one state of a carton (a `Life` value) from its label and its warehouse row (None: never there).
    life_of: Callable[..., Any]
    # Refuses voiding labels whose cartons reached the warehouse or are declared (a domain error).
    labels_void_check: Callable[..., None]
    # Per label id, the warehouse history the public trace shows.
    public_histories: Callable[[list], dict[int, list[dict]]]
    # The label ids among these that were scanned in from a container (imported cartons), in id order.
    imported_label_ids: Callable[[Iterable[int]], list[int]]
    # The label ids of these warehouse cartons.
    label_ids_of_cartons: Callable[[Iterable[int]], Iterable[int]]
    # The label ids of every carton in the tenant's warehouse.
    label_ids_in_warehouse: Callable[[], Iterable[int]]


_warehouse: Warehouse | None = None


def register(warehouse: Warehouse) -> None:
    global _warehouse
    _warehouse = warehouse


def warehouse() -> Warehouse:
    if _warehouse is None:
        raise RuntimeError("The warehouse is not registered: the inventory app is not installed.")
    return _warehouse
