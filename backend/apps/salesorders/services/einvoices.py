"""E-invoice delivery (docs/sales.md, "Delivering e-invoices"): the Peppol access point and e-mail."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.common.dates import day_text
from apps.common.secrets import SecretUnreadable, readable
from apps.salesorders.errors import (
    EInvoiceNoRecipient,
    InvoiceNotFound,
    PeppolAlreadySent,
    PeppolDeliveryFailed,
    PeppolDisabled,
    PeppolNoReceiver,
    PeppolNotConfigured,
    UblNotPosted,
)
from apps.salesorders.models import (
    EInvoiceDelivery,
    Invoice,
    PeppolSettings,
)

# -- e-invoice delivery (docs/sales.md, "Delivering e-invoices") ---------------------------------------

PEPPOL_SETTINGS_FIELDS = ("enabled", "endpoint_url", "sender_id", "timeout")


@transaction.atomic
def peppol_settings_save(*, data: dict[str, Any]) -> PeppolSettings:
    """Creates or changes the company's Peppol access point. An API key left out keeps the stored one;
    `clear_api_key` removes it."""
    config = PeppolSettings.objects.select_for_update().first() or PeppolSettings()
    for name in PEPPOL_SETTINGS_FIELDS:
        if name in data:
            setattr(config, name, data[name])
    if data.get("api_key"):
        config.api_key = data["api_key"]
    elif data.get("clear_api_key"):
        config.api_key = ""
    config.save()
    return config


@transaction.atomic
def peppol_settings_delete() -> None:
    PeppolSettings.objects.all().delete()


def _peppol_key(config: PeppolSettings) -> str:
    from django.utils.translation import gettext

    try:
        return readable(config.api_key)
    except SecretUnreadable as exc:
        raise PeppolNotConfigured(
            gettext("The stored API key cannot be read (the keys were changed): enter it again.")
        ) from exc


def einvoice_peppol_send(*, tenant_id: int, invoice_id: int, user) -> EInvoiceDelivery:
    """Sends a posted invoice's UBL e-invoice through the company's Peppol access point and records the
    delivery. Runs outside a request transaction, as the e-mail delivery does: the delivery is committed
    as `sending` first (a second send of the document is refused while one is sending or sent), the
    access point is called with no transaction open, and its outcome is committed after it, so a failed
    delivery stays recorded when the refusal `PeppolDeliveryFailed` (502) is answered."""
    from apps.salesorders import peppol, ubl
    from apps.tenancy.context import entered_tenant, tenant_context

    with transaction.atomic(), tenant_context(tenant_id):
        invoice = Invoice.objects.select_for_update().filter(pk=invoice_id).first()
        if invoice is None:
            raise InvoiceNotFound()
        config = PeppolSettings.objects.first()
        if config is None:
            raise PeppolNotConfigured()
        if not config.enabled:
            raise PeppolDisabled()
        document = ubl.invoice_ubl(invoice)
        receiver = peppol.participant_id(invoice.buyer_vat_number)
        if not receiver:
            raise PeppolNoReceiver()
        busy = EInvoiceDelivery.objects.filter(
            invoice=invoice,
            channel=EInvoiceDelivery.Channel.PEPPOL,
            status__in=[EInvoiceDelivery.Status.SENDING, EInvoiceDelivery.Status.SENT],
        )
        if busy.exists():
            raise PeppolAlreadySent()
        delivery = EInvoiceDelivery.objects.create(
            invoice=invoice,
            channel=EInvoiceDelivery.Channel.PEPPOL,
            status=EInvoiceDelivery.Status.SENDING,
            formats=["ubl"],
            recipient=receiver,
            requested_by=user,
        )
        call = {
            "endpoint_url": config.endpoint_url,
            "api_key": _peppol_key(config),
            "sender": config.sender_id,
            "receiver": receiver,
            "document": document,
            "document_number": invoice.number,
            "credit_note": invoice.kind == Invoice.Kind.CREDIT_NOTE,
            "timeout": float(config.timeout),
        }
    with entered_tenant(tenant_id):  # the outbound rate counts per company; no transaction is open
        outcome = peppol.send_document(**call)
    with transaction.atomic(), tenant_context(tenant_id):
        delivery = EInvoiceDelivery.objects.select_for_update().get(pk=delivery.pk)
        delivery.finished_at = timezone.now()
        if outcome.ok:
            delivery.status = EInvoiceDelivery.Status.SENT
            delivery.message_id = outcome.message_id
        else:
            delivery.status = EInvoiceDelivery.Status.FAILED
            delivery.error = outcome.error
            delivery.error_message = peppol.error_message(outcome.error, outcome.status)[:500]
        delivery.save(update_fields=["status", "message_id", "error", "error_message", "finished_at"])
    if not outcome.ok:
        raise PeppolDeliveryFailed(
            delivery.error_message, data={"delivery": delivery.pk, "reason": delivery.error}
        )
    return delivery


def _einvoice_mail_text(invoice: Invoice, formats: list[str]) -> tuple[str, str]:
    from django.utils import translation
    from django.utils.translation import gettext

    from apps.tenancy.models import Tenant

    tenant = Tenant.objects.get(pk=invoice.tenant_id)
    company = invoice.seller_name or tenant.legal_name or tenant.name
    names = {"ubl": "UBL (Peppol BIS 3.0)", "facturx": "Factur-X", "pdf": "PDF"}
    with translation.override("zh-hans" if invoice.language == "zh" else "en"):
        kind = gettext("Credit note") if invoice.kind == Invoice.Kind.CREDIT_NOTE else gettext("Invoice")
        values = {
            "kind": kind,
            "number": invoice.number,
            "company": company,
            "date": day_text(invoice.issue_date),
            "amount": f"{invoice.total_gross:.2f}",
            "currency": invoice.currency,
            "files": ", ".join(names[f] for f in formats),
        }
        subject = gettext("%(kind)s %(number)s from %(company)s") % values
        body = (
            gettext(
                "Hello,\n\nattached is %(kind)s %(number)s of %(date)s over %(amount)s %(currency)s "
                "(%(files)s).\n\nKind regards,\n%(company)s"
            )
            % values
        )
    return subject, body


def einvoice_email_send(
    *, invoice: Invoice, formats: list[str], recipients: list[str] | None = None, user=None
) -> EInvoiceDelivery:
    """E-mails a posted invoice's e-invoice files (UBL, Factur-X, the PDF) to the given addresses, else
    to the customer's invoice contacts, else its e-mail address, through the e-mail machinery (queued
    after commit, delivered, logged and retried as every message is). Every file is checked before
    anything is queued: a draft or a broken document is refused as its download is."""
    from apps.notifications import events as registry
    from apps.notifications.emit import compose
    from apps.salesorders import einvoice

    if invoice.status != Invoice.Status.POSTED:
        raise UblNotPosted()
    chosen = [f for f in einvoice.FORMATS if f in set(formats)]
    files = [einvoice.file(invoice, f) for f in chosen]
    language = invoice.language if invoice.language in ("en", "zh") else "en"
    if recipients:
        people = [registry.Recipient(address, "", language) for address in dict.fromkeys(recipients)]
    else:
        people = registry.customer_contacts(invoice.customer, "invoice", language)
    if not people:
        raise EInvoiceNoRecipient()
    subject, body = _einvoice_mail_text(invoice, chosen)
    messages = compose(
        event_name="invoice.sent",
        record=invoice,
        recipients=people,
        subject=subject,
        body_text=body,
        attachments=[registry.Attachment(name, content, kind) for name, content, kind in files],
        user=user,
    )
    return EInvoiceDelivery.objects.create(
        invoice=invoice,
        channel=EInvoiceDelivery.Channel.EMAIL,
        status=EInvoiceDelivery.Status.QUEUED,
        formats=chosen,
        recipient=", ".join(m.to[0] for m in messages)[:500],
        email_message=messages[0] if messages else None,
        requested_by=user,
        finished_at=timezone.now(),
    )
