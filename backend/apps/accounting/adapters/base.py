"""The one interface every accounting adapter implements, the neutral records it takes, and the errors
it raises. The outbox (apps/accounting/outbox.py) only ever talks to this interface.

Error handling shared by the adapters (`Adapter.request`):
- 401: the access token is renewed once (under the connection's row lock) and the call repeated; a second
  401 is `AuthFailed`.
- 429: `Retry-After` seconds (or an HTTP date). A short wait (<= INLINE_RETRY_MAX) is waited out and the
  call repeated once; a longer one is `Throttled(retry_after)`, and the outbox tries again after it.
- 5xx, timeouts, refused connections: `Temporary`; the outbox retries with exponential backoff.
- 400/409/422: `Rejected` with the accounting system's message in words; not retried.
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

INLINE_RETRY_MAX = 3.0  # seconds: a shorter Retry-After is waited out inside the call
# One Visma call's limit (ACCOUNTING_HTTP_TIMEOUT, default 20 s); its calls run on their own queue
# (CELERY_TASK_ROUTES), so a hanging Visma delays only the accounting sync.
TIMEOUT = httpx.Timeout(float(getattr(settings, "ACCOUNTING_HTTP_TIMEOUT", 20.0)), connect=5.0)


class AccountingError(Exception):
    """Base of the adapter errors; `message` is in words, for the sync log."""

    retryable = False

    def __init__(self, message: str, *, http_status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status


class Temporary(AccountingError):
    """Worth trying again later (5xx, network, timeout)."""

    retryable = True

    def __init__(self, message: str, *, http_status: int | None = None, retry_after: float | None = None):
        super().__init__(message, http_status=http_status)
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


def error_text(response: httpx.Response) -> str:
    """The accounting system's own message, in words, from the shapes Visma answers with."""
    try:
        body = response.json()
    except ValueError:
        text = response.text.strip()
        return text[:500] if text else f"HTTP {response.status_code}"
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
        self.client = httpx.Client(
            base_url=config.base_url.rstrip("/") + "/", timeout=TIMEOUT, transport=transport
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
            )
        if response.status_code >= 400:
            raise Rejected(error_text(response), http_status=response.status_code)
        return response

    # -- tokens (called by services.access_token under the connection's lock) ----------------------------

    def fetch_token(self, refresh_token: str) -> dict[str, Any]:
        """Asks the token URL for a new access token: {"access_token", "expires_in", "refresh_token"?}."""
        raise NotImplementedError

    def _token_post(
        self, data: dict[str, str], auth: tuple[str, str] | None = None, describe=None
    ) -> dict[str, Any]:
        try:
            response = httpx.post(self.config.token_url, data=data, auth=auth, timeout=TIMEOUT)
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
        if code == "invalid_client":
            return _("The client id or client secret is wrong (%(detail)s).") % {"detail": detail}
        if code == "invalid_grant":
            return _("The refresh token is no longer valid: authorise the connection again (%(detail)s).") % {
                "detail": detail
            }
        if code in ("invalid_tenant", "invalid_request") and "tenant" in detail.lower():
            return _("The company id is not one these credentials may use (%(detail)s).") % {"detail": detail}
        return _("The token service refused the credentials (%(detail)s).") % {"detail": detail}

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


def money(value: Decimal | None) -> float | None:
    return None if value is None else float(value)
