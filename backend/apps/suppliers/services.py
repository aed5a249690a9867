"""Writes on parent vendors and suppliers that have rules beyond one row's fields.

Deleting master data that other records still refer to is refused with a 409 and a sentence saying
what refers to it (the general PROTECT translation in the exception handler is the safety net).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import FieldErrors
from apps.suppliers.errors import ParentVendorInUse, SupplierInUse
from apps.suppliers.models import ParentVendor, Supplier


def _save_unique(instance, *, field: str, message) -> None:
    """Saves in a savepoint; a unique clash that slipped past validation (a race) becomes a field error."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as exc:
        raise FieldErrors.on(field, message) from exc


def _to_accounting(record, level: str) -> None:
    """A created or changed supplier / parent vendor is queued for the accounting system when the company
    pushes suppliers at this level (docs/accounting.md); an unchanged save queues nothing. Accounting
    listens to `supplier_saved` (it reads suppliers; they do not import it)."""
    from apps.common.signals import supplier_saved

    supplier_saved.send(sender=type(record), record=record, level=level)


@transaction.atomic
def parent_vendor_save(*, vendor: ParentVendor, data: dict[str, Any]) -> ParentVendor:
    """Creates or updates a parent vendor from validated data (names and codes unique in the tenant)."""
    for key, value in data.items():
        setattr(vendor, key, value)
    _save_unique(vendor, field="name", message=_("A parent vendor with this name or code already exists."))
    _to_accounting(vendor, "parent_vendor")
    return vendor


@transaction.atomic
def parent_vendor_delete(*, vendor: ParentVendor) -> None:
    """Deletes a parent vendor that has neither suppliers nor supplier users."""
    vendor = ParentVendor.objects.select_for_update().get(pk=vendor.pk)
    suppliers = vendor.suppliers.count()
    users = vendor.users.count()
    if suppliers or users:
        raise ParentVendorInUse(
            _(
                "This parent vendor cannot be deleted: %(suppliers)d supplier(s) and %(users)d user(s) "
                "belong to it. Move or delete them first, or deactivate the vendor."
            )
            % {"suppliers": suppliers, "users": users}
        )
    vendor.delete()


@transaction.atomic
def supplier_save(*, supplier: Supplier, data: dict[str, Any]) -> Supplier:
    """Creates or updates a supplier from validated data (the number is unique in the tenant)."""
    for key, value in data.items():
        setattr(supplier, key, value)
    _save_unique(supplier, field="number", message=_("A supplier with this number already exists."))
    _to_accounting(supplier, "supplier")
    return supplier


@transaction.atomic
def supplier_delete(*, supplier: Supplier) -> None:
    """Deletes a supplier without purchase orders; one with orders can only be deactivated."""
    supplier = Supplier.objects.select_for_update().get(pk=supplier.pk)
    orders = supplier.purchase_orders.count()
    if orders:
        raise SupplierInUse(
            _(
                "This supplier cannot be deleted: %(orders)d purchase order(s) refer to it. "
                "Deactivate it instead."
            )
            % {"orders": orders}
        )
    supplier.delete()
