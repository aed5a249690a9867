import pytest
from django.core.exceptions import ValidationError

from apps.logistics.validators import (
    container_check_digit,
    validate_container_number,
    validate_tracking_template,
    validate_unlocode,
)


@pytest.mark.parametrize("number", ["CSQU3054383", "MSCU1234566", "MAEU1234567", "TGHU9876542"])
def test_valid_container_numbers(number):
    validate_container_number(number)


def test_check_digit_of_the_iso_example():
    assert container_check_digit("CSQU305438") == 3


@pytest.mark.parametrize("number", ["CSQU3054384", "CSQ3054383", "CSQU30543", "csqu30543831", "CSQA3054383"])
def test_invalid_container_numbers(number):
    with pytest.raises(ValidationError):
        validate_container_number(number)


@pytest.mark.parametrize(
    "code, ok", [("CNSHA", True), ("NLRTM", True), ("DEHAM", True), ("CN SH", False), ("NL1", False)]
)
def test_unlocode(code, ok):
    if ok:
        validate_unlocode(code)
    else:
        with pytest.raises(ValidationError):
            validate_unlocode(code)


@pytest.mark.parametrize(
    "template, ok",
    [
        ("https://www.maersk.com/tracking/{container}", True),
        ("https://track.example.com/?q={tracking}", True),
        ("https://www.maersk.com/tracking/", False),
        ("ftp://x/{container}", False),
    ],
)
def test_tracking_template(template, ok):
    if ok:
        validate_tracking_template(template)
    else:
        with pytest.raises(ValidationError):
            validate_tracking_template(template)
