"""The sales area's refusals (orders, shipments, invoices): each a stable `error` key of the envelope
(Saleor's per-domain error codes). Services raise them; the API's exception handler turns them into the
envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class SalesErrorCode(StrEnum):
    ILLEGAL_ACTION = "illegal_action"
    ORDER_NOT_CONFIRMABLE = "order_not_confirmable"
    ORDER_NOT_CANCELLABLE = "order_not_cancellable"
    ORDER_NOT_CLOSABLE = "order_not_closable"
    ORDER_HAS_OPEN_SHIPMENTS = "order_has_open_shipments"
    ORDER_READ_ONLY = "order_read_only"
    ORDER_CHANGED = "order_changed"
    LINE_SHIPPED_READ_ONLY = "line_shipped_read_only"
    VALIDATION_ERROR = "validation_error"
    LINES_REQUIRED = "lines_required"
    ORDER_NOT_SHIPPABLE = "order_not_shippable"
    OVER_SHIPMENT = "over_shipment"
    CARTONS_NOT_PICKED = "cartons_not_picked"
    SHIPMENT_READ_ONLY = "shipment_read_only"
    ILLEGAL_SHIPMENT_ACTION = "illegal_shipment_action"
    CARTON_NOT_FOUND = "carton_not_found"
    CARTON_VOIDED = "carton_voided"
    CARTON_WRONG_PRODUCT = "carton_wrong_product"
    CARTON_ON_OTHER_SHIPMENT = "carton_on_other_shipment"
    SHIPMENT_ALREADY_SHIPPED = "shipment_already_shipped"
    NOTHING_TO_INVOICE = "nothing_to_invoice"
    INVOICE_POSTED = "invoice_posted"
    INVOICE_CHANGED = "invoice_changed"
    INVOICE_NOT_POSTED = "invoice_not_posted"
    OVER_CREDIT = "over_credit"
    OVER_INVOICE = "over_invoice"
    OVER_PAYMENT = "over_payment"
    ORDER_NOT_DELETABLE = "order_not_deletable"
    ORDER_CANCELLED = "order_cancelled"
    LINE_NOT_FOUND = "line_not_found"
    DUPLICATE_LINE = "duplicate_line"
    INVALID_QUANTITY = "invalid_quantity"
    CODES_REQUIRED = "codes_required"
    SHIPMENTS_OF_SEVERAL_ORDERS = "shipments_of_several_orders"
    SHIPMENT_NOT_SHIPPED = "shipment_not_shipped"
    INVOICE_ALREADY_POSTED = "invoice_already_posted"
    INVALID_AMOUNT = "invalid_amount"
    PAYMENT_IN_FUTURE = "payment_in_future"
    NOT_FOUND = "not_found"
    UBL_NOT_POSTED = "ubl_not_posted"
    UBL_INVALID = "ubl_invalid"
    FACTURX_INVALID = "facturx_invalid"
    PEPPOL_SETTINGS_MISSING = "peppol_settings_missing"
    PEPPOL_NOT_CONFIGURED = "peppol_not_configured"
    PEPPOL_DISABLED = "peppol_disabled"
    PEPPOL_NO_RECEIVER = "peppol_no_receiver"
    PEPPOL_ALREADY_SENT = "peppol_already_sent"
    PEPPOL_DELIVERY_FAILED = "peppol_delivery_failed"
    EINVOICE_NO_RECIPIENT = "einvoice_no_recipient"
    QUOTATION_READ_ONLY = "quotation_read_only"
    QUOTATION_NOT_DELETABLE = "quotation_not_deletable"
    ILLEGAL_QUOTATION_ACTION = "illegal_quotation_action"
    QUOTATION_ALREADY_ACCEPTED = "quotation_already_accepted"
    QUOTATION_EXPIRED = "quotation_expired"


class IllegalAction(Conflict):
    error = SalesErrorCode.ILLEGAL_ACTION
    default_message = _("This action is not allowed in the order's current status.")


class OrderNotConfirmable(Conflict):
    error = SalesErrorCode.ORDER_NOT_CONFIRMABLE
    default_message = _("Only a draft order can be confirmed.")


class OrderNotCancellable(Conflict):
    error = SalesErrorCode.ORDER_NOT_CANCELLABLE
    default_message = _("An order can only be cancelled while nothing of it has shipped.")


class OrderNotClosable(Conflict):
    error = SalesErrorCode.ORDER_NOT_CLOSABLE
    default_message = _("Only an order of which something has shipped can be closed; cancel it instead.")


class OrderHasOpenShipments(Conflict):
    error = SalesErrorCode.ORDER_HAS_OPEN_SHIPMENTS
    default_message = _("The order has shipments that have not shipped yet; delete them first.")


class OrderReadOnly(Conflict):
    error = SalesErrorCode.ORDER_READ_ONLY
    default_message = _("A cancelled, closed or fully invoiced order cannot be changed.")


class OrderChanged(Conflict):
    error = SalesErrorCode.ORDER_CHANGED
    default_message = _("The order was changed since it was opened (it is now %(status)s) and was not saved.")


class LineShippedReadOnly(Conflict):
    error = SalesErrorCode.LINE_SHIPPED_READ_ONLY
    default_message = _("A line of which goods have shipped cannot be changed or removed.")


class DuplicateNumber(DomainError):
    error = SalesErrorCode.VALIDATION_ERROR
    default_message = _("A sales order with this number already exists.")

    def __init__(self) -> None:
        super().__init__(data={"order_number": [self.default_message]})


class LinesRequired(DomainError):
    error = SalesErrorCode.LINES_REQUIRED
    default_message = _("An order needs at least one line.")


class NoOpenQuantity(Conflict):
    error = SalesErrorCode.ORDER_NOT_SHIPPABLE
    default_message = _("Only a confirmed order with open quantities can be shipped.")


class OverShipment(DomainError):
    error = SalesErrorCode.OVER_SHIPMENT
    default_message = _("The quantity is more than is still open on the order line.")


class CartonsNotPicked(Conflict):
    """A line of a labelled product would ship more than its picked cartons (and the company does not
    allow shipping unlabelled stock). `data.lines`: per such line its quantity, picked and missing."""

    error = SalesErrorCode.CARTONS_NOT_PICKED
    default_message = _("Labelled goods ship as their picked cartons: pick the missing cartons first.")


class ShipmentReadOnly(Conflict):
    error = SalesErrorCode.SHIPMENT_READ_ONLY
    default_message = _("A shipment that has shipped cannot be changed.")


class IllegalShipmentAction(Conflict):
    error = SalesErrorCode.ILLEGAL_SHIPMENT_ACTION
    default_message = _("This action is not allowed in the shipment's current status.")


class CartonNotFound(DomainError):
    status_code = 404
    error = SalesErrorCode.CARTON_NOT_FOUND
    default_message = _("No carton has the code %(code)s.")


class CartonVoided(DomainError):
    error = SalesErrorCode.CARTON_VOIDED
    default_message = _("The carton %(code)s was voided.")


class CartonWrongProduct(DomainError):
    error = SalesErrorCode.CARTON_WRONG_PRODUCT
    default_message = _("The carton %(code)s holds a product that is not on this shipment.")


class CartonOnOtherShipment(Conflict):
    error = SalesErrorCode.CARTON_ON_OTHER_SHIPMENT
    default_message = _("The carton %(code)s is already on shipment %(shipment)s.")


class ShipmentAlreadyShipped(Conflict):
    error = SalesErrorCode.SHIPMENT_ALREADY_SHIPPED
    default_message = _("Cartons cannot be added to or removed from a shipment that has shipped.")


class NothingToInvoice(DomainError):
    error = SalesErrorCode.NOTHING_TO_INVOICE
    default_message = _("Nothing shipped is left to invoice.")


class InvoicePosted(Conflict):
    error = SalesErrorCode.INVOICE_POSTED
    default_message = _("A posted invoice cannot be changed; issue a credit note instead.")


class InvoiceChanged(Conflict):
    error = SalesErrorCode.INVOICE_CHANGED
    default_message = _(
        "The invoice was changed since it was opened and was not saved; reload it to see the change."
    )


class InvoiceNotPosted(Conflict):
    error = SalesErrorCode.INVOICE_NOT_POSTED
    default_message = _("Only a posted invoice can be credited or paid.")


class OverCredit(DomainError):
    error = SalesErrorCode.OVER_CREDIT
    default_message = _("The credited quantity is more than is left to credit on the invoice line.")


class OverInvoice(Conflict):
    error = SalesErrorCode.OVER_INVOICE
    default_message = _("Part of this invoice was invoiced meanwhile; create the invoice again.")


class OverPayment(DomainError):
    error = SalesErrorCode.OVER_PAYMENT
    default_message = _("The payment is more than is still open on the invoice.")


class OrderNotDeletable(IllegalAction):
    error = SalesErrorCode.ORDER_NOT_DELETABLE
    default_message = _("Only a draft order can be deleted; cancel it instead.")


class OrderCancelled(IllegalAction):
    error = SalesErrorCode.ORDER_CANCELLED
    default_message = _("A cancelled order cannot be invoiced.")


class LineNotFound(DomainError):
    """A line id that is not a line of the order (or of the invoice) the request is about."""

    error = SalesErrorCode.LINE_NOT_FOUND
    default_message = _("The line is not a line of this order.")


class DuplicateLine(DomainError):
    error = SalesErrorCode.DUPLICATE_LINE
    default_message = _("An order line appears twice on the shipment.")


class ShipmentLinesRequired(LinesRequired):
    default_message = _("A shipment needs at least one line.")


class InvalidQuantity(DomainError):
    error = SalesErrorCode.INVALID_QUANTITY
    default_message = _("A shipment line needs a positive quantity.")


class CodesRequired(DomainError):
    error = SalesErrorCode.CODES_REQUIRED
    default_message = _("Enter at least one carton code.")


class ShipmentsOfSeveralOrders(DomainError):
    error = SalesErrorCode.SHIPMENTS_OF_SEVERAL_ORDERS
    default_message = _("The shipments must all belong to one order.")


class ShipmentNotShipped(NothingToInvoice):
    error = SalesErrorCode.SHIPMENT_NOT_SHIPPED
    default_message = _("Only shipped shipments can be invoiced.")


class InvoiceAlreadyPosted(InvoicePosted):
    error = SalesErrorCode.INVOICE_ALREADY_POSTED
    default_message = _("The invoice is already posted.")


class InvalidAmount(DomainError):
    error = SalesErrorCode.INVALID_AMOUNT
    default_message = _("A payment must be a positive amount.")


class PaymentInFuture(DomainError):
    error = SalesErrorCode.PAYMENT_IN_FUTURE
    default_message = _("A payment cannot be received after today.")


class ShipmentNotFound(NotFound):
    """An invoice asked for shipments of which some do not exist (or are another tenant's)."""

    error = SalesErrorCode.NOT_FOUND
    default_message = _("Not found.")


class InvoiceNotFound(NotFound):
    error = SalesErrorCode.NOT_FOUND
    default_message = _("Not found.")


class UblNotPosted(Conflict):
    """A draft has no number and may still change: it has no e-invoice."""

    error = SalesErrorCode.UBL_NOT_POSTED
    default_message = _("Only a posted invoice or credit note can be downloaded as an e-invoice.")


class UblInvalid(Conflict):
    """The e-invoice breaks a rule it is checked against (`data`: the broken rules, `rule` and `message`);
    nothing is sent."""

    error = SalesErrorCode.UBL_INVALID
    default_message = _(
        "The e-invoice breaks the rules listed and is not issued. Complete the company settings or the "
        "customer's data (address, VAT number, e-mail) and try again."
    )


class FacturxInvalid(Conflict):
    """The Factur-X e-invoice breaks an EN 16931 rule or the Factur-X XSD (`data`: the broken rules,
    `rule` and `message`); nothing is issued."""

    error = SalesErrorCode.FACTURX_INVALID
    default_message = _(
        "The Factur-X e-invoice breaks the rules listed and is not issued. Complete the company settings or "
        "the customer's data (address, VAT number) and try again."
    )


class PeppolSettingsMissing(NotFound):
    error = SalesErrorCode.PEPPOL_SETTINGS_MISSING
    default_message = _("No Peppol access point is set up for this company.")


class PeppolNotConfigured(Conflict):
    error = SalesErrorCode.PEPPOL_NOT_CONFIGURED
    default_message = _(
        "No Peppol access point is set up for this company: its administrator enters it in the settings."
    )


class PeppolDisabled(Conflict):
    error = SalesErrorCode.PEPPOL_DISABLED
    default_message = _("The Peppol access point is switched off in the settings.")


class PeppolNoReceiver(Conflict):
    """Peppol delivers to participants only: the buyer needs a VAT number of an EU member state (its
    participant ID under the country's scheme); an e-mail address is not a Peppol address."""

    error = SalesErrorCode.PEPPOL_NO_RECEIVER
    default_message = _(
        "The customer has no Peppol participant ID: enter its VAT number (of an EU member state), or send "
        "the e-invoice by e-mail."
    )


class PeppolAlreadySent(Conflict):
    error = SalesErrorCode.PEPPOL_ALREADY_SENT
    default_message = _("This document has already been sent through Peppol (or is being sent).")


class PeppolDeliveryFailed(DomainError):
    """The access point did not take the document (`data`: the recorded delivery, with its `error`)."""

    status_code = 502
    error = SalesErrorCode.PEPPOL_DELIVERY_FAILED
    default_message = _("The Peppol access point did not take the e-invoice.")


class EInvoiceNoRecipient(Conflict):
    error = SalesErrorCode.EINVOICE_NO_RECIPIENT
    default_message = _(
        "The customer has no e-mail address (nor a contact for invoices): enter one, or give the recipients."
    )


# -- quotations -------------------------------------------------------------------------------------------


class QuotationReadOnly(Conflict):
    error = SalesErrorCode.QUOTATION_READ_ONLY
    default_message = _("Only a draft or sent quotation can be changed.")


class QuotationNotDeletable(Conflict):
    error = SalesErrorCode.QUOTATION_NOT_DELETABLE
    default_message = _("Only a draft quotation can be deleted.")


class IllegalQuotationAction(Conflict):
    error = SalesErrorCode.ILLEGAL_QUOTATION_ACTION
    default_message = _("This action is not allowed in the quotation's current status.")


class QuotationAlreadyAccepted(Conflict):
    error = SalesErrorCode.QUOTATION_ALREADY_ACCEPTED
    default_message = _("This quotation has already been accepted: its sales order is %(order)s.")


class QuotationExpired(Conflict):
    error = SalesErrorCode.QUOTATION_EXPIRED
    default_message = _(
        "This quotation was valid until %(date)s. Extend its validity before the customer accepts it."
    )


class QuotationLinesRequired(LinesRequired):
    default_message = _("A quotation needs at least one line.")
