"""Validators of master data (HS code, barcode, currency, country), shared with customers and imports.

Each one raises Django's ValidationError with a message a user can act on; the API and the importers
both use them, so a file row and a form field are judged by the same rule.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# ISO 4217 active currency codes.
_CURRENCIES = """
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
    CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
    GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
    LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
    NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP
    STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF
    XPF YER ZAR ZMW ZWG
"""
ISO_CURRENCY_CODES = frozenset(_CURRENCIES.split())

# ISO 3166-1 alpha-2 country codes.
_COUNTRIES = """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV
    BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES
    ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE
    IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY
    MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU
    NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM
    SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE
    VG VI VN VU WF WS YE YT ZA ZM ZW
"""
ISO_COUNTRY_CODES = frozenset(_COUNTRIES.split())

HS_CODE_RE = re.compile(r"^\d{4,10}$")
BARCODE_RE = re.compile(r"^(\d{8}|\d{12,14})$")


def normalize_hs_code(value: str) -> str:
    """ "4819.10" and "4819 10 00" are written as "48191000": customs tariffs print dots and spaces."""
    return re.sub(r"[\s.]", "", value or "")


def validate_hs_code(value: str) -> None:
    if value and not HS_CODE_RE.match(value):
        raise ValidationError(
            _("Enter an HS code of 4 to 10 digits, e.g. 481910 for corrugated cartons."),
            code="invalid_hs_code",
        )


def validate_barcode(value: str) -> None:
    """EAN-8, UPC-A (12), EAN-13 or GTIN-14 with a correct check digit."""
    if not value:
        return
    if not BARCODE_RE.match(value):
        raise ValidationError(
            _("Enter a barcode of 8, 12, 13 or 14 digits (EAN/GTIN)."), code="invalid_barcode"
        )
    digits = [int(d) for d in value]
    body, check = digits[:-1], digits[-1]
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    if (10 - total % 10) % 10 != check:
        raise ValidationError(_("The barcode's check digit is wrong."), code="invalid_barcode_check")


def validate_currency(value: str) -> None:
    if value and value not in ISO_CURRENCY_CODES:
        raise ValidationError(
            _("Enter a three-letter ISO 4217 currency code, e.g. EUR or USD."), code="invalid_currency"
        )


def validate_country_code(value: str) -> None:
    if value and value not in ISO_COUNTRY_CODES:
        raise ValidationError(
            _("Enter a two-letter ISO country code, e.g. CN or NL."), code="invalid_country"
        )
