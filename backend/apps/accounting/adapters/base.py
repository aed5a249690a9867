"""The one interface every accounting adapter implements, the neutral records it takes, and the errors
it raises. The outbox (apps/accounting/outbox.py) only ever talks to this interface.

Error handling shared by the adapters (`Adapter.request`):
- 401: the access token is renewed once (under the connection's row lock) and the call repeated; a second
  401 is `AuthFailed`.
- 429: `Retry-After` seconds (or an HTTP date). A short wait (<= INLINE_RETRY_MAX) is waited out and the
  call repeated once; a longer one is `Throttled(retry_after)`, and the outbox tries again after it.
- 5xx, timeouts, refused connections: `Temporary`; the outbox retries with exponential backoff.
- 400/409/422: `Rejected` with the accounting system's message in words (read from its JSON error shapes
  only, never its raw body); not retried.
- An answer that is not the JSON the adapter expects: `Rejected` ("not an answer of the accounting
  system"), never an unhandled error.

Every connection goes through the outbound client (apps/common/outbound.py): the URLs are a tenant's, so
private and loopback addresses, plain http and redirects are refused, timeouts are bounded and the calls
are rate limited per tenant. A refused address is `NotConfigured`; the rate limit is `Throttled`.
A connection test shows `public_message`: fixed text with the status class, never the remote's words.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, Protocol

import httpx
from django.conf import settings
from django.utils.translation import gettext as _

from apps.common import outbound

INLINE_RETRY_MAX = 3.0  # seconds: a shorter Retry-After is waited out inside the call


# One Visma call's limit (ACCOUNTING_HTTP_TIMEOUT, default 20 s, capped by OUTBOUND_TIMEOUT_SECONDS); its
# calls run on their own queue (CELERY_TASK_ROUTES), so a hanging Visma delays only the accounting sync.
def call_timeout() -> float:
    return float(getattr(settings, "ACCOUNTING_HTTP_TIMEOUT", 20.0))


class AccountingError(Exception):
    """Base of the adapter errors; `message` is in words, for the sync log."""

    retryable = False

    def __init__(self, message: str, *, http_status: int | None = None, public_message: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status
        # What a connection test may show the tenant: fixed text, no words of the remote answer.
        self.public_message = public_message or message


class Temporary(AccountingError):
    """Worth trying again later (5xx, network, timeout)."""

    retryable = True

    def __init__(
        self,
        message: str,
        *,
        http_status: int | None = None,
        retry_after: float | None = None,
        public_message: str = "",
    ):
        super().__init__(message, http_status=http_status, public_message=public_message)
        self.retry_after = retry_after


class Throttled(Temporary):
    """429 with a Retry-After longer than is worth waiting inside the call."""


class Rejected(AccountingError):
    """The accounting system refused the data (validation); the message says why."""


class AuthFailed(AccountingError):
    """The credentials or tokens are not accepted."""


class NotConfigured(AccountingError):
    """The connection lacks what the call needs (no refresh token yet, no client secret)."""


@dataclass
class CustomerData:
    number: str
    name: str
    email: str = ""
    phone: str = ""
    vat_id: str = ""
    currency: str = "EUR"
    payment_terms_days: int = 30
    payment_term: str = ""  # the accounting system's id of the payment term (mapping "payment_term")
    street: str = ""
    post_code: str = ""
    city: str = ""
    country: str = ""


@dataclass
class SupplierData:
    number: str
    name: str
    email: str = ""
    phone: str = ""
    country: str = ""
    address: str = ""
    currency: str = "EUR"


@dataclass
class ArticleData:
    number: str
    name: str
    unit: str = "pcs"
    sales_price: Decimal | None = None
    is_active: bool = True


@dataclass
class DocumentLine:
    article_number: str
    article_external_id: str
    description: str
    quantity: Decimal
    unit_price: Decimal
    discount_percent: Decimal
    vat_rate: Decimal
    vat_code: str = ""


@dataclass
class DocumentData:
    kind: str  # "invoice" | "credit_note"
    number: str
    customer_number: str
    customer_external_id: str
    issue_date: date
    due_date: date | None
    currency: str
    total_gross: Decimal
    lines: list[DocumentLine] = field(default_factory=list)
    note: str = ""
    owner: str = ""  # the user's visma_owner_id (an employee)
    salesperson: str = ""  # the user's visma_code
    payment_term: str = ""
    credited_number: str = ""
    credited_external_id: str = ""


@dataclass
class PaymentStatus:
    status: str  # "open" | "paid" | "partly_paid" | "credited" | the system's own word
    open_amount: Decimal | None
    raw_status: str = ""


@dataclass
class ConnectionConfig:
    """What an adapter needs to know of the connection (a plain snapshot: adapters touch no database)."""

    base_url: str
    token_url: str
    client_id: str
    client_secret: str = ""
    scope: str = ""
    company_id: str = ""
    options: dict[str, Any] = field(default_factory=dict)


class TokenSource(Protocol):
    """Gives a valid access token; `renew(stale)` gets a new one unless another worker already did."""

    def get(self) -> str: ...

    def renew(self, stale: str) -> str: ...


def retry_after_seconds(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def json_of(response: httpx.Response) -> Any:
    """The JSON of an answer; `Rejected` when it is not JSON (an HTML page, a proxy's error, nothing)."""
    try:
        return response.json()
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise Rejected(
            _("The address did not answer like the accounting system (HTTP %(status)s, not JSON).")
            % {"status": response.status_code},
            http_status=response.status_code,
        ) from exc


def error_text(response: httpx.Response) -> str:
    """The accounting system's own message, in words, from the JSON shapes Visma answers with; never the
    raw body (an answer that is not JSON is just its status)."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    parts: list[str] = []

    def collect(value: Any) -> None:
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, dict):
            for key in (
                "message",
                "Message",
                "ExceptionMessage",
                "DeveloperErrorMessage",
                "error_description",
            ):
                if key in value:
                    collect(value[key])
            for key in ("errors", "Errors", "ModelState"):
                if isinstance(value.get(key), dict):
                    for name, messages in value[key].items():
                        for m in messages if isinstance(messages, list) else [messages]:
                            parts.append(f"{name}: {m}")
                elif key in value:
                    collect(value[key])

    collect(body)
    seen: list[str] = []
    for part in parts:
        if part not in seen:
            seen.append(part)
    return ("; ".join(seen) or f"HTTP {response.status_code}")[:1000]


class Adapter:
    """Base of the adapters: the HTTP client, the error handling, and the methods each provider fills."""

    provider = ""

    def __init__(self, config: ConnectionConfig, tokens: TokenSource, *, transport=None) -> None:
        self.config = config
        self.tokens = tokens
        self.client = outbound.http_client(
            base_url=config.base_url.rstrip("/") + "/", transport=transport, timeout=call_timeout()
        )

    def close(self) -> None:
        self.client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- HTTP ---------------------------------------------------------------------------------------------

    def extra_headers(self) -> dict[str, str]:
        return {}

    def _send(self, method: str, path: str, token: str, **kwargs) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json", **self.extra_headers()}
        try:
            return self.client.request(method, path.lstrip("/"), headers=headers, **kwargs)
        except outbound.OutboundRefused as exc:
            raise refused(exc) from exc
        except httpx.TimeoutException as exc:
            raise Temporary(_("The accounting system did not answer in time.")) from exc
        except httpx.TransportError as exc:
            raise Temporary(
                _("The accounting system could not be reached (%(error)s).") % {"error": type(exc).__name__}
            ) from exc

    def request(self, method: str, path: str, *, allow_404: bool = False, **kwargs) -> httpx.Response:
        token = self.tokens.get()
        response = self._send(method, path, token, **kwargs)
        if response.status_code == 401:
            token = self.tokens.renew(token)
            response = self._send(method, path, token, **kwargs)
            if response.status_code == 401:
                raise AuthFailed(
                    _("The accounting system refused the access token: %(message)s")
                    % {"message": error_text(response)},
                    http_status=401,
                    public_message=_("The accounting system refused the access token (HTTP 401)."),
                )
        if response.status_code == 429:
            wait = retry_after_seconds(response.headers.get("Retry-After"))
            if wait is not None and wait <= INLINE_RETRY_MAX:
                time.sleep(wait)
                response = self._send(method, path, token, **kwargs)
            if response.status_code == 429:
                wait = retry_after_seconds(response.headers.get("Retry-After"))
                raise Throttled(
                    _("The accounting system asks to slow down; trying again later."),
                    http_status=429,
                    retry_after=wait if wait is not None else 60.0,
                )
        if response.status_code >= 500:
            raise Temporary(
                _("The accounting system had an error (HTTP %(status)s): %(message)s")
                % {"status": response.status_code, "message": error_text(response)},
                http_status=response.status_code,
                public_message=_("The accounting system had an error (HTTP %(class)s).")
                % {"class": outbound.status_class(response.status_code)},
            )
        if response.status_code == 404 and allow_404:
            return response
        if response.status_code == 403:
            raise AuthFailed(
                _(
                    "The accounting system does not allow this for these credentials or this company: %(message)s"
                )
                % {"message": error_text(response)},
                http_status=403,
                public_message=_(
                    "The accounting system does not allow this for these credentials (HTTP 403)."
                ),
            )
        if response.status_code >= 400:
            raise Rejected(
                error_text(response),
                http_status=response.status_code,
                public_message=_("The accounting system refused the request (HTTP %(class)s).")
                % {"class": outbound.status_class(response.status_code)},
            )
        if not 200 <= response.status_code < 300 and response.status_code != 404:
            raise Rejected(
                _("The accounting system answered HTTP %(status)s, which is not an answer to this request.")
                % {"status": response.status_code},
                http_status=response.status_code,
            )
        return response

    # -- tokens (called by services.access_token under the connection's lock) ----------------------------

    def fetch_token(self, refresh_token: str) -> dict[str, Any]:
        """Asks the token URL for a new access token: {"access_token", "expires_in", "refresh_token"?}."""
        raise NotImplementedError

    def _token_post(
        self, data: dict[str, str], auth: tuple[str, str] | None = None, describe=None
    ) -> dict[str, Any]:
        try:
            with outbound.http_client(timeout=call_timeout()) as client:
                response = client.post(self.config.token_url, data=data, auth=auth)
        except outbound.OutboundRefused as exc:
            raise refused(exc) from exc
        except httpx.TimeoutException as exc:
            raise Temporary(_("The token service did not answer in time.")) from exc
        except httpx.TransportError as exc:
            raise Temporary(
                _("The token service could not be reached at %(url)s.") % {"url": self.config.token_url}
            ) from exc
        if response.status_code >= 500:
            raise Temporary(
                _("The token service had an error (HTTP %(status)s).") % {"status": response.status_code},
                http_status=response.status_code,
            )
        if response.status_code == 429:
            raise Throttled(
                _("The token service asks to slow down; trying again later."),
                http_status=429,
                retry_after=retry_after_seconds(response.headers.get("Retry-After")) or 60.0,
            )
        if response.status_code >= 400:
            raise AuthFailed(
                (describe or self.describe_token_error)(response), http_status=response.status_code
            )
        try:
            body = response.json()
        except ValueError as exc:
            raise AuthFailed(_("The token service answered something that is not a token.")) from exc
        if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            raise AuthFailed(_("The token service answered something that is not a token."))
        return body

    def describe_token_error(self, response: httpx.Response) -> str:
        try:
            body = response.json()
        except ValueError:
            body = {}
        code = body.get("error", "") if isinstance(body, dict) else ""
        detail = error_text(response)
        # Fixed messages by the OAuth error code: the token service's own words are not shown.
        if code == "invalid_client":
            return _("The client id or client secret is wrong.")
        if code == "invalid_grant":
            return _("The refresh token is no longer valid: authorise the connection again.")
        if code in ("invalid_tenant", "invalid_request") and "tenant" in detail.lower():
            return _("The company id is not one these credentials may use.")
        return _("The token service refused the credentials (HTTP %(class)s).") % {
            "class": outbound.status_class(response.status_code)
        }

    # -- the interface -----------------------------------------------------------------------------------

    def test(self) -> str:
        """Reads something harmless; returns the company's name (or a description). Raises on problems."""
        raise NotImplementedError

    def upsert_customer(self, data: CustomerData, external_id: str = "") -> str:
        raise NotImplementedError

    def upsert_supplier(self, data: SupplierData, external_id: str = "") -> str:
        raise NotImplementedError

    def upsert_article(self, data: ArticleData, external_id: str = "") -> str:
        raise NotImplementedError

    def find_document(self, kind: str, number: str) -> str | None:
        """The external id of the document with our number, or None: asked before creating again."""
        raise NotImplementedError

    def create_document(self, data: DocumentData) -> str:
        raise NotImplementedError

    def payment_status(self, kind: str, external_id: str) -> PaymentStatus:
        raise NotImplementedError


def refused(exc: outbound.OutboundRefused) -> AccountingError:
    """The adapter error of a connection the outbound policy did not make."""
    if exc.reason == outbound.OutboundRefused.RATE:
        return Throttled(exc.message, retry_after=60.0)
    return NotConfigured(exc.message)


def money(value: Decimal | None) -> float | None:
    return None if value is None else float(value)
