"""Ready-made reports of the demo company (tenant 3), shared with everyone there."""

from django.utils import timezone

from apps.reports.models import SavedReport
from apps.tenancy.context import tenant_context

TENANT = 3

READY_MADE = [
    (
        "Cartons issued per parent vendor per month",
        "bar",
        {
            "dataset": "cartons",
            "group_by": ["created_at:month", "parent_vendor"],
            "measures": [{"field": "id", "agg": "count"}, {"field": "net_weight_kg", "agg": "sum"}],
        },
    ),
    (
        "Stock by warehouse",
        "pie",
        {
            "dataset": "stock",
            "group_by": ["warehouse"],
            "measures": [{"field": "quantity", "agg": "sum"}, {"field": "value", "agg": "sum"}],
        },
    ),
    (
        "Certificates expiring in the next 60 days",
        "table",
        {
            "dataset": "raw_materials",
            "filters": [{"field": "certificate_expiry", "op": "range", "value": ["{today}", "{today+60}"]}],
            "group_by": ["parent_vendor", "delivery_number"],
            "measures": [{"field": "remaining_kg", "agg": "sum"}, {"field": "issued_cartons", "agg": "sum"}],
        },
    ),
    (
        "Purchase amounts per supplier this year",
        "stacked",
        {
            "dataset": "purchase_lines",
            "filters": [{"field": "order_date", "op": "relative", "value": "this_year"}],
            "group_by": ["supplier"],
            "pivot": "status",
            "measures": [{"field": "amount", "agg": "sum"}],
        },
    ),
]


def _dated(definition: dict) -> dict:
    """Fills {today} and {today+N} in range filters with real dates."""
    from datetime import timedelta

    today = timezone.localdate()

    def fill(value):
        if isinstance(value, str) and value.startswith("{today"):
            days = int(value[len("{today") : -1] or 0)
            return str(today + timedelta(days=days))
        return value

    filters = [
        {**f, "value": [fill(v) for v in f["value"]]} if f["op"] == "range" else f
        for f in definition.get("filters", [])
    ]
    return {**definition, "filters": filters} if filters else definition


def load(ctx: dict) -> None:
    admin = ctx["users"]["admin"]
    with tenant_context(ctx["tenants"][TENANT]):
        if SavedReport.objects.exists():
            return
        for name, chart, definition in READY_MADE:
            SavedReport.objects.create(
                name=name, owner=admin, shared=True, chart=chart, definition=_dated(definition)
            )
