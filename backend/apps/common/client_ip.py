"""The client's address: one function decides it for every throttle, the sign-in lockout and the logs.

Proxy headers are believed only as far as the deployment says: `TRUSTED_PROXY_COUNT` (environment
variable of the same name, 0 by default) is the number of reverse proxies in front of the application
that each append the address they saw to `X-Forwarded-For`. With 0, `X-Forwarded-For` is ignored and the
address is the socket's (`REMOTE_ADDR`), so a client cannot choose its own address by sending the header.
With N, the address is the N-th entry from the right of `X-Forwarded-For`: the one the outermost trusted
proxy saw; anything further left was written by the client and is ignored.

`TRUSTED_PROXY_ADDRESSES` (addresses or networks, comma-separated) names the proxies themselves. When it
is set, a request whose socket address is not among them is a client that reached the node directly: its
proxy headers (`X-Forwarded-For`, `X-Forwarded-Proto`, `X-Request-ID`) are dropped before anything reads
them (`TrustedProxyMiddleware`, first in the chain), so it can neither choose its address nor pass for
https, and a warning names the address once per process. Unset, every peer is believed as far as the
count says, and a production check warns (apps/operations/checks.py).
"""

from __future__ import annotations

import ipaddress
import logging
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger("apps.operations")

PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_REQUEST_ID")


def _valid(address: str) -> str | None:
    address = address.strip()
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def client_ip(request) -> str:
    """The address of the client that sent `request` (a Django or DRF request)."""
    http_request = getattr(request, "_request", request)
    meta = http_request.META
    raw_remote = meta.get("REMOTE_ADDR") or ""
    remote = _valid(raw_remote) or raw_remote
    trusted = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if trusted <= 0:
        return remote
    forwarded = [item for item in (meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if item.strip()]
    if not forwarded:
        return remote
    # Fewer entries than trusted proxies: the header was not written by all of them; the leftmost entry
    # is then the earliest address a trusted proxy saw.
    candidate = forwarded[-min(trusted, len(forwarded))]
    return _valid(candidate) or remote


def axes_client_ip(request) -> str:
    """AXES_CLIENT_IP_CALLABLE: django-axes takes the same address as the throttles."""
    return client_ip(request)


class ClientAddressThrottleMixin:
    """For DRF throttles: identify anonymous clients by `client_ip`, not by DRF's own header reading
    (which trusts the whole X-Forwarded-For unless NUM_PROXIES is set)."""

    def get_ident(self, request):
        return client_ip(request)


@lru_cache(maxsize=8)
def _proxy_networks(addresses: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    try:
        return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in addresses if item.strip())
    except ValueError as exc:
        raise ImproperlyConfigured(f"TRUSTED_PROXY_ADDRESSES: {exc}") from exc


def proxy_networks() -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of TRUSTED_PROXY_ADDRESSES (empty: no list, every peer believed as far as the count)."""
    return _proxy_networks(tuple(getattr(settings, "TRUSTED_PROXY_ADDRESSES", ()) or ()))


def from_trusted_proxy(remote_addr: str) -> bool:
    """Whether a socket address may send proxy headers: any, without a list; else only the listed proxies."""
    networks = proxy_networks()
    if not networks:
        return True
    address = _valid(remote_addr or "")
    if address is None:
        return False
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


_untrusted_warned: set[str] = set()


class TrustedProxyMiddleware:
    """Drops the proxy headers of a request that did not come through a trusted proxy (see above)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meta = request.META
        remote = meta.get("REMOTE_ADDR") or ""
        if any(meta.get(key) for key in PROXY_HEADERS) and not from_trusted_proxy(remote):
            for key in PROXY_HEADERS:
                meta.pop(key, None)
            if remote not in _untrusted_warned and len(_untrusted_warned) < 100:
                _untrusted_warned.add(remote)
                logger.warning(
                    "A request from %s, which is not in TRUSTED_PROXY_ADDRESSES, carried proxy headers: "
                    "they were ignored. Let only the proxies reach the nodes (docs/operations.md, "
                    "'Behind a proxy').",
                    remote,
                )
        return self.get_response(request)
