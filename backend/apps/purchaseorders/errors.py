"""The purchasing area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Services raise them; the API's exception handler turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class PurchasingErrorCode(StrEnum):
    VALIDATION_ERROR = "validation_error"
    PERMISSION_DENIED = "permission_denied"
    ILLEGAL_TRANSITION = "illegal_transition"
    ORDER_READ_ONLY = "order_read_only"
    ORDER_NOT_RECEIVABLE = "order_not_receivable"
    OVER_RECEIPT = "over_receipt"
    ORDER_IN_USE = "order_in_use"
    LINE_PRODUCT_LOCKED = "line_product_locked"
    LINE_WEIGHT_LOCKED = "line_weight_locked"
    LINE_HAS_CARTONS = "line_has_cartons"
    LINE_RECEIVED = "line_received"
    BELOW_RECEIVED = "below_received"
    SUPPLIER_LOCKED = "supplier_locked"
    NOT_FOUND = "not_found"
    ORDER_NOT_CONFIRMED = "order_not_confirmed"
    ORDER_HAS_RECEIPTS = "order_has_receipts"
    SUPPLIER_NO_EMAIL = "supplier_no_email"
    EINVOICE_INVALID = "einvoice_invalid"
    SUPPLIER_INVOICE_DUPLICATE = "supplier_invoice_duplicate"
    SUPPLIER_INVOICE_NOT_DRAFT = "supplier_invoice_not_draft"
    SUPPLIER_INVOICE_MISMATCH = "supplier_invoice_mismatch"


class InvalidInput(DomainError):
    """A value the service refuses, with the field errors in `data` (the envelope of a 400 validation
    error, as the serializers answer)."""

    status_code = 400
    error = PurchasingErrorCode.VALIDATION_ERROR

    @classmethod
    def on(cls, field: str, message) -> InvalidInput:
        return cls(message, data={field: [message]})


class IllegalTransition(Conflict):
    error = PurchasingErrorCode.ILLEGAL_TRANSITION
    default_message = _("This status change is not allowed.")


class OrderReadOnly(Conflict):
    error = PurchasingErrorCode.ORDER_READ_ONLY
    default_message = _("A received, closed or cancelled purchase order cannot be changed.")


class OrderNotReceivable(Conflict):
    error = PurchasingErrorCode.ORDER_NOT_RECEIVABLE
    default_message = _("Goods can only be received against a confirmed purchase order.")


class OverReceipt(DomainError):
    status_code = 400
    error = PurchasingErrorCode.OVER_RECEIPT
    default_message = _("The received quantity is more than is still open on the line.")


class OverReceiptNotAllowed(DomainError):
    status_code = 403
    error = PurchasingErrorCode.PERMISSION_DENIED
    default_message = _("You are not allowed to receive more than was ordered.")


class OrderInUse(Conflict):
    error = PurchasingErrorCode.ORDER_IN_USE
    default_message = _("This purchase order has receipts or shipments and cannot be deleted.")


class DuplicateNumber(DomainError):
    status_code = 400
    error = PurchasingErrorCode.VALIDATION_ERROR


class LineProductLocked(Conflict):
    error = PurchasingErrorCode.LINE_PRODUCT_LOCKED
    default_message = _("The product of a line with received goods or carton labels cannot be changed.")


class LineWeightLocked(Conflict):
    error = PurchasingErrorCode.LINE_WEIGHT_LOCKED
    default_message = _("The weight per carton of a line with carton labels cannot be changed.")


class LineHasCartons(Conflict):
    error = PurchasingErrorCode.LINE_HAS_CARTONS
    default_message = _("A line with carton labels cannot be removed.")


class SupplierLocked(Conflict):
    error = PurchasingErrorCode.SUPPLIER_LOCKED
    default_message = _(
        "The supplier cannot be changed: receipts, shipments or carton labels refer to this order."
    )


class WarehouseInactive(DomainError):
    status_code = 400
    error = PurchasingErrorCode.VALIDATION_ERROR
    default_message = _("This warehouse is inactive.")


class LineReceived(Conflict):
    error = PurchasingErrorCode.LINE_RECEIVED


class BelowReceived(Conflict):
    error = PurchasingErrorCode.BELOW_RECEIVED


class PurchaseOrderNotFound(NotFound):
    """An order outside what the user may see (another parent vendor's): the answer of one that does not
    exist."""

    error = PurchasingErrorCode.NOT_FOUND
    default_message = _("Not found.")


class OrderNotConfirmed(Conflict):
    """A draft order asked to do what only a confirmed one may (be sent, received, labelled)."""

    error = PurchasingErrorCode.ORDER_NOT_CONFIRMED
    default_message = _("Confirm the purchase order first: it is still a draft.")


class OrderHasReceipts(Conflict):
    error = PurchasingErrorCode.ORDER_HAS_RECEIPTS
    default_message = _(
        "Goods were received against this purchase order: it cannot be cancelled. Close it instead."
    )


class SupplierNoEmail(Conflict):
    error = PurchasingErrorCode.SUPPLIER_NO_EMAIL
    default_message = _("The supplier has no e-mail address: enter one on the supplier to send the order.")


class EInvoiceInvalid(DomainError):
    """An uploaded file that is not a readable EN 16931 e-invoice (the message says what is wrong; `data`
    names the business term, `{"term": "BT-1"}`, when one is missing or unreadable)."""

    status_code = 400
    error = PurchasingErrorCode.EINVOICE_INVALID
    default_message = _("The file is not a readable e-invoice.")


class SupplierInvoiceDuplicate(Conflict):
    error = PurchasingErrorCode.SUPPLIER_INVOICE_DUPLICATE
    default_message = _("This supplier invoice was already uploaded.")


class SupplierInvoiceNotDraft(Conflict):
    error = PurchasingErrorCode.SUPPLIER_INVOICE_NOT_DRAFT
    default_message = _("Only a draft supplier invoice can be approved, rejected or deleted.")


class SupplierInvoiceMismatch(Conflict):
    error = PurchasingErrorCode.SUPPLIER_INVOICE_MISMATCH
    default_message = _(
        "The invoice does not match what was ordered and received: give a reason to approve it anyway."
    )
