"""ISO 11649 creditor references: the standard's own example, our invoice numbers, limits."""

import pytest

from apps.common import payment


def test_the_standards_example():
    assert payment.rf_creditor_reference("539007547034") == "RF18539007547034"
    assert payment.rf_printed("RF18539007547034") == "RF18 5390 0754 7034"


def test_an_invoice_number_becomes_a_valid_reference():
    reference = payment.rf_creditor_reference("INV-2026-00005")
    assert reference == "RF65INV202600005"
    assert payment.rf_valid(reference)
    assert not payment.rf_valid("RF66INV202600005")  # one wrong check digit


@pytest.mark.parametrize("reference", ["", "---", "X" * 22])
def test_references_out_of_bounds_are_refused(reference):
    with pytest.raises(ValueError):
        payment.rf_creditor_reference(reference)
