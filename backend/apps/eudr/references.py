"""Reference numbers of the EU information system, checked as the system writes them before anything is
stored (docs/eudr.md, "Reference numbers").

- A due diligence statement's reference number: 14 characters, the two digits of the year, the
  2-letter code of the member state and 10 capital letters or digits (`26NLX7TVCZAQ2S`).
- A simplified declaration's identifier (micro and small primary operators, Regulation (EU) 2025/2650):
  14 characters starting with `S`, then the year's two digits, the member state and 9 capital letters or
  digits (`S26FRNMNBSA96Q`). Accepted wherever a reference number is.
- A verification number: 5 to 35 letters or digits.

Only the surrounding blanks are removed and letters upper-cased: a reference with a hyphen, a space or a
letter the system does not write (`25FI-KGLE 0Q7R`) is refused, never "repaired" into another statement's
number.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

# the company's own simplified declaration is a company setting (apps/tenancy/operator.py)
from apps.tenancy.operator import SD_IDENTIFIER_RE

DDS_REFERENCE_RE = re.compile(r"^[0-9]{2}[A-Z]{2}[A-Z0-9]{10}$")
VERIFICATION_RE = re.compile(r"^[A-Za-z0-9]{5,35}$")
REFERENCE_LENGTH = 14
VERIFICATION_MIN, VERIFICATION_MAX = 5, 35

KIND_DDS = "dds"
KIND_SD = "sd"

MSG_REFERENCE_FORMAT = _(
    "Enter the reference number as the EU information system gives it: 14 capital letters and digits, the "
    "year's two digits and the member state first (e.g. 26NLX7TVCZAQ2S), or a simplified declaration's "
    "identifier starting with S (e.g. S26FRNMNBSA96Q); no spaces or hyphens."
)
MSG_VERIFICATION_FORMAT = _(
    "The verification number has 5 to 35 letters and digits, without spaces or hyphens."
)


def normalise_reference(value: str | None) -> str:
    return (value or "").strip().upper()


def normalise_verification(value: str | None) -> str:
    return (value or "").strip()


def reference_kind(value: str) -> str | None:
    """`dds`, `sd` or None (not a reference the system writes)."""
    if SD_IDENTIFIER_RE.match(value):
        return KIND_SD
    if DDS_REFERENCE_RE.match(value):
        return KIND_DDS
    return None


def is_reference(value: str) -> bool:
    return reference_kind(value) is not None


def is_verification(value: str) -> bool:
    return bool(VERIFICATION_RE.match(value))
