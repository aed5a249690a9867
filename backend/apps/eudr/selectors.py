"""Reads of the EUDR area: the weight balance of a delivery (docs/specification.md section 4), the querysets the lists
use, and the tenant of a public carton code (for the public trace page, which has no tenant).

Weight balance, per delivery:
    original  = sum of the material lines' weights            (kept on the row: `original_kg`)
    loss      = original x policy loss rate %                 (rounded to the gram)
    available = original - loss
    used      = sum of the net weights of its active labels   (kept on the row: `used_kg`)
    remaining = available - used
    cap       = by policy: floor(available / min consumption), a fixed number, or none
The row's `original_kg`, `used_kg` and `issued_cartons` are written only by services/ under the row
lock, so a list computes every balance from its own columns: no query per row.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, fields
from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from django.db import connection, connections, models
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.eudr.labels_pdf import LabelPrint
from apps.eudr.models import CartonLabel, ProductionBatch, RawMaterialDelivery, RawMaterialLine

KG = Decimal("0.001")
ZERO = Decimal("0")


def kg(value) -> Decimal:
    return Decimal(value or 0).quantize(KG, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class WeightBalance:
    original_kg: Decimal
    loss_kg: Decimal
    available_kg: Decimal
    used_kg: Decimal
    remaining_kg: Decimal

    def as_dict(self) -> dict[str, Decimal]:
        # Not dataclasses.asdict, which deep-copies each value: every row of the deliveries list asks.
        return {name: getattr(self, name) for name in _WEIGHT_NAMES}

    def as_text(self) -> dict[str, str]:
        """As the API writes it: each weight in kg with three decimals."""
        return {name: f"{getattr(self, name):.3f}" for name in _WEIGHT_NAMES}


_WEIGHT_NAMES = tuple(field.name for field in fields(WeightBalance))


def weight_balance_of(*, original_kg, loss_rate_percent, used_kg) -> WeightBalance:
    original = kg(original_kg)
    loss = kg(original * Decimal(loss_rate_percent or 0) / Decimal(100))
    available = original - loss
    used = kg(used_kg)
    return WeightBalance(
        original_kg=original,
        loss_kg=loss,
        available_kg=available,
        used_kg=used,
        remaining_kg=available - used,
    )


def weight_balance(delivery: RawMaterialDelivery) -> WeightBalance:
    return weight_balance_of(
        original_kg=delivery.original_kg,
        loss_rate_percent=delivery.loss_rate_percent,
        used_kg=delivery.used_kg,
    )


def remaining_cartons_of(
    allowed_carton_cap: int | None, approved_over_cap: int, issued_cartons: int
) -> int | None:
    """Cartons a delivery's cap still allows (None: no cap)."""
    if allowed_carton_cap is None:
        return None
    return max(allowed_carton_cap + approved_over_cap - issued_cartons, 0)


def carton_cap_of(
    *, cap_mode: str, cap_value: int | None, available_kg: Decimal, min_consumption: Decimal
) -> int | None:
    """The allowed number of cartons of a delivery under its policy snapshot (None: no cap)."""
    if cap_mode == "fixed":
        return cap_value or 0
    if cap_mode == "none":
        return None
    if not min_consumption or min_consumption <= 0 or available_kg <= 0:
        return 0
    return math.floor(available_kg / min_consumption)


# The columns a page of the deliveries list shows or derives (status, weight, remaining cartons): 19 of the
# delivery's 57 with its id, and the vendor's names, so a page reads, converts and builds no more than it shows.
LIST_PAGE_COLUMNS = (
    "parent_vendor",
    "parent_vendor__name",
    "parent_vendor__cname",
    "delivery_number",
    "description",
    "status",
    "country_code",
    "country_name",
    "fm_certificate_expiry",
    "coc_certificate_expiry",
    "original_kg",
    "loss_rate_percent",
    "used_kg",
    "issued_cartons",
    "allowed_carton_cap",
    "approved_over_cap",
    "dds_reference_number",
    "submitted_at",
    "created_at",
    "updated_at",
)


def delivery_material_types(
    ids: list[int], *, tenant_id: int, using: str = "default"
) -> dict[int, list[str]]:
    """The material types of each delivery of `ids` in the order of its lines, each once, empty ones left
    out: the deliveries list's column, one statement for a page (`tenant_id`: the tenant the page is of)."""
    types: dict[int, list[str]] = {pk: [] for pk in ids}
    if not ids:
        return types
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = RawMaterialLine._meta
    # concrete fields each: a column of the table
    concrete = {
        name: cast("models.Field", meta.get_field(name))
        for name in ("id", "tenant", "delivery", "material_type")
    }
    column = {name: quote(str(field.column)) for name, field in concrete.items()}
    # the model's names; the values are parameters
    sql = (
        f"SELECT {column['delivery']}, {column['material_type']} FROM {quote(meta.db_table)} "  # noqa: S608
        f"WHERE {column['tenant']} = %s AND {column['delivery']} IN ({', '.join(['%s'] * len(ids))}) "
        f"AND {column['material_type']} <> '' ORDER BY {column['delivery']}, {column['id']}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, *ids])
        for delivery_id, material_type in cursor.fetchall():
            if material_type not in types[delivery_id]:
                types[delivery_id].append(material_type)
    return types


def deliveries_for_list(queryset: QuerySet, *, page_only: bool = False) -> QuerySet:
    """The deliveries list: parent vendor joined, line count annotated, the plots and the files' details
    left unread (the list shows neither); the page's material types are one more statement
    (`RawMaterialDeliveryListItemsSerializer`). Constant queries. `page_only`: only the columns the list
    page shows (`LIST_PAGE_COLUMNS`; the export reads more).

    The line count is a correlated subquery, not a join with GROUP BY: grouping comes before ordering,
    so no index could give the page its order and every delivery of the tenant was joined, grouped and
    sorted for each page. A subquery in the select list is evaluated for the page's rows only, read in
    the order of an index (tenant, <ordering>, id); the count is then a plain count of the deliveries
    (docs/performance.md, "Raw-material deliveries list")."""
    line_count = (
        RawMaterialLine.objects.filter(delivery=OuterRef("pk"))
        .order_by()
        .values("delivery")
        .annotate(n=Count("pk"))
        .values("n")
    )
    queryset = queryset.select_related("parent_vendor")
    queryset = (
        queryset.only(*LIST_PAGE_COLUMNS) if page_only else queryset.defer("location_geojson", "files_meta")
    )
    return queryset.annotate(
        lines_count=Coalesce(Subquery(line_count, output_field=IntegerField()), 0)
    ).order_by("-created_at", "-id")


def batches_with_totals(queryset: QuerySet) -> QuerySet:
    """Production batches with their product; active carton count and used weight come from the batch's
    own counters (kept by the services)."""
    return queryset.select_related("product", "purchase_order_line__order", "created_by")


def label_totals(queryset: QuerySet) -> dict:
    from django.db.models import Sum

    totals = queryset.filter(status=CartonLabel.Status.ACTIVE).aggregate(
        n=Count("id"), kg=Sum("net_weight_kg")
    )
    return {"count": totals["n"] or 0, "net_weight_kg": kg(totals["kg"])}


def used_weight_recount(delivery_id: int) -> tuple[Decimal, int]:
    """The used weight and carton count recomputed from the labels (the row's counters must equal it)."""
    totals = label_totals(CartonLabel.objects.filter(raw_material_id=delivery_id))
    return totals["net_weight_kg"], totals["count"]


def batch_for_code(code: str) -> ProductionBatch | None:
    return ProductionBatch.objects.filter(production_batch_code=code).first()


def carton_tenant_for_public_code(code: str, *, enter_tenant: bool = False) -> int | None:
    """The tenant of the ACTIVE carton label with this public code, or None.

    Used by the public trace endpoint before any tenant is known. On PostgreSQL the label table is under
    row-level security; a second, SELECT-only policy (migration 0002) admits exactly the row whose code
    equals the transaction-local setting `app.public_code`. The setting is set, the one row read, and the
    setting cleared again, so a code reveals only its own carton. With `enter_tenant=True` (the caller holds a
    transaction and goes on with `tenancy.context.entered_tenant`) the clearing statement also sets the
    found carton's tenant. Elsewhere (SQLite) the unscoped manager
    is read directly.
    """
    code = (code or "").strip().upper()
    if not code or len(code) > 32 or not code.isalnum():
        return None
    if connection.vendor != "postgresql":
        return (
            CartonLabel.unscoped.filter(code=code, status=CartonLabel.Status.ACTIVE)
            .values_list("tenant_id", flat=True)
            .first()
        )
    table = connection.ops.quote_name(CartonLabel._meta.db_table)
    from django.db import transaction

    # No savepoint: inside the request's transaction an error here fails the request and rolls the
    # whole transaction back, the setting with it; outside one, atomic() opens a transaction.
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('app.public_code', %s, true)", [code])
        cursor.execute(
            f"SELECT tenant_id FROM {table} WHERE code = %s AND status = %s LIMIT 1",  # noqa: S608
            [code, CartonLabel.Status.ACTIVE],
        )
        row = cursor.fetchone()
        if row and enter_tenant:
            # Clearing the code and entering the carton's tenant in one statement (docs/performance.md,
            # "Per-request overhead"): the caller reads the carton in the same transaction.
            cursor.execute(
                "SELECT set_config('app.public_code', '', true), set_config('app.tenant_id', %s, true)",
                [str(row[0])],
            )
        else:
            cursor.execute("SELECT set_config('app.public_code', '', true)")
    return row[0] if row else None


def label_prints(queryset: QuerySet, *, chunk_size: int = 2000) -> Iterator[LabelPrint]:
    """The printed fields of the labels of `queryset`, in its order, streamed in chunks (memory stays
    flat): one row each, the product, delivery and parent vendor joined in, no model instance built."""
    rows = queryset.values_list(
        "code",
        "article_number",
        "production_batch_code",
        "batch_sequence",
        "purchase_order",
        "container",
        "net_weight_kg",
        "product__name",
        "raw_material__country_name",
        "raw_material__country_code",
        "raw_material__parent_vendor__name",
    )
    return map(LabelPrint._make, rows.iterator(chunk_size=chunk_size))
