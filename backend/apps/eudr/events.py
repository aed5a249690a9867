"""The raw-material (EUDR) events e-mail scenarios react to and the DDS documents they attach (registered on
start by EudrConfig.ready)."""

from __future__ import annotations

import io
import zipfile
from datetime import date, timedelta
from typing import Any

from django.core.files.storage import default_storage
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.eudr.models import RawMaterialDelivery
from apps.notifications import events as registry

MODEL = "eudr.RawMaterialDelivery"
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
    expiry = delivery.certificate_expiry
    vendor = delivery.parent_vendor
    return {
        "delivery": {
            "number": delivery.delivery_number or f"#{delivery.pk}",
            "status": delivery.status,
            "status_label": registry.choice_label(RawMaterialDelivery.Status, delivery.status),
            "country": delivery.country_name or delivery.country_code,
            "forest_supplier": delivery.forest_supplier_name,
            "fm_certificate_number": delivery.fm_certificate_number,
            "fm_certificate_expiry": registry.date_text(delivery.fm_certificate_expiry),
            "coc_certificate_number": delivery.coc_certificate_number,
            "coc_certificate_expiry": registry.date_text(delivery.coc_certificate_expiry),
            "certificate_expiry": registry.date_text(expiry),
            "days_to_expiry": (expiry - timezone.localdate()).days if expiry else None,
            "allowed_carton_cap": delivery.allowed_carton_cap,
            "approved_over_cap": delivery.approved_over_cap,
            "issued_cartons": delivery.issued_cartons,
            "dds_reference_number": delivery.dds_reference_number,
        },
        "parent_vendor": {"name": vendor.name if vendor else "", "cname": vendor.cname if vendor else ""},
    }


def _rm_contacts(delivery, role: str, match: str) -> list[registry.Recipient]:
    if role == "parent_vendor":
        return registry.vendor_recipients(delivery.parent_vendor)
    if role == "parent_vendor_users":
        return registry.vendor_users(delivery.parent_vendor_id)
    if role == "created_by":
        return registry.owner_recipients(delivery.created_by)
    return []


def _rm_label(delivery) -> str:
    return delivery.delivery_number or f"#{delivery.pk}"


def _rm_url(delivery) -> str:
    return f"/purchase/eudr/raw-materials/{delivery.pk}"


def _package_bytes(extra: dict) -> bytes:
    path = extra.get("package_path") or ""
    if not path or not default_storage.exists(path):
        raise registry.AttachmentUnavailable("the DDS package is no longer stored")
    with default_storage.open(path, "rb") as handle:
        return handle.read()


def _dds_number(delivery) -> str:
    return (delivery.delivery_number or str(delivery.pk)).replace("/", "-")


def _dds_package(delivery, extra: dict) -> registry.Attachment:
    """The DDS package (ZIP) the occurrence names (`extra["package_path"]`)."""
    package = _package_bytes(extra)
    return registry.Attachment(
        extra.get("file_name") or f"DDS-{_dds_number(delivery)}.zip", package, "application/zip"
    )


def _dds_summary(delivery, extra: dict) -> registry.Attachment:
    """The summary PDF inside that package."""
    with zipfile.ZipFile(io.BytesIO(_package_bytes(extra))) as archive:
        return registry.Attachment(
            f"DDS-summary-{_dds_number(delivery)}.pdf", archive.read("summary.pdf"), "application/pdf"
        )


def _expiring(days: int, today: date) -> tuple[Any, date]:
    """raw_material.expiring, once a day: active deliveries whose FM or COC certificate expires exactly
    `days` days from `today`; the occurrence is keyed by that expiry date."""
    target = today + timedelta(days=days)
    records = RawMaterialDelivery.objects.filter(status=RawMaterialDelivery.Status.ACTIVE).filter(
        Q(fm_certificate_expiry=target) | Q(coc_certificate_expiry=target)
    )
    return records, target


# What the events about one kind of record share (apps/notifications/events.py, `register_events`).
FAMILIES: dict[str, dict[str, Any]] = {
    "raw_material": {
        "model": MODEL,
        "variables": RM_VARIABLES,
        "context": _rm_context,
        "contacts": RM_CONTACTS,
        "contacts_of": _rm_contacts,
        "record_label": _rm_label,
        "record_url": _rm_url,
        "supplier_url": lambda d: f"/supplier/raw-materials/{d.pk}",
        "select_related": ("parent_vendor", "created_by"),
    },
}

DECLARATIONS: list[tuple[str, str, Promise | str, dict[str, Any]]] = [
    ("raw_material.submitted", "raw_material", _("Raw-material delivery submitted"), {}),
    (
        "raw_material.expiring",
        "raw_material",
        _("Raw-material certificate expiring"),
        {"uses_days": _("days before the certificate's expiry date"), "due": _expiring},
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
        },
    ),
]


def register() -> None:
    """Called on start (AppConfig.ready)."""
    registry.register_events(FAMILIES, DECLARATIONS)
    registry.register_document(MODEL, "dds_summary", _dds_summary)
    registry.register_document(MODEL, "dds_package", _dds_package)
