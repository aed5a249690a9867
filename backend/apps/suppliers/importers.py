"""CSV/XLSX import of parent vendors and suppliers (the framework: apps/common/imports.py).

Rows are validated by the API serializers, so a file row obeys exactly the rules of the forms. A
supplier row may carry one contact (name, e-mail, phone): it becomes the supplier's first contact, and
other contacts already on the supplier are kept.
"""

from __future__ import annotations

from typing import Any

from apps.common.imports import OMIT, Column, Importer, boolean, lookup, upper
from apps.suppliers.api.serializers import ParentVendorSerializer, SupplierSerializer
from apps.suppliers.models import ParentVendor, Supplier

CONTACT_FIELDS = {"contact_name": "name", "contact_email": "email", "contact_phone": "phone"}


class ParentVendorImporter(Importer):
    model = ParentVendor
    serializer_class = ParentVendorSerializer
    natural_key = "name"
    resource_name = "parent-vendors"
    columns = [
        Column("name", "Name", required=True, example="Shanghai Evergreen Packaging"),
        Column("cname", "Chinese name", example="上海常青包装", aliases=("cname",)),
        Column("code", "Code", parser=upper, example="PV-SEP"),
        Column("contact", "Contact", example="Li Wei"),
        Column("email", "E-mail", example="sales@evergreen-pack.example", aliases=("email",)),
        Column("phone", "Phone", example="+86 21 5888 1200"),
        Column("country", "Country", parser=upper, example="CN"),
        Column("is_active", "Active", parser=boolean, empty=OMIT, example="yes"),
    ]


class SupplierImporter(Importer):
    model = Supplier
    serializer_class = SupplierSerializer
    natural_key = "number"
    resource_name = "suppliers"
    columns = [
        Column("number", "Number", required=True, example="S-1001"),
        Column("name", "Name", required=True, example="Evergreen Carton Factory No.1"),
        Column(
            "parent_vendor",
            "Parent vendor",
            required=True,
            parser=lookup(ParentVendor, "code", "name"),
            empty=None,
            example="PV-SEP",
            aliases=("parent vendor code",),
        ),
        Column("country", "Country", parser=upper, example="CN"),
        Column("address", "Address", example="1288 Jiangchang Road, Shanghai"),
        Column("email", "E-mail", example="orders@evergreen-pack.example", aliases=("email",)),
        Column("phone", "Phone", example="+86 21 5888 1201"),
        Column("contact_name", "Contact name", example="Li Wei"),
        Column(
            "contact_email",
            "Contact e-mail",
            example="li.wei@evergreen-pack.example",
            aliases=("contact email",),
        ),
        Column("contact_phone", "Contact phone", example="+86 138 0013 8000"),
        Column("visma_code", "Accounting code", example="70101", aliases=("visma code", "visma_code")),
        Column("payment_terms", "Payment terms", example="60 days net"),
        Column("currency", "Currency", parser=upper, empty=OMIT, example="USD"),
        Column("is_active", "Active", parser=boolean, empty=OMIT, example="yes"),
        Column("notes", "Notes", example="FSC Mix certified"),
    ]

    def build_data(self, values: dict[str, Any], instance: Supplier | None) -> tuple[dict[str, Any], dict]:
        data = {key: value for key, value in values.items() if key not in CONTACT_FIELDS}
        contact = {CONTACT_FIELDS[key]: value for key, value in values.items() if key in CONTACT_FIELDS}
        if any(contact.values()):
            others = list(instance.contacts[1:]) if instance is not None and instance.contacts else []
            data["contacts"] = [{"role": "", "email": "", "phone": "", **contact}, *others]
        return data, {}
