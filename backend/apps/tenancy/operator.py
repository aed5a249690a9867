"""The company as EUDR operator: the formats of its identifiers and what a due diligence statement needs
from the company settings (docs/eudr.md, "Company settings").

- EORI number: the 2-letter code of the issuing country and up to 15 letters or digits (NL862345678).
- VAT number: the 2-letter country prefix and 2 to 13 letters or digits (NL862345678B01; Greece uses EL).
- The country of activity (the company's `country`) is an EU member state: the statement's
  `countryOfActivity`. A represented operator may be established anywhere (ISO 3166-1 alpha-2).

Spaces, dots and hyphens typed in an identifier are removed and letters upper-cased before checking.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import EudrImportRole, EudrPrimaryRole, EudrPurchaseRole, OperatorRole, Tenant

EORI_RE = re.compile(r"^[A-Z]{2}[A-Z0-9]{1,15}$")
VAT_RE = re.compile(r"^[A-Z]{2}[A-Z0-9+*]{2,13}$")
PHONE_RE = re.compile(r"^\+?[0-9(][0-9 ()./-]{3,28}[0-9]$")
EU_MEMBER_STATES = frozenset(
    [
        "AT",
        "BE",
        "BG",
        "CY",
        "CZ",
        "DE",
        "DK",
        "EE",
        "ES",
        "FI",
        "FR",
        "GR",
        "HR",
        "HU",
        "IE",
        "IT",
        "LT",
        "LU",
        "LV",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SE",
        "SI",
        "SK",
    ]
)

MSG_EORI = _(
    "Enter the EORI number as the 2-letter country code and up to 15 letters or digits, e.g. NL862345678."
)
MSG_VAT = _("Enter the VAT number with its 2-letter country prefix, e.g. NL862345678B01.")
MSG_PHONE = _("Enter the phone number with digits, spaces and + ( ) - . / only, e.g. +31 10 123 4567.")
MSG_EU_COUNTRY = _("Choose the EU member state where the company places the products on the market.")
MSG_COUNTRY = _("Enter a two-letter ISO 3166-1 country code, e.g. CN.")
MSG_IBAN = _(
    "Enter the IBAN with its country code and check digits, e.g. NL91 ABNA 0417 1643 00; "
    "this one's check digits or length do not match."
)
MSG_BIC = _("Enter the BIC (SWIFT code) of 8 or 11 letters and digits, e.g. ABNANL2A.")
MSG_BIC_WITHOUT_IBAN = _("Enter the IBAN as well: a BIC alone does not say where to pay.")
MSG_REGISTRATION = _(
    "Enter the registration number (e.g. KvK or Handelsregister) with letters, digits, spaces and "
    ". / - only, at most 40 characters."
)
REGISTRATION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ./\-]{0,39}$")


def is_registration_number(value: str) -> bool:
    return bool(REGISTRATION_RE.match(value))


def normalise_identifier(value: str | None) -> str:
    return re.sub(r"[\s.\-]", "", value or "").upper()


def is_eori(value: str) -> bool:
    return bool(EORI_RE.match(value))


def is_vat(value: str) -> bool:
    return bool(VAT_RE.match(value))


def is_phone(value: str) -> bool:
    return bool(PHONE_RE.match(value))


def is_country(value: str) -> bool:
    from .countries import ISO_COUNTRY_CODES

    return value in ISO_COUNTRY_CODES


def missing_for_statement(tenant: Tenant) -> list[str]:
    """The company settings a due diligence statement needs and that are empty or malformed, as field
    names (`identifier` stands for "EORI or VAT number"), in the form's order."""
    missing: list[str] = []
    if not (tenant.legal_name or tenant.name):
        missing.append("legal_name")
    if not tenant.address.strip():
        missing.append("address")
    if tenant.country not in EU_MEMBER_STATES:
        missing.append("country")
    if not _has_identifier(tenant.eori_number, tenant.vat_number):
        missing.append("identifier")
    if tenant.operator_role == OperatorRole.REPRESENTATIVE_OPERATOR:
        if not tenant.represented_operator_name.strip():
            missing.append("represented_operator_name")
        for name in (
            "represented_operator_street",
            "represented_operator_postal_code",
            "represented_operator_city",
        ):
            if not getattr(tenant, name).strip():
                missing.append(name)
        if not is_country(tenant.represented_operator_country):
            missing.append("represented_operator_country")
        if not _has_identifier(tenant.represented_operator_eori, tenant.represented_operator_vat):
            missing.append("represented_operator_identifier")
    return missing


def _has_identifier(eori: str, vat: str) -> bool:
    """At least one identifier, and none malformed (stored data may predate the checks)."""
    eori, vat = normalise_identifier(eori), normalise_identifier(vat)
    if not (eori or vat):
        return False
    return (not eori or is_eori(eori)) and (not vat or is_vat(vat))


# What the company's roles oblige it to do (Regulation (EU) 2023/1115 as amended by 2025/2650), in the
# order the pages show them.
DUTY_FILE_STATEMENTS = "file_statements"
DUTY_KEEP_SUPPLIER_REFERENCES = "keep_supplier_references"
DUTY_REGISTER = "register_in_information_system"
DUTY_SIMPLIFIED_DECLARATION = "simplified_declaration"
DUTY_CHOICES = [
    DUTY_FILE_STATEMENTS,
    DUTY_KEEP_SUPPLIER_REFERENCES,
    DUTY_REGISTER,
    DUTY_SIMPLIFIED_DECLARATION,
]


def eudr_duties(tenant: Tenant) -> list[str]:
    """- an operator (imports, first placing) files a due diligence statement for what it places;
    - a downstream operator or trader files none since 2025/2650 but keeps its suppliers' reference
      numbers (or simplified-declaration identifiers) for 5 years; a non-SME one registers in the
      information system;
    - a micro or small primary operator files a one-time simplified declaration instead of statements."""
    duties = []
    if tenant.eudr_import_role == EudrImportRole.OPERATOR:
        duties.append(DUTY_FILE_STATEMENTS)
    if tenant.eudr_purchase_role == EudrPurchaseRole.DOWNSTREAM:
        duties.append(DUTY_KEEP_SUPPLIER_REFERENCES)
        if not tenant.eudr_is_sme:
            duties.append(DUTY_REGISTER)
    if tenant.eudr_primary_role == EudrPrimaryRole.MICRO_SMALL_PRIMARY:
        duties.append(DUTY_SIMPLIFIED_DECLARATION)
    return duties


def may_read_referenced_statements(tenant: Tenant) -> bool:
    """getDdsByIdentifiers is for non-SME companies only (docs/regulation.md)."""
    return not tenant.eudr_is_sme


# A simplified declaration's identifier as the EU information system writes it (a company setting here;
# apps/eudr/references.py accepts it wherever a reference number is): S, the year's two digits, the member
# state and 9 capital letters or digits.
SD_IDENTIFIER_RE = re.compile(r"^S[0-9]{2}[A-Z]{2}[A-Z0-9]{9}$")


def normalise_simplified_declaration_id(value: str | None) -> str:
    """Only the surrounding blanks removed and letters upper-cased, as every reference number."""
    return (value or "").strip().upper()


def is_simplified_declaration_id(value: str) -> bool:
    return bool(SD_IDENTIFIER_RE.match(value))


MSG_SD_ID = _(
    "Enter the simplified declaration's identifier as the EU information system gave it: 14 characters "
    "starting with S, e.g. S26FRNMNBSA96Q."
)
MSG_SD_ID_REQUIRED = _("A micro or small primary operator enters its simplified declaration's identifier.")
MSG_PRIMARY_NEEDS_SME = _(
    "Only a micro or small company files a simplified declaration: mark the company as an SME."
)
