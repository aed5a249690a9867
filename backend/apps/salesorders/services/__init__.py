"""Sales writes: orders, shipments (and their cartons), invoices and credit notes (docs/sales.md).

- Order status is derived from the line quantities by `order_status_derive` after every change:
  draft -> confirmed -> partially_shipped -> shipped -> partially_invoiced -> invoiced; only cancel
  (while nothing has shipped) and close (once something has shipped) are set by hand.
- Confirming reserves each line's quantity in the order's warehouse (apps.inventory.services,
  product rows locked); cancelling and closing release what is still reserved.
- Shipping posts the stock moves out of the warehouse, consumes the reservations and adds to the lines'
  `quantity_shipped`, all in one transaction: a failure anywhere posts nothing.
- Invoices are built from shipped shipment lines not yet invoiced (posted or in another draft). Posting
  takes the next number of the gapless invoice (or credit note) series of apps/numbering in the same
  transaction, so numbers are gapless; a posted invoice is never changed again: a correction is a credit note.

One module per document: `orders` (with the derived order status and the VAT treatment), `quotations`
(the offer before the order; accepting makes the order through `sales_order_create`), `shipments`,
`invoices` (with credit notes and payments) and `einvoices` (Peppol and e-mail delivery); what they share
is in `_common`. Every public name is re-exported here: callers import `apps.salesorders.services`.
"""

from __future__ import annotations

from apps.salesorders.services._common import (
    CENT,
    HUNDRED,
    ZERO,
    Status,
    line_amounts,
)
from apps.salesorders.services.einvoices import (
    PEPPOL_SETTINGS_FIELDS,
    einvoice_email_send,
    einvoice_peppol_send,
    peppol_settings_delete,
    peppol_settings_save,
)
from apps.salesorders.services.invoices import (
    CreditLineInput,
    credit_note_create,
    invoice_create,
    invoice_delete,
    invoice_open_amount,
    invoice_paid_from_accounting,
    invoice_payment_record,
    invoice_post,
    invoice_update,
)
from apps.salesorders.services.orders import (
    LineInput,
    allowed_actions,
    customer_vat_treatment,
    order_refresh,
    order_status_derive,
    order_status_explain,
    order_vat_treatment,
    sales_order_cancel,
    sales_order_close,
    sales_order_confirm,
    sales_order_create,
    sales_order_delete,
    sales_order_update,
)
from apps.salesorders.services.quotations import (
    QuotationLineInput,
    quotation_accept,
    quotation_allowed_actions,
    quotation_cancel,
    quotation_create,
    quotation_decline,
    quotation_delete,
    quotation_send,
    quotation_status,
    quotation_update,
)
from apps.salesorders.services.shipments import (
    SHIPPABLE,
    ShipmentLineInput,
    labelled_product_ids,
    shipment_cartons_add,
    shipment_cartons_remove,
    shipment_create,
    shipment_delete,
    shipment_deliver,
    shipment_pick,
    shipment_ship,
    shipment_update,
)

__all__ = [
    "CENT",
    "HUNDRED",
    "PEPPOL_SETTINGS_FIELDS",
    "SHIPPABLE",
    "ZERO",
    "CreditLineInput",
    "LineInput",
    "QuotationLineInput",
    "ShipmentLineInput",
    "Status",
    "allowed_actions",
    "credit_note_create",
    "customer_vat_treatment",
    "einvoice_email_send",
    "einvoice_peppol_send",
    "invoice_create",
    "invoice_delete",
    "invoice_open_amount",
    "invoice_paid_from_accounting",
    "invoice_payment_record",
    "invoice_post",
    "invoice_update",
    "labelled_product_ids",
    "line_amounts",
    "order_refresh",
    "order_status_derive",
    "order_status_explain",
    "order_vat_treatment",
    "peppol_settings_delete",
    "peppol_settings_save",
    "quotation_accept",
    "quotation_allowed_actions",
    "quotation_cancel",
    "quotation_create",
    "quotation_decline",
    "quotation_delete",
    "quotation_send",
    "quotation_status",
    "quotation_update",
    "sales_order_cancel",
    "sales_order_close",
    "sales_order_confirm",
    "sales_order_create",
    "sales_order_delete",
    "sales_order_update",
    "shipment_cartons_add",
    "shipment_cartons_remove",
    "shipment_create",
    "shipment_delete",
    "shipment_deliver",
    "shipment_pick",
    "shipment_ship",
    "shipment_update",
]
