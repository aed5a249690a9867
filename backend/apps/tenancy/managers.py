"""Tenant-scoped managers that fail closed (the django-scopes idea).

`Model.objects` filters by the current tenant. Outside a tenant it still returns a queryset, so that
class-level declarations and the schema generator can refer to it, but evaluating that queryset raises
`TenantNotSet` instead of returning every tenant's rows. `Model.unscoped` is the explicit, greppable
escape hatch for system jobs (and on PostgreSQL row-level security still applies to it).
"""

from __future__ import annotations

from django.db import models

from .context import TenantNotSet, get_current_tenant_id


class TenantQuerySet(models.QuerySet):
    _tenant_missing = False

    def _clone(self):
        clone = super()._clone()
        clone._tenant_missing = self._tenant_missing
        return clone

    def _fail_if_unscoped(self) -> None:
        if self._tenant_missing:
            raise TenantNotSet(
                f"{self.model.__name__}.objects was used outside a tenant; use tenant_context() "
                f"or {self.model.__name__}.unscoped for a system job."
            )

    def for_current_tenant(self):
        """This queryset scoped to the tenant active now (for querysets declared at import time, such as
        a ViewSet's `queryset` attribute)."""
        from .context import require_tenant_id

        clone = self._chain()
        clone._tenant_missing = False
        return clone.filter(tenant_id=require_tenant_id())

    def _fetch_all(self):
        self._fail_if_unscoped()
        return super()._fetch_all()

    def count(self):
        self._fail_if_unscoped()
        return super().count()

    def exists(self):
        self._fail_if_unscoped()
        return super().exists()

    def aggregate(self, *args, **kwargs):
        self._fail_if_unscoped()
        return super().aggregate(*args, **kwargs)

    def update(self, **kwargs):
        self._fail_if_unscoped()
        return super().update(**kwargs)

    def delete(self):
        self._fail_if_unscoped()
        return super().delete()

    def iterator(self, *args, **kwargs):
        self._fail_if_unscoped()
        return super().iterator(*args, **kwargs)

    def bulk_create(self, objs, *args, **kwargs):
        """Stamps the current tenant on every row, refuses rows of another tenant and foreign keys to
        another tenant's rows (one query per related model, not per row)."""
        tenant_id = get_current_tenant_id()
        if tenant_id is None:
            raise TenantNotSet(f"bulk_create of {self.model.__name__} outside a tenant")
        objs = list(objs)
        for obj in objs:
            if obj.tenant_id is None:
                obj.tenant_id = tenant_id
            elif obj.tenant_id != tenant_id:
                raise TenantNotSet(f"bulk_create of {self.model.__name__} rows of another tenant")
        self.model.clean_tenant_relations_bulk(objs)
        return super().bulk_create(objs, *args, **kwargs)


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):
    """Default manager of every tenant-owned model."""

    def get_queryset(self):
        queryset = super().get_queryset()
        tenant_id = get_current_tenant_id()
        if tenant_id is None:
            queryset._tenant_missing = True
            return queryset
        return queryset.filter(tenant_id=tenant_id)


class UnscopedManager(models.Manager):
    """All tenants' rows (system jobs only). Still subject to PostgreSQL row-level security."""
