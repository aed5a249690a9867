"""Reads of the printing area that are more than a plain queryset."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.eudr.models import CartonLabel

from .models import PrintAgent, PrinterDevice, PrintJob


def agents_list() -> QuerySet[PrintAgent]:
    """Agents with the count of their active printers: a subquery per listed agent, not a join with GROUP
    BY, so the page is read in the order of an index (docs/performance.md, "Indexes for the list
    orderings")."""
    printers = (
        PrinterDevice.objects.filter(agent=OuterRef("pk"), is_active=True)
        .order_by()
        .values("agent")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return PrintAgent.objects.select_related("parent_vendor").annotate(
        printer_count=Coalesce(Subquery(printers, output_field=IntegerField()), 0)
    )


def printers_list() -> QuerySet[PrinterDevice]:
    return PrinterDevice.objects.select_related("agent", "warehouse", "parent_vendor")


def jobs_list() -> QuerySet[PrintJob]:
    return PrintJob.objects.select_related("printer__agent", "user").defer("zpl")


def labels_for_print(*, queryset: QuerySet[CartonLabel], ids: list[int] | None, filters: dict | None):
    """The labels a print job covers: the selection (ids) or the labels table's filter, in label order.
    `queryset` is already narrowed to what the user may see (tenant, parent vendor)."""
    from apps.eudr.api.filters import CartonLabelFilter

    queryset = queryset.select_related("raw_material__parent_vendor", "product")
    if ids:
        queryset = queryset.filter(pk__in=ids, status=CartonLabel.Status.ACTIVE)
    else:
        filters = dict(filters or {})
        search = (filters.pop("search", "") or "").strip()
        filterset = CartonLabelFilter(data={k: str(v) for k, v in filters.items()}, queryset=queryset)
        queryset = filterset.qs
        if search:
            queryset = queryset.filter(
                Q(code__icontains=search)
                | Q(article_number__icontains=search)
                | Q(production_batch_code__icontains=search)
                | Q(purchase_order__icontains=search)
                | Q(container__icontains=search)
            )
    return queryset.order_by("production_batch_code", "batch_sequence", "id")
