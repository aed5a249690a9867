"""Domain errors of printing, each with a stable `error` key."""

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class PairingCodeInvalid(DomainError):
    error = "pairing_code_invalid"
    default_message = _("This pairing code is not valid. Create a new one on the integration page.")


class PairingCodeUsed(DomainError):
    error = "pairing_code_used"
    default_message = _("This pairing code has already been used. Create a new one on the integration page.")


class PairingCodeExpired(DomainError):
    error = "pairing_code_expired"
    default_message = _("This pairing code has expired. Create a new one on the integration page.")


class AgentTokenInvalid(DomainError):
    status_code = 401
    error = "agent_token_invalid"
    default_message = _("The print agent's token is not valid. Pair the agent again.")


class PrinterWithoutAgent(Conflict):
    error = "printer_without_agent"
    default_message = _("This printer has no print agent. Choose the agent that reaches it first.")


class PrinterInactive(Conflict):
    error = "printer_inactive"
    default_message = _("This printer is switched off in the settings.")


class NoLabelsSelected(DomainError):
    error = "labels_not_selected"
    default_message = _("Please select labels to print.")


class TooManyLabels(DomainError):
    error = "too_many_labels"
    default_message = _("At most %(limit)s labels can be printed in one job.")


class JobNotFound(NotFound):
    error = "print_job_not_found"
    default_message = _("No such print job.")


class JobNotReprintable(Conflict):
    error = "print_job_not_reprintable"
    default_message = _("Only carton-label and test-label jobs can be printed again.")


class PrinterNotFound(NotFound):
    """A printer that does not exist, is switched off, or belongs to another parent vendor: one answer."""

    error = "printer_not_found"
    default_message = _("The selected printer does not exist.")


class LabelNotFound(NotFound):
    error = "label_not_found"
    default_message = _("No carton label was found.")
