"""Domain errors of the accounting integration, each with a stable `error` key."""

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class ConnectionMissing(NotFound):
    error = "accounting_connection_missing"
    default_message = _("No accounting connection is set up for this company.")


class ConnectionDisabled(Conflict):
    error = "accounting_connection_disabled"
    default_message = _("The accounting connection is switched off.")


class EntryNotRetryable(Conflict):
    error = "sync_entry_not_retryable"
    default_message = _("Only a failed or skipped entry can be tried again.")


class EntryNotSkippable(Conflict):
    error = "sync_entry_not_skippable"
    default_message = _("Only a pending or failed entry can be skipped.")


class SecretRequired(DomainError):
    error = "accounting_secret_required"
    default_message = _("Enter the client secret.")


class AuthorizationNotEAccounting(Conflict):
    error = "accounting_authorization_not_eaccounting"
    default_message = _(
        "Only a Visma eAccounting connection is authorised in the browser; Visma.net ERP uses its client "
        "credentials. Choose Visma eAccounting and save first."
    )


class StateUnknown(DomainError):
    error = "accounting_state_unknown"
    default_message = _(
        "This answer from Visma does not belong to an authorisation started in this company. Start the "
        "connection again from the accounting connection page."
    )


class StateOtherUser(DomainError):
    status_code = 403
    error = "accounting_state_other_user"
    default_message = _("This authorisation was started by another user; only they can finish it.")


class StateUsed(DomainError):
    error = "accounting_state_used"
    default_message = _("This authorisation has been used already. Start the connection again if needed.")


class StateExpired(DomainError):
    error = "accounting_state_expired"
    default_message = _(
        "This authorisation took longer than 10 minutes and has expired. Start the connection again."
    )


class AuthorizationDenied(DomainError):
    error = "accounting_authorization_denied"
    default_message = _("The authorisation was cancelled or refused in Visma; nothing was changed.")


class AuthorizationExchangeFailed(DomainError):
    error = "accounting_authorization_failed"
    default_message = _("Visma did not give tokens for this authorisation.")


class AuthorizationServiceUnavailable(DomainError):
    status_code = 502  # Visma's side, not the request: the state is spent, the user starts again
    error = "accounting_token_service_unavailable"
    default_message = _("Visma's token service could not be reached. Try again in a moment.")
