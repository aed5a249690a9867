"""The Peppol access point adapter (docs/sales.md, "Delivering e-invoices"): hands a checked UBL e-invoice
to the company's access point over HTTP and reads back its message id.

The access point's API, as the adapter speaks it:

    POST <endpoint_url>
    Authorization: Bearer <api key>            (when a key is stored)
    Content-Type: application/json
    {"sender": "<scheme>:<id>", "receiver": "<scheme>:<id>", "document_type": "<Peppol document type id>",
     "process": "<Peppol process id>", "document_number": "<number>", "document": "<UBL XML, base64>"}

    2xx {"message_id": "..."}                   accepted (`id` is read too)
    401/403                                     the key is refused
    other 4xx                                   the document or the receiver is refused
    5xx                                         the access point is down

Every call goes through the outbound policy (`apps.common.outbound.http_client`: public addresses only,
https, no redirects, bounded timeouts, a rate per company), so nothing a company configures reaches the
operator's network. No text of the remote answer comes back to the user: the outcome is one of the fixed
`Outcome.error` codes below, with a fixed message.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import httpx
from django.utils.translation import gettext as _

from apps.common import outbound
from apps.salesorders import ubl

DOCUMENT_TYPE_INVOICE = (
    f"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##{ubl.CUSTOMIZATION_ID}::2.1"
)
DOCUMENT_TYPE_CREDIT_NOTE = (
    f"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##{ubl.CUSTOMIZATION_ID}::2.1"
)

# the fixed error codes of a failed delivery
REFUSED_ADDRESS = "address_refused"
RATE_LIMITED = "rate_limited"
TIMEOUT = "timeout"
UNREACHABLE = "unreachable"
UNAUTHORIZED = "unauthorized"
REJECTED = "rejected"
UNAVAILABLE = "unavailable"
BAD_ANSWER = "bad_answer"


def error_message(code: str, status: int | None = None) -> str:
    """The fixed text of an error code, in the active language (never the access point's own words)."""
    messages = {
        REFUSED_ADDRESS: _("The access point's address is not allowed (it must be a public https address)."),
        RATE_LIMITED: _("Too many outgoing connections for this company; try again in a minute."),
        TIMEOUT: _("The access point did not answer in time."),
        UNREACHABLE: _("The access point could not be reached."),
        UNAUTHORIZED: _("The access point refused the API key."),
        REJECTED: _("The access point refused the document or its receiver (answer %(status)s)."),
        UNAVAILABLE: _("The access point is not available (answer %(status)s); try again later."),
        BAD_ANSWER: _("The access point answered without a message id."),
    }
    text = messages.get(code, _("The access point did not take the e-invoice."))
    return text % {"status": outbound.status_class(status)} if status and "%(status)s" in text else text


@dataclass(frozen=True)
class Outcome:
    ok: bool
    message_id: str = ""
    error: str = ""
    status: int | None = None


def participant_id(vat_number: str) -> str:
    """A party's Peppol participant ID (`<scheme>:<id>`) from its VAT number; "" when its country has no
    Peppol VAT scheme. An e-mail address is not a Peppol participant."""
    endpoint = ubl._endpoint(vat_number, "")
    return f"{endpoint[0]}:{endpoint[1]}" if endpoint else ""


def send_document(
    *,
    endpoint_url: str,
    api_key: str,
    sender: str,
    receiver: str,
    document: bytes,
    document_number: str,
    credit_note: bool,
    timeout: float | None = None,
) -> Outcome:
    """One call to the access point; never raises for what the access point or the network does."""
    body = {
        "sender": sender,
        "receiver": receiver,
        "document_type": DOCUMENT_TYPE_CREDIT_NOTE if credit_note else DOCUMENT_TYPE_INVOICE,
        "process": ubl.PROFILE_ID,
        "document_number": document_number,
        "document": base64.b64encode(document).decode("ascii"),
    }
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    try:
        with outbound.http_client(timeout=timeout) as client:
            response = client.post(endpoint_url, json=body, headers=headers)
    except outbound.OutboundRefused as exc:
        return Outcome(False, error=RATE_LIMITED if exc.reason == exc.RATE else REFUSED_ADDRESS)
    except httpx.TimeoutException:
        return Outcome(False, error=TIMEOUT)
    except httpx.HTTPError:
        return Outcome(False, error=UNREACHABLE)
    status = response.status_code
    if status in (401, 403):
        return Outcome(False, error=UNAUTHORIZED, status=status)
    if status >= 500:
        return Outcome(False, error=UNAVAILABLE, status=status)
    if not 200 <= status < 300:
        return Outcome(False, error=REJECTED, status=status)
    try:
        payload = response.json()
    except ValueError:
        payload = None
    message_id = ""
    if isinstance(payload, dict):
        value = payload.get("message_id") or payload.get("id")
        message_id = str(value).strip()[:200] if isinstance(value, (str, int)) else ""
    if not message_id:
        return Outcome(False, error=BAD_ANSWER, status=status)
    return Outcome(True, message_id=message_id, status=status)
