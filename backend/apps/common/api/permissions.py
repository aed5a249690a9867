"""Server-side access checks used by every endpoint (docs/design.md sections 5 and 6).

Order for a tenant-scoped endpoint: signed in -> `tenant_id` given (400) -> member of it (403), and the
tenant is entered -> the user's type may use this endpoint -> the user's roles in this tenant hold the
model permission for the action (view/add/change/delete).
"""

from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.exceptions import PermissionDenied

from apps.common.api.filters import BIGINT_MAX
from apps.common.exceptions import TenantForbidden, TenantRequired
from apps.tenancy import context
from apps.tenancy.compiled import CompiledOnce
from apps.tenancy.models import Membership, Tenant
from apps.tenancy.permissions import tenant_permissions


def _memberships(user, tenant):
    return Membership.objects.select_related("tenant").filter(
        user_id=user, tenant_id=tenant, is_active=True, tenant__is_active=True
    )


# The membership read of every request on PostgreSQL, which enters its tenant in the same statement
# (docs/performance.md, "Per-request overhead"): its SQL is compiled once per process (apps/tenancy/compiled.py).
_MEMBERSHIP_ENTERING = CompiledOnce(
    lambda user, tenant: _memberships(user, tenant).annotate(tenant_entered=context.tenant_setting())[:1],
    "user",
    "tenant",
)


def resolve_tenant(request) -> Tenant:
    """Reads ?tenant_id=, checks membership, enters the tenant for the rest of the request."""
    cached = getattr(request, "tenant", None)
    if cached is not None:
        return cached
    raw = request.query_params.get("tenant_id", "").strip()
    if not raw:
        raise TenantRequired()
    if not (raw.isascii() and raw.isdigit()):
        raise TenantRequired(_("The tenant_id query parameter must be a number."))
    tenant_id = int(raw)
    if tenant_id > BIGINT_MAX:
        # No tenant has it, and PostgreSQL would refuse to compare it with an id column.
        raise TenantForbidden()
    on_postgres = connection.vendor == "postgresql" and connection.in_atomic_block
    if on_postgres:
        # The membership read enters its tenant in the same statement: inside the request's transaction,
        # the setting ends with it.
        found = _MEMBERSHIP_ENTERING.all(user=request.user.pk, tenant=tenant_id)
        membership = found[0] if found else None
    else:
        membership = _memberships(request.user.pk, tenant_id).first()
    if membership is None:
        raise TenantForbidden()
    request.tenant = membership.tenant
    request._request.tenant = membership.tenant
    request.membership = membership
    context.activate(membership.tenant, in_database=on_postgres)
    # The roles' permissions are read now, inside the request's transaction and tenant (row-level security
    # on roles): the price rule is applied again when the answer is rendered, after the transaction.
    from apps.tenancy.permissions import tenant_permissions

    tenant_permissions(request.user, membership.tenant)
    return membership.tenant


def user_type(user) -> str:
    if getattr(user, "is_warehouse", False):
        return "warehouse"
    if getattr(user, "is_supplier", False):
        return "supplier"
    return "internal"


class TenantMember(permissions.BasePermission):
    """The request names a tenant the user belongs to; enters it."""

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        resolve_tenant(request)
        return True


class UserTypeAllowed(permissions.BasePermission):
    """Internal users by default; a view opts warehouse and supplier users in with `allowed_user_types`.

    `supplier_read_only = True` lets supplier users read but never write.
    """

    message = _("Your account type cannot use this area.")

    def has_permission(self, request, view) -> bool:
        kind = user_type(request.user)
        allowed = getattr(view, "allowed_user_types", ("internal",))
        if kind not in allowed:
            return False
        return not (
            kind == "supplier"
            and getattr(view, "supplier_read_only", False)
            and request.method not in permissions.SAFE_METHODS
        )


class TenantModelPermissions(permissions.BasePermission):
    """Model permissions held through the user's roles in the current tenant.

    GET/HEAD/OPTIONS need `view`, POST `add`, PUT/PATCH `change`, DELETE `delete`. A view may name the
    permission of a custom action with `action_permissions = {"approve": "eudr.approve_over_cap"}`, or
    point at another model with `permission_model`.
    """

    method_actions = {
        "GET": "view",
        "HEAD": "view",
        "OPTIONS": "view",
        "POST": "add",
        "PUT": "change",
        "PATCH": "change",
        "DELETE": "delete",
    }
    message = _("You do not have permission to perform this action.")

    def required_permissions(self, request, view) -> list[str]:
        action_permissions = getattr(view, "action_permissions", {})
        action = getattr(view, "action", None)
        if action and action in action_permissions:
            value = action_permissions[action]
            return list(value) if isinstance(value, (list, tuple)) else [value]
        model = getattr(view, "permission_model", None)
        if model is None:
            queryset = getattr(view, "queryset", None)
            model = queryset.model if queryset is not None else None
        if model is None:
            return []
        verb = self.method_actions.get(request.method, "change")
        return [f"{model._meta.app_label}.{verb}_{model._meta.model_name}"]

    def has_permission(self, request, view) -> bool:
        required = self.required_permissions(request, view)
        if not required:
            return True
        held = tenant_permissions(request.user, getattr(request, "tenant", None))
        return all(perm in held for perm in required)


class InternalOnlyActions(permissions.BasePermission):
    """Actions only internal users may take, named by the view: `internal_only_actions = {"set_status":
    _("Only internal users change a delivery's status."), "approve_over_cap": None}` (None: the generic
    message). Checked after the model permissions, before the record is looked up, so a supplier or
    warehouse user gets 403 with the sentence, never a 404 that depends on the record."""

    def has_permission(self, request, view) -> bool:
        actions = getattr(view, "internal_only_actions", None) or {}
        action = getattr(view, "action", None)
        if action not in actions or user_type(request.user) == "internal":
            return True
        raise PermissionDenied(actions[action])


def deny(message=None):
    raise PermissionDenied(message)


TENANT_PERMISSION_CLASSES = [
    permissions.IsAuthenticated,
    TenantMember,
    UserTypeAllowed,
    TenantModelPermissions,
    InternalOnlyActions,
]


def request_tenant(request) -> Tenant:
    """The tenant `TenantMember` resolved for this request (a view behind it may rely on it)."""
    tenant = getattr(request, "tenant", None)
    if tenant is None:
        raise TenantRequired()
    return tenant
