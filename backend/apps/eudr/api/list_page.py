"""The raw-material deliveries list page, read through statements compiled once per process and written
straight from the database's rows (docs/performance.md, "Deliveries list: compiled statements, rows from
tuples").

The ORM path of the list builds its queryset, compiles three statements (the bounded count, the page with
its vendor join and line-count subquery, the page's material types) and builds 100 model instances for a
page of 50, then DRF writes each row through twenty serializer fields: about 12 ms of Python around 2 ms of
PostgreSQL. This path serves the same request when it neither filters nor searches (the list as it opens,
in any ordering the list offers, any page): the count and the page are compiled once per process and user
kind and ordering (`CompiledOnce`, the tenant and the supplier's parent vendor as parameters), the page's
rows come back as tuples and `delivery_row` writes each one as `RawMaterialDeliveryListItemSerializer`
writes it, with the same functions for the derived fields (effective status, weight balance, remaining
cartons). `apps/eudr/tests/test_list_page.py` compares the two paths' answers key for key; any request this
path does not serve goes the ORM's way.

The tenant is a parameter of each statement, and row-level security applies to it as to any other: the
request's tenant is set on the connection by then (`TenantMiddleware`, the membership read).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from apps.common.api.compiled_list import CompiledPage
from apps.common.api.filters import PriceAwareOrderingFilter, names_none_of
from apps.common.api.model_serializer import DateTimeField
from apps.common.api.permissions import user_type
from apps.common.api.search import JoinFreeSearchFilter
from apps.eudr.models import RawMaterialDelivery, effective_status_of
from apps.eudr.selectors import (
    LIST_PAGE_COLUMNS,
    deliveries_for_list,
    delivery_material_types,
    remaining_cartons_of,
    weight_balance_of,
)
from apps.tenancy.compiled import CompiledOnce
from apps.tenancy.context import get_current_tenant_id

# The columns of a row, in the order `delivery_row` reads them: the id, what the ORM's page reads (a
# foreign key's name reads its id), the line count.
COLUMNS = ("id", *LIST_PAGE_COLUMNS, "lines_count")

# Orderings kept per process: each is a distinct list of valid ordering fields, so there are finitely many,
# but combinations of five fields in two directions are many; past this number a request goes the ORM's way.
MAX_ORDERINGS = 64

_PAGES: dict[tuple, CompiledOnce] = {}
_COUNTS: dict[bool, CompiledOnce] = {}
# An unevaluated queryset with the list's default ordering: what the ordering backend falls back to.
_ORDERED = RawMaterialDelivery.unscoped.order_by("-created_at", "-id")


def _scoped(tenant: int, vendor: int | None, supplier: bool):
    queryset = RawMaterialDelivery.unscoped.filter(tenant_id=tenant)
    return queryset.filter(parent_vendor_id=vendor) if supplier else queryset


def _page_statement(supplier: bool, ordering: list) -> CompiledOnce:
    def build(tenant, vendor=None):
        queryset = deliveries_for_list(_scoped(tenant, vendor, supplier), page_only=True)
        return queryset.order_by(*ordering).values_list(*COLUMNS)

    return CompiledOnce(build, "tenant", "vendor") if supplier else CompiledOnce(build, "tenant")


def _count_statement(supplier: bool) -> CompiledOnce:
    def build(tenant, vendor=None):
        return _scoped(tenant, vendor, supplier).order_by().values_list("pk")

    return CompiledOnce(build, "tenant", "vendor") if supplier else CompiledOnce(build, "tenant")


def write_rows(rows: list[tuple], using: str, tenant: int) -> list[dict[str, Any]]:
    types = delivery_material_types([row[0] for row in rows], tenant_id=tenant, using=using)
    today = timezone.localdate()
    time = DateTimeField(read_only=True)
    time.bind("created_at", serializers.Serializer())  # the time zone, read once
    return [delivery_row(row, types[row[0]], today, time.to_representation) for row in rows]


def delivery_row(row: tuple, material_types: list[str], today, time) -> dict[str, Any]:
    """One delivery as `RawMaterialDeliveryListItemSerializer` writes it, from a row of `COLUMNS`."""
    (
        pk,
        vendor_id,
        vendor_name,
        vendor_cname,
        number,
        description,
        status,
        country_code,
        country_name,
        fm_expiry,
        coc_expiry,
        original_kg,
        loss_rate_percent,
        used_kg,
        issued_cartons,
        allowed_carton_cap,
        approved_over_cap,
        dds_reference_number,
        submitted_at,
        created_at,
        updated_at,
        lines_count,
    ) = row
    return {
        "id": pk,
        "parent_vendor": vendor_id,
        # the serializer's default for a delivery without a vendor
        "parent_vendor_name": "" if vendor_id is None else vendor_name,
        "parent_vendor_cname": "" if vendor_id is None else vendor_cname,
        "delivery_number": number,
        "description": description,
        "status": str(effective_status_of(status, fm_expiry, coc_expiry, today)),
        "is_draft": status == RawMaterialDelivery.Status.DRAFT,
        "country_code": country_code,
        "country_name": country_name,
        "material_types": material_types,
        "lines_count": lines_count,
        "weight": weight_balance_of(
            original_kg=original_kg, loss_rate_percent=loss_rate_percent, used_kg=used_kg
        ).as_text(),
        "issued_cartons": issued_cartons,
        "allowed_carton_cap": allowed_carton_cap,
        "remaining_cartons": remaining_cartons_of(allowed_carton_cap, approved_over_cap, issued_cartons),
        "dds_reference_number": dds_reference_number,
        "submitted_at": None if submitted_at is None else time(submitted_at),
        "created_at": None if created_at is None else time(created_at),
        "updated_at": None if updated_at is None else time(updated_at),
    }


def compiled_page(view, limit: int) -> CompiledPage | None:
    """The list's rows for the paginator through the compiled statements, or None when the request is one
    this path does not serve (it filters or searches, or the user is neither internal nor a supplier with
    a parent vendor): the view then goes the ORM's way."""
    request = view.request
    kind = user_type(request.user)
    if kind == "supplier":
        if not getattr(request.user, "parent_vendor_id", None):
            return None
    elif kind != "internal":
        return None
    tenant = get_current_tenant_id()
    if tenant is None:
        return None
    if not names_none_of(view.filterset_class, request.query_params):
        return None
    if JoinFreeSearchFilter().get_search_terms(request):
        return None
    ordering = PriceAwareOrderingFilter().get_ordering(request, _ORDERED, view)
    key = (kind == "supplier", tuple(str(term) for term in ordering))
    if key not in _PAGES and len(_PAGES) >= MAX_ORDERINGS:
        return None
    supplier = kind == "supplier"
    values = {"tenant": tenant}
    if supplier:
        values["vendor"] = request.user.parent_vendor_id
    page = _PAGES.get(key) or _PAGES.setdefault(key, _page_statement(supplier, list(ordering)))
    count = _COUNTS.get(supplier) or _COUNTS.setdefault(supplier, _count_statement(supplier))
    using = RawMaterialDelivery.unscoped.db
    return CompiledPage(count, page, values, limit, using, partial(write_rows, using=using, tenant=tenant))
