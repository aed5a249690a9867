"""Structured payment references (ISO 11649, the "RF creditor reference").

An RF reference is "RF", two check digits and up to 21 letters and digits; the check digits make the
whole reference valid modulo 97 (ISO 7064 MOD 97-10, as in an IBAN), so a bank can refuse a mistyped one
and the payment can be matched to its invoice without anyone reading the remittance text.
"""

from __future__ import annotations

from stdnum import iso11649
from stdnum.iso7064 import mod_97_10

MAX_REFERENCE = 21


def rf_creditor_reference(reference: str) -> str:
    """The RF creditor reference of our own reference (an invoice number: "INV-2026-00005" gives
    "RF65INV202600005"): its letters and digits, upper case, with the check digits."""
    body = "".join(ch for ch in reference.upper() if ch.isascii() and ch.isalnum())
    if not body or len(body) > MAX_REFERENCE:
        raise ValueError("an RF reference holds 1 to 21 letters and digits")
    check = mod_97_10.calc_check_digits(body + "RF")
    return f"RF{check}{body}"


def rf_printed(reference: str) -> str:
    """An RF reference as it is printed: in groups of four ("RF65 INV2 0260 0005")."""
    return iso11649.format(reference) if reference else ""


def rf_valid(reference: str) -> bool:
    return bool(iso11649.is_valid(reference))
