"""Domain errors of printing, each with a stable `error` key."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class PrintingErrorCode(StrEnum):
    PAIRING_CODE_INVALID = "pairing_code_invalid"
    PAIRING_CODE_USED = "pairing_code_used"
    PAIRING_CODE_EXPIRED = "pairing_code_expired"
    AGENT_TOKEN_INVALID = "agent_token_invalid"
    PRINTER_WITHOUT_AGENT = "printer_without_agent"
    PRINTER_INACTIVE = "printer_inactive"
    LABELS_NOT_SELECTED = "labels_not_selected"
    TOO_MANY_LABELS = "too_many_labels"
    PRINT_JOB_NOT_FOUND = "print_job_not_found"
    PRINT_JOB_NOT_REPRINTABLE = "print_job_not_reprintable"
    PRINTER_NOT_FOUND = "printer_not_found"
    LABEL_NOT_FOUND = "label_not_found"
    NOT_FOUND = "not_found"
    POLL_ALREADY_OPEN = "poll_already_open"
    POLLS_BUSY = "polls_busy"


class PairingCodeInvalid(DomainError):
    error = PrintingErrorCode.PAIRING_CODE_INVALID
    default_message = _("This pairing code is not valid. Create a new one on the integration page.")


class PairingCodeUsed(DomainError):
    error = PrintingErrorCode.PAIRING_CODE_USED
    default_message = _("This pairing code has already been used. Create a new one on the integration page.")


class PairingCodeExpired(DomainError):
    error = PrintingErrorCode.PAIRING_CODE_EXPIRED
    default_message = _("This pairing code has expired. Create a new one on the integration page.")


class AgentTokenInvalid(DomainError):
    status_code = 401
    error = PrintingErrorCode.AGENT_TOKEN_INVALID
    default_message = _("The print agent's token is not valid. Pair the agent again.")


class PrinterWithoutAgent(Conflict):
    error = PrintingErrorCode.PRINTER_WITHOUT_AGENT
    default_message = _("This printer has no print agent. Choose the agent that reaches it first.")


class PrinterInactive(Conflict):
    error = PrintingErrorCode.PRINTER_INACTIVE
    default_message = _("This printer is switched off in the settings.")


class NoLabelsSelected(DomainError):
    error = PrintingErrorCode.LABELS_NOT_SELECTED
    default_message = _("Please select labels to print.")


class TooManyLabels(DomainError):
    error = PrintingErrorCode.TOO_MANY_LABELS
    default_message = _("At most %(limit)s labels can be printed in one job.")


class JobNotFound(NotFound):
    error = PrintingErrorCode.PRINT_JOB_NOT_FOUND
    default_message = _("No such print job.")


class JobNotReprintable(Conflict):
    error = PrintingErrorCode.PRINT_JOB_NOT_REPRINTABLE
    default_message = _("Only carton-label and test-label jobs can be printed again.")


class PrinterNotFound(NotFound):
    """A printer that does not exist, is switched off, or belongs to another parent vendor: one answer."""

    error = PrintingErrorCode.PRINTER_NOT_FOUND
    default_message = _("The selected printer does not exist.")


class LabelNotFound(NotFound):
    error = PrintingErrorCode.LABEL_NOT_FOUND
    default_message = _("No carton label was found.")


class AgentFileMissing(NotFound):
    """The print agent's file is not part of this installation."""

    error = PrintingErrorCode.NOT_FOUND
    default_message = _("Not found.")


class PollAlreadyOpen(DomainError):
    """A second job poll of one agent while its first is still open (at most one per agent)."""

    status_code = 429
    error = PrintingErrorCode.POLL_ALREADY_OPEN
    default_message = _("This print agent is already waiting for jobs; poll again when that answer has come.")


class PollsBusy(DomainError):
    """Every long-poll slot of the server is taken (PRINT_LONG_POLLS_MAX): come back after Retry-After."""

    status_code = 429
    error = PrintingErrorCode.POLLS_BUSY
    default_message = _("The server is busy; poll again in a few seconds.")
