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


# -- bank account ----------------------------------------------------------------------------------------
# IBAN (ISO 13616): country, two check digits (ISO 7064 MOD 97-10 over the whole number) and the country's
# account format (python-stdnum knows each country's length and layout). BIC (ISO 9362): 4 letters of the
# bank, 2 of the country, 2 letters or digits of the place and optionally 3 of the branch.


def iban_compact(value: str | None) -> str:
    return "".join((value or "").split()).replace("-", "").upper()


def iban_valid(value: str) -> bool:
    from stdnum import iban

    return bool(value) and bool(iban.is_valid(value))


def iban_printed(value: str) -> str:
    """An IBAN as it is printed: in groups of four ("NL91 ABNA 0417 1643 00")."""
    from stdnum import iban

    return iban.format(value) if value else ""


def bic_compact(value: str | None) -> str:
    return "".join((value or "").split()).upper()


def bic_valid(value: str) -> bool:
    from stdnum import bic

    return bool(value) and bool(bic.is_valid(value))
