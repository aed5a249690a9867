"""The purchase order e-mailed to its supplier when it is sent (services.purchase_order_send).

With an enabled scenario of `purchase_order.sent` the scenarios make the messages (their templates, their
recipients, the PDF as the attachment `purchase_order_pdf`). Without one, this module composes one
message per supplier address (the supplier's e-mail and its contacts) through notifications'
`emit.compose`, in the recipient's language, with the order's PDF in that language attached."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from apps.common.dates import day_text
from apps.notifications import events as registry
from apps.notifications.emit import compose
from apps.purchaseorders.models import PurchaseOrder
from apps.purchaseorders.pdf import purchase_order_pdf
from apps.tenancy.models import Tenant


def order_attachment(order: PurchaseOrder, extra: dict | None = None, language: str | None = None):
    return registry.Attachment(
        f"{order.order_number}.pdf", bytes(purchase_order_pdf(order, language)), "application/pdf"
    )


def order_compose(order: PurchaseOrder, *, user=None) -> list:
    """The messages to the supplier (none when it has no e-mail address)."""
    tenant = Tenant.objects.get(pk=order.tenant_id)
    company = tenant.legal_name or tenant.name
    made = []
    for recipient in registry.supplier_contacts(order.supplier, ""):
        with translation.override("zh-hans" if recipient.language == "zh" else "en"):
            subject = _("Purchase order %(number)s from %(company)s") % {
                "number": order.order_number,
                "company": company,
            }
            body = _(
                "Dear %(name)s,\n\nplease find attached our purchase order %(number)s of %(date)s: "
                "%(total)s %(currency)s.\n\n%(company)s"
            ) % {
                "name": recipient.name,
                "number": order.order_number,
                "date": day_text(order.order_date),
                "total": order.total_amount,
                "currency": order.currency,
                "company": company,
            }
        made += compose(
            event_name="purchase_order.sent",
            record=order,
            recipients=[recipient],
            subject=subject,
            body_text=body,
            attachments=[order_attachment(order, language=recipient.language)],
            user=user,
        )
    return made
