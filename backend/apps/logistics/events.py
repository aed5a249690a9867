"""The inbound shipment events e-mail scenarios react to (registered on start by LogisticsConfig.ready)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.notifications import events as registry

INBOUND_VARIABLES = {
    "shipment.container_number": _("Container number"),
    "shipment.seal_number": _("Seal number"),
    "shipment.vessel": _("Vessel"),
    "shipment.voyage": _("Voyage"),
    "shipment.port_of_loading": _("Port of loading"),
    "shipment.port_of_discharge": _("Port of discharge"),
    "shipment.etd": _("ETD"),
    "shipment.eta": _("ETA"),
    "shipment.carrier": _("Shipping company"),
    "shipment.purchase_orders": _("The purchase order numbers it carries, comma-separated"),
}
INBOUND_CONTACTS = {
    "order_owners": _("The owners of the purchase orders it carries"),
    "parent_vendors": _("The parent vendors of the purchase orders it carries"),
    "shipment_company": _("The shipping company's e-mail address"),
}


def _inbound_orders(shipment):
    return list(shipment.purchase_orders.select_related("supplier__parent_vendor", "owner").order_by("pk"))


def _inbound_context(shipment, extra: dict) -> dict[str, Any]:
    return {
        "shipment": {
            "container_number": shipment.container_number,
            "seal_number": shipment.seal_number,
            "vessel": shipment.vessel,
            "voyage": shipment.voyage,
            "port_of_loading": shipment.port_of_loading,
            "port_of_discharge": shipment.port_of_discharge,
            "etd": registry.date_text(shipment.etd),
            "eta": registry.date_text(shipment.eta),
            "carrier": shipment.shipment_company.name if shipment.shipment_company_id else "",
            "purchase_orders": ", ".join(o.order_number for o in _inbound_orders(shipment)),
        }
    }


def _inbound_contacts(shipment, role: str, match: str) -> list[registry.Recipient]:
    if role == "shipment_company":
        company = shipment.shipment_company
        return (
            [registry.Recipient(company.email, company.contact_name or company.name)]
            if company and company.email
            else []
        )
    orders = _inbound_orders(shipment)
    if role == "order_owners":
        return registry.user_recipients(o.owner for o in orders if o.owner is not None)
    if role == "parent_vendors":
        return [r for o in orders for r in registry.vendor_recipients(o.supplier.parent_vendor)]
    return []


# What the events about one kind of record share (apps/notifications/events.py, `register_events`).
FAMILIES: dict[str, dict[str, Any]] = {
    "inbound_shipment": {
        "model": "logistics.ShipmentInfo",
        "variables": INBOUND_VARIABLES,
        "context": _inbound_context,
        "contacts": INBOUND_CONTACTS,
        "contacts_of": _inbound_contacts,
        "record_label": lambda s: s.container_number or f"#{s.pk}",
        "record_url": lambda s: f"/purchase/shipments?search={s.container_number}",
        "supplier_url": lambda s: "/supplier/orders",  # the portal has no shipment page: the orders
        "select_related": ("shipment_company",),
    },
}

DECLARATIONS: list[tuple[str, str, Promise | str, dict[str, Any]]] = [
    ("inbound_shipment.arrived", "inbound_shipment", _("Inbound shipment arrived"), {}),
]


def register() -> None:
    """Called on start (AppConfig.ready)."""
    registry.register_events(FAMILIES, DECLARATIONS)
