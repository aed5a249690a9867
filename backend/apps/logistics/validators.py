"""Field validators for shipments: ISO 6346 container numbers, UN/LOCODE ports, tracking URL templates."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

CONTAINER_RE = re.compile(r"^[A-Z]{3}[UJZR]\d{7}$")
UNLOCODE_RE = re.compile(r"^[A-Z]{2}[A-Z2-9]{3}$")
TRACKING_PLACEHOLDERS = ("{container}", "{tracking}")

# ISO 6346 letter values: A=10, then counting up but skipping multiples of 11 (11, 22, 33).
_LETTER_VALUES: dict[str, int] = {}
_value = 10
for _letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
    if _value % 11 == 0:
        _value += 1
    _LETTER_VALUES[_letter] = _value
    _value += 1


def normalize_container_number(value: str) -> str:
    return re.sub(r"[\s\-/]", "", value or "").upper()


def container_check_digit(first_ten: str) -> int:
    """The ISO 6346 check digit of owner code + category + serial number (10 characters)."""
    total = 0
    for position, char in enumerate(first_ten):
        number = _LETTER_VALUES[char] if char.isalpha() else int(char)
        total += number * (2**position)
    return total % 11 % 10


def validate_container_number(value: str) -> None:
    number = normalize_container_number(value)
    if not CONTAINER_RE.match(number):
        raise ValidationError(
            _("Enter a container number of 4 letters and 7 digits (ISO 6346), e.g. MSCU1234566."),
            code="container_format",
        )
    if container_check_digit(number[:10]) != int(number[10]):
        raise ValidationError(
            _("The check digit of this container number is wrong (ISO 6346)."), code="container_check_digit"
        )


def validate_unlocode(value: str) -> None:
    if value and not UNLOCODE_RE.match(value):
        raise ValidationError(
            _("Enter a UN/LOCODE: 2-letter country code and 3-character place code, e.g. CNSHA."),
            code="unlocode",
        )


def validate_tracking_template(value: str) -> None:
    if not value:
        return
    if not value.startswith(("https://", "http://")):
        raise ValidationError(_("The tracking URL must start with https:// or http://."), code="tracking_url")
    if not any(placeholder in value for placeholder in TRACKING_PLACEHOLDERS):
        raise ValidationError(
            _("The tracking URL template must contain {container} or {tracking}."),
            code="tracking_placeholder",
        )
