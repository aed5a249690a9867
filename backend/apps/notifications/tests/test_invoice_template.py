"""The demo scenario "Invoice to the customer" names a credit note a credit note: subject and bodies, in
English and Chinese, and no due date or amount due on a credit note."""

import pytest

from apps.notifications.demo import TEMPLATES
from apps.notifications.rendering import render

TEMPLATE = TEMPLATES["invoice"]


def _context(kind: str, number: str) -> dict:
    return {
        "invoice": {
            "kind": kind,
            "number": number,
            "issue_date": "2026-11-26",
            "due_date": "2026-12-26" if kind == "invoice" else "",
            "total_gross": "14.43",
            "currency": "EUR",
        },
        "company": {"name": "EuroTrade Goods B.V."},
        "customer": {"name": "Küchenwelt GmbH"},
        "order": {"number": "SO-2026-00001", "customer_reference": ""},
    }


@pytest.mark.parametrize("html", [False, True])
def test_a_credit_note_is_named_a_credit_note(html):
    context = _context("credit_note", "CN-2026-00002")
    assert render(TEMPLATE["subject_en"], context) == "Credit note CN-2026-00002 from EuroTrade Goods B.V."
    assert render(TEMPLATE["subject_zh"], context) == "EuroTrade Goods B.V. 贷项通知单 CN-2026-00002"
    field = "body_html" if html else "body_text"
    english = render(TEMPLATE[f"{field}_en"], context, html=html)
    chinese = render(TEMPLATE[f"{field}_zh"], context, html=html)
    assert "credit note" in english and "invoice" not in english and "Amount due" not in english
    assert "Amount credited" in english
    assert "贷项通知单" in chinese and "发票" not in chinese and "付款" not in chinese


def test_an_invoice_stays_an_invoice():
    context = _context("invoice", "INV-2026-00005")
    assert render(TEMPLATE["subject_en"], context) == "Invoice INV-2026-00005 from EuroTrade Goods B.V."
    assert render(TEMPLATE["subject_zh"], context) == "EuroTrade Goods B.V. 发票 INV-2026-00005"
    body = render(TEMPLATE["body_text_en"], context)
    assert "our invoice INV-2026-00005" in body and "payable by 2026-12-26" in body
