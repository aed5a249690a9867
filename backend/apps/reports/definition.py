"""Parsing and checking a report definition against its dataset (before anything reaches the database).

A definition (the body of `POST /api/reports/run/`, and what a saved report keeps):

    {"dataset": "cartons",
     "filters": [{"field": "created_at", "op": "relative", "value": "last_90_days"}],
     "group_by": ["parent_vendor", "created_at:month"], "pivot": "status",
     "measures": [{"field": "id", "agg": "count"}, {"field": "net_weight_kg", "agg": "sum"}],
     "order_by": ["-net_weight_kg__sum"], "limit": 500}

Every name is looked up in the dataset's declaration; a value is parsed into the dimension's kind.
Anything unknown or malformed is a ReportInvalid (400) that says which part and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from dateutil.relativedelta import relativedelta
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from .datasets import AGGREGATES, BOOL, CHOICE, DATE, GRAINS, NUMBER, TEXT, Dataset, Dimension, Measure
from .errors import ReportInvalid

MAX_GROUPS = 3
MAX_MEASURES = 10
MAX_FILTERS = 20
MAX_IN_VALUES = 500
MAX_LIMIT = 10_000
DEFAULT_LIMIT = 1_000
OPS_BY_KIND = {
    TEXT: ("eq", "in", "contains"),
    CHOICE: ("eq", "in"),
    NUMBER: ("eq", "in", "range"),
    DATE: ("eq", "range", "relative"),
    BOOL: ("eq",),
}
RELATIVE = re.compile(
    r"^(?:last_(?P<n>\d{1,4})_(?P<unit>days|weeks|months)|this_(?P<this>week|month|quarter|year))$"
)


@dataclass(frozen=True)
class GroupKey:
    """A dimension as a group or pivot, with its date grain: the key `field` or `field:grain`."""

    dimension: Dimension
    grain: str | None

    @property
    def key(self) -> str:
        return f"{self.dimension.name}:{self.grain}" if self.grain else self.dimension.name


@dataclass(frozen=True)
class MeasureSpec:
    measure: Measure
    agg: str

    @property
    def key(self) -> str:
        return f"{self.measure.name}__{self.agg}"


@dataclass(frozen=True)
class FilterSpec:
    dimension: Dimension
    op: str
    value: object


@dataclass(frozen=True)
class Definition:
    dataset: Dataset
    filters: tuple[FilterSpec, ...]
    group_by: tuple[GroupKey, ...]
    pivot: GroupKey | None
    measures: tuple[MeasureSpec, ...]
    order_by: tuple[str, ...]
    limit: int


def _invalid(part: str, message: str):
    return ReportInvalid(message, data={part: [message]})


def parse_group_key(dataset: Dataset, raw, part: str) -> GroupKey:
    if not isinstance(raw, str) or not raw:
        raise _invalid(part, _("Give a field name, or a date field as field:grain."))
    name, _sep, grain = raw.partition(":")
    dimension = dataset.dimension(name)
    if dimension is None:
        raise _invalid(part, _("The dataset has no field “%(name)s”.") % {"name": name[:100]})
    if dimension.kind == DATE:
        grain = grain or "day"
        if grain not in GRAINS:
            raise _invalid(part, _("A date is grouped by day, week, month, quarter or year."))
        return GroupKey(dimension, grain)
    if grain:
        raise _invalid(
            part, _("Only a date field takes a grain (“%(name)s” is not a date).") % {"name": name}
        )
    return GroupKey(dimension, None)


def _scalar(dimension: Dimension, value, part: str):
    kind = dimension.kind
    if kind == DATE:
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed is None:
            raise _invalid(part, _("“%(field)s” needs a date as YYYY-MM-DD.") % {"field": dimension.name})
        return parsed
    if kind == NUMBER:
        try:
            number = Decimal(str(value))
        except (InvalidOperation, ValueError):
            number = None
        if number is None or not number.is_finite() or isinstance(value, bool):
            raise _invalid(part, _("“%(field)s” needs a number.") % {"field": dimension.name})
        return number
    if kind == BOOL:
        if not isinstance(value, bool):
            raise _invalid(part, _("“%(field)s” needs true or false.") % {"field": dimension.name})
        return value
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or len(str(value)) > 200:
        raise _invalid(
            part, _("“%(field)s” needs a text of at most 200 characters.") % {"field": dimension.name}
        )
    value = str(value)
    if kind == CHOICE and value not in {v for v, _label in dimension.choices()}:
        raise _invalid(
            part,
            _("“%(value)s” is not a value of “%(field)s”.") % {"value": value[:50], "field": dimension.name},
        )
    return value


def relative_range(value: str, today: date | None = None) -> tuple[date, date]:
    """[first day, last day] of a relative period such as last_90_days or this_quarter."""
    today = today or timezone.localdate()
    match = RELATIVE.match(value)
    if match is None:
        raise ValueError(value)
    if match["this"]:
        unit = match["this"]
        if unit == "week":
            start = today - timedelta(days=today.weekday())
        elif unit == "month":
            start = today.replace(day=1)
        elif unit == "quarter":
            start = today.replace(month=3 * ((today.month - 1) // 3) + 1, day=1)
        else:
            start = today.replace(month=1, day=1)
        return start, today
    n = int(match["n"])
    delta = {
        "days": relativedelta(days=n - 1),
        "weeks": relativedelta(weeks=n, days=-1),
        "months": relativedelta(months=n, days=-1),
    }
    return today - delta[match["unit"]], today


def _filter(dataset: Dataset, raw, index: int) -> FilterSpec:
    part = f"filters[{index}]"
    if not isinstance(raw, dict):
        raise _invalid(part, _("A filter is an object with field, op and value."))
    dimension = dataset.dimension(raw.get("field")) if isinstance(raw.get("field"), str) else None
    if dimension is None:
        raise _invalid(
            part, _("The dataset has no field “%(name)s”.") % {"name": str(raw.get("field"))[:100]}
        )
    op = raw.get("op")
    allowed = OPS_BY_KIND[dimension.kind]
    if op not in allowed:
        raise _invalid(
            part,
            _("“%(field)s” can be filtered with: %(ops)s.")
            % {"field": dimension.name, "ops": ", ".join(allowed)},
        )
    value = raw.get("value")
    if op == "in":
        if not isinstance(value, list) or not value or len(value) > MAX_IN_VALUES:
            raise _invalid(part, _("“in” needs a list of 1 to %(max)s values.") % {"max": MAX_IN_VALUES})
        return FilterSpec(dimension, op, tuple(_scalar(dimension, v, part) for v in value))
    if op == "range":
        if not isinstance(value, list) or len(value) != 2 or value == [None, None]:
            raise _invalid(part, _("“range” needs [from, to]; either may be null, not both."))
        low, high = (None if v is None else _scalar(dimension, v, part) for v in value)
        if low is not None and high is not None and low > high:
            raise _invalid(part, _("The start of a range comes before its end."))
        return FilterSpec(dimension, op, (low, high))
    if op == "relative":
        if not isinstance(value, str) or not RELATIVE.match(value):
            raise _invalid(
                part,
                _(
                    "A relative period is last_N_days, last_N_weeks, last_N_months, this_week, this_month, this_quarter or this_year."
                ),
            )
        return FilterSpec(dimension, op, value)
    if op == "contains":
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            raise _invalid(part, _("“contains” needs a text of 1 to 200 characters."))
        return FilterSpec(dimension, op, value.strip())
    return FilterSpec(dimension, op, _scalar(dimension, value, part))


def parse_definition(raw, *, dataset: Dataset) -> Definition:
    """The checked definition; ReportInvalid naming the part that is wrong."""
    if not isinstance(raw, dict):
        raise ReportInvalid(_("The report definition is an object."))
    filters_raw = raw.get("filters") or []
    if not isinstance(filters_raw, list) or len(filters_raw) > MAX_FILTERS:
        raise _invalid("filters", _("Filters are a list of at most %(max)s.") % {"max": MAX_FILTERS})
    filters = tuple(_filter(dataset, f, i) for i, f in enumerate(filters_raw))

    group_raw = raw.get("group_by") or []
    if not isinstance(group_raw, list) or len(group_raw) > MAX_GROUPS:
        raise _invalid("group_by", _("Group by at most %(max)s fields.") % {"max": MAX_GROUPS})
    group_by = tuple(parse_group_key(dataset, g, "group_by") for g in group_raw)
    pivot = parse_group_key(dataset, raw["pivot"], "pivot") if raw.get("pivot") else None
    keys = [g.key for g in group_by] + ([pivot.key] if pivot else [])
    if len(set(keys)) != len(keys):
        raise _invalid("group_by", _("A field is used twice among the groups and the pivot."))

    measures_raw = raw.get("measures") or [{"field": "id", "agg": "count"}]
    if not isinstance(measures_raw, list) or len(measures_raw) > MAX_MEASURES:
        raise _invalid("measures", _("Measures are a list of at most %(max)s.") % {"max": MAX_MEASURES})
    measures = []
    for item in measures_raw:
        if not isinstance(item, dict):
            raise _invalid("measures", _("A measure is an object with field and agg."))
        measure = dataset.measure(item.get("field")) if isinstance(item.get("field"), str) else None
        if measure is None:
            raise _invalid(
                "measures",
                _("The dataset has no measure “%(name)s”.") % {"name": str(item.get("field"))[:100]},
            )
        agg = item.get("agg")
        if agg not in AGGREGATES or agg not in measure.aggregates:
            raise _invalid(
                "measures",
                _("“%(name)s” can be aggregated with: %(aggs)s.")
                % {"name": measure.name, "aggs": ", ".join(measure.aggregates)},
            )
        spec = MeasureSpec(measure, agg)
        if spec.key not in {m.key for m in measures}:
            measures.append(spec)

    order_raw = raw.get("order_by") or []
    if not isinstance(order_raw, list) or len(order_raw) > MAX_GROUPS + MAX_MEASURES:
        raise _invalid("order_by", _("Sort by a list of group and measure names."))
    sortable = set(keys) | {m.key for m in measures}
    for item in order_raw:
        if not isinstance(item, str) or item.lstrip("-") not in sortable:
            raise _invalid("order_by", _("Sort only by a group or a measure of the report."))

    limit = raw.get("limit", DEFAULT_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise _invalid("limit", _("The row limit is a whole number from 1 to %(max)s.") % {"max": MAX_LIMIT})
    return Definition(dataset, filters, group_by, pivot, tuple(measures), tuple(order_raw), limit)
