"""Demo accounting data in tenant 3: a Visma.net connection to a sandbox address that does not resolve
(switched off, so posting demo invoices calls nothing), and a few sync-log entries and mappings of the
demo's posted invoices and their customers: sent, failed with Visma's message, and pending."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from apps.accounting.models import AccountingConnection, Mapping, SyncEntry
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant

SANDBOX = "https://visma-sandbox.invalid"


def load(ctx: dict) -> None:
    tenant = Tenant.objects.filter(pk=3).first()
    if tenant is None:
        return
    from apps.salesorders.models import Invoice

    with tenant_context(tenant):
        AccountingConnection.objects.get_or_create(
            defaults={
                "provider": "visma_net",
                "enabled": False,
                "base_url": f"{SANDBOX}/v1/",
                "token_url": f"{SANDBOX}/connect/token",
                "client_id": "cartontrace-demo",
                "client_secret": "demo-secret",
                "company_id": "1234567",
                "supplier_level": "supplier",
            }
        )
        now = timezone.now()
        invoices = list(
            Invoice.objects.filter(status=Invoice.Status.POSTED)
            .select_related("customer")
            .order_by("posted_at", "pk")[:3]
        )
        for index, invoice in enumerate(invoices):
            customer = invoice.customer
            Mapping.objects.get_or_create(
                kind="customer",
                local_key=str(customer.pk),
                defaults={
                    "local_label": f"{customer.number} {customer.name}",
                    "external_id": customer.number,
                    "pushed_at": now,
                },
            )
            status = ["sent", "failed", "pending"][index]
            SyncEntry.objects.get_or_create(
                idempotency_key=f"{invoice.kind}:{invoice.pk}",
                defaults={
                    "kind": invoice.kind,
                    "record_id": invoice.pk,
                    "record_label": invoice.number,
                    "status": status,
                    "attempts": {"sent": 1, "failed": 1, "pending": 2}[status],
                    "external_id": invoice.number if status == "sent" else "",
                    "sent_at": now - timedelta(hours=2) if status == "sent" else None,
                    "next_attempt_at": now + timedelta(minutes=2) if status == "pending" else None,
                    "http_status": {"sent": None, "failed": 400, "pending": 503}[status],
                    "error": {
                        "sent": "",
                        "failed": f"Error: VatCode 1 is not valid for customer {customer.number}.",
                        "pending": "The accounting system had an error (HTTP 503): Service Unavailable",
                    }[status],
                },
            )
            if status == "sent":
                Mapping.objects.get_or_create(
                    kind=invoice.kind,
                    local_key=str(invoice.pk),
                    defaults={
                        "local_label": invoice.number,
                        "external_id": invoice.number,
                        "pushed_at": now,
                        "external_status": "open",
                    },
                )
        Mapping.objects.get_or_create(
            kind="vat_code", local_key="21.00", defaults={"local_label": "21 %", "external_id": "1"}
        )
        Mapping.objects.get_or_create(
            kind="payment_term", local_key="30", defaults={"local_label": "30", "external_id": "30D"}
        )
