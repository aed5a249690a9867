"""Writes of the users admin and the own profile: accounts, memberships, role permissions, departments.

Rules decided here:
- an admin works on the users of the tenant they are in; every change to a user (fields, type,
  password, active flag, memberships) needs administrator rights in every company the user belongs to
  (`can_manage_account`, enforced by `ensure_can_manage_account` in each write below);
- memberships can be granted only in companies the admin administers, with that company's roles and
  departments;
- a supplier user has a parent vendor of a company they belong to;
- nobody locks themselves out (own deactivation, own memberships, own role-management permission).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import FieldErrors, Forbidden
from apps.suppliers.models import ParentVendor
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership, Tenant
from apps.tenancy.permissions import tenant_permissions
from apps.users.errors import AccountNotManageable, DepartmentInUse, OwnAccount, OwnPermissions, RoleInUse
from apps.users.models import Department, Role, User
from apps.users.selectors import administered_tenants, can_manage_account, matrix_permission_labels
from apps.users.tokens import end_all_sessions

USER_TYPES = ("internal", "warehouse", "supplier")


def _password_errors(password: str, user: User) -> list[str]:
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        return list(exc.messages)
    return []


def _apply_user_type(user: User, user_type: str | None) -> None:
    if user_type is None:
        return
    user.is_warehouse = user_type == "warehouse"
    user.is_supplier = user_type == "supplier"


def _check_supplier_vendor(user: User) -> None:
    """A supplier user needs a parent vendor, of a company the user belongs to; others have none."""
    if not user.is_supplier:
        user.parent_vendor = None
        return
    if user.parent_vendor_id is None:
        raise FieldErrors({"parent_vendor": [_("A supplier user needs a parent vendor.")]})
    if not _vendor_tenant_ids(user) & set(
        Membership.objects.filter(user=user).values_list("tenant_id", flat=True)
    ):
        raise FieldErrors(
            {"parent_vendor": [_("The parent vendor must belong to a company the user is a member of.")]}
        )


def _vendor_tenant_ids(user: User) -> set[int]:
    """The tenant of the user's parent vendor, looked for in the user's tenants (RLS: one at a time)."""
    found = set()
    for tenant_id in Membership.objects.filter(user=user).values_list("tenant_id", flat=True):
        with tenant_context(tenant_id):
            if ParentVendor.objects.filter(pk=user.parent_vendor_id).exists():
                found.add(tenant_id)
    return found


@transaction.atomic
def admin_ensure(
    *, username: str, tenant: Tenant, password: str | None = None, email: str = "", staff: bool = False
) -> tuple[User, bool]:
    """An internal user holding every role of `tenant` (setting up an installation). A new account
    needs a password that passes the password rules; an existing internal account keeps its password
    and gains the membership. Answers (user, created)."""
    found = User.objects.filter(username=username).first()
    created = found is None
    if found is None:
        if not password:
            raise FieldErrors({"password": [_("This field is required.")]})
        user = User(username=username, email=email, is_staff=staff)
        errors = _password_errors(password, user)
        if errors:
            raise FieldErrors({"password": errors})
        user.set_password(password)
        user.save()
    elif found.is_supplier or found.is_warehouse:
        raise FieldErrors({"username": [_("This account is not an internal user.")]})
    else:
        user = found
    if not created and staff and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    membership, _created = Membership.objects.get_or_create(user=user, tenant=tenant)
    if not membership.is_active:
        membership.is_active = True
        membership.save(update_fields=["is_active"])
    with tenant_context(tenant):
        membership.roles.set(list(Role.objects.all()))
    return user, created


def ensure_can_manage_account(*, actor: User, user: User) -> None:
    if not can_manage_account(actor=actor, user=user):
        raise AccountNotManageable()


@transaction.atomic
def user_create(
    *,
    tenant: Tenant,
    data: dict[str, Any],
    password: str,
    user_type: str = "internal",
    roles: list[Role] | None = None,
    department: Department | None = None,
) -> User:
    """Creates an account with a membership in `tenant` (the roles and department must be of it)."""
    user = User(**data)
    _apply_user_type(user, user_type)
    errors = _password_errors(password, user)
    if errors:
        raise FieldErrors({"password": errors})
    user.set_password(password)
    if not user.is_supplier:
        user.parent_vendor = None
    elif user.parent_vendor_id is None:
        raise FieldErrors({"parent_vendor": [_("A supplier user needs a parent vendor.")]})
    user.save()
    membership = Membership.objects.create(user=user, tenant=tenant, department=department)
    membership.roles.set(roles or [])
    _check_supplier_vendor(user)
    return user


@transaction.atomic
def user_update(*, actor: User, user: User, data: dict[str, Any], user_type: str | None = None) -> User:
    """Updates account fields; needs administrator rights in all the user's companies."""
    ensure_can_manage_account(actor=actor, user=user)
    user = User.objects.select_for_update().get(pk=user.pk)
    for key, value in data.items():
        setattr(user, key, value)
    _apply_user_type(user, user_type)
    if user.pk == actor.pk and (user.is_supplier or user.is_warehouse):
        raise OwnAccount(_("You cannot change your own account type."))
    _check_supplier_vendor(user)
    user.save()
    return user


@transaction.atomic
def user_set_active(*, actor: User, user: User, active: bool) -> User:
    """Activates or deactivates an account. Deactivation ends every session of the user: its tokens
    stop working at once and stay invalid after a later activation."""
    ensure_can_manage_account(actor=actor, user=user)
    if user.pk == actor.pk and not active:
        raise OwnAccount(_("You cannot deactivate your own account."))
    user = User.objects.select_for_update().get(pk=user.pk)
    user.is_active = active
    user.save(update_fields=["is_active"])
    if not active:
        end_all_sessions(user)
    return user


@transaction.atomic
def user_reset_password(*, actor: User, user: User, password: str) -> None:
    """An administrator sets a new password (Django's password validators apply); every session of the
    user ends."""
    ensure_can_manage_account(actor=actor, user=user)
    user = User.objects.select_for_update().get(pk=user.pk)
    errors = _password_errors(password, user)
    if errors:
        raise FieldErrors({"password": errors})
    user.set_password(password)
    user.save(update_fields=["password"])
    end_all_sessions(user)


@transaction.atomic
def user_change_password(*, user: User, old_password: str, new_password: str) -> User:
    """The signed-in user changes their own password: the current one must be right. Every session of
    the user ends; answers the updated user (to start a new session with)."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.check_password(old_password):
        raise FieldErrors({"old_password": [_("Your current password is incorrect.")]})
    if old_password == new_password:
        raise FieldErrors({"new_password": [_("The new password must differ from the current one.")]})
    errors = _password_errors(new_password, user)
    if errors:
        raise FieldErrors({"new_password": errors})
    user.set_password(new_password)
    user.save(update_fields=["password"])
    end_all_sessions(user)
    return user


@transaction.atomic
def profile_update(*, user: User, data: dict[str, Any]) -> User:
    """The signed-in user edits their own contact details and language."""
    user = User.objects.select_for_update().get(pk=user.pk)
    for key, value in data.items():
        setattr(user, key, value)
    user.save(update_fields=list(data) or None)
    return user


@transaction.atomic
def user_memberships_set(*, actor: User, user: User, memberships: list[dict[str, Any]]) -> None:
    """Sets the user's memberships in the companies the actor administers.

    `memberships`: [{"tenant": id, "roles": [role ids], "department": id | None, "is_active": bool}].
    Companies the actor administers that are not listed lose the membership; companies the actor does
    not administer cannot be listed (403) and are left as they are. Rows are locked in tenant order.
    """
    if user.pk == actor.pk:
        raise OwnAccount(_("You cannot change your own memberships; ask another administrator."))
    ensure_can_manage_account(actor=actor, user=user)
    administered = {tenant.pk: tenant for tenant in administered_tenants(actor)}
    wanted: dict[int, dict[str, Any]] = {}
    for index, item in enumerate(memberships):
        tenant_id = item["tenant"]
        if tenant_id not in administered:
            raise Forbidden(_("You can only grant access to companies you administer."))
        if tenant_id in wanted:
            raise FieldErrors({"memberships": {index: {"tenant": [_("This company is listed twice.")]}}})
        wanted[tenant_id] = item

    list(Membership.objects.select_for_update().filter(user=user).order_by("tenant_id"))
    for tenant_id, tenant in sorted(administered.items()):
        with tenant_context(tenant):
            existing = Membership.objects.filter(user=user, tenant=tenant).first()
            if tenant_id not in wanted:
                if existing is not None:
                    existing.delete()
                continue
            item = wanted[tenant_id]
            role_ids = sorted(set(item.get("roles") or []))
            roles = list(Role.objects.filter(pk__in=role_ids))
            if len(roles) != len(role_ids):
                raise FieldErrors(
                    {"roles": [_("A selected role does not exist in %(tenant)s.") % {"tenant": tenant.name}]}
                )
            department = None
            if item.get("department") is not None:
                department = Department.objects.filter(pk=item["department"]).first()
                if department is None:
                    raise FieldErrors(
                        {
                            "department": [
                                _("The selected department does not exist in %(tenant)s.")
                                % {"tenant": tenant.name}
                            ]
                        }
                    )
            membership = existing or Membership(user=user, tenant=tenant)
            membership.department = department
            membership.is_active = bool(item.get("is_active", True))
            membership.save()
            membership.roles.set(roles)
    if user.is_supplier:
        _check_supplier_vendor(user)


@transaction.atomic
def role_set_permissions(*, actor: User, tenant: Tenant, role: Role, permissions: list[str]) -> Role:
    """Sets a role's permissions from the matrix ("app_label.codename" labels).

    Refused when it would take away the actor's own right to manage roles in this tenant.
    """
    allowed = matrix_permission_labels()
    unknown = sorted(set(permissions) - allowed)
    if unknown:
        raise FieldErrors(
            {"permissions": [_("Unknown permission: %(names)s") % {"names": ", ".join(unknown)}]}
        )
    query = Q(pk__in=[])
    for label in set(permissions):
        app_label, codename = label.split(".", 1)
        query |= Q(content_type__app_label=app_label, codename=codename)
    role = Role.objects.select_for_update().get(pk=role.pk)
    role.permissions.set(Permission.objects.filter(query))
    if hasattr(actor, "_tenant_perm_cache"):
        actor._tenant_perm_cache.pop(tenant.pk, None)
    if not actor.is_superuser and "users.change_role" not in tenant_permissions(actor, tenant):
        raise OwnPermissions()
    return role


@transaction.atomic
def role_delete(*, role: Role) -> None:
    """Deletes a role nobody holds."""
    role = Role.objects.select_for_update().get(pk=role.pk)
    holders = role.memberships.count()
    if holders:
        raise RoleInUse(
            _("This role is held by %(count)d user(s); remove it from them first.") % {"count": holders}
        )
    role.delete()


@transaction.atomic
def department_delete(*, department: Department) -> None:
    """Deletes a department without sub-departments; its members keep their membership, without it."""
    department = Department.objects.select_for_update().get(pk=department.pk)
    if department.children.exists():
        raise DepartmentInUse()
    department.delete()
