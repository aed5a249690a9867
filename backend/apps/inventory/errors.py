"""The warehouse area's refusals (stock moves, counts, carton scans, reservations): each a stable `error`
key of the envelope (Saleor's per-domain error codes). Services raise them; the API's exception handler
turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError


class InventoryErrorCode(StrEnum):
    INSUFFICIENT_STOCK = "insufficient_stock"
    NO_RECEIVING_LOCATION = "no_receiving_location"
    NO_WAREHOUSE = "no_warehouse"
    SAME_LOCATION = "same_location"
    LOCATION_INACTIVE = "location_inactive"
    CARTON_REFUSED = "carton_refused"
    CARTON_UNKNOWN = "carton_unknown"
    CARTON_OTHER_COMPANY = "carton_other_company"
    CARTON_VOIDED = "carton_voided"
    CARTON_NOT_ON_SHIPMENT = "carton_not_on_shipment"
    CARTON_ALREADY_RECEIVED = "carton_already_received"
    CARTON_NOT_IN_STOCK = "carton_not_in_stock"
    CARTON_ALREADY_SHIPPED = "carton_already_shipped"
    CARTON_WRONG_PRODUCT = "carton_wrong_product"
    CARTON_OVER_RECEIPT = "carton_over_receipt"
    ORDER_NOT_OPEN = "order_not_open"
    INSUFFICIENT_AVAILABLE_STOCK = "insufficient_available_stock"
    CARTON_LINE_FULL = "carton_line_full"
    INVALID_QUANTITY = "invalid_quantity"
    NOTHING_TO_POST = "nothing_to_post"
    CARTON_PICKED = "carton_picked"
    CARTON_NOT_PICKED = "carton_not_picked"
    CARTON_NOT_VOIDABLE = "carton_not_voidable"
    CARTON_NOT_COVERED = "carton_not_covered"
    CARTON_COVERED = "carton_covered"
    CARTON_TRANSITION_REFUSED = "carton_transition_refused"


class InsufficientStock(Conflict):
    error = InventoryErrorCode.INSUFFICIENT_STOCK
    default_message = _("There is not enough stock in the location for this move.")


class NoReceivingLocation(Conflict):
    error = InventoryErrorCode.NO_RECEIVING_LOCATION
    default_message = _("The warehouse has no active receiving location.")


class NoWarehouse(DomainError):
    error = InventoryErrorCode.NO_WAREHOUSE
    default_message = _("No warehouse is set up for this company.")


class SameLocation(DomainError):
    error = InventoryErrorCode.SAME_LOCATION
    default_message = _("Choose two different locations.")


class LocationInactive(DomainError):
    error = InventoryErrorCode.LOCATION_INACTIVE
    default_message = _("The location is not active.")


class CartonRefused(Conflict):
    """A scanned carton cannot be used here; `error` says why (the scan page plays its refusal sound)."""

    error = InventoryErrorCode.CARTON_REFUSED
    default_message = _("This carton cannot be used here.")


class CartonUnknown(CartonRefused):
    status_code = 404
    error = InventoryErrorCode.CARTON_UNKNOWN
    default_message = _("No carton has this code.")


class CartonOtherCompany(CartonRefused):
    error = InventoryErrorCode.CARTON_OTHER_COMPANY
    default_message = _("This carton belongs to another company.")


class CartonVoided(CartonRefused):
    error = InventoryErrorCode.CARTON_VOIDED
    default_message = _("This carton's label was voided.")


class CartonNotOnShipment(CartonRefused):
    error = InventoryErrorCode.CARTON_NOT_ON_SHIPMENT
    default_message = _("This carton is not expected on this shipment.")


class CartonAlreadyReceived(CartonRefused):
    error = InventoryErrorCode.CARTON_ALREADY_RECEIVED
    default_message = _("This carton was already received.")


class CartonNotInStock(CartonRefused):
    error = InventoryErrorCode.CARTON_NOT_IN_STOCK
    default_message = _("This carton is not in stock.")


class CartonAlreadyShipped(CartonRefused):
    error = InventoryErrorCode.CARTON_ALREADY_SHIPPED
    default_message = _("This carton was already shipped.")


class CartonWrongProduct(CartonRefused):
    error = InventoryErrorCode.CARTON_WRONG_PRODUCT
    default_message = _("This carton's product is not on the shipment.")


class CartonOverReceipt(CartonRefused):
    error = InventoryErrorCode.CARTON_OVER_RECEIPT
    default_message = _("The order line of this carton is already fully received.")


class OrderNotOpen(CartonRefused):
    error = InventoryErrorCode.ORDER_NOT_OPEN
    default_message = _("The purchase order of this carton is not open for receiving.")


class InsufficientAvailableStock(Conflict):
    error = InventoryErrorCode.INSUFFICIENT_AVAILABLE_STOCK
    default_message = _("There is not enough available stock to reserve for this order.")


class CartonLineFull(CartonRefused):
    error = InventoryErrorCode.CARTON_LINE_FULL
    default_message = _("The shipment line of this carton's product is already fully picked.")


class InvalidQuantity(DomainError):
    error = InventoryErrorCode.INVALID_QUANTITY
    default_message = _("A stock move needs a positive quantity.")


class NothingToPost(DomainError):
    error = InventoryErrorCode.NOTHING_TO_POST
    default_message = _("There are no scanned cartons to post.")


class CartonPicked(CartonRefused):
    error = InventoryErrorCode.CARTON_PICKED
    default_message = _("This carton is picked for a shipment.")


class CartonNotPicked(CartonRefused):
    error = InventoryErrorCode.CARTON_NOT_PICKED
    default_message = _("This carton is not picked, so it cannot ship.")


class CartonNotCovered(CartonRefused):
    """An imported carton leaves for a customer only once a due diligence statement of ours that covers its
    placing is available (or the company allows it, Company settings; the documents then say so)."""

    error = InventoryErrorCode.CARTON_NOT_COVERED
    default_message = _("This carton is not covered by an available due diligence statement yet.")


class CartonCovered(CartonRefused):
    """A carton a live statement declares keeps its label: voiding it would change what was declared."""

    error = InventoryErrorCode.CARTON_COVERED
    default_message = _("A due diligence statement declares this carton; its label can no longer be voided.")


class CartonNotVoidable(CartonRefused):
    """A carton's label may be voided (its weight returned to the delivery) only before the carton was
    received into the warehouse: from then on the carton is a physical unit of stock, and once shipped or
    invoiced it is a customer's carton whose trace must stay."""

    error = InventoryErrorCode.CARTON_NOT_VOIDABLE
    default_message = _("This carton was received into the warehouse; its label can no longer be voided.")


class CartonTransitionRefused(CartonRefused):
    error = InventoryErrorCode.CARTON_TRANSITION_REFUSED
    default_message = _("The carton's current state does not allow this step.")
