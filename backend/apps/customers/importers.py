"""Import of customers from CSV/XLSX (the framework: apps/common/imports.py).

The optional contact columns add a contact, or update the customer's contact with the same e-mail
(without an e-mail: the same name); other contacts are kept.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext

from apps.common.imports import OMIT, Column, Importer, boolean, integer, upper
from apps.customers import services
from apps.customers.api.serializers import CustomerSerializer
from apps.customers.models import Customer

CONTACT_COLUMNS = {
    "contact_name": "name",
    "contact_role": "role",
    "contact_email": "email",
    "contact_phone": "phone",
}

CUSTOMER_COLUMNS = [
    Column("number", "Number", required=True, example="C-10001", aliases=("Customer number",)),
    Column("name", "Name", required=True, example="Hansen Møbler A/S"),
    Column("email", "E-mail", example="orders@hansen-mobler.example", aliases=("Email",)),
    Column("phone", "Phone", example="+45 33 12 34 56"),
    Column("vat_id", "VAT id", example="DK12345678", aliases=("VAT", "VAT number")),
    Column("visma_code", "Accounting code", example="10001", aliases=("Visma code",)),
    Column("currency", "Currency", parser=upper, empty=OMIT, example="EUR"),
    Column("payment_terms_days", "Payment terms (days)", parser=integer, empty=OMIT, example="30"),
    Column("billing_street", "Billing street", example="Vesterbrogade 12"),
    Column("billing_post_code", "Billing post code", example="1620"),
    Column("billing_city", "Billing city", example="København"),
    Column("billing_country", "Billing country", parser=upper, example="DK"),
    Column("delivery_street", "Delivery street", example="Industrivej 4"),
    Column("delivery_post_code", "Delivery post code", example="2600"),
    Column("delivery_city", "Delivery city", example="Glostrup"),
    Column("delivery_country", "Delivery country", parser=upper, example="DK"),
    Column("is_active", "Active", parser=boolean, empty=OMIT, example="yes"),
    Column("notes", "Notes", example="Delivery Mon-Fri 7-15"),
    Column("contact_name", "Contact name", empty=OMIT, example="Mette Hansen"),
    Column("contact_role", "Contact role", empty=OMIT, example="Purchasing"),
    Column("contact_email", "Contact e-mail", empty=OMIT, example="mette@hansen-mobler.example"),
    Column("contact_phone", "Contact phone", empty=OMIT, example="+45 20 11 22 33"),
]


class CustomerImporter(Importer):
    model = Customer
    serializer_class = CustomerSerializer
    natural_key = "number"
    columns = CUSTOMER_COLUMNS
    resource_name = "customers"

    def build_data(self, values, instance):
        data = {k: v for k, v in values.items() if k not in CONTACT_COLUMNS}
        contact = {CONTACT_COLUMNS[k]: v for k, v in values.items() if k in CONTACT_COLUMNS and v}
        return data, {"contact": contact}

    def validate_extra(self, extra, instance):
        contact = extra["contact"]
        errors = {}
        if contact and not contact.get("name"):
            errors["contact_name"] = gettext("A contact needs a name.")
        if contact.get("email"):
            try:
                validate_email(contact["email"])
            except ValidationError:
                errors["contact_email"] = gettext("Enter a valid email address.")
        return errors

    def save_row(self, serializer, *, created, extra):
        data = dict(serializer.validated_data)
        data.pop("contacts", None)
        if created:
            customer = services.customer_create(data=data)
        else:
            customer = services.customer_update(customer=serializer.instance, data=data)
        if extra["contact"]:
            services.customer_contact_upsert(customer=customer, contact=extra["contact"])
        return customer
