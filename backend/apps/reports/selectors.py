"""Running reports: every figure is computed by the database (ORM aggregates), never by loading rows.

A run issues a bounded number of queries whatever the data: the rows (groups × pivot), one query per
subtotal level (1 to len(group_by) - 1), the pivot's column totals, and the grand total. When the rows
are complete (not cut by the limit) and every measure is a sum, count, minimum or maximum of exact
numbers, the subtotals and totals are those of the rows the database answered, added up here: one scan
of the data instead of one per level (docs/performance.md, "Report lab"). An average or a count of
distinct values cannot be added up from its groups, so those reports ask the database for each level.
"""

from __future__ import annotations

import datetime
import time
from decimal import Decimal
from typing import Any

from django.db.models import Avg, Count, F, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Trunc
from django.utils import timezone

from apps.common.api.permissions import user_type
from apps.tenancy.permissions import tenant_permissions

from .datasets import DATASETS, DATE, Dataset
from .definition import Definition, GroupKey, relative_range
from .errors import DatasetNotFound

DRILL_PAGE_MAX = 200


def datasets_for(*, user, tenant) -> list[Dataset]:
    """The datasets the user may use in the tenant: their roles hold the dataset's permission, and a
    supplier user only those that can be narrowed to their parent vendor."""
    held = tenant_permissions(user, tenant)
    kind = user_type(user)
    return [
        d
        for d in DATASETS
        if d.permission in held and (kind != "supplier" or (d.supplier_scope and user.parent_vendor_id))
    ]


def dataset_for(*, name, user, tenant) -> Dataset:
    dataset = next((d for d in datasets_for(user=user, tenant=tenant) if d.name == name), None)
    if dataset is None:
        raise DatasetNotFound()
    return dataset


def may_see_prices(*, user, tenant) -> bool:
    from apps.common.prices import PRICE_PERMISSION

    return PRICE_PERMISSION in tenant_permissions(user, tenant)


def scoped_queryset(*, dataset: Dataset, user) -> QuerySet:
    queryset = dataset.queryset()
    if user_type(user) == "supplier":
        queryset = queryset.filter(**{str(dataset.supplier_scope): user.parent_vendor_id})
    return queryset


def _is_datetime(queryset: QuerySet, path: str) -> bool:
    model = queryset.model
    *relations, last = path.split("__")
    for name in relations:
        model = model._meta.get_field(name).related_model
    return model._meta.get_field(last).get_internal_type() == "DateTimeField"


def _date_q(path: str, low, high, is_datetime: bool) -> Q:
    """A date range [low, high] on a date or datetime column (a datetime compares its local date)."""
    lookup = f"{path}__date" if is_datetime else path
    q = Q()
    if low is not None:
        q &= Q(**{f"{lookup}__gte": low})
    if high is not None:
        q &= Q(**{f"{lookup}__lte": high})
    return q


def apply_filters(queryset: QuerySet, definition: Definition) -> QuerySet:
    for spec in definition.filters:
        path = spec.dimension.path
        value: Any = spec.value  # its shape follows `op` (definition.py checks it)
        if spec.dimension.kind == DATE:
            is_datetime = _is_datetime(queryset, path)
            if spec.op == "eq":
                queryset = queryset.filter(_date_q(path, value, value, is_datetime))
            elif spec.op == "range":
                low, high = value
                queryset = queryset.filter(_date_q(path, low, high, is_datetime))
            else:
                queryset = queryset.filter(_date_q(path, *relative_range(value), is_datetime))
        elif spec.op == "eq":
            queryset = queryset.filter(**({f"{path}__isnull": True} if value is None else {path: value}))
        elif spec.op == "in":
            queryset = queryset.filter(**{f"{path}__in": [v for v in value if v is not None]})
        elif spec.op == "contains":
            queryset = queryset.filter(**{f"{path}__icontains": value})
        elif spec.op == "range":
            low, high = value
            if low is not None:
                queryset = queryset.filter(**{f"{path}__gte": low})
            if high is not None:
                queryset = queryset.filter(**{f"{path}__lte": high})
    return queryset


def _alias(index: int) -> str:
    return f"g{index}"


def _group_expression(queryset: QuerySet, group: GroupKey):
    if group.grain:
        is_datetime = _is_datetime(queryset, group.dimension.path)
        # A datetime is grouped by its local date (the tenant's time zone), a date as it is.
        return Trunc(
            group.dimension.path,
            group.grain,
            tzinfo=timezone.get_current_timezone() if is_datetime else None,
        )
    return F(group.dimension.path)


_AGG = {
    "sum": lambda e: Sum(e),
    "count": lambda e: Count(e),
    "count_distinct": lambda e: Count(e, distinct=True),
    "avg": lambda e: Avg(e),
    "min": lambda e: Min(e),
    "max": lambda e: Max(e),
}


def _measure_annotations(definition: Definition) -> dict:
    return {f"m{i}": _AGG[m.agg](m.measure.expr()) for i, m in enumerate(definition.measures)}


def _plain(value):
    if isinstance(value, datetime.datetime):
        return (
            timezone.localtime(value).date().isoformat()
            if timezone.is_aware(value)
            else value.date().isoformat()
        )
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        # Trailing zeros dropped, so a figure reads the same whatever the column's scale or the database.
        return format(value.normalize(), "f")
    return value


def _output(row: dict, keys: list[tuple[str, str]], definition: Definition) -> dict:
    result = {key: _plain(row[alias]) for alias, key in keys}
    for i, m in enumerate(definition.measures):
        value = row[f"m{i}"]
        if value is None and m.agg in ("sum", "count", "count_distinct"):
            value = 0
        if isinstance(value, float):
            value = Decimal(str(value))
        if isinstance(value, Decimal) and m.agg == "avg":
            value = value.quantize(Decimal("0.001"))
        result[m.key] = _plain(value)
    return result


def _grouped_raw(
    queryset: QuerySet, groups: list[tuple[str, GroupKey]], definition: Definition, order=None, limit=None
) -> list[dict]:
    """The database's rows: the groups' aliases and the measures `m0`, `m1`, ... as it answers them."""
    if not groups:
        # values() with no field would group by every column: the grand total is one aggregate.
        return [queryset.aggregate(**_measure_annotations(definition))]
    annotations = {alias: _group_expression(queryset, g) for alias, g in groups}
    aliases = list(annotations)
    qs = queryset.annotate(**annotations).values(*aliases).annotate(**_measure_annotations(definition))
    qs = qs.order_by(*(order or aliases))
    if limit is not None:
        qs = qs[:limit]
    return list(qs)


def _grouped(
    queryset: QuerySet, groups: list[tuple[str, GroupKey]], definition: Definition, order=None, limit=None
):
    keys = [(alias, g.key) for alias, g in groups]
    return [
        _output(row, keys, definition) for row in _grouped_raw(queryset, groups, definition, order, limit)
    ]


# Measures whose figure over a set of groups follows from the groups' figures.
_ADDABLE = {"sum", "count", "min", "max"}


def _combine(agg: str, total, value):
    if value is None:
        return total
    if total is None:
        return value
    if agg in ("sum", "count"):
        return total + value
    return min(total, value) if agg == "min" else max(total, value)


def _can_add_up(definition: Definition, rows: list[dict]) -> bool:
    """The rows' figures add up to every level's exactly: each measure is addable and no figure is a
    float (a sum of floats in another order may differ in its last digits)."""
    if any(m.agg not in _ADDABLE for m in definition.measures):
        return False
    names = [f"m{i}" for i in range(len(definition.measures))]
    return not any(isinstance(row[name], float) for row in rows for name in names)


def _sort_key(values: tuple) -> tuple:
    """Ascending, empty last (PostgreSQL's order for ORDER BY ... ASC), texts without regard to case
    first, as the database's collation orders them."""
    key: list = []
    for value in values:
        if value is None:
            key.append((1, 0, "", ""))
        elif isinstance(value, str):
            key.append((0, 0, value.casefold(), value))
        else:
            key.append((0, 1, value, ""))
    return tuple(key)


def _added_up(rows: list[dict], groups: list[tuple[str, GroupKey]], definition: Definition) -> list[dict]:
    """The figures of `rows` (raw database rows) per combination of `groups`, as `_grouped` would
    answer them, ordered by the groups."""
    aggs = [m.agg for m in definition.measures]
    aliases = [alias for alias, _g in groups]
    totals: dict[tuple, list] = {}
    for row in rows:
        key = tuple(row[alias] for alias in aliases)
        figures = totals.get(key)
        if figures is None:
            figures = totals[key] = [None] * len(aggs)
        for i, agg in enumerate(aggs):
            figures[i] = _combine(agg, figures[i], row[f"m{i}"])
    if not aliases and not totals:
        totals[()] = [None] * len(aggs)  # the grand total of no rows: zero counts and sums
    keys = [(alias, g.key) for alias, g in groups]
    return [
        _output(
            {**dict(zip(aliases, key, strict=True)), **{f"m{i}": v for i, v in enumerate(figures)}},
            keys,
            definition,
        )
        for key, figures in sorted(totals.items(), key=lambda item: _sort_key(item[0]))
    ]


def _order_aliases(definition: Definition, groups: list[tuple[str, GroupKey]]) -> list[Any]:
    by_key = {g.key: alias for alias, g in groups} | {
        m.key: f"m{i}" for i, m in enumerate(definition.measures)
    }
    order = []
    for item in definition.order_by:
        desc = item.startswith("-")
        alias = by_key[item.lstrip("-")]
        order.append(F(alias).desc(nulls_last=True) if desc else F(alias).asc(nulls_last=True))
    # Then the groups themselves, so equal sort values come in a stable order.
    order += [F(alias).asc(nulls_last=True) for alias, _g in groups]
    return order


def report_run(*, definition: Definition, user) -> dict:
    """Rows (one per group combination and pivot value), subtotals per group level, totals.

    `subtotals` holds, for every level k from 1 to len(group_by) - 1, the figures per combination of the
    first k groups (and the pivot value, if any), with `level: k`. `totals` are the grand totals;
    `pivot_totals` the figures per pivot value. `truncated` says whether `limit` cut the rows.
    """
    queryset = apply_filters(scoped_queryset(dataset=definition.dataset, user=user), definition)
    groups = [(_alias(i), g) for i, g in enumerate(definition.group_by)]
    pivot = [("p", definition.pivot)] if definition.pivot else []
    all_groups = groups + pivot

    raw = _grouped_raw(
        queryset, all_groups, definition, _order_aliases(definition, all_groups), definition.limit + 1
    )
    truncated = len(raw) > definition.limit
    raw = raw[: definition.limit]
    keys = [(alias, g.key) for alias, g in all_groups]
    rows = [_output(row, keys, definition) for row in raw]

    add_up = bool(all_groups) and not truncated and _can_add_up(definition, raw)

    def grouped(level_groups):
        if add_up:  # the figures added up from the rows: no further scan
            return _added_up(raw, level_groups, definition)
        return _grouped(queryset, level_groups, definition, limit=10_000)

    subtotals = []
    for level in range(1, len(groups)):
        for row in grouped(groups[:level] + pivot):
            subtotals.append({"level": level, **row})
    pivot_totals = grouped(pivot) if pivot else []
    totals = grouped([])[0]
    return {
        "columns": [g.key for _a, g in all_groups],
        "measures": [m.key for m in definition.measures],
        "rows": rows,
        "subtotals": subtotals,
        "pivot_totals": pivot_totals,
        "totals": totals,
        "truncated": truncated,
    }


def _cell_q(queryset: QuerySet, group: GroupKey, value) -> Q:
    path = group.dimension.path
    if value is None:
        return Q(**{f"{path}__isnull": True})
    if group.grain:
        start = datetime.date.fromisoformat(value)
        end = {
            "day": start,
            "week": start + datetime.timedelta(days=6),
            "month": (start.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)
            - datetime.timedelta(days=1),
            "quarter": (start.replace(day=1) + datetime.timedelta(days=95)).replace(day=1)
            - datetime.timedelta(days=1),
            "year": start.replace(month=12, day=31),
        }[group.grain]
        return _date_q(path, start, end, _is_datetime(queryset, path))
    return Q(**{path: value})


def report_drill(
    *, definition: Definition, cell: dict, user, page: int, page_size: int, prices: bool = True
) -> dict:
    """The records behind one cell: the report's filters plus the cell's group (and pivot) values.
    Without `prices`, the columns that show a price are left out."""
    queryset = apply_filters(scoped_queryset(dataset=definition.dataset, user=user), definition)
    for group in (*definition.group_by, *((definition.pivot,) if definition.pivot else ())):
        if group.key in cell:
            queryset = queryset.filter(_cell_q(queryset, group, cell[group.key]))
    columns = [c for c in definition.dataset.detail if prices or c[0] not in definition.dataset.price_detail]
    count = queryset.count()
    start = (page - 1) * page_size
    records = queryset.order_by("-pk").values(*(path for _k, _l, path in columns))[start : start + page_size]
    results = [{key: _plain(row[path]) for key, _label, path in columns} for row in records]
    return {
        "count": count,
        "columns": [{"key": key, "label": str(label)} for key, label, _p in columns],
        "results": results,
    }


def report_checks(*, user, tenant) -> list[dict]:
    """Per dataset: rows, the time of a sample grouped query, and whether figures that must agree do."""
    from .definition import parse_definition

    results = []
    for dataset in datasets_for(user=user, tenant=tenant):
        queryset = scoped_queryset(dataset=dataset, user=user)
        first = dataset.dimensions[0]
        definition = parse_definition(
            {
                "group_by": [first.name],
                "measures": [{"field": m.name, "agg": m.aggregates[0]} for m in dataset.measures],
            },
            dataset=dataset,
        )
        started = time.perf_counter()
        report_run(definition=definition, user=user)
        elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
        results.append(
            {
                "dataset": dataset.name,
                "label": str(dataset.label),
                "rows": queryset.count(),
                "sample_ms": elapsed_ms,
                "checks": _consistency_checks(dataset.name, queryset),
            }
        )
    return results


def _consistency_checks(name: str, queryset: QuerySet) -> list[dict]:
    from django.db.models import OuterRef, Subquery, Value
    from django.db.models.functions import Abs, Coalesce
    from django.utils.translation import gettext as _

    from apps.eudr.models import CartonLabel
    from apps.inventory.models import StockMove

    checks = []
    if name == "stock":
        zero = Value(Decimal("0"))

        def moves(direction: str):
            return Coalesce(
                Subquery(
                    StockMove.objects.filter(
                        **{direction: OuterRef("location_id"), "product_id": OuterRef("product_id")}
                    )
                    .values("product_id")
                    .annotate(total=Sum("quantity"))
                    .values("total")
                ),
                zero,
            )

        wrong = (
            queryset.annotate(moved=moves("to_location") - moves("from_location"))
            .exclude(quantity=F("moved"))
            .count()
        )
        checks.append({"name": _("Stock equals the sum of its moves"), "ok": wrong == 0, "failures": wrong})
    if name == "raw_materials":
        used = Coalesce(
            Subquery(
                CartonLabel.objects.filter(raw_material=OuterRef("pk"), status=CartonLabel.Status.ACTIVE)
                .values("raw_material")
                .annotate(total=Sum("net_weight_kg"))
                .values("total")
            ),
            Value(Decimal("0")),
        )
        # Apart by at least half a gram (the weights keep three decimals): SQLite sums decimals as floats,
        # so an exact comparison there reported weights that agree as failures.
        wrong = (
            queryset.annotate(labels_kg=used, apart=Abs(F("used_kg") - F("labels_kg")))
            .filter(apart__gte=Decimal("0.0005"))
            .count()
        )
        checks.append(
            {
                "name": _("Used weight equals the weight of the active labels"),
                "ok": wrong == 0,
                "failures": wrong,
            }
        )
    return checks
