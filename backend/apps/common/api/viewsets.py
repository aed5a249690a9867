"""The one base for tenant-scoped resources (NetBox's shape: a ViewSet is queryset + serializer + filters).

It restricts the queryset to the current tenant (the default manager) and, for supplier users, to
their parent vendor (`supplier_scope`: the lookup path from the model to the parent vendor id, e.g.
"parent_vendor" or "supplier__parent_vendor"); suppliers of another vendor get 404. After every write it
re-checks, inside the request's transaction, that the written row is one the user may see
(`check_visible`, NetBox's shape), so a related id that moves a row out of the user's scope is refused
and rolled back. It offers `export/` (CSV, XLSX) with the list's filters.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.common.api.export import EXPORT_FORMATS, SPREADSHEET_RESPONSES, export_response
from apps.common.api.pagination import bound_for, searches
from apps.common.api.permissions import TENANT_PERMISSION_CLASSES, user_type
from apps.common.errors import OutsideParentVendor
from apps.common.prices import without_money_columns

EXPORT_PARAMETER = OpenApiParameter(
    "format",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    enum=list(EXPORT_FORMATS),
    required=True,
)


if TYPE_CHECKING:  # the mixin's methods run on a DRF generic view
    from rest_framework.viewsets import ModelViewSet as _ViewBase
else:
    _ViewBase = object


def _then_check_visible(method):
    """`method` (a perform_create/perform_update), then the visibility re-check of the row it wrote."""

    @functools.wraps(method)
    def perform(self, serializer):
        method(self, serializer)
        self.check_visible(serializer.instance)

    perform.checks_visibility = True  # type: ignore[attr-defined]
    return perform


class TenantScopedMixin(_ViewBase):
    """Tenant and supplier scope of a viewset: reads through `scope_queryset`; every create and update
    re-checks that the written row is one the user may see (`check_visible`).

    The re-check cannot be skipped: a subclass that overrides `perform_create` or `perform_update` (to
    write through a service) gets its method wrapped by `__init_subclass__`, so the check runs after it
    whatever the override does (apps/common/tests/test_visibility_recheck.py walks every view)."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types: tuple[str, ...] = ("internal",)
    supplier_scope: str | None = None
    supplier_read_only = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("perform_create", "perform_update"):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "checks_visibility", False):
                setattr(cls, name, _then_check_visible(method))

    def scope_queryset(self, queryset: QuerySet) -> QuerySet:
        user: Any = self.request.user
        if user_type(user) == "supplier":
            if not self.supplier_scope or not getattr(user, "parent_vendor_id", None):
                return queryset.none()
            queryset = queryset.filter(**{self.supplier_scope: user.parent_vendor_id})
        return queryset

    def get_queryset(self):
        queryset: Any = super().get_queryset()
        if getattr(queryset, "_tenant_missing", False):
            queryset = queryset.for_current_tenant()
        return self.scope_queryset(queryset)

    def check_visible(self, instance) -> None:
        """Refuses (403, the request's transaction rolls back) a write whose row the user may not see.

        The tenant is enforced on every save by the tenant base model; what only the view knows is the
        supplier scope, so only supplier users cost the extra query. Views that write through their own
        `create`/`update` call this with the written row."""
        if instance is None or user_type(self.request.user) != "supplier":
            return
        rows = type(instance)._default_manager.filter(pk=instance.pk)
        if not self.scope_queryset(rows).exists():
            raise OutsideParentVendor()

    def perform_create(self, serializer):
        super().perform_create(serializer)
        self.check_visible(serializer.instance)

    def perform_update(self, serializer):
        super().perform_update(serializer)
        self.check_visible(serializer.instance)

    perform_create.checks_visibility = True  # type: ignore[attr-defined]
    perform_update.checks_visibility = True  # type: ignore[attr-defined]


class CompiledListMixin(_ViewBase):
    """A list whose pages `compiled_rows` may serve through statements compiled once per process
    (`apps.common.api.compiled_list.CompiledPage`, or None for a request it does not serve, which goes the
    ORM's way): the deliveries list, the products list."""

    def compiled_rows(self, limit: int):
        return None

    def list(self, request, *args, **kwargs):
        # A comment, not a docstring: the view's docstring is the endpoint's description in the schema.
        searching = searches(request, self)
        rows = self.compiled_rows(bound_for(searching))
        window = getattr(self.paginator, "window", None)
        if rows is not None and window is not None and searching:
            # a search's count and page in one statement (CompiledPage)
            rows.window = window(request)
        page = self.paginate_queryset(rows) if rows is not None else None
        if page is not None:
            return self.get_paginated_response(page)
        return super().list(request, *args, **kwargs)


class TenantModelViewSet(TenantScopedMixin, viewsets.ModelViewSet):
    """CRUD + export for a tenant-owned model."""

    export_columns: list[tuple[str, object]] = []
    export_filename = "export"

    def update(self, request, *args, **kwargs):
        """PUT and PATCH answer with the whole record. A PATCH serializer is partial, and DRF leaves out a
        field whose source crosses an empty relation (`parent.name` with no parent) when partial, so the
        response is serialized again, not partially."""
        partial = kwargs.pop("partial", False)
        instance = self.get_object()
        serializer = self.get_serializer(instance, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        self.perform_update(serializer)
        if getattr(instance, "_prefetched_objects_cache", None):
            instance._prefetched_objects_cache = {}
        return Response(self.get_serializer(serializer.instance).data)

    def get_export_columns(self):
        return self.export_columns

    def get_export_rows(self, queryset):
        return queryset.iterator(chunk_size=2000) if not queryset._prefetch_related_lookups else queryset

    @extend_schema(parameters=[EXPORT_PARAMETER], responses=SPREADSHEET_RESPONSES)
    @action(detail=False, methods=["get"], url_path="export")
    def export(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        # Run the filtered query once before the stream starts: a filter value the database refuses
        # (an integer out of range) is then a 400 envelope, not a response that breaks off mid-stream.
        queryset.exists()
        columns = self.get_export_columns() or [
            (field.verbose_name, field.attname)
            for field in queryset.model._meta.concrete_fields
            if field.name != "tenant"
        ]
        return export_response(
            rows=self.get_export_rows(queryset),
            columns=without_money_columns(columns, request),
            filename=self.export_filename,
            fmt=request.query_params.get("format", "csv"),
        )


class TenantReadOnlyViewSet(TenantScopedMixin, viewsets.ReadOnlyModelViewSet):
    pass


DOCUMENT_ACTIONS = ("list", "retrieve", "create", "update", "partial_update", "destroy", "export")


def document_schema_view(*, detail, write, actions=DOCUMENT_ACTIONS, **overrides):
    """The OpenAPI description of a DocumentViewSet (the tenant parameter comes from TenantAutoSchema):
    writes take `write` and answer `detail` (201 on create); export takes the list's filters. `actions`
    names the routed ones; `overrides` replaces single actions (`partial_update=extend_schema(...)`)."""
    schemas = {
        "list": extend_schema(),
        "retrieve": extend_schema(responses=detail),
        "create": extend_schema(request=write, responses={201: detail}),
        "update": extend_schema(request=write, responses=detail),
        "partial_update": extend_schema(request=write, responses=detail),
        "destroy": extend_schema(),
        "export": extend_schema(parameters=[EXPORT_PARAMETER], filters=True),
    }
    return extend_schema_view(**{name: schemas[name] for name in actions}, **overrides)


class DocumentViewSet(TenantModelViewSet):
    """A document with lines (an order, a shipment, a receipt, an invoice) written through services: the
    list reads with `serializer_class`, the detail actions with `detail_serializer_class`, writes
    validate with `write_serializer_class` (`write_data`), and every write answers the fresh detail
    (`detail_response`: read again through `get_queryset`, so with the annotations a GET has)."""

    detail_serializer_class: Any = None
    write_serializer_class: Any = None
    detail_actions: tuple[str, ...] = ("retrieve",)
    write_actions: tuple[str, ...] = ("create", "update", "partial_update")

    def get_serializer_class(self):
        if self.action in self.detail_actions and self.detail_serializer_class is not None:
            return self.detail_serializer_class
        if self.action in self.write_actions and self.write_serializer_class is not None:
            return self.write_serializer_class
        return super().get_serializer_class()

    def write_data(self, instance=None, *, partial: bool = False) -> dict:
        """The request body validated by the write serializer (bound to `instance` on update)."""
        serializer = self.write_serializer_class(
            instance, data=self.request.data, partial=partial, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def detail_response(self, instance, status_code: int = 200) -> Response:
        fresh = self.get_queryset().get(pk=instance.pk)
        return Response(
            self.detail_serializer_class(fresh, context=self.get_serializer_context()).data,
            status=status_code,
        )
