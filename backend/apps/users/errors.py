"""The users area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Services raise them; the API's exception handler turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, Forbidden


class UsersErrorCode(StrEnum):
    ACCOUNT_NOT_MANAGEABLE = "account_not_manageable"
    OWN_ACCOUNT = "own_account"
    OWN_PERMISSIONS = "own_permissions"
    ROLE_IN_USE = "role_in_use"
    DEPARTMENT_IN_USE = "department_in_use"
    TOKEN_NOT_VALID = "token_not_valid"
    INVALID_CREDENTIALS = "invalid_credentials"
    ACCOUNT_LOCKED = "account_locked"


class CompanyErrorCode(StrEnum):
    """The company settings views' refusals (apps/users/api/company_views.py)."""

    PERMISSION_DENIED = "permission_denied"


class AccountNotManageable(Forbidden):
    error = UsersErrorCode.ACCOUNT_NOT_MANAGEABLE
    default_message = _(
        "This user also works in companies you do not administer; only an administrator of all of "
        "them can change the account or its memberships."
    )


class OwnAccount(Conflict):
    """What an administrator may not do to their own account (type, deactivation, memberships)."""

    error = UsersErrorCode.OWN_ACCOUNT


class OwnPermissions(Conflict):
    error = UsersErrorCode.OWN_PERMISSIONS
    default_message = _("This change would take away your own right to manage roles.")


class RoleInUse(Conflict):
    error = UsersErrorCode.ROLE_IN_USE


class DepartmentInUse(Conflict):
    error = UsersErrorCode.DEPARTMENT_IN_USE
    default_message = _("This department has sub-departments; move or delete them first.")


class TokenNotValid(DomainError):
    status_code = 401
    error = UsersErrorCode.TOKEN_NOT_VALID
    default_message = _("The refresh token is invalid or already revoked.")


class InvalidCredentials(DomainError):
    status_code = 401
    error = UsersErrorCode.INVALID_CREDENTIALS
    default_message = _("Invalid username or password")


class AccountLocked(DomainError):
    status_code = 429
    error = UsersErrorCode.ACCOUNT_LOCKED
    default_message = _("Too many failed sign-in attempts. The account is locked for 15 minutes.")


class CompanySettingsForbidden(Forbidden):
    """Reading the company settings is for every internal member; changing them needs
    `tenancy.change_tenant` (the Administrator role)."""

    error = CompanyErrorCode.PERMISSION_DENIED
    default_message = _("You do not have permission to change the company settings.")
