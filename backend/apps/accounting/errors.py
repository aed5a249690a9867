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
