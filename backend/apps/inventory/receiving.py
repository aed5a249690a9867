"""What the container scan asks of purchasing (docs/architecture.md, "Purchasing and inventory").

Purchasing sits above inventory: receiving is a purchasing act (`apps.purchaseorders.services.
receipt_create`) that posts its stock through the inventory services (`stock_moves_post`, `cartons_stock`),
so no inventory module imports purchasing. The container scan is the warehouse's
(`inventory.services.carton_receive`, `cartons_receiving_post`); the purchase order lines, orders and
receipts it needs come from the functions purchasing registers here on start (`PurchaseordersConfig.ready`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol


class ReceiptService(Protocol):
    def __call__(
        self,
        *,
        purchase_order: Any,
        quantities: dict[int, Decimal],
        user: Any,
        warehouse: Any,
        note: str,
        cartons: list,
    ) -> Any:
        """One purchase receipt of `purchase_order`: per order line id the quantity received, taking
        `cartons` (scanned into `warehouse`, not yet posted) into stock."""
        ...


class OrderLineLocked(Protocol):
    def __call__(self, line_id: int) -> Any:
        """The purchase order line, its row locked (SELECT ... FOR UPDATE), with its order."""
        ...


class ReceiptWithRoom(Protocol):
    def __call__(self, line: Any) -> Any | None:
        """The oldest receipt of the order line that received more units than cartons were scanned
        against it, or None."""
        ...


class OrdersLocked(Protocol):
    def __call__(self, order_ids: Iterable[int]) -> None:
        """Locks the purchase orders' rows in primary-key order."""
        ...


@dataclass(frozen=True)
class Purchasing:
    receipt_create: ReceiptService
    order_line_locked: OrderLineLocked
    receipt_with_room: ReceiptWithRoom
    orders_locked: OrdersLocked


_purchasing: Purchasing | None = None


def register_purchasing(purchasing: Purchasing) -> None:
    global _purchasing
    _purchasing = purchasing


def purchasing() -> Purchasing:
    if _purchasing is None:
        raise RuntimeError("Purchasing is not registered: the purchasing app is not installed.")
    return _purchasing
