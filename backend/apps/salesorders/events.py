"""The sales events e-mail scenarios react to and the documents they attach (registered on start by
SalesordersConfig.ready)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import F
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import DomainError
from apps.notifications import events as registry
from apps.salesorders import einvoice, pdf
from apps.salesorders.models import Invoice

CUSTOMER_CONTACTS = {
    "customer": _("The customer (its e-mail, or its contacts with the given role, e.g. invoice)"),
    "owner": _("The sales order owner"),
}
SO_VARIABLES = {
    "order.number": _("Sales order number"),
    "order.date": _("Order date"),
    "order.status": _("Status code"),
    "order.customer_reference": _("The customer's reference"),
    "order.total_net": _("Net total"),
    "order.total_gross": _("Gross total"),
    "order.currency": _("Currency"),
    "customer.name": _("Customer name"),
    "customer.number": _("Customer number"),
    "owner.name": _("The order owner's name"),
}


def _customer(customer) -> dict[str, Any]:
    return {"name": customer.name, "number": customer.number}


def _so_dict(order) -> dict[str, Any]:
    return {
        "number": order.order_number,
        "date": registry.date_text(order.order_date),
        "status": order.status,
        "customer_reference": getattr(order, "customer_reference", ""),
        "total_net": getattr(order, "total_net", None),
        "total_gross": getattr(order, "total_gross", None),
        "currency": order.currency,
    }


def _so_context(order, extra: dict) -> dict[str, Any]:
    return {
        "order": _so_dict(order),
        "customer": _customer(order.customer),
        "owner": {"name": registry.user_name(order.owner)},
    }


def _sales_contacts(order, customer, language: str, role: str, match: str) -> list[registry.Recipient]:
    if role == "customer":
        return registry.customer_contacts(customer, match, language)
    if role == "owner":
        return registry.owner_recipients(order.owner)
    return []


def _so_contacts(order, role: str, match: str) -> list[registry.Recipient]:
    return _sales_contacts(order, order.customer, getattr(order, "language", "en"), role, match)


SHIPMENT_VARIABLES = {
    "shipment.number": _("Shipment number"),
    "shipment.shipped_at": _("Shipped at"),
    "shipment.carrier": _("Carrier"),
    "shipment.tracking_number": _("Tracking number"),
    **SO_VARIABLES,
}


def _so_shipment_context(shipment, extra: dict) -> dict[str, Any]:
    context = _so_context(shipment.sales_order, extra)
    context["shipment"] = {
        "number": shipment.shipment_number,
        "shipped_at": registry.date_text(getattr(shipment, "shipped_at", None)),
        "carrier": getattr(shipment, "carrier", ""),
        "tracking_number": getattr(shipment, "tracking_number", ""),
    }
    return context


def _so_shipment_contacts(shipment, role: str, match: str) -> list[registry.Recipient]:
    return _so_contacts(shipment.sales_order, role, match)


INVOICE_VARIABLES = {
    "invoice.number": _("Invoice number"),
    "invoice.kind": _("Kind (invoice, credit_note)"),
    "invoice.issue_date": _("Issue date"),
    "invoice.due_date": _("Due date"),
    "invoice.days_overdue": _("Days past the due date"),
    "invoice.total_net": _("Net total"),
    "invoice.total_vat": _("VAT total"),
    "invoice.total_gross": _("Gross total"),
    "invoice.amount_paid": _("Amount paid"),
    "invoice.amount_open": _("Amount still open"),
    "invoice.currency": _("Currency"),
    "order.number": _("Sales order number"),
    "order.customer_reference": _("The customer's reference"),
    "customer.name": _("Customer name"),
    "customer.number": _("Customer number"),
}


def _invoice_context(invoice, extra: dict) -> dict[str, Any]:
    due = getattr(invoice, "due_date", None)
    gross = getattr(invoice, "total_gross", None)
    paid = getattr(invoice, "amount_paid", None)
    return {
        "invoice": {
            "number": invoice.number or str(invoice),
            "kind": getattr(invoice, "kind", "invoice"),
            "issue_date": registry.date_text(getattr(invoice, "issue_date", None)),
            "due_date": registry.date_text(due),
            "days_overdue": max((timezone.localdate() - due).days, 0) if due else 0,
            "total_net": getattr(invoice, "total_net", None),
            "total_vat": getattr(invoice, "total_vat", None),
            "total_gross": gross,
            "amount_paid": paid,
            "amount_open": (gross - paid) if gross is not None and paid is not None else gross,
            "currency": invoice.currency,
        },
        "order": _so_dict(invoice.sales_order),
        "customer": _customer(invoice.customer),
    }


def _invoice_contacts(invoice, role: str, match: str) -> list[registry.Recipient]:
    return _sales_contacts(
        invoice.sales_order, invoice.customer, getattr(invoice, "language", "en"), role, match
    )


def _invoice_attachment(invoice, extra: dict) -> registry.Attachment:
    return registry.Attachment(
        f"{invoice.number or invoice.pk}.pdf", bytes(pdf.invoice_pdf(invoice)), "application/pdf"
    )


def _einvoice_attachment(key: str):
    """The checked e-invoice file (`einvoice.attachment`); one it refuses (a draft, a broken rule) is
    unavailable, with the refusal's message."""

    def build(invoice, extra: dict) -> registry.Attachment:
        try:
            file_name, content, content_type = einvoice.attachment(invoice, key)
        except DomainError as exc:
            raise registry.AttachmentUnavailable(str(exc.message)) from exc
        return registry.Attachment(file_name, content, content_type)

    return build


def _shipment_attachment(shipment, extra: dict) -> registry.Attachment:
    return registry.Attachment(
        f"delivery-note-{shipment.shipment_number}.pdf",
        bytes(pdf.delivery_note_pdf(shipment)),
        "application/pdf",
    )


def _overdue(days: int, today: date) -> tuple[Any, date]:
    """invoice.overdue, once a day: posted invoices (not credit notes) with an open amount whose due date
    was exactly `days` days before `today`; the occurrence is keyed by the due date."""
    target = today - timedelta(days=days)
    records = Invoice.objects.filter(status="posted", kind="invoice", due_date=target).filter(
        amount_paid__lt=F("total_gross")
    )
    return records, target


# What the events about one kind of record share (apps/notifications/events.py, `register_events`).
FAMILIES: dict[str, dict[str, Any]] = {
    "sales_order": {
        "model": "salesorders.SalesOrder",
        "variables": SO_VARIABLES,
        "context": _so_context,
        "contacts": CUSTOMER_CONTACTS,
        "contacts_of": _so_contacts,
        "record_url": lambda o: f"/sales/orders/{o.pk}",
        "select_related": ("customer", "owner"),
    },
    "sales_shipment": {
        "model": "salesorders.Shipment",
        "variables": SHIPMENT_VARIABLES,
        "context": _so_shipment_context,
        "contacts": CUSTOMER_CONTACTS,
        "contacts_of": _so_shipment_contacts,
        "attachments": {"delivery_note": _("Delivery note (PDF)")},
        "record_url": lambda s: f"/sales/deliveries/{s.pk}",
        "select_related": ("sales_order__customer", "sales_order__owner"),
        "preview_filter": {"shipped_at__isnull": False},
    },
    "invoice": {
        "model": "salesorders.Invoice",
        "variables": INVOICE_VARIABLES,
        "context": _invoice_context,
        "contacts": CUSTOMER_CONTACTS,
        "contacts_of": _invoice_contacts,
        "attachments": {
            "invoice_pdf": _("Invoice (PDF)"),
            "invoice_ubl": _("E-invoice (UBL XML)"),
            "invoice_facturx": _("E-invoice (Factur-X PDF)"),
        },
        "record_url": lambda i: f"/sales/invoices/{i.pk}",
        "select_related": ("customer", "sales_order__owner"),
        "preview_filter": {"status": "posted"},
    },
}

DECLARATIONS: list[tuple[str, str, Promise | str, dict[str, Any]]] = [
    ("sales_order.confirmed", "sales_order", _("Sales order confirmed"), {}),
    ("sales_shipment.shipped", "sales_shipment", _("Shipment shipped"), {}),
    ("invoice.posted", "invoice", _("Invoice posted"), {}),
    (
        "invoice.overdue",
        "invoice",
        _("Invoice overdue"),
        {"uses_days": _("days after the due date"), "due": _overdue},
    ),
]


def register() -> None:
    """Called on start (AppConfig.ready)."""
    registry.register_events(FAMILIES, DECLARATIONS)
    registry.register_document("salesorders.Invoice", "invoice_pdf", _invoice_attachment)
    for key in ("invoice_ubl", "invoice_facturx"):
        registry.register_document("salesorders.Invoice", key, _einvoice_attachment(key))
    registry.register_document("salesorders.Shipment", "delivery_note", _shipment_attachment)
