"""The client's address: one function decides it for every throttle, the sign-in lockout and the logs.

Proxy headers are believed only as far as the deployment says: `TRUSTED_PROXY_COUNT` (environment
variable of the same name, 0 by default) is the number of reverse proxies in front of the application
that each append the address they saw to `X-Forwarded-For`. With 0, `X-Forwarded-For` is ignored and the
address is the socket's (`REMOTE_ADDR`), so a client cannot choose its own address by sending the header.
With N, the address is the N-th entry from the right of `X-Forwarded-For`: the one the outermost trusted
proxy saw; anything further left was written by the client and is ignored.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


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
