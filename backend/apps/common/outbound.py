"""Outbound connections to addresses a tenant may set: the one client for all of them.

A tenant's administrator is a customer, not the operator of the installation: nothing they configure may
reach the operator's network or read it back. Every connection to an address stored by a tenant (the
accounting connection's `base_url` and `token_url`, the company's SMTP host, and anything later: webhooks,
e-invoicing access points) goes through this module:

- **Address.** The host is resolved here and EVERY address it resolves to must be a public one: loopback,
  private (RFC 1918, unique local), shared (100.64/10), link-local (169.254/16, the cloud metadata
  services), multicast, reserved and unspecified addresses are refused, IPv4-mapped IPv6 included. The
  connection then goes to the checked address itself (the name is not resolved a second time, so a DNS
  answer that changes between check and connect cannot slip through); TLS still verifies the certificate
  against the host name (SNI).
- **Redirects** are never followed (an answer 3xx is just a status); each request, a retry or a second
  call included, is checked again.
- **HTTP** only over https, unless the operator allows plain http (`OUTBOUND_ALLOW_HTTP`).
- **Timeouts** are bounded (`OUTBOUND_TIMEOUT_SECONDS`, connect at most 5 s), whatever a tenant sets.
- **Rate**: at most `OUTBOUND_RATE` connections per tenant (per minute), and `OUTBOUND_TEST_RATE` for the
  interactive "test connection" buttons, which answer in words and so are the ones a scan would use.
- **No remote text** comes back to the tenant from a connection test: the callers answer fixed messages
  with the status or reply-code class (`status_class`) only.

`OUTBOUND_ALLOWED_NETWORKS` (operator setting, CIDRs) lets addresses of these networks through anyway: for
an installation whose accounting system is on its own network, and for the tests, which set it explicitly
for their local fake servers on 127.0.0.1. The operator's own settings (environment variables: EMAIL_HOST,
EUDR_TRACES_URLS, ...) are trusted and do not pass through here.
"""

from __future__ import annotations

import ipaddress
import smtplib
import socket
import time
from urllib.parse import urlsplit

import httpx
from django.conf import settings
from django.core.cache import cache
from django.core.mail.backends.smtp import EmailBackend
from django.utils.translation import gettext as _

from apps.tenancy.context import get_current_tenant_id

__all__ = [
    "GuardedConnect",
    "GuardedSMTP",
    "GuardedSMTPSSL",
    "GuardedSmtpBackend",
    "GuardedTransport",
    "OutboundRefused",
    "address_allowed",
    "check_url",
    "http_client",
    "resolve",
    "status_class",
    "test_rate_check",
]


class OutboundRefused(Exception):
    """A connection this module will not make; `message` is fixed text (never the remote's)."""

    SCHEME = "scheme"
    ADDRESS = "address"
    RESOLVE = "resolve"
    RATE = "rate"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network(item, strict=False)
        for item in getattr(settings, "OUTBOUND_ALLOWED_NETWORKS", [])
    ]


def address_allowed(address: str) -> bool:
    """Whether a connection to this IP address may be made for a tenant."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in network for network in _allowed_networks()):
        return True
    if (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    ):
        return False
    # IPv6 tunnels that carry an IPv4 address inside (6to4, Teredo) are refused too.
    return not (isinstance(ip, ipaddress.IPv6Address) and (ip.sixtofour is not None or ip.teredo is not None))


def resolve(host: str, port: int) -> str:
    """The address to connect to for `host`: every address the name resolves to must be allowed."""
    if not host:
        raise OutboundRefused(OutboundRefused.RESOLVE, _("The address has no host name."))
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise OutboundRefused(OutboundRefused.RESOLVE, _("The host name could not be resolved.")) from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise OutboundRefused(OutboundRefused.RESOLVE, _("The host name could not be resolved."))
    if not all(address_allowed(address) for address in addresses):
        raise OutboundRefused(
            OutboundRefused.ADDRESS,
            _(
                "This address is on a loopback, private, link-local or reserved network; connections there "
                "are not allowed."
            ),
        )
    return addresses[0]


def check_url(url: str) -> None:
    """The scheme and host of a URL a tenant stores (checked again, with the address, at every connection)."""
    parts = urlsplit(url or "")
    allowed = {"https", "http"} if getattr(settings, "OUTBOUND_ALLOW_HTTP", False) else {"https"}
    if parts.scheme.lower() not in allowed:
        raise OutboundRefused(OutboundRefused.SCHEME, _("Only https addresses are allowed."))
    if not parts.hostname:
        raise OutboundRefused(OutboundRefused.RESOLVE, _("The address has no host name."))
    try:
        literal = ipaddress.ip_address(parts.hostname)
    except ValueError:
        return
    if not address_allowed(str(literal)):
        raise OutboundRefused(
            OutboundRefused.ADDRESS,
            _(
                "This address is on a loopback, private, link-local or reserved network; connections there "
                "are not allowed."
            ),
        )


def _rate(value: str) -> tuple[int, int]:
    count, _sep, period = value.partition("/")
    seconds = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600}.get(period.strip() or "min", 60)
    return int(count), seconds


def _spend(scope: str, rate: str) -> None:
    tenant_id = get_current_tenant_id()
    limit, seconds = _rate(rate)
    window = int(time.time() // seconds)
    key = f"outbound:{scope}:{tenant_id or 0}:{window}"
    cache.add(key, 0, timeout=seconds + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=seconds + 1)
        used = 1
    if used > limit:
        raise OutboundRefused(
            OutboundRefused.RATE, _("Too many outgoing connections for this company; try again in a minute.")
        )


def count_connection() -> None:
    """One outgoing connection of the current tenant (OUTBOUND_RATE)."""
    _spend("any", getattr(settings, "OUTBOUND_RATE", "120/min"))


def test_rate_check() -> None:
    """One interactive connection test of the current tenant (OUTBOUND_TEST_RATE); over the rate:
    `OutboundTestsTooFrequent` (429)."""
    from apps.common.errors import OutboundTestsTooFrequent

    try:
        _spend("test", getattr(settings, "OUTBOUND_TEST_RATE", "10/min"))
    except OutboundRefused as exc:
        raise OutboundTestsTooFrequent() from exc


test_rate_check.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def timeout_seconds(wanted: float | None = None) -> float:
    ceiling = float(getattr(settings, "OUTBOUND_TIMEOUT_SECONDS", 15))
    return ceiling if not wanted else max(1.0, min(float(wanted), ceiling))


def status_class(status: int) -> str:
    """`4xx`, `5xx`, ...: what a fixed message may say of a remote answer."""
    return f"{status // 100}xx"


class GuardedTransport(httpx.BaseTransport):
    """Checks scheme, rate and address of every request, then connects to the checked address."""

    def __init__(self, inner: httpx.BaseTransport | None = None) -> None:
        self.inner = inner or httpx.HTTPTransport(trust_env=False)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        check_url(str(url))
        count_connection()
        port = url.port or (443 if url.scheme == "https" else 80)
        address = resolve(url.host, port)
        request.url = url.copy_with(host=address)
        request.extensions = {**request.extensions, "sni_hostname": url.host}
        if "host" not in request.headers:
            request.headers["Host"] = url.netloc.decode("ascii")
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def http_client(
    *, base_url: str = "", transport: httpx.BaseTransport | None = None, timeout: float | None = None
) -> httpx.Client:
    """An httpx client for addresses a tenant set: guarded, no redirects, bounded timeouts (the caller's
    own, never above OUTBOUND_TIMEOUT_SECONDS), no proxies from the environment."""
    seconds = timeout_seconds(timeout)
    return httpx.Client(
        base_url=base_url,
        transport=GuardedTransport(transport),
        timeout=httpx.Timeout(seconds, connect=min(seconds, 5.0)),
        follow_redirects=False,
        trust_env=False,
    )


class GuardedConnect:
    """Mixin for an `smtplib.SMTP` or `SMTP_SSL` class: smtplib connects through
    `_get_socket(host, port, timeout)`; resolve and check there, connect to the checked address.
    `self._host` (the name) stays what TLS verifies the certificate against. Put it after mixins that
    add behaviour of their own (apps/notifications/smtp.py) and before the smtplib class."""

    def _get_socket(self, host, port, timeout):
        count_connection()
        address = resolve(host, port)
        return super()._get_socket(address, port, timeout)  # type: ignore[misc]  # smtplib.SMTP follows in the MRO


class GuardedSMTP(GuardedConnect, smtplib.SMTP):
    pass


class GuardedSMTPSSL(GuardedConnect, smtplib.SMTP_SSL):
    pass


class GuardedSmtpBackend(EmailBackend):
    """Django's SMTP backend for a tenant's own server: guarded connections, bounded timeout.

    A subclass that needs its own SMTP classes (they must include `GuardedConnect`) sets `smtp_class`
    and `smtp_ssl_class`."""

    smtp_class: type[smtplib.SMTP] = GuardedSMTP
    smtp_ssl_class: type[smtplib.SMTP_SSL] = GuardedSMTPSSL

    def __init__(self, *args, timeout=None, **kwargs) -> None:
        kwargs["timeout"] = timeout_seconds(timeout)
        super().__init__(*args, **kwargs)

    @property
    def connection_class(self):
        chosen = self.smtp_ssl_class if self.use_ssl else self.smtp_class
        if not issubclass(chosen, GuardedConnect):  # a subclass may not drop the guard
            raise TypeError(f"{chosen.__name__} does not connect through GuardedConnect")
        return chosen
