"""The VAT determination (apps/common/tax.py): one test per case, the VAT number check and the rate table."""

from decimal import Decimal

import pytest
from django.utils import translation

from apps.common import tax

D = Decimal


def test_domestic_supply_gets_the_sellers_standard_rate():
    t = tax.determine_vat(seller_country="NL", buyer_country="NL", buyer_vat_number="NL004495445B01")
    assert (t.case, t.category, t.rate, t.reverse_charge, t.exemption_code) == (
        "domestic",
        "S",
        D("21"),
        False,
        "",
    )
    assert t.mention == ""


def test_goods_staying_in_the_sellers_country_are_domestic_even_for_a_foreign_business():
    t = tax.determine_vat(
        seller_country="NL", buyer_country="ES", buyer_vat_number="ESA12345674", destination_country="NL"
    )
    assert (t.case, t.rate) == ("domestic", D("21"))


def test_intra_eu_supply_to_a_business_is_zero_rated_reverse_charge_with_the_mention():
    t = tax.determine_vat(seller_country="NL", buyer_country="ES", buyer_vat_number="es a1234567-4")
    assert (t.case, t.category, t.rate, t.reverse_charge, t.exemption_code) == (
        "intra_eu_b2b",
        "K",
        D("0"),
        True,
        "VATEX-EU-IC",
    )
    assert t.zero_rated
    assert "Article 138" in t.mention and "Reverse charge" in t.mention


def test_a_vat_number_with_wrong_check_digits_is_not_a_business():
    # ESA12345675: the Spanish check character does not match
    t = tax.determine_vat(seller_country="NL", buyer_country="ES", buyer_vat_number="ESA12345675")
    assert (t.case, t.category, t.rate, t.reverse_charge) == ("distance_sale", "S", D("21"), False)


def test_a_vat_number_of_the_sellers_own_country_is_no_intra_eu_supply():
    t = tax.determine_vat(
        seller_country="NL", buyer_country="DE", buyer_vat_number="NL004495445B01", destination_country="DE"
    )
    assert t.case == "distance_sale" and not t.reverse_charge


def test_consumer_in_another_member_state_pays_the_sellers_rate():
    t = tax.determine_vat(seller_country="DE", buyer_country="FR", buyer_vat_number="")
    assert (t.case, t.category, t.rate, t.mention) == ("distance_sale", "S", D("19"), "")


def test_export_outside_the_eu_is_zero_rated_with_the_mention():
    t = tax.determine_vat(seller_country="NL", buyer_country="CN", buyer_vat_number="")
    assert (t.case, t.category, t.rate, t.reverse_charge, t.exemption_code) == (
        "export",
        "G",
        D("0"),
        False,
        "VATEX-EU-G",
    )
    assert "Article 146" in t.mention


def test_export_to_a_non_eu_destination_even_for_an_eu_business():
    t = tax.determine_vat(
        seller_country="SE", buyer_country="DE", buyer_vat_number="DE136695976", destination_country="NO"
    )
    assert t.case == "export" and t.rate == 0


def test_the_destination_defaults_to_the_buyers_country_then_the_sellers():
    assert tax.determine_vat(seller_country="FI").case == "domestic"
    assert tax.determine_vat(seller_country="FI").rate == D("25.5")
    assert tax.determine_vat(seller_country="FI", buyer_country="US").case == "export"


def test_an_unknown_seller_country_proposes_no_rate_and_never_zero_rates():
    t = tax.determine_vat(seller_country="", buyer_country="ES", buyer_vat_number="ESA12345674")
    assert t.rate is None and not t.zero_rated
    t = tax.determine_vat(seller_country="CH", buyer_country="US")
    assert t.rate is None and not t.zero_rated


def test_greek_vat_numbers_use_el():
    assert tax.vat_number_country("EL094259216") == "GR"
    assert tax.vat_number_valid("EL094259216")
    t = tax.determine_vat(seller_country="IT", buyer_country="GR", buyer_vat_number="EL094259216")
    assert t.case == "intra_eu_b2b"


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("NL004495445B01", True),
        ("NL004495446B01", False),
        ("DE136695976", True),
        ("DE136695977", False),
        ("BE0403019261", True),
        ("ATU13585627", True),
        ("FR40303265045", True),
        ("IT00743110157", True),
        ("PL5260250995", True),
        ("SE556677889901", True),
        ("DE12345", False),  # too short
        ("GB980780684", False),  # no longer a member state
        ("US123456789", False),
        ("", False),
        ("ÄÖ!!", False),
        ("NL" + "9" * 200, False),
    ],
)
def test_vat_numbers_are_checked_by_format_and_check_digits(number, valid):
    assert tax.vat_number_valid(number) is valid


def test_the_rate_table_is_data_with_its_date():
    table = tax.rates_table()
    assert table["as_of"] == "2026-01-01"
    assert len(table["standard_rates"]) == 27
    assert all(D("15") <= rate <= D("27") for rate in table["standard_rates"].values())
    assert tax.standard_rate("lu") == D("17") and tax.standard_rate("US") is None


def test_the_mention_is_translated():
    t = tax.determine_vat(seller_country="NL", buyer_country="US")
    with translation.override("en"):
        english = t.mention
    with translation.override("zh-hans"):
        assert "146" in t.mention and t.mention != english
