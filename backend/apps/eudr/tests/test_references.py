"""Reference numbers as the EU information system writes them (apps/eudr/references.py)."""

import pytest

from apps.eudr import references


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("26NLX7TVCZAQ2S", "dds"),
        ("25FIKGLE0Q7R3B", "dds"),
        ("25FIUPSTREAM01", "dds"),
        ("S26FRNMNBSA96Q", "sd"),
        ("S26BECB39D2GRX", "sd"),
        ("25FI-KGLE 0Q7R", None),  # hyphen and space: the system refuses it
        ("25fikgle0q7r3b", None),  # not normalised
        ("25FIKGLE0Q7R3", None),  # 13 characters
        ("25FIKGLE0Q7R3BX", None),  # 15 characters
        ("NL26KGLE0Q7R3B", None),  # country before the year
        ("S26FRNMNBSA96", None),  # simplified declaration, 13 characters
        ("SXXFRNMNBSA96Q", None),
        ("", None),
    ],
)
def test_reference_kind(value, kind):
    assert references.reference_kind(value) == kind
    assert references.is_reference(value) is (kind is not None)


def test_normalising_only_trims_and_upper_cases():
    assert references.normalise_reference("  s26frnmnbsa96q ") == "S26FRNMNBSA96Q"
    assert references.normalise_reference("25fi-kgle 0q7r") == "25FI-KGLE 0Q7R"
    assert references.normalise_reference(None) == ""


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("SFFCB4Y3", True),
        ("ABCDE", True),
        ("A" * 35, True),
        ("ABCD", False),
        ("A" * 36, False),
        ("VN-25", False),
    ],
)
def test_verification_number(value, valid):
    assert references.is_verification(value) is valid
