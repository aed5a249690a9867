"""The default roles every tenant starts with: name -> permission patterns ("app.codename", "*" wildcards).

Patterns let a new model's permissions join the right roles without editing this list (e.g. "eudr.view_*").
"""

from __future__ import annotations

from fnmatch import fnmatch

from django.contrib.auth.models import Permission
from django.db import transaction

from apps.users.models import Role

PRODUCT_APPS = (
    "tenancy",
    "users",
    "common",
    "products",
    "customers",
    "suppliers",
    "purchaseorders",
    "salesorders",
    "logistics",
    "inventory",
    "eudr",
    "duediligence",
    "printing",
    "notifications",
    "reports",
    "accounting",
)

DEFAULT_ROLES: dict[str, dict] = {
    "Administrator": {
        "description": "Everything, including users and roles.",
        "patterns": [f"{app}.*" for app in PRODUCT_APPS],
    },
    "Sales": {
        "description": "Sales orders, shipments, invoices, deliveries and customers; reads products.",
        "patterns": [
            "salesorders.*",
            "customers.*",
            "products.view_*",
            "products.see_prices",
            "logistics.view_*",
            "inventory.view_*",
            "common.*",
            "reports.*",
        ],
        # the company's Peppol access point (endpoint and API key) is set by its administrator
        "exclude": ["salesorders.*_peppolsettings"],
    },
    "Purchasing": {
        "description": "Purchase orders, receipts, suppliers, shipments and EUDR traceability.",
        "patterns": [
            "purchaseorders.*",
            "suppliers.*",
            "logistics.*",
            "eudr.*",
            "duediligence.view_*",
            "duediligence.add_*",
            "duediligence.change_*",
            "products.*",
            "inventory.view_*",
            "common.*",
            "printing.view_*",
            "printing.add_printjob",
            "reports.*",
        ],
    },
    "Warehouse": {
        # No prices: "products.view_*" does not match "products.see_prices" (apps/common/prices.py).
        "description": "Inventory, inbound shipments and deliveries.",
        "patterns": [
            "inventory.*",
            "logistics.view_*",
            "logistics.change_*",
            "logistics.add_dispatch",
            "salesorders.view_*",
            "salesorders.pick_shipment",
            "purchaseorders.view_*",
            "purchaseorders.add_*receipt*",
            "products.view_*",
            "common.*",
            "printing.view_*",
            "printing.add_printjob",
        ],
        "exclude": ["salesorders.*_peppolsettings"],
    },
    "Supplier": {
        "description": "Supplier portal: own purchase orders (read), raw-material deliveries and carton labels.",
        "patterns": [
            "purchaseorders.view_*",
            "suppliers.view_*",
            "products.view_product",
            "products.see_prices",  # the prices of its own orders (product prices stay hidden from it)
            "eudr.*",
            "common.*",
            "logistics.view_shipmentinfo",
            "printing.view_printerdevice",
            "printing.view_printjob",
            "printing.add_printjob",
        ],
        "exclude": ["eudr.*policy*", "eudr.approve_*"],
    },
}


def permissions_for(patterns: list[str], exclude: list[str] | None = None) -> list[Permission]:
    exclude = exclude or []
    result = []
    for perm in Permission.objects.select_related("content_type"):
        label = f"{perm.content_type.app_label}.{perm.codename}"
        if any(fnmatch(label, p) for p in patterns) and not any(fnmatch(label, p) for p in exclude):
            result.append(perm)
    return result


@transaction.atomic
def roles_ensure_defaults() -> dict[str, Role]:
    """Creates (or refreshes the permissions of) the default roles in the current tenant."""
    roles = {}
    for name, spec in DEFAULT_ROLES.items():
        role, _ = Role.objects.get_or_create(name=name, defaults={"description": spec["description"]})
        role.permissions.set(permissions_for(spec["patterns"], spec.get("exclude")))
        roles[name] = role
    return roles
