"""VAT determination: the one place that decides which VAT an invoice of goods carries (docs/sales.md, "VAT").

Inputs: the seller's country, the buyer's country, the buyer's VAT number (a business only if the number
is valid by format and check digits, checked offline with python-stdnum) and the country the goods go to.

| case | when | rate | EN 16931 category | mention |
| --- | --- | --- | --- | --- |
| domestic | the goods stay in (or go to) the seller's country | seller's standard rate | S | — |
| intra-EU B2B | to another member state, buyer with a valid VAT number of a member state other than the seller's | 0 % | K (VATEX-EU-IC) | Article 138, reverse charge |
| export | out of the EU | 0 % | G (VATEX-EU-G) | Article 146 |
| distance sale | to a consumer (no valid VAT number) in another member state | seller's standard rate | S | — |

Distance sales: the seller's rate applies while the company's cross-border sales to consumers in the EU
stay under EUR 10,000 a year (Article 59c of Directive 2006/112/EC); above it the destination's rate is
due, declared through the one-stop shop (OSS). The product does not track that threshold: see the docs.

The standard rates are data (`data/eu_vat_rates.json`, with the date they are valid from), not code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path

from django.utils.translation import gettext_lazy as _
from stdnum.eu import vat as eu_vat

RATES_FILE = Path(__file__).resolve().parent / "data" / "eu_vat_rates.json"
ZERO = Decimal("0")

# the VAT number prefix of a member state where it is not the ISO 3166 code
VAT_PREFIX = {"GR": "EL"}
PREFIX_COUNTRY = {prefix: country for country, prefix in VAT_PREFIX.items()}


class VatCase:
    DOMESTIC = "domestic"
    INTRA_EU_B2B = "intra_eu_b2b"
    EXPORT = "export"
    DISTANCE_SALE = "distance_sale"


# UNCL 5305 VAT category codes as EN 16931 uses them
class VatCategory:
    STANDARD = "S"
    ZERO = "Z"
    EXEMPT = "E"
    REVERSE_CHARGE = "AE"
    INTRA_COMMUNITY = "K"
    EXPORT = "G"
    NOT_SUBJECT = "O"


EXEMPTION_REASONS = {
    "VATEX-EU-IC": _(
        "Intra-Community supply of goods, exempt under Article 138 of Directive 2006/112/EC. "
        "Reverse charge: the customer accounts for the VAT."
    ),
    "VATEX-EU-G": _("Export of goods outside the EU, exempt under Article 146 of Directive 2006/112/EC."),
    "VATEX-EU-AE": _(
        "Reverse charge: the customer accounts for the VAT (Article 194 of Directive 2006/112/EC)."
    ),
}


@cache
def rates_table() -> dict:
    with RATES_FILE.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return {
        "as_of": data["as_of"],
        "source": data["source"],
        "standard_rates": {country: Decimal(rate) for country, rate in data["standard_rates"].items()},
    }


def is_eu(country: str) -> bool:
    return (country or "").upper() in rates_table()["standard_rates"]


def standard_rate(country: str) -> Decimal | None:
    """The standard VAT rate of a member state, or None outside the EU."""
    return rates_table()["standard_rates"].get((country or "").upper())


def normalise_vat_number(value: str) -> str:
    return "".join(ch for ch in (value or "") if ch.isalnum()).upper()


def vat_number_country(value: str) -> str:
    """The ISO country of a VAT number's prefix ("EL" is Greece), or "" when it has none we know."""
    prefix = normalise_vat_number(value)[:2]
    country = PREFIX_COUNTRY.get(prefix, prefix)
    return country if is_eu(country) else ""


def vat_number_valid(value: str) -> bool:
    """A VAT number of an EU member state, valid by its country's format and check digits (offline: it
    says nothing about whether the number is registered, which only VIES can tell)."""
    number = normalise_vat_number(value)
    if not vat_number_country(number):
        return False
    try:
        return bool(eu_vat.is_valid(number))
    except Exception:  # stdnum's per-country modules raise their own kinds on odd input
        return False


@dataclass(frozen=True)
class VatTreatment:
    case: str
    category: str
    # the rate to propose: None when the seller's country has no rate in the table (keep the line's own)
    rate: Decimal | None
    reverse_charge: bool = False
    exemption_code: str = ""

    @property
    def zero_rated(self) -> bool:
        return self.category in (VatCategory.INTRA_COMMUNITY, VatCategory.EXPORT, VatCategory.REVERSE_CHARGE)

    @property
    def mention(self) -> str:
        """The legal mention the invoice must carry, in the active language ("" when none)."""
        reason = EXEMPTION_REASONS.get(self.exemption_code)
        return str(reason) if reason else ""


def determine_vat(
    *, seller_country: str, buyer_country: str = "", buyer_vat_number: str = "", destination_country: str = ""
) -> VatTreatment:
    """The VAT treatment of a supply of goods (see the module's table). The destination defaults to the
    buyer's country, and that to the seller's."""
    seller = (seller_country or "").upper()
    buyer = (buyer_country or "").upper()
    destination = (destination_country or buyer or seller).upper()
    seller_rate = standard_rate(seller)
    if not destination or destination == seller:
        return VatTreatment(case=VatCase.DOMESTIC, category=VatCategory.STANDARD, rate=seller_rate)
    if not is_eu(destination):
        if seller and not is_eu(seller):
            # a seller outside the EU: its own rules, nothing this table knows
            return VatTreatment(case=VatCase.DOMESTIC, category=VatCategory.STANDARD, rate=None)
        return VatTreatment(
            case=VatCase.EXPORT, category=VatCategory.EXPORT, rate=ZERO, exemption_code="VATEX-EU-G"
        )
    business = vat_number_valid(buyer_vat_number) and vat_number_country(buyer_vat_number) != seller
    if business and is_eu(seller):
        return VatTreatment(
            case=VatCase.INTRA_EU_B2B,
            category=VatCategory.INTRA_COMMUNITY,
            rate=ZERO,
            reverse_charge=True,
            exemption_code="VATEX-EU-IC",
        )
    return VatTreatment(case=VatCase.DISTANCE_SALE, category=VatCategory.STANDARD, rate=seller_rate)


def reverse_charge_treatment(*, intra_eu: bool) -> VatTreatment:
    """The treatment of an invoice a user marks as reverse charge by hand."""
    if intra_eu:
        return VatTreatment(
            case=VatCase.INTRA_EU_B2B,
            category=VatCategory.INTRA_COMMUNITY,
            rate=ZERO,
            reverse_charge=True,
            exemption_code="VATEX-EU-IC",
        )
    return VatTreatment(
        case=VatCase.DOMESTIC,
        category=VatCategory.REVERSE_CHARGE,
        rate=ZERO,
        reverse_charge=True,
        exemption_code="VATEX-EU-AE",
    )
