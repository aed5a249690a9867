"""The business events e-mail scenarios react to, defined in code (docs/notifications.md lists them).

An event has a name ("purchase_order.created"), a label, the record type it is about, the variables a
template and a condition may use (dotted names with a description), the contacts it can address by role
(the record's supplier, customer, parent vendor users...), the attachments it offers, and three
functions: `context(record, extra)` builds the variables (plain data: strings, numbers, dates; never a
model instance, so a template reaches nothing else), `contacts(record, role, match)` the addresses of a
role, `attachment(record, key, extra)` the bytes of an attachment.

The business code calls `apps.notifications.emit.emit(...)` after its write; the sales events only need
the sales models' names (`salesorders.SalesOrder`, `salesorders.Shipment`, `salesorders.Invoice`) and,
for their documents, `apps.salesorders.pdf.invoice_pdf(invoice) -> bytes` and
`delivery_note_pdf(shipment) -> bytes`.
"""

from __future__ import annotations

import importlib
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.files.storage import default_storage
from django.db.models import Model
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.tenancy.context import require_tenant_id

INTERNAL = "internal"
SUPPLIER = "supplier"


@dataclass(frozen=True)
class Recipient:
    email: str
    name: str = ""
    language: str = "en"
    # where the message's links lead: SUPPLIER (the supplier's side: the supplier, its parent vendor and
    # their portal users) gets the record's page in the supplier portal, everyone else the internal page
    audience: str = INTERNAL


@dataclass(frozen=True)
class Attachment:
    file_name: str
    content: bytes
    content_type: str


class AttachmentUnavailable(Exception):
    """The event offers the attachment but this record has none (yet)."""


@dataclass
class Event:
    name: str
    label: Promise | str
    model: str  # "app_label.ModelName"
    variables: dict[str, Promise | str]
    context: Callable[[Any, dict], dict]
    contacts: dict[str, Promise | str] = field(default_factory=dict)
    attachments: dict[str, Promise | str] = field(default_factory=dict)
    contacts_of: Callable[[Any, str, str], list[Recipient]] = lambda record, role, match: []
    attachment: Callable[[Any, str, dict], Attachment] = lambda record, key, extra: _no_attachment(
        record, key, extra
    )
    record_label: Callable[[Any], str] = str
    record_url: Callable[[Any], str] = lambda record: ""
    # the record's page in the supplier portal, for supplier recipients (None: the portal has none)
    supplier_url: Callable[[Any], str] | None = None
    uses_days: Promise | str | None = None  # "N days before/after ...": what the scenario's days mean
    select_related: tuple[str, ...] = ()
    # which records the preview offers (an invoice event previews on posted invoices, not drafts)
    preview_filter: dict[str, Any] = field(default_factory=dict)

    def model_class(self) -> type[Model] | None:
        try:
            return apps.get_model(self.model)
        except (LookupError, ValueError):
            return None

    @property
    def available(self) -> bool:
        return self.model_class() is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": str(self.label),
            "model": self.model,
            "available": self.available,
            "variables": [{"name": k, "description": str(v)} for k, v in self.variables.items()],
            "contacts": [{"role": k, "label": str(v)} for k, v in self.contacts.items()],
            "attachments": [{"key": k, "label": str(v)} for k, v in self.attachments.items()],
            "uses_days": str(self.uses_days) if self.uses_days else None,
        }


# -- shared pieces -------------------------------------------------------------------------------------

COMMON_VARIABLES: dict[str, Promise | str] = {
    "company.name": _("Your company's name"),
    "company.email": _("Your company's e-mail address"),
    "record.label": _("The record's number or name"),
    "record.url": _(
        "A link to the record in CartonTrace (for supplier recipients, its page in the supplier portal)"
    ),
    "today": _("Today's date"),
}


def _user_language(user) -> str:
    return "zh" if (getattr(user, "language", "") or "").lower().startswith("zh") else "en"


def _country_language(country: str) -> str:
    return "zh" if (country or "").upper() in ("CN", "TW", "HK") else "en"


def _user_name(user) -> str:
    if user is None:
        return ""
    return user.profile_name or user.name or user.get_full_name() or user.username


def _user_audience(user) -> str:
    return SUPPLIER if getattr(user, "is_supplier", False) else INTERNAL


def _user_recipients(users) -> list[Recipient]:
    return [Recipient(u.email, _user_name(u), _user_language(u), _user_audience(u)) for u in users if u.email]


def _tenant_users(**filters):
    from apps.users.models import User

    return (
        User.objects.filter(is_active=True, memberships__tenant_id=require_tenant_id(), **filters)
        .distinct()
        .order_by("pk")
    )


def _vendor_users(vendor_id: int | None) -> list[Recipient]:
    if not vendor_id:
        return []
    return _user_recipients(_tenant_users(is_supplier=True, parent_vendor_id=vendor_id))


def _vendor(vendor) -> list[Recipient]:
    if vendor is None or not vendor.email:
        return []
    return [
        Recipient(vendor.email, vendor.contact or vendor.name, _country_language(vendor.country), SUPPLIER)
    ]


def _supplier_contacts(supplier, match: str) -> list[Recipient]:
    found = []
    language = _country_language(supplier.country)
    if not match and supplier.email:
        found.append(Recipient(supplier.email, supplier.name, language, SUPPLIER))
    for contact in supplier.contacts or []:
        if not isinstance(contact, dict) or not contact.get("email"):
            continue
        if match and str(contact.get("role", "")).strip().lower() != match.strip().lower():
            continue
        found.append(Recipient(str(contact["email"]), str(contact.get("name", "")), language, SUPPLIER))
    return found


def _customer_contacts(customer, match: str, language: str) -> list[Recipient]:
    """The customer's own address (no match) or its contacts whose role equals `match` (e.g. "invoice");
    a match that finds no contact falls back to the customer's address."""
    if match:
        contacts = [
            Recipient(c.email, c.name, language)
            for c in customer.contacts.all()
            if c.email and c.role.strip().lower() == match.strip().lower()
        ]
        if contacts:
            return contacts
    return [Recipient(customer.email, customer.name, language)] if customer.email else []


def _owner(user) -> list[Recipient]:
    return _user_recipients([user]) if user is not None else []


def _company() -> dict[str, Any]:
    from apps.tenancy.models import Tenant

    tenant = Tenant.objects.filter(pk=require_tenant_id()).only("name", "legal_name", "email").first()
    if tenant is None:
        return {"name": "", "email": ""}
    return {"name": tenant.legal_name or tenant.name, "email": tenant.email}


def absolute_url(path: str) -> str:
    base = (getattr(settings, "PUBLIC_BASE_URL", "") or "").rstrip("/")
    return f"{base}{path}" if path else ""


def _date(value):
    return value.isoformat() if value else ""


def _label(choices, value) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value or "")


# -- purchasing ----------------------------------------------------------------------------------------

PO_VARIABLES = {
    "order.number": _("Purchase order number"),
    "order.date": _("Order date"),
    "order.status": _("Status code (open, on_hold, completed, cancelled)"),
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
    from apps.purchaseorders.models import PurchaseOrder

    vendor = order.supplier.parent_vendor
    return {
        "order": {
            "number": order.order_number,
            "date": _date(order.order_date),
            "status": order.status,
            "status_label": _label(PurchaseOrder.Status, order.status),
            "type": order.type,
            "total": order.total_amount,
            "currency": order.currency,
            "description": order.description,
            "promise_date": _date(order.promise_date),
        },
        "supplier": {"name": order.supplier.name, "number": order.supplier.number},
        "parent_vendor": {"name": vendor.name if vendor else "", "cname": vendor.cname if vendor else ""},
        "owner": {"name": _user_name(order.owner)},
        "previous_status": extra.get("previous_status", ""),
        "previous_status_label": _label(PurchaseOrder.Status, extra.get("previous_status", ""))
        if extra.get("previous_status")
        else "",
    }


def _po_contacts(order, role: str, match: str) -> list[Recipient]:
    if role == "supplier":
        return _supplier_contacts(order.supplier, match)
    if role == "parent_vendor":
        return _vendor(order.supplier.parent_vendor)
    if role == "parent_vendor_users":
        return _vendor_users(order.supplier.parent_vendor_id)
    if role == "owner":
        return _owner(order.owner)
    return []


# -- raw materials -------------------------------------------------------------------------------------

RM_VARIABLES = {
    "delivery.number": _("Delivery number"),
    "delivery.status": _("Status code (draft, active, inactive, expired)"),
    "delivery.status_label": _("Status, in words"),
    "delivery.country": _("Country of harvest"),
    "delivery.forest_supplier": _("Forest supplier"),
    "delivery.fm_certificate_number": _("FM certificate number"),
    "delivery.fm_certificate_expiry": _("FM certificate expiry date"),
    "delivery.coc_certificate_number": _("COC certificate number"),
    "delivery.coc_certificate_expiry": _("COC certificate expiry date"),
    "delivery.certificate_expiry": _("The earlier of the two certificate expiry dates"),
    "delivery.days_to_expiry": _("Days until the certificate expires (negative: expired)"),
    "delivery.allowed_carton_cap": _("Allowed carton cap"),
    "delivery.approved_over_cap": _("Cartons approved over the cap"),
    "delivery.issued_cartons": _("Cartons issued"),
    "delivery.dds_reference_number": _("DDS reference number"),
    "parent_vendor.name": _("Parent vendor name"),
    "parent_vendor.cname": _("Parent vendor's Chinese name"),
}
RM_CONTACTS = {
    "parent_vendor": _("The parent vendor's e-mail address"),
    "parent_vendor_users": _("The parent vendor's users (supplier portal)"),
    "created_by": _("The user who entered the delivery"),
}


def _rm_context(delivery, extra: dict) -> dict[str, Any]:
    from apps.eudr.models import RawMaterialDelivery

    expiry = delivery.certificate_expiry
    vendor = delivery.parent_vendor
    return {
        "delivery": {
            "number": delivery.delivery_number or f"#{delivery.pk}",
            "status": delivery.status,
            "status_label": _label(RawMaterialDelivery.Status, delivery.status),
            "country": delivery.country_name or delivery.country_code,
            "forest_supplier": delivery.forest_supplier_name,
            "fm_certificate_number": delivery.fm_certificate_number,
            "fm_certificate_expiry": _date(delivery.fm_certificate_expiry),
            "coc_certificate_number": delivery.coc_certificate_number,
            "coc_certificate_expiry": _date(delivery.coc_certificate_expiry),
            "certificate_expiry": _date(expiry),
            "days_to_expiry": (expiry - timezone.localdate()).days if expiry else None,
            "allowed_carton_cap": delivery.allowed_carton_cap,
            "approved_over_cap": delivery.approved_over_cap,
            "issued_cartons": delivery.issued_cartons,
            "dds_reference_number": delivery.dds_reference_number,
        },
        "parent_vendor": {"name": vendor.name if vendor else "", "cname": vendor.cname if vendor else ""},
    }


def _rm_contacts(delivery, role: str, match: str) -> list[Recipient]:
    if role == "parent_vendor":
        return _vendor(delivery.parent_vendor)
    if role == "parent_vendor_users":
        return _vendor_users(delivery.parent_vendor_id)
    if role == "created_by":
        return _owner(delivery.created_by)
    return []


def _rm_label(delivery) -> str:
    return delivery.delivery_number or f"#{delivery.pk}"


def _rm_url(delivery) -> str:
    return f"/purchase/eudr/raw-materials/{delivery.pk}"


def _package_bytes(extra: dict) -> bytes:
    path = extra.get("package_path") or ""
    if not path or not default_storage.exists(path):
        raise AttachmentUnavailable("the DDS package is no longer stored")
    with default_storage.open(path, "rb") as handle:
        return handle.read()


def _dds_attachment(delivery, key: str, extra: dict) -> Attachment:
    package = _package_bytes(extra)
    number = (delivery.delivery_number or str(delivery.pk)).replace("/", "-")
    if key == "dds_package":
        return Attachment(extra.get("file_name") or f"DDS-{number}.zip", package, "application/zip")
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return Attachment(f"DDS-summary-{number}.pdf", archive.read("summary.pdf"), "application/pdf")


# -- inbound shipments (logistics) ---------------------------------------------------------------------

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
            "etd": _date(shipment.etd),
            "eta": _date(shipment.eta),
            "carrier": shipment.shipment_company.name if shipment.shipment_company_id else "",
            "purchase_orders": ", ".join(o.order_number for o in _inbound_orders(shipment)),
        }
    }


def _inbound_contacts(shipment, role: str, match: str) -> list[Recipient]:
    if role == "shipment_company":
        company = shipment.shipment_company
        return (
            [Recipient(company.email, company.contact_name or company.name)]
            if company and company.email
            else []
        )
    orders = _inbound_orders(shipment)
    if role == "order_owners":
        return _user_recipients(o.owner for o in orders if o.owner is not None)
    if role == "parent_vendors":
        return [r for o in orders for r in _vendor(o.supplier.parent_vendor)]
    return []


# -- sales (models salesorders.SalesOrder, salesorders.Shipment, salesorders.Invoice) --------------------

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
        "date": _date(order.order_date),
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
        "owner": {"name": _user_name(order.owner)},
    }


def _sales_contacts(order, customer, language: str, role: str, match: str) -> list[Recipient]:
    if role == "customer":
        return _customer_contacts(customer, match, language)
    if role == "owner":
        return _owner(order.owner)
    return []


def _so_contacts(order, role: str, match: str) -> list[Recipient]:
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
        "shipped_at": _date(getattr(shipment, "shipped_at", None)),
        "carrier": getattr(shipment, "carrier", ""),
        "tracking_number": getattr(shipment, "tracking_number", ""),
    }
    return context


def _so_shipment_contacts(shipment, role: str, match: str) -> list[Recipient]:
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
            "issue_date": _date(getattr(invoice, "issue_date", None)),
            "due_date": _date(due),
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


def _invoice_contacts(invoice, role: str, match: str) -> list[Recipient]:
    return _sales_contacts(
        invoice.sales_order, invoice.customer, getattr(invoice, "language", "en"), role, match
    )


def _sales_document(function: str, record, file_name: str) -> Attachment:
    """A PDF the sales area draws: `apps.salesorders.pdf.<function>(record) -> bytes`."""
    try:
        module = importlib.import_module("apps.salesorders.pdf")
        draw = getattr(module, function)
    except (ImportError, AttributeError) as exc:
        raise AttachmentUnavailable(f"apps.salesorders.pdf.{function} is not available") from exc
    return Attachment(file_name, bytes(draw(record)), "application/pdf")


def _invoice_attachment(invoice, key: str, extra: dict) -> Attachment:
    if key in ("invoice_ubl", "invoice_facturx"):
        return _sales_einvoice(invoice, key)
    return _sales_document("invoice_pdf", invoice, f"{invoice.number or invoice.pk}.pdf")


def _sales_einvoice(invoice, key: str) -> Attachment:
    """The checked e-invoice file the sales area issues (`apps.salesorders.einvoice.attachment`); one it
    refuses (a draft, a broken rule) is unavailable, with the refusal's message."""
    from apps.common.exceptions import DomainError

    try:
        module = importlib.import_module("apps.salesorders.einvoice")
        file_name, content, content_type = module.attachment(invoice, key)
    except (ImportError, AttributeError) as exc:
        raise AttachmentUnavailable("apps.salesorders.einvoice.attachment is not available") from exc
    except DomainError as exc:
        raise AttachmentUnavailable(str(exc.message)) from exc
    return Attachment(file_name, content, content_type)


def _shipment_attachment(shipment, key: str, extra: dict) -> Attachment:
    return _sales_document("delivery_note_pdf", shipment, f"delivery-note-{shipment.shipment_number}.pdf")


# -- the registry --------------------------------------------------------------------------------------


def _no_attachment(record, key: str, extra: dict) -> Attachment:
    raise AttachmentUnavailable(key)


# What the events about one kind of record share: the model, its variables and how to build them, the
# contacts, the record's label and links (internal, and in the supplier portal), what to load with it.
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
    },
    "raw_material": {
        "model": "eudr.RawMaterialDelivery",
        "variables": RM_VARIABLES,
        "context": _rm_context,
        "contacts": RM_CONTACTS,
        "contacts_of": _rm_contacts,
        "record_label": _rm_label,
        "record_url": _rm_url,
        "supplier_url": lambda d: f"/supplier/raw-materials/{d.pk}",
        "select_related": ("parent_vendor", "created_by"),
    },
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
        "attachment": _shipment_attachment,
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
        "attachment": _invoice_attachment,
        "record_url": lambda i: f"/sales/invoices/{i.pk}",
        "select_related": ("customer", "sales_order__owner"),
        "preview_filter": {"status": "posted"},
    },
}

# The events: name, family, label, and what differs from the family. `from_extra` adds variables
# whose values the emitting code passes in `extra`: (variable, description, key in extra).
DECLARATIONS: list[tuple[str, str, Promise | str, dict[str, Any]]] = [
    ("purchase_order.created", "purchase_order", _("Purchase order created"), {}),
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
    ("raw_material.submitted", "raw_material", _("Raw-material delivery submitted"), {}),
    (
        "raw_material.expiring",
        "raw_material",
        _("Raw-material certificate expiring"),
        {"uses_days": _("days before the certificate's expiry date")},
    ),
    ("raw_material.expired", "raw_material", _("Raw-material delivery expired"), {}),
    (
        "cartons.over_cap",
        "raw_material",
        _("Cartons over the cap: approval needed"),
        {
            "from_extra": [
                ("request.cartons", _("Cartons requested"), "requested"),
                ("request.max_cartons", _("Cartons still allowed under the cap"), "max_cartons"),
                ("request.user", _("Who asked"), "user"),
            ]
        },
    ),
    (
        "cartons.over_cap_approved",
        "raw_material",
        _("Cartons over the cap approved"),
        {
            "from_extra": [
                ("approval.extra_cartons", _("Cartons approved"), "extra_cartons"),
                ("approval.reason", _("Reason"), "reason"),
                ("approval.approved_by", _("Approved by"), "approved_by"),
            ]
        },
    ),
    (
        "eudr.dds_package_ready",
        "raw_material",
        _("DDS package ready"),
        {
            "from_extra": [("package.file_name", _("The package's file name"), "file_name")],
            "attachments": {"dds_summary": _("DDS summary (PDF)"), "dds_package": _("DDS package (ZIP)")},
            "attachment": _dds_attachment,
        },
    ),
    ("inbound_shipment.arrived", "inbound_shipment", _("Inbound shipment arrived"), {}),
    ("sales_order.confirmed", "sales_order", _("Sales order confirmed"), {}),
    ("sales_shipment.shipped", "sales_shipment", _("Shipment shipped"), {}),
    ("invoice.posted", "invoice", _("Invoice posted"), {}),
    ("invoice.overdue", "invoice", _("Invoice overdue"), {"uses_days": _("days after the due date")}),
]


def _with_extra(context: Callable[[Any, dict], dict], from_extra) -> Callable[[Any, dict], dict]:
    """The family's variables plus the ones taken from `extra` ("" when the emitter left one out)."""

    def build(record, extra: dict) -> dict[str, Any]:
        values = context(record, extra)
        for variable, _description, key in from_extra:
            group, _dot, name = variable.partition(".")
            values.setdefault(group, {})[name] = extra.get(key, "")
        return values

    return build


def _declare(name: str, family: str, label: Promise | str, changes: dict[str, Any]) -> Event:
    fields = {**FAMILIES[family], **changes}
    from_extra = fields.pop("from_extra", [])
    fields["variables"] = {
        **FAMILIES[family]["variables"],
        **changes.get("variables", {}),
        **{variable: description for variable, description, _key in from_extra},
        **COMMON_VARIABLES,
    }
    if from_extra:
        fields["context"] = _with_extra(fields["context"], from_extra)
    return Event(name=name, label=label, **fields)


EVENTS: dict[str, Event] = {name: _declare(name, *rest) for name, *rest in DECLARATIONS}


def get_event(name: str) -> Event | None:
    return EVENTS.get(name)


def build_context(event: Event, record, extra: dict | None = None) -> dict[str, Any]:
    """The variables of one occurrence: the event's own plus the common ones."""
    extra = extra or {}
    context = event.context(record, extra)
    path = event.record_url(record)
    context["company"] = _company()
    context["record"] = {"label": event.record_label(record), "url": absolute_url(path)}
    context["today"] = timezone.localdate().isoformat()
    return context


def context_for(event: Event, record, context: dict[str, Any], audience: str) -> dict[str, Any]:
    """The occurrence's variables as one audience sees them: supplier recipients get `record.url` in the
    supplier portal (the internal page would answer them with the forbidden page), or no link where the
    portal has no page for the record."""
    if audience != SUPPLIER:
        return context
    path = event.supplier_url(record) if event.supplier_url else ""
    return {**context, "record": {**context["record"], "url": absolute_url(path)}}


def contacts(event: Event, record, role: str, match: str = "") -> list[Recipient]:
    return event.contacts_of(record, role, match)


def attachment(event: Event, record, key: str, extra: dict | None = None) -> Attachment:
    return event.attachment(record, key, extra or {})


def load_record(event: Event, pk: int):
    model = event.model_class()
    if model is None:
        return None
    return model.objects.select_related(*event.select_related).filter(pk=pk).first()


def demo_records(event: Event, *, limit: int = 20):
    """The latest records of the event's type in the current tenant that the event can be about (posted
    invoices, shipped shipments...): the preview picks one."""
    model = event.model_class()
    if model is None:
        return []
    records = model.objects.select_related(*event.select_related).filter(**event.preview_filter)
    return list(records.order_by("-pk")[:limit])
