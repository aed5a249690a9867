"""The registry of the business events e-mail scenarios react to (docs/notifications.md lists them).

An event has a name ("purchase_order.sent"), a label, the record type it is about, the variables a
template and a condition may use (dotted names with a description), the contacts it can address by role
(the record's supplier, customer, parent vendor users...), the documents it can attach, and the functions
`context(record, extra)` that builds the variables (plain data: strings, numbers, dates; never a model
instance, so a template reaches nothing else) and `contacts_of(record, role, match)` that finds the
addresses of a role.

Each area declares its own events in `apps/<area>/events.py` and registers them on start, from its
`AppConfig.ready`: `register_events(families, declarations)` for the events, `register_document(model, key,
build)` for the documents (PDFs, packages) its events attach. This module imports no area: it holds the
registry, the pieces events share (recipients, the company, links) and what the sending reads from an
event. The business code calls `apps.notifications.emit.emit(...)` after its write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db.models import Model
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.common.dates import day_text
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
    record_label: Callable[[Any], str] = str
    record_url: Callable[[Any], str] = lambda record: ""
    # the record's page in the supplier portal, for supplier recipients (None: the portal has none)
    supplier_url: Callable[[Any], str] | None = None
    uses_days: Promise | str | None = None  # "N days before/after ...": what the scenario's days mean
    select_related: tuple[str, ...] = ()
    # which records the preview offers (an invoice event previews on posted invoices, not drafts)
    preview_filter: dict[str, Any] = field(default_factory=dict)
    # a date-driven event (emitted once a day, notifications/daily.py): (the scenario's days, the day) ->
    # (the records it is about that day, the date that keys the occurrence)
    due: Callable[[int, date], tuple[Any, date]] | None = None

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


# -- shared pieces (for the areas' events.py) --------------------------------------------------------------------------------

COMMON_VARIABLES: dict[str, Promise | str] = {
    "company.name": _("Your company's name"),
    "company.email": _("Your company's e-mail address"),
    "record.label": _("The record's number or name"),
    "record.url": _(
        "A link to the record in CartonTrace (for supplier recipients, its page in the supplier portal)"
    ),
    "today": _("Today's date"),
}


def user_language(user) -> str:
    return "zh" if (getattr(user, "language", "") or "").lower().startswith("zh") else "en"


def country_language(country: str) -> str:
    return "zh" if (country or "").upper() in ("CN", "TW", "HK") else "en"


def user_name(user) -> str:
    if user is None:
        return ""
    return user.profile_name or user.name or user.get_full_name() or user.username


def user_audience(user) -> str:
    return SUPPLIER if getattr(user, "is_supplier", False) else INTERNAL


def user_recipients(users) -> list[Recipient]:
    return [Recipient(u.email, user_name(u), user_language(u), user_audience(u)) for u in users if u.email]


def tenant_users(**filters):
    from apps.users.models import User

    return (
        User.objects.filter(is_active=True, memberships__tenant_id=require_tenant_id(), **filters)
        .distinct()
        .order_by("pk")
    )


def vendor_users(vendor_id: int | None) -> list[Recipient]:
    if not vendor_id:
        return []
    return user_recipients(tenant_users(is_supplier=True, parent_vendor_id=vendor_id))


def vendor_recipients(vendor) -> list[Recipient]:
    if vendor is None or not vendor.email:
        return []
    return [
        Recipient(vendor.email, vendor.contact or vendor.name, country_language(vendor.country), SUPPLIER)
    ]


def supplier_contacts(supplier, match: str) -> list[Recipient]:
    found = []
    language = country_language(supplier.country)
    if not match and supplier.email:
        found.append(Recipient(supplier.email, supplier.name, language, SUPPLIER))
    for contact in supplier.contacts or []:
        if not isinstance(contact, dict) or not contact.get("email"):
            continue
        if match and str(contact.get("role", "")).strip().lower() != match.strip().lower():
            continue
        found.append(Recipient(str(contact["email"]), str(contact.get("name", "")), language, SUPPLIER))
    return found


def customer_contacts(customer, match: str, language: str) -> list[Recipient]:
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


def owner_recipients(user) -> list[Recipient]:
    return user_recipients([user]) if user is not None else []


def company() -> dict[str, Any]:
    from apps.tenancy.models import Tenant

    tenant = Tenant.objects.filter(pk=require_tenant_id()).only("name", "legal_name", "email").first()
    if tenant is None:
        return {"name": "", "email": ""}
    return {"name": tenant.legal_name or tenant.name, "email": tenant.email}


def absolute_url(path: str) -> str:
    base = (getattr(settings, "PUBLIC_BASE_URL", "") or "").rstrip("/")
    return f"{base}{path}" if path else ""


# the name notifications/services.py and its tests know the function by
_user_recipients = user_recipients


class Day(str):
    """A date among an occurrence's variables. As a value it is ISO 8601 text ("2026-11-26"; a moment:
    "2026-11-26T18:05:00+01:00"), which conditions compare, the preview lists and keys use; a message
    prints it as people read it, in the message's language ("26 Nov 2026", "2026年11月26日"):
    `days_as_read`."""

    day: date

    def __new__(cls, value: date) -> Day:
        text = super().__new__(cls, value.isoformat())
        text.day = timezone.localtime(value).date() if isinstance(value, datetime) else value
        return text


def date_text(value) -> str:
    return Day(value) if value else ""


def days_as_read(values: Any, language: str) -> Any:
    """The variables with every date (`Day`) as people read it in `language`, for rendering a message."""
    if isinstance(values, Day):
        return day_text(values.day, language)
    if isinstance(values, dict):
        return {key: days_as_read(value, language) for key, value in values.items()}
    if isinstance(values, list):
        return [days_as_read(value, language) for value in values]
    return values


def choice_label(choices, value) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value or "")


# -- the registry --------------------------------------------------------------------------------------


def _with_extra(context: Callable[[Any, dict], dict], from_extra) -> Callable[[Any, dict], dict]:
    """The family's variables plus the ones taken from `extra` ("" when the emitter left one out)."""

    def build(record, extra: dict) -> dict[str, Any]:
        values = context(record, extra)
        for variable, _description, key in from_extra:
            group, _dot, name = variable.partition(".")
            values.setdefault(group, {})[name] = extra.get(key, "")
        return values

    return build


def _declare(
    families: dict[str, dict[str, Any]], name: str, family: str, label: Promise | str, changes: dict[str, Any]
) -> Event:
    fields = {**families[family], **changes}
    from_extra = fields.pop("from_extra", [])
    fields["variables"] = {
        **families[family]["variables"],
        **changes.get("variables", {}),
        **{variable: description for variable, description, _key in from_extra},
        **COMMON_VARIABLES,
    }
    if from_extra:
        fields["context"] = _with_extra(fields["context"], from_extra)
    return Event(name=name, label=label, **fields)


# Every area's events, in the order the areas start (INSTALLED_APPS), and the documents they attach.
EVENTS: dict[str, Event] = {}
Document = Callable[[Any, dict], Attachment]
DOCUMENTS: dict[tuple[str, str], Document] = {}


def register_events(
    families: dict[str, dict[str, Any]], declarations: list[tuple[str, str, Promise | str, dict[str, Any]]]
) -> None:
    """An area's events. `families` holds what the events about one kind of record share: the model
    ("app_label.ModelName"), its variables and the `context` that builds them, the contacts and
    `contacts_of`, the documents it can attach (`attachments`: key -> label), the record's label and links
    (`record_label`, `record_url`, `supplier_url`), what to load with it (`select_related`) and which
    records the preview offers (`preview_filter`). `declarations` are the events: (name, family, label,
    what differs from the family); `from_extra` there adds variables whose values the emitting code passes
    in `extra`: (variable, description, key in extra)."""
    for name, family, label, changes in declarations:
        EVENTS[name] = _declare(families, name, family, label, changes)


def register_document(model: str, key: str, build: Document) -> None:
    """A document the events about `model` ("app_label.ModelName") attach under `key`: `build(record,
    extra) -> Attachment`, or AttachmentUnavailable when this record has none (yet)."""
    DOCUMENTS[(model, key)] = build


def get_event(name: str) -> Event | None:
    return EVENTS.get(name)


def build_context(event: Event, record, extra: dict | None = None) -> dict[str, Any]:
    """The variables of one occurrence: the event's own plus the common ones."""
    extra = extra or {}
    context = event.context(record, extra)
    path = event.record_url(record)
    context["company"] = company()
    context["record"] = {"label": event.record_label(record), "url": absolute_url(path)}
    context["today"] = Day(timezone.localdate())
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
    build = DOCUMENTS.get((event.model, key)) if key in event.attachments else None
    if build is None:
        raise AttachmentUnavailable(key)
    return build(record, extra or {})


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
