"""The demo's supplier e-invoice: a UBL file the supplier of the received demo order sent, read through
the upload's service into a draft that matches the order three ways (ordered = received = invoiced, at
the order's prices), with the original file kept."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from apps.purchaseorders import einvoice_in
from apps.purchaseorders.demo import EINVOICE_NUMBER, EINVOICE_ORDER
from apps.purchaseorders.models import MatchStatus, SupplierInvoice
from apps.purchaseorders.services import supplier_invoice_match
from apps.tenancy.context import tenant_context

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_received_supplier_einvoice_matched_to_its_order():
    call_command("load_demo", stdout=io.StringIO())
    with tenant_context(3):
        invoice = SupplierInvoice.objects.select_related("purchase_order", "supplier").get()
        order = invoice.purchase_order
        assert invoice.invoice_number == EINVOICE_NUMBER
        assert (invoice.status, invoice.kind, invoice.syntax) == ("draft", "invoice", "ubl")
        assert order.description == EINVOICE_ORDER and order.status == "received"
        assert order.receipts.count() == 2
        assert invoice.supplier == order.supplier
        assert invoice.currency == order.currency
        assert invoice.total_net == order.total_amount == invoice.total_gross
        assert invoice.match_status == MatchStatus.MATCHED
        match = supplier_invoice_match(invoice)
        assert match.status == MatchStatus.MATCHED
        assert [(m.ordered, m.received, m.invoiced) for m in match.lines] == [
            (line.order_qty, line.order_qty, line.order_qty) for line in order.lines.order_by("line_number")
        ]
        # the file kept is the one read: read again, it gives the same invoice
        with invoice.original_file.open("rb") as stored:
            parsed, _root = einvoice_in.parse(stored.read())
        assert (parsed.number, parsed.order_reference, len(parsed.lines)) == (
            EINVOICE_NUMBER,
            order.order_number,
            order.lines.count(),
        )
    with tenant_context(2):
        assert not SupplierInvoice.objects.exists()
