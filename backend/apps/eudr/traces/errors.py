"""What can go wrong when talking to the EU information system, as domain errors with stable keys and the
system's own messages in words (`messages`: [{"id", "message", "field"}] from the fault's detail)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import DomainError
from apps.eudr.errors import EudrErrorCode


class TracesError(DomainError):
    status_code = 502
    error = EudrErrorCode.TRACES_ERROR
    default_message = _("The EU information system answered with an error.")
    # True when the request may or may not have been carried out (no answer): the caller must look the
    # statement up before it tries again.
    outcome_unknown = False

    def __init__(
        self, message: Any = None, *, messages: list[dict[str, str]] | None = None, **kwargs
    ) -> None:
        self.messages = messages or []
        super().__init__(message, data={"messages": self.messages}, **kwargs)

    def describe(self) -> str:
        """The system's messages in one text, for people (falls back to our message)."""
        parts = []
        for item in self.messages:
            text = item.get("message") or item.get("id") or ""
            if item.get("field"):
                text = f"{item['field']}: {text}"
            if text and text not in parts:
                parts.append(text)
        return "; ".join(parts) or str(self.message)


class TracesBusinessError(TracesError):
    status_code = 400
    error = EudrErrorCode.TRACES_BUSINESS_RULES
    default_message = _("The EU information system refused the statement: some business rules are not met.")


class TracesAuthenticationError(TracesError):
    status_code = 400
    error = EudrErrorCode.TRACES_AUTHENTICATION_FAILED
    default_message = _(
        "The EU information system did not accept the TRACES user name, authentication key or client id: check "
        "them in Company settings."
    )


class TracesPermissionDenied(TracesError):
    status_code = 403
    error = EudrErrorCode.TRACES_PERMISSION_DENIED
    default_message = _("The TRACES account is not allowed to do this (check its operator role in TRACES).")


class TracesNotFound(TracesError):
    status_code = 404
    error = EudrErrorCode.TRACES_NOT_FOUND
    default_message = _("The EU information system does not know this statement.")


class TracesUnavailable(TracesError):
    status_code = 503
    error = EudrErrorCode.TRACES_UNAVAILABLE
    default_message = _("The EU information system did not answer in time. Please try again later.")
    outcome_unknown = True


class TracesServerFault(TracesError):
    """A SOAP fault of the server without any detail: the system failed somewhere, and whether it carried
    the request out first is not known. Never a final refusal: the statement is looked up by its internal
    reference before any retry."""

    status_code = 502
    error = EudrErrorCode.TRACES_OUTCOME_UNKNOWN
    default_message = _(
        "The EU information system reported a server error without details: whether it carried out the "
        "request is unknown. The statement is looked up before it is tried again."
    )
    outcome_unknown = True


class TracesAddressRefused(TracesError):
    """The outbound policy (apps/common/outbound.py) would not connect to the system's address: nothing
    was sent, so the outcome is known. The message is the policy's fixed text."""

    error = EudrErrorCode.TRACES_ADDRESS_REFUSED
    default_message = _("The address of the EU information system is not allowed by this installation.")
