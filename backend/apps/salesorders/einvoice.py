"""The e-invoice files of a posted invoice or credit note, by key (docs/sales.md, "Delivering
e-invoices"): what the e-mail scenarios attach (`invoice_ubl`, `invoice_facturx`, the e-mail registry's
attachment keys) and what "send by e-mail" on the invoice page attaches. Each is checked as its download
is (UBL: 409 `ubl_invalid`; Factur-X: 409 `facturx_invalid`)."""

from __future__ import annotations

from apps.salesorders import cii, pdf, ubl
from apps.salesorders.models import Invoice

UBL = "ubl"
FACTURX = "facturx"
PDF = "pdf"
FORMATS = (UBL, FACTURX, PDF)
KEYS = {"invoice_ubl": UBL, "invoice_facturx": FACTURX, "invoice_pdf": PDF}


def file(invoice: Invoice, format: str) -> tuple[str, bytes, str]:
    """(file name, content, content type) of one format; raises the format's refusal."""
    number = invoice.number or f"draft-{invoice.pk}"
    if format == UBL:
        return f"{number}.xml", ubl.invoice_ubl(invoice), "application/xml"
    if format == FACTURX:
        return f"{number}-factur-x.pdf", cii.invoice_facturx_pdf(invoice), "application/pdf"
    if format == PDF:
        return f"{number}.pdf", pdf.invoice_pdf(invoice), "application/pdf"
    raise ValueError(format)


def attachment(invoice: Invoice, key: str) -> tuple[str, bytes, str]:
    return file(invoice, KEYS[key])
