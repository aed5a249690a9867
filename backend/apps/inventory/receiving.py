"""How the container scan gets its purchase receipts (docs/architecture.md, "Purchasing and inventory").

Purchasing sits above inventory: receiving is a purchasing act (`apps.purchaseorders.services.
receipt_create`) that posts its stock through the inventory services (`stock_moves_post`, `cartons_stock`),
so no inventory module imports a purchasing service. The container scan is the warehouse's
(`inventory.services.cartons_receiving_post`); posting the scanned cartons makes purchase receipts, which
it asks of the receipt service purchasing registers here on start (`PurchaseordersConfig.ready`).
"""

from __future__ import annotations

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


_service: ReceiptService | None = None


def register_receipt_service(service: ReceiptService) -> None:
    global _service
    _service = service


def receipt_service() -> ReceiptService:
    if _service is None:
        raise RuntimeError("No receipt service is registered: the purchasing app is not installed.")
    return _service
