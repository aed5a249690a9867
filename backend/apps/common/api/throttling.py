"""Rate limits keyed by the client address of `apps.common.client_ip` (proxy headers only as trusted)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle

from apps.common.client_ip import ClientAddressThrottleMixin


class ScopedClientThrottle(ClientAddressThrottleMixin, ScopedRateThrottle):
    """ScopedRateThrottle per client address (anonymous) or user, reading the rate at request time (so
    the environment's rate settings and tests can change it)."""

    def get_rate(self):
        rates: Any = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        return rates.get(self.scope or "")
