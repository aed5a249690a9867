"""The purchasing events e-mail scenarios react to (registered on start by PurchaseordersConfig.ready)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.notifications import events as registry
from apps.purchaseorders.models import PurchaseOrder

PO_VARIABLES = {
    "order.number": _("Purchase order number"),
    "order.date": _("Order date"),
    "order.status": _("Status code (draft, confirmed, sent, partly_received, received, closed, cancelled)"),
    "order.status_label": _("Status, in words"),
    "order.type": _("Order type"),
    "order.total": _("Total amount"),
    "order.currency": _("Currency"),
    "order.description": _("Description"),
    "order.promise_date": _("Promise date"),
    "supplier.name": _("Supplier name"),
    "supplier.number": _("Supplier number"),
    "parent_vendor.name": _("Parent vendor name"),
    "parent_vendor.cname": _("Parent vendor's Chinese name"),
    "owner.name": _("The order owner's name"),
}
PO_CONTACTS = {
    "supplier": _("The supplier (its e-mail, or its contacts with the given role)"),
    "parent_vendor": _("The parent vendor's e-mail address"),
    "parent_vendor_users": _("The parent vendor's users (supplier portal)"),
    "owner": _("The order owner"),
}


def _po_context(order, extra: dict) -> dict[str, Any]:
    vendor = order.supplier.parent_vendor
    return {
        "order": {
            "number": order.order_number,
            "date": registry.date_text(order.order_date),
            "status": order.status,
            "status_label": registry.choice_label(PurchaseOrder.Status, order.status),
            "type": order.type,
            "total": order.total_amount,
            "currency": order.currency,
            "description": order.description,
            "promise_date": registry.date_text(order.promise_date),
        },
        "supplier": {"name": order.supplier.name, "number": order.supplier.number},
        "parent_vendor": {"name": vendor.name if vendor else "", "cname": vendor.cname if vendor else ""},
        "owner": {"name": registry.user_name(order.owner)},
        "previous_status": extra.get("previous_status", ""),
        "previous_status_label": registry.choice_label(PurchaseOrder.Status, extra.get("previous_status", ""))
        if extra.get("previous_status")
        else "",
    }


def _po_contacts(order, role: str, match: str) -> list[registry.Recipient]:
    if role == "supplier":
        return registry.supplier_contacts(order.supplier, match)
    if role == "parent_vendor":
        return registry.vendor_recipients(order.supplier.parent_vendor)
    if role == "parent_vendor_users":
        return registry.vendor_users(order.supplier.parent_vendor_id)
    if role == "owner":
        return registry.owner_recipients(order.owner)
    return []


# What the events about one kind of record share (apps/notifications/events.py, `register_events`).
FAMILIES: dict[str, dict[str, Any]] = {
    "purchase_order": {
        "model": "purchaseorders.PurchaseOrder",
        "variables": PO_VARIABLES,
        "context": _po_context,
        "contacts": PO_CONTACTS,
        "contacts_of": _po_contacts,
        "record_label": lambda o: o.order_number,
        "record_url": lambda o: f"/purchase/orders/{o.order_number}",
        "supplier_url": lambda o: f"/supplier/orders/{o.order_number}",
        "select_related": ("supplier__parent_vendor", "owner"),
        "attachments": {"purchase_order_pdf": _("Purchase order (PDF)")},
    },
}

DECLARATIONS: list[tuple[str, str, Promise | str, dict[str, Any]]] = [
    # the order goes to the supplier when it is sent (a draft is never e-mailed): docs/purchasing.md
    ("purchase_order.sent", "purchase_order", _("Purchase order sent to the supplier"), {}),
    (
        "purchase_order.status_changed",
        "purchase_order",
        _("Purchase order status changed"),
        {
            "variables": {
                "previous_status": _("The status before the change"),
                "previous_status_label": _("The status before the change, in words"),
            }
        },
    ),
]


def register() -> None:
    """Called on start (AppConfig.ready)."""
    registry.register_events(FAMILIES, DECLARATIONS)
    registry.register_document("purchaseorders.PurchaseOrder", "purchase_order_pdf", _order_pdf)


def _order_pdf(order, extra: dict) -> registry.Attachment:
    from apps.purchaseorders.mail import order_attachment

    return order_attachment(order, extra)
