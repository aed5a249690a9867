"""Writes of customers and their contacts (each atomic; uniqueness of the number per tenant)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext_lazy as _

from apps.customers.errors import CustomerInUse
from apps.customers.models import Customer, CustomerContact

CUSTOMER_NUMBER_TAKEN = _("A customer with this number already exists.")
CONTACT_FIELDS = ("name", "role", "email", "phone")


def _save(customer: Customer) -> None:
    try:
        with transaction.atomic():
            customer.save()
    except IntegrityError as exc:
        raise ValidationError({"number": [CUSTOMER_NUMBER_TAKEN]}) from exc


def _replace_contacts(customer: Customer, contacts: list[dict[str, Any]]) -> None:
    """The customer's contacts become exactly `contacts` (in that order); given ids are kept."""
    current = {c.pk: c for c in CustomerContact.objects.select_for_update().filter(customer=customer)}
    keep: set[int] = set()
    for position, item in enumerate(contacts):
        contact = current.get(item.get("id")) if item.get("id") else None
        if contact is None:
            contact = CustomerContact(customer=customer)
        for name in CONTACT_FIELDS:
            setattr(contact, name, item.get(name, "") or "")
        contact.position = position
        contact.save()
        keep.add(contact.pk)
    stale = [pk for pk in current if pk not in keep]
    if stale:
        CustomerContact.objects.filter(pk__in=stale).delete()


@transaction.atomic
def customer_create(*, data: dict[str, Any], contacts: list[dict[str, Any]] | None = None) -> Customer:
    """Creates a customer with its contacts. Without `payment_terms_days` it gets the company's default
    payment terms (company settings)."""
    if data.get("payment_terms_days") is None:
        from apps.tenancy.selectors import company_payment_terms_days

        data = {**data, "payment_terms_days": company_payment_terms_days()}
    customer = Customer(**data)
    _save(customer)
    if contacts:
        _replace_contacts(customer, contacts)
    return customer


@transaction.atomic
def customer_update(
    *, customer: Customer, data: dict[str, Any], contacts: list[dict[str, Any]] | None = None
) -> Customer:
    """Changes a customer; `contacts` (when given) replaces its contact list, keeping known ids."""
    customer = Customer.objects.select_for_update().get(pk=customer.pk)
    for name, value in data.items():
        setattr(customer, name, value)
    _save(customer)
    if contacts is not None:
        _replace_contacts(customer, contacts)
    return customer


@transaction.atomic
def customer_contact_upsert(*, customer: Customer, contact: dict[str, Any]) -> CustomerContact:
    """Adds a contact, or updates the one with the same e-mail (or, without e-mail, the same name)."""
    existing = CustomerContact.objects.select_for_update().filter(customer=customer)
    if contact.get("email"):
        match = existing.filter(email__iexact=contact["email"]).first()
    else:
        match = existing.filter(name__iexact=contact.get("name", "")).first()
    if match is None:
        last = existing.order_by("-position").values_list("position", flat=True).first()
        match = CustomerContact(customer=customer, position=0 if last is None else last + 1)
    for name in CONTACT_FIELDS:
        if contact.get(name):
            setattr(match, name, contact[name])
    match.save()
    return match


@transaction.atomic
def customer_delete(*, customer: Customer) -> None:
    """Deletes a customer no order refers to; one with orders must be deactivated instead."""
    try:
        with transaction.atomic():
            customer.delete()
    except ProtectedError as exc:
        raise CustomerInUse() from exc
