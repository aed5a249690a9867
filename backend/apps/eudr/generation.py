"""How many cartons a generation may still issue, and which rule sets that number (docs/eudr.md, "Generating
cartons").

Four rules limit a request, each on its own: the delivery's remaining weight (remaining kg over the net
weight per carton), the purchase order line (its ordered quantity plus the policy's tolerance, less the
active labels of the line), the delivery's carton cap (plus approved extra cartons, less those issued), and
the size of one request. The dialog shows one number, the smallest, and names the rule that binds; every
refusal of a generation carries the same number and rule, so the preview and the refusal never disagree.

`next_batch_code` proposes today's first free production batch code: codes are unique in the company, so it
looks at every delivery's batches, not only the one at hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_FLOOR, Decimal

from apps.eudr.models import ProductionBatch, RawMaterialDelivery
from apps.eudr.selectors import kg, weight_balance

MAX_CARTONS_PER_REQUEST = 20_000
DEFAULT_ORDER_TOLERANCE_PERCENT = Decimal("10")

WEIGHT, ORDER_LINE, CARTON_CAP, REQUEST = "weight", "order_line", "carton_cap", "request"


@dataclass(frozen=True)
class OrderLineRoom:
    ordered: Decimal
    tolerance: Decimal
    limit: int
    issued: int

    @property
    def remaining(self) -> int:
        return max(self.limit - self.issued, 0)


@dataclass(frozen=True)
class GenerationLimit:
    """The cartons one request may issue (`max_cartons`) and the rule that sets it (`binding`)."""

    net_weight_per_carton_kg: Decimal
    weight: int
    order_line: int | None
    carton_cap: int | None
    request: int = MAX_CARTONS_PER_REQUEST

    @property
    def max_cartons(self) -> int:
        return min(value for value in self.limits().values() if value is not None)

    @property
    def binding(self) -> str:
        # On a tie, the rule listed first is named: the paper before the order, the order before the cap.
        smallest = self.max_cartons
        return next(rule for rule, value in self.limits().items() if value == smallest)

    def limits(self) -> dict[str, int | None]:
        return {
            WEIGHT: self.weight,
            ORDER_LINE: self.order_line,
            CARTON_CAP: self.carton_cap,
            REQUEST: self.request,
        }

    def as_data(self) -> dict:
        """What an answer or a refusal carries."""
        return {
            "max_cartons": self.max_cartons,
            "binding": self.binding,
            "limits": self.limits(),
            "net_weight_per_carton_kg": str(self.net_weight_per_carton_kg),
        }


def order_tolerance_percent(delivery: RawMaterialDelivery) -> Decimal:
    """The tolerance of the policy the delivery was submitted under, else of the policy that applies to
    its vendor now, else the built-in default. Read live: it is a rule of the order, not of the paper."""
    from apps.eudr.services import policy_for_delivery

    policy = delivery.policy if delivery.policy_id else None
    if policy is None:
        policy = policy_for_delivery(parent_vendor_id=delivery.parent_vendor_id, material_type="")
    return policy.order_tolerance_percent if policy is not None else DEFAULT_ORDER_TOLERANCE_PERCENT


def order_line_room(*, delivery: RawMaterialDelivery, purchase_order_line) -> OrderLineRoom:
    """The line's ordered quantity plus the tolerance, against its active labels over every delivery."""
    from apps.eudr.models import CartonLabel

    tolerance = order_tolerance_percent(delivery)
    ordered = purchase_order_line.order_qty
    limit = int((ordered * (Decimal(100) + tolerance) / Decimal(100)).to_integral_value(rounding=ROUND_FLOOR))
    issued = CartonLabel.objects.filter(
        purchase_order_line_id=purchase_order_line.pk, status=CartonLabel.Status.ACTIVE
    ).count()
    return OrderLineRoom(ordered=ordered, tolerance=tolerance, limit=limit, issued=issued)


def net_weight_per_carton(*, delivery: RawMaterialDelivery, product, purchase_order_line) -> Decimal | None:
    """The order line's weight per carton, else the product's, never below the delivery's minimum; None
    when neither has one."""
    weight = (purchase_order_line.weight_per_carton if purchase_order_line is not None else None) or (
        product.weight_per_carton_kg if product is not None else None
    )
    if not weight or weight <= 0:
        return None
    return kg(max(Decimal(weight), delivery.min_consumption_per_carton))


def generation_limit(
    *,
    delivery: RawMaterialDelivery,
    net_weight_kg: Decimal,
    purchase_order_line=None,
    room: OrderLineRoom | None = None,
) -> GenerationLimit:
    """`room`: the line's room when the caller has read it already (a generation checks it too)."""
    remaining = weight_balance(delivery).remaining_kg
    by_weight = int(remaining // net_weight_kg) if remaining > 0 and net_weight_kg > 0 else 0
    if room is None and purchase_order_line is not None:
        room = order_line_room(delivery=delivery, purchase_order_line=purchase_order_line)
    by_line = room.remaining if room is not None else None
    by_cap = None
    if delivery.allowed_carton_cap is not None:
        by_cap = max(delivery.allowed_carton_cap + delivery.approved_over_cap - delivery.issued_cartons, 0)
    return GenerationLimit(
        net_weight_per_carton_kg=net_weight_kg, weight=by_weight, order_line=by_line, carton_cap=by_cap
    )


def next_batch_code(today: date) -> str:
    """Today's first production batch code not used by any batch of the company (A, B, … Z). When all 26
    are taken, Z is returned and the generation answers for the clash."""
    prefix = today.strftime("%Y%m%d")
    used = {
        code[len(prefix) :]
        for code in ProductionBatch.objects.filter(production_batch_code__startswith=prefix).values_list(
            "production_batch_code", flat=True
        )
    }
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if letter not in used:
            return prefix + letter
    return prefix + "Z"
