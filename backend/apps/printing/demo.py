"""Demo printers: a virtual printer on this machine (127.0.0.1:9100) in the demo tenants, ready for the
print agent's `virtual-printer` command (docs/printing.md, "Embedded default"). It has no agent until one
is paired and chosen for it on /printer/devices."""

from __future__ import annotations

from apps.printing.models import DocumentType, PrinterDevice
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant


def load(ctx: dict) -> None:
    for tenant in Tenant.objects.filter(pk__in=[2, 3]).order_by("pk"):
        with tenant_context(tenant):
            PrinterDevice.objects.get_or_create(
                name="Virtual printer (demo)",
                defaults={
                    "site": "This computer",
                    "host": "127.0.0.1",
                    "port": 9100,
                    "dpi": 203,
                    "label_width_mm": 100,
                    "label_height_mm": 150,
                    "template": "default",
                    "default_document_type": DocumentType.CARTON_LABEL,
                },
            )
