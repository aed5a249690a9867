"""Client of the EU information system's (TRACES) EUDR SOAP services, V3: see client.py."""

from .client import (
    VERIFY_RESULTS,
    DdsOverview,
    ReferencedStatement,
    TracesClient,
    TracesCredentials,
    Verification,
    environment_url,
)
from .errors import (
    TracesAddressRefused,
    TracesAuthenticationError,
    TracesBusinessError,
    TracesError,
    TracesNotFound,
    TracesPermissionDenied,
    TracesServerFault,
    TracesUnavailable,
)

__all__ = [
    "VERIFY_RESULTS",
    "DdsOverview",
    "ReferencedStatement",
    "TracesAddressRefused",
    "TracesAuthenticationError",
    "TracesBusinessError",
    "TracesClient",
    "TracesCredentials",
    "TracesError",
    "TracesNotFound",
    "TracesPermissionDenied",
    "TracesServerFault",
    "TracesUnavailable",
    "Verification",
    "environment_url",
]
