"""The `country` of suppliers and parent vendors is an ISO 3166-1 alpha-2 code (apps/tenancy/countries.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.tenancy.countries import ISO_COUNTRY_CODES

__all__ = ["ISO_COUNTRY_CODES", "validate_country_code"]


def validate_country_code(value: str) -> None:
    if value and value not in ISO_COUNTRY_CODES:
        raise ValidationError(
            _("Enter a two-letter ISO country code, e.g. CN or NL."), code="invalid_country"
        )
