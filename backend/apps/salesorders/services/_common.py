"""What the sales documents share: amounts, the order's lock and the re-read of a changed document."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from apps.inventory import services as inventory
from apps.inventory.models import Warehouse
from apps.salesorders.models import SalesOrder

Status = SalesOrder.Status
ZERO = Decimal("0")
CENT = Decimal("0.01")
HUNDRED = Decimal("100")


# -- amounts ---------------------------------------------------------------------------------------------


def line_amounts(
    *, quantity: Decimal, unit_price: Decimal, discount_percent: Decimal, vat_rate: Decimal
) -> tuple[Decimal, Decimal]:
    """(net, VAT) of one line, each rounded half up to cents: net = qty x price x (1 - discount/100)."""
    net = (quantity * unit_price * (HUNDRED - discount_percent) / HUNDRED).quantize(CENT, ROUND_HALF_UP)
    vat = (net * vat_rate / HUNDRED).quantize(CENT, ROUND_HALF_UP)
    return net, vat


def _totals(lines) -> tuple[Decimal, Decimal, Decimal]:
    net = sum((line.amount_net for line in lines), ZERO)
    vat = sum((line.amount_vat for line in lines), ZERO)
    return net, vat, net + vat


def _lock_order(order: SalesOrder) -> SalesOrder:
    return SalesOrder.objects.select_for_update(of=("self",)).get(pk=order.pk)


def _refreshed(given, current):
    """The services work on a freshly locked copy; the caller's object is brought up to date too."""
    if given is not current:
        given.refresh_from_db()
        if hasattr(given, "_prefetched_objects_cache"):
            given._prefetched_objects_cache = {}
    return current


def _order_warehouse(order: SalesOrder) -> Warehouse:
    return order.warehouse or inventory.warehouse_default()
