"""The permissions a user holds in a tenant: the union of the model permissions of their roles there."""

from __future__ import annotations

from django.contrib.auth.models import Permission


def tenant_permissions(user, tenant) -> frozenset[str]:
    """Cached per request object (the user instance); the tenant must be entered (RLS on roles)."""
    if tenant is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cache = getattr(user, "_tenant_perm_cache", None)
    if cache is None:
        cache = {}
        user._tenant_perm_cache = cache
    if tenant.pk not in cache:
        if user.is_superuser:
            rows = Permission.objects.values_list("content_type__app_label", "codename")
        else:
            rows = (
                Permission.objects.filter(
                    roles__memberships__user=user,
                    roles__memberships__tenant=tenant,
                    roles__memberships__is_active=True,
                )
                .values_list("content_type__app_label", "codename")
                .distinct()
            )
        cache[tenant.pk] = frozenset(f"{app}.{codename}" for app, codename in rows)
    return cache[tenant.pk]
