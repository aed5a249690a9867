"""Reads for the users admin: which tenants a user administers, the users of a tenant, the permission
matrix of the roles page.

Users are identity data shared by tenants; the admin of a tenant sees the users who have a membership
in it. Roles and departments are tenant rows (row-level security on PostgreSQL), so reading another
tenant's roles enters that tenant with `tenant_context`.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth.models import Permission
from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from apps.suppliers.models import ParentVendor
from apps.tenancy.context import get_current_tenant_id, tenant_context
from apps.tenancy.models import Membership, Tenant
from apps.tenancy.permissions import tenant_permissions
from apps.users.models import User
from apps.users.roles import PRODUCT_APPS

MANAGE_USERS_PERMISSION = "users.change_user"
MATRIX_ACTIONS = ("view", "add", "change", "delete")


def administered_tenants(user: User) -> list[Tenant]:
    """The tenants in which `user` may manage users (holds users.change_user through their roles)."""
    cached = getattr(user, "_administered_tenants", None)
    if cached is not None:
        return cached
    result = []
    memberships = Membership.objects.select_related("tenant").filter(
        user=user, is_active=True, tenant__is_active=True
    )
    for membership in memberships.order_by("tenant_id"):
        with tenant_context(membership.tenant):
            if MANAGE_USERS_PERMISSION in tenant_permissions(user, membership.tenant):
                result.append(membership.tenant)
    user._administered_tenants = result  # type: ignore[attr-defined]  # memo for this request
    return result


def user_parent_vendor(user: User) -> ParentVendor | None:
    """The supplier user's parent vendor, read under the vendor's own tenant.

    The user row is identity data, read outside any tenant (sign-in, `me` without `tenant_id`), but the
    parent vendor is a tenant row under row-level security: a plain join finds nothing there. The vendor
    belongs to one of the user's tenants, so it is looked for in those, the current one first, each in
    its own tenant context (on PostgreSQL a short transaction with the tenant setting). The result is
    cached on `user.parent_vendor`.
    """
    field = User._meta.get_field("parent_vendor")
    if field.is_cached(user):
        return user.parent_vendor
    vendor = None
    if user.parent_vendor_id is not None:
        tenant_ids = sorted(
            {m.tenant_id for m in user.memberships.all()}, key=lambda pk: pk != get_current_tenant_id()
        )
        for tenant_id in tenant_ids:
            with tenant_context(tenant_id):
                vendor = ParentVendor.objects.filter(pk=user.parent_vendor_id).first()
            if vendor is not None:
                break
    field.set_cached_value(user, vendor)
    return vendor


def can_manage_account(*, actor: User, user: User) -> bool:
    """THE rule for changing a user (docs/tenancy.md, "Users who work in several companies").

    Every change to a user — account fields, type, password reset, activation, and the memberships
    (roles, department, removal) — needs administrator rights in every company the user belongs to
    (a membership, active or paused, in an active company). For the administrator of only some of them
    the user is read-only: a reset would take over their access elsewhere, and removing them or their
    roles would let one company's administrator lock out a group-wide administrator. Superusers are
    changed only by superusers. Applied by `services.ensure_can_manage_account` in every user write."""
    if user.is_superuser and not actor.is_superuser:
        return False
    administered = {tenant.pk for tenant in administered_tenants(actor)}
    tenant_ids = set(
        Membership.objects.filter(user=user, tenant__is_active=True).values_list("tenant_id", flat=True)
    )
    return tenant_ids <= administered


def tenant_users(*, tenant: Tenant) -> QuerySet[User]:
    """Users with a membership (active or not) in `tenant`, with their membership there prefetched as
    `tenant_memberships` (department and roles: a constant number of queries per page)."""
    in_tenant = Membership.objects.filter(user=OuterRef("pk"), tenant=tenant)
    return (
        User.objects.filter(Exists(in_tenant))
        .select_related("parent_vendor")
        .prefetch_related(
            Prefetch(
                "memberships",
                queryset=Membership.objects.filter(tenant=tenant)
                .select_related("department")
                .prefetch_related("roles"),
                to_attr="tenant_memberships",
            )
        )
    )


def permission_matrix() -> list[dict]:
    """Areas (app labels) x models x view/add/change/delete, plus each model's other permissions."""
    by_model: dict[tuple[str, str | None], dict] = {}
    for perm in Permission.objects.select_related("content_type").filter(
        content_type__app_label__in=PRODUCT_APPS
    ):
        key = (perm.content_type.app_label, perm.content_type.model)
        entry = by_model.setdefault(key, {"actions": {}, "extra": []})
        label = f"{perm.content_type.app_label}.{perm.codename}"
        action = perm.codename.split("_", 1)[0]
        if action in MATRIX_ACTIONS and perm.codename == f"{action}_{perm.content_type.model}":
            entry["actions"][action] = label
        else:
            # The name declared in the model's Meta.permissions is marked for translation; the stored
            # name is the English text it had when the permission was created.
            model = perm.content_type.model_class()
            declared = dict(model._meta.permissions) if model else {}
            entry["extra"].append({"codename": label, "name": str(declared.get(perm.codename, perm.name))})
    areas = []
    for app_label in PRODUCT_APPS:
        try:
            config = apps.get_app_config(app_label)
        except LookupError:
            continue
        models = []
        for model in config.get_models():
            found = by_model.get((app_label, model._meta.model_name))
            if found is None:
                continue
            models.append(
                {
                    "model": model._meta.model_name,
                    "name": str(model._meta.verbose_name_plural).capitalize(),
                    "permissions": {action: found["actions"].get(action) for action in MATRIX_ACTIONS},
                    "extra": sorted(found["extra"], key=lambda item: item["codename"]),
                }
            )
        if models:
            areas.append({"app_label": app_label, "name": str(config.verbose_name), "models": models})
    return areas


def matrix_permission_labels() -> set[str]:
    labels = set()
    for area in permission_matrix():
        for model in area["models"]:
            labels |= {label for label in model["permissions"].values() if label}
            labels |= {extra["codename"] for extra in model["extra"]}
    return labels
