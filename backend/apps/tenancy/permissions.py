"""The permissions a user holds in a tenant: the union of the model permissions of their roles there."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import Permission

from .compiled import CompiledOnce

# Read on every request that enters a tenant: its SQL compiled once per process (apps/tenancy/compiled.py).
_ROLE_PERMISSIONS = CompiledOnce(
    lambda user, tenant: (
        Permission.objects.filter(
            roles__memberships__user=user,
            roles__memberships__tenant=tenant,
            roles__memberships__is_active=True,
        )
        .values_list("content_type__app_label", "codename")
        .distinct()
    ),
    "user",
    "tenant",
)


def tenant_permissions(user, tenant) -> frozenset[str]:
    """Cached per request object (the user instance); the tenant must be entered (RLS on roles)."""
    if tenant is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cache = getattr(user, "_tenant_perm_cache", None)
    if cache is None:
        cache = {}
        user._tenant_perm_cache = cache
    if tenant.pk not in cache:
        rows: Iterable[tuple[str, str]]
        if user.is_superuser:
            rows = Permission.objects.values_list("content_type__app_label", "codename")
        else:
            rows = _ROLE_PERMISSIONS.rows(user=user.pk, tenant=tenant.pk)
        cache[tenant.pk] = frozenset(f"{app}.{codename}" for app, codename in rows)
    return cache[tenant.pk]
