"""The products list page, with or without a search, read through statements compiled once per process
and written straight from the database's rows (docs/performance.md, "Products list and search: compiled
statements").

The ORM path of a search builds its queryset and its search condition (seven `icontains` and the rows its
grams name), compiles the bounded count and the page, builds 50 model instances and has DRF write each
through 22 serializer fields: about 11 ms of Python around 5 ms of PostgreSQL. This path serves the same
request when it names no filter (any search of up to MAX_TERMS terms, any ordering the list offers, any
page): the count and the page are compiled once per process for each user kind, ordering and shape of
search (`CompiledOnce`: which of the terms' gram kinds have candidates, the search's own
`JoinFreeSearchFilter.searched` building the condition from stand-ins), with the tenant, the supplier's
parent vendor, the terms and their candidates as parameters; `_Writer.row` writes each row as
`ProductSerializer` writes it. `apps/products/tests/test_list_page.py` compares the two paths' answers key
for key; any request this path does not serve goes the ORM's way.

Row-level security applies to these statements as to any other: the request's tenant is set on the
connection by then (the membership read).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connections
from rest_framework import serializers

from apps.common.api.compiled_list import CompiledPage
from apps.common.api.filters import PriceAwareOrderingFilter, names_none_of
from apps.common.api.model_serializer import DateTimeField
from apps.common.api.permissions import user_type
from apps.common.api.search import JoinFreeSearchFilter
from apps.common.prices import hide_prices
from apps.common.search_index import candidates
from apps.products.models import Product
from apps.products.selectors import GroupIndex, supplier_products
from apps.tenancy.compiled import CompiledOnce
from apps.tenancy.context import get_current_tenant_id

from .serializers import SUPPLIER_VISIBLE_FIELDS, ProductSerializer

# The columns of a row, in the order `_Writer.row` reads them (a foreign key's name reads its id).
COLUMNS = (
    "id",
    "article_number",
    "name",
    "name_zh",
    "group",
    "group__name",
    "unit",
    "weight_per_carton_kg",
    "carton_length_mm",
    "carton_width_mm",
    "carton_height_mm",
    "hs_code",
    "is_active",
    "purchase_price",
    "sales_price",
    "currency",
    "description",
    "barcode",
    "visma_code",
    "created_at",
    "updated_at",
)
PRICE_FIELDS = frozenset(ProductSerializer.price_fields)
MAX_TERMS = 4  # terms of one search served here; more go the ORM's way
# Statements kept per process: a page's per user kind, valid ordering and shape of search, a count's per
# user kind and shape, finitely many but many (24 orderings of one field alone); past this number a
# request goes the ORM's way.
MAX_STATEMENTS = 256

_PAGES: dict[tuple, CompiledOnce] = {}
_COUNTS: dict[tuple, CompiledOnce] = {}


def _statement(supplier: bool, fields: tuple[str, ...], shape: tuple, ordering: list | None) -> CompiledOnce:
    """The count's statement (`ordering` None: the ids without an order) or the page's, for a search of
    `len(shape)` terms where shape[i] names the gram kinds for which term i has candidates."""
    texts = tuple(f"term{index}" for index in range(len(shape)))
    lists = tuple(f"ids{index}_{kind}" for index, kinds in enumerate(shape) for kind in kinds)

    def build(tenant, vendor=None, **values):
        queryset = Product.objects.all()  # built with the tenant's stand-in active: it filters by it
        if supplier:
            queryset = supplier_products(queryset, vendor)
        if shape:
            backend = JoinFreeSearchFilter()
            found = [
                {kind: values[f"ids{index}_{kind}"] if kind in kinds else None for kind in _kinds(fields)}
                for index, kinds in enumerate(shape)
            ]
            queryset = backend.searched(queryset, list(fields), [values[name] for name in texts], found)
        if ordering is None:
            return queryset.order_by().values_list("pk")
        return queryset.order_by(*ordering).values_list(*COLUMNS)

    names = ("tenant", "vendor") if supplier else ("tenant",)
    return CompiledOnce(build, *names, texts=texts, id_lists=lists, tenant="tenant")


@cache
def _kinds(fields: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(sorted(JoinFreeSearchFilter().gram_kinds(Product.objects.none(), list(fields))))


@cache
def _decimal_writers() -> dict[str, Any]:
    """The serializer's own decimal fields (their places and rounding), built once per process."""
    fields = ProductSerializer().fields
    return {name: fields[name].to_representation for name in ("weight_per_carton_kg", *PRICE_FIELDS)}


class _Writer:
    """Writes a page's rows as `ProductSerializer` writes them for this request."""

    def __init__(self, request):
        time = DateTimeField(read_only=True)
        time.bind("created_at", serializers.Serializer())  # the time zone, read once
        self.time = time.to_representation
        self.decimals = _decimal_writers()
        self.groups: GroupIndex | None = None  # read when a row has a group, as the serializer does
        supplier = user_type(request.user) == "supplier"
        hidden = PRICE_FIELDS if hide_prices(request) else frozenset()
        self.keep = None
        if supplier or hidden:
            self.keep = frozenset(
                name
                for name in ProductSerializer.Meta.fields
                if name not in hidden and (not supplier or name in SUPPLIER_VISIBLE_FIELDS)
            )

    def rows(self, rows: list[tuple]) -> list[dict[str, Any]]:
        written = [self.row(row) for row in rows]
        if self.keep is not None:
            keep = self.keep
            written = [{key: value for key, value in row.items() if key in keep} for row in written]
        return written

    def group_path(self, group_id: int | None) -> str | None:
        if group_id is None:
            return None
        if self.groups is None:
            self.groups = GroupIndex()
        return self.groups.path(group_id) if group_id in self.groups.nodes else None

    def row(self, row: tuple) -> dict[str, Any]:
        """One product as `ProductSerializer` writes it, from a row of `COLUMNS`."""
        (
            pk,
            article_number,
            name,
            name_zh,
            group_id,
            group_name,
            unit,
            weight,
            length,
            width,
            height,
            hs_code,
            is_active,
            purchase_price,
            sales_price,
            currency,
            description,
            barcode,
            visma_code,
            created_at,
            updated_at,
        ) = row
        decimal, time = self.decimals, self.time
        return {
            "id": pk,
            "article_number": article_number,
            "name": name,
            "name_zh": name_zh,
            "group": group_id,
            "group_name": None if group_id is None else group_name,
            "group_path": self.group_path(group_id),
            "unit": unit,
            "weight_per_carton_kg": None if weight is None else decimal["weight_per_carton_kg"](weight),
            "carton_length_mm": length,
            "carton_width_mm": width,
            "carton_height_mm": height,
            "hs_code": hs_code,
            "is_active": is_active,
            "purchase_price": None if purchase_price is None else decimal["purchase_price"](purchase_price),
            "sales_price": None if sales_price is None else decimal["sales_price"](sales_price),
            "currency": currency,
            "description": description,
            "barcode": barcode,
            "visma_code": visma_code,
            "created_at": None if created_at is None else time(created_at),
            "updated_at": None if updated_at is None else time(updated_at),
        }


def compiled_page(view, limit: int) -> CompiledPage | None:
    """The list's rows for the paginator through the compiled statements, or None when the request is one
    this path does not serve (it names a filter, searches more than MAX_TERMS terms or searches on
    another database than PostgreSQL, or is a supplier's without a parent vendor): the view then goes the
    ORM's way."""
    request = view.request
    supplier = user_type(request.user) == "supplier"
    vendor = getattr(request.user, "parent_vendor_id", None)
    tenant = get_current_tenant_id()
    if tenant is None or (supplier and not vendor):
        return None
    if not names_none_of(view.filterset_class, request.query_params):
        return None
    backend = JoinFreeSearchFilter()
    fields = tuple(str(field) for field in backend.get_search_fields(view, request) or ())
    terms = backend.get_search_terms(request) if fields else []
    using = Product.objects.db
    if len(terms) > MAX_TERMS or (terms and connections[using].vendor != "postgresql"):
        return None
    kinds = _kinds(fields) if terms else ()
    values: dict[str, Any] = {"tenant": tenant}
    if supplier:
        values["vendor"] = vendor
    shape = []
    for index, term in enumerate(terms):
        found = candidates(set(kinds), term)  # one statement per term, as the search's own
        values[f"term{index}"] = term
        with_candidates = tuple(kind for kind in kinds if found[kind] is not None)
        for kind in with_candidates:
            values[f"ids{index}_{kind}"] = found[kind]
        shape.append(with_candidates)
    ordering = PriceAwareOrderingFilter().get_ordering(request, Product.objects.none(), view)
    search = (fields, tuple(shape)) if terms else ()
    page_key = (supplier, tuple(str(term) for term in ordering), search)
    count_key = (supplier, search)
    if (page_key not in _PAGES or count_key not in _COUNTS) and len(_PAGES) + len(_COUNTS) >= MAX_STATEMENTS:
        return None
    page = _PAGES.get(page_key) or _PAGES.setdefault(
        page_key, _statement(supplier, fields, tuple(shape), list(ordering))
    )
    count = _COUNTS.get(count_key) or _COUNTS.setdefault(
        count_key, _statement(supplier, fields, tuple(shape), None)
    )
    return CompiledPage(count, page, values, limit, using, _Writer(request).rows)
