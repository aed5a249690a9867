"""The logistics area's refusals (shipments, shipment companies, dispatches): each a stable `error` key of
the envelope (Saleor's per-domain error codes). Services raise them; the API's exception handler turns
them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict


class LogisticsErrorCode(StrEnum):
    ILLEGAL_TRANSITION = "illegal_transition"
    SHIPMENT_READ_ONLY = "shipment_read_only"
    COMPANY_IN_USE = "company_in_use"
    DISPATCH_EXISTS = "dispatch_exists"
    SHIPMENT_NOT_PLANNED = "shipment_not_planned"


class IllegalShipmentTransition(Conflict):
    error = LogisticsErrorCode.ILLEGAL_TRANSITION
    default_message = _("This status change is not allowed.")


class ShipmentReadOnly(Conflict):
    error = LogisticsErrorCode.SHIPMENT_READ_ONLY
    default_message = _("A received shipment cannot be changed.")


class CompanyInUse(Conflict):
    error = LogisticsErrorCode.COMPANY_IN_USE
    default_message = _("This shipment company has shipments and cannot be deleted.")


class DispatchExists(Conflict):
    error = LogisticsErrorCode.DISPATCH_EXISTS
    default_message = _("This shipment already has a dispatch.")


class ShipmentNotPlanned(Conflict):
    error = LogisticsErrorCode.SHIPMENT_NOT_PLANNED
    default_message = _("Only a planned shipment can be deleted.")
