"""Domain errors of the accounting integration, each with a stable `error` key."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class AccountingErrorCode(StrEnum):
    ACCOUNTING_CONNECTION_MISSING = "accounting_connection_missing"
    ACCOUNTING_CONNECTION_DISABLED = "accounting_connection_disabled"
    SYNC_ENTRY_NOT_RETRYABLE = "sync_entry_not_retryable"
    SYNC_ENTRY_NOT_SKIPPABLE = "sync_entry_not_skippable"
    ACCOUNTING_SECRET_REQUIRED = "accounting_secret_required"
    ACCOUNTING_AUTHORIZATION_NOT_EACCOUNTING = "accounting_authorization_not_eaccounting"
    ACCOUNTING_STATE_UNKNOWN = "accounting_state_unknown"
    ACCOUNTING_STATE_OTHER_USER = "accounting_state_other_user"
    ACCOUNTING_STATE_USED = "accounting_state_used"
    ACCOUNTING_STATE_EXPIRED = "accounting_state_expired"
    ACCOUNTING_AUTHORIZATION_DENIED = "accounting_authorization_denied"
    ACCOUNTING_AUTHORIZATION_FAILED = "accounting_authorization_failed"
    ACCOUNTING_TOKEN_SERVICE_UNAVAILABLE = "accounting_token_service_unavailable"


class ConnectionMissing(NotFound):
    error = AccountingErrorCode.ACCOUNTING_CONNECTION_MISSING
    default_message = _("No accounting connection is set up for this company.")


class ConnectionDisabled(Conflict):
    error = AccountingErrorCode.ACCOUNTING_CONNECTION_DISABLED
    default_message = _("The accounting connection is switched off.")


class EntryNotRetryable(Conflict):
    error = AccountingErrorCode.SYNC_ENTRY_NOT_RETRYABLE
    default_message = _("Only a failed or skipped entry can be tried again.")


class EntryNotSkippable(Conflict):
    error = AccountingErrorCode.SYNC_ENTRY_NOT_SKIPPABLE
    default_message = _("Only a pending or failed entry can be skipped.")


class SecretRequired(DomainError):
    error = AccountingErrorCode.ACCOUNTING_SECRET_REQUIRED
    default_message = _("Enter the client secret.")


class AuthorizationNotEAccounting(Conflict):
    error = AccountingErrorCode.ACCOUNTING_AUTHORIZATION_NOT_EACCOUNTING
    default_message = _(
        "Only a Visma eAccounting connection is authorised in the browser; Visma.net ERP uses its client "
        "credentials. Choose Visma eAccounting and save first."
    )


class StateUnknown(DomainError):
    error = AccountingErrorCode.ACCOUNTING_STATE_UNKNOWN
    default_message = _(
        "This answer from Visma does not belong to an authorisation started in this company. Start the "
        "connection again from the accounting connection page."
    )


class StateOtherUser(DomainError):
    status_code = 403
    error = AccountingErrorCode.ACCOUNTING_STATE_OTHER_USER
    default_message = _("This authorisation was started by another user; only they can finish it.")


class StateUsed(DomainError):
    error = AccountingErrorCode.ACCOUNTING_STATE_USED
    default_message = _("This authorisation has been used already. Start the connection again if needed.")


class StateExpired(DomainError):
    error = AccountingErrorCode.ACCOUNTING_STATE_EXPIRED
    default_message = _(
        "This authorisation took longer than 10 minutes and has expired. Start the connection again."
    )


class AuthorizationDenied(DomainError):
    error = AccountingErrorCode.ACCOUNTING_AUTHORIZATION_DENIED
    default_message = _("The authorisation was cancelled or refused in Visma; nothing was changed.")


class AuthorizationExchangeFailed(DomainError):
    error = AccountingErrorCode.ACCOUNTING_AUTHORIZATION_FAILED
    default_message = _("Visma did not give tokens for this authorisation.")


class AuthorizationServiceUnavailable(DomainError):
    status_code = 502  # Visma's side, not the request: the state is spent, the user starts again
    error = AccountingErrorCode.ACCOUNTING_TOKEN_SERVICE_UNAVAILABLE
    default_message = _("Visma's token service could not be reached. Try again in a moment.")
