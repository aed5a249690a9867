"""Client of the EU information system's (TRACES) EUDR SOAP services, V3: see client.py."""

from .client import (
    DdsOverview,
    TracesClient,
    TracesCredentials,
    environment_url,
)
from .errors import (
    TracesAuthenticationError,
    TracesBusinessError,
    TracesError,
    TracesNotFound,
    TracesPermissionDenied,
    TracesUnavailable,
)

__all__ = [
    "DdsOverview",
    "TracesAuthenticationError",
    "TracesBusinessError",
    "TracesClient",
    "TracesCredentials",
    "TracesError",
    "TracesNotFound",
    "TracesPermissionDenied",
    "TracesUnavailable",
    "environment_url",
]
