"""The EUDR area's refusals: each a stable `error` key of the envelope and docs/specification.md's message where it
gives one (Saleor's per-domain error codes)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound

MSG_SELECT_LABELS = _("Please select labels to delete")


class EudrErrorCode(StrEnum):
    NO_WEIGHT_AVAILABLE = "no_weight_available"
    INSUFFICIENT_WEIGHT_MIN = "insufficient_weight_min"
    INSUFFICIENT_WEIGHT = "insufficient_weight"
    WEIGHT_LIMIT_EXCEEDED = "weight_limit_exceeded"
    RAW_MATERIAL_DRAFT = "raw_material_draft"
    RAW_MATERIAL_INACTIVE = "raw_material_inactive"
    RAW_MATERIAL_EXPIRED = "raw_material_expired"
    PURCHASE_ORDER_LINE_MISMATCH = "purchase_order_line_mismatch"
    PRODUCT_MISMATCH = "product_mismatch"
    PURCHASE_ORDER_CANCELLED = "purchase_order_cancelled"
    PURCHASE_ORDER_NOT_CONFIRMED = "purchase_order_not_confirmed"
    CARTON_WEIGHT_MISSING = "carton_weight_missing"
    BATCH_CODE_IN_USE = "batch_code_in_use"
    BATCH_MISMATCH = "batch_mismatch"
    BATCH_CONTAINER_MISMATCH = "batch_container_mismatch"
    BATCH_WEIGHT_MISMATCH = "batch_weight_mismatch"
    WEIGHT_BELOW_USED = "weight_below_used"
    RAW_MATERIAL_HAS_CARTONS = "raw_material_has_cartons"
    STATUS_NOT_ALLOWED = "status_not_allowed"
    ORDER_QUANTITY_EXCEEDED = "order_quantity_exceeded"
    GEOJSON_TOO_LARGE = "geojson_too_large"
    ALREADY_SUBMITTED = "already_submitted"
    VALIDATION_ERROR = "validation_error"
    NOT_FOUND = "not_found"
    CARTON_NOT_FOUND = "carton_not_found"
    DDS_INFORMATION_MISSING = "dds_information_missing"
    DDS_JOB_NOT_FOUND = "dds_job_not_found"
    DDS_PACKAGE_NOT_READY = "dds_package_not_ready"
    TRACES_ACCOUNT_MISSING = "traces_account_missing"
    DDS_FILING_NOT_ALLOWED = "dds_filing_not_allowed"
    DDS_SUBMISSION_MISSING = "dds_submission_missing"
    DDS_STATUS_NOT_DUE = "dds_status_not_due"
    UPSTREAM_DECLARATION_NOT_USABLE = "upstream_declaration_not_usable"
    RECEIVED_REFERENCE_RETAINED = "received_reference_retained"
    RECEIVED_REFERENCE_NOT_FOUND = "received_reference_not_found"
    REFERENCED_STATEMENT_NOT_ALLOWED = "referenced_statement_not_allowed"
    NO_PLOT_OUTSIDE_COUNTRY = "no_plot_outside_country"
    PLACING_NO_CARTONS = "placing_no_cartons"
    CARTONS_ALREADY_COVERED = "cartons_already_covered"
    PLACING_INFORMATION_MISSING = "placing_information_missing"
    # the EU information system's own answers (apps/eudr/traces/errors.py)
    TRACES_ERROR = "traces_error"
    TRACES_BUSINESS_RULES = "traces_business_rules"
    TRACES_AUTHENTICATION_FAILED = "traces_authentication_failed"
    TRACES_PERMISSION_DENIED = "traces_permission_denied"
    TRACES_NOT_FOUND = "traces_not_found"
    TRACES_UNAVAILABLE = "traces_unavailable"
    TRACES_ADDRESS_REFUSED = "traces_address_refused"
    TRACES_OUTCOME_UNKNOWN = "traces_outcome_unknown"


class NoWeightAvailable(Conflict):
    error = EudrErrorCode.NO_WEIGHT_AVAILABLE
    default_message = _("No weight available")


class InsufficientWeightMin(Conflict):
    error = EudrErrorCode.INSUFFICIENT_WEIGHT_MIN
    default_message = _("Insufficient weight (min 10kg required)")


class InsufficientWeight(Conflict):
    error = EudrErrorCode.INSUFFICIENT_WEIGHT
    default_message = _("Insufficient weight")


class WeightLimitExceeded(Conflict):
    error = EudrErrorCode.WEIGHT_LIMIT_EXCEEDED
    default_message = _("Weight limit exceeded")


class RawMaterialNotActive(Conflict):
    error = EudrErrorCode.RAW_MATERIAL_INACTIVE
    default_message = _("This raw material is not active: it cannot issue cartons.")


class NoPlotOutsideCountry(Conflict):
    """A confirmation of plots outside their country, when every plot lies inside it."""

    error = EudrErrorCode.NO_PLOT_OUTSIDE_COUNTRY
    default_message = _("Every plot lies in its country of production: there is nothing to confirm.")


class OrderQuantityExceeded(Conflict):
    """More cartons than the purchase order line's ordered quantity plus the policy's tolerance."""

    error = EudrErrorCode.ORDER_QUANTITY_EXCEEDED
    default_message = _("More cartons than the purchase order line allows.")


class GenerationInputError(DomainError):
    status_code = 400
    error = EudrErrorCode.VALIDATION_ERROR


class LabelsNotSelected(DomainError):
    """A bulk delete without a selection: docs/specification.md's message as the envelope's message and on `ids`."""

    status_code = 400
    error = EudrErrorCode.VALIDATION_ERROR
    default_message = MSG_SELECT_LABELS

    def __init__(self) -> None:
        super().__init__(data={"ids": [str(MSG_SELECT_LABELS)]})


class GeoJsonTooLarge(DomainError):
    """A request body larger than the server accepts (it can only be the plots' GeoJSON)."""

    status_code = 400
    error = EudrErrorCode.GEOJSON_TOO_LARGE
    default_message = _("The geolocation is larger than the 25 MB the EU information system accepts.")


class AlreadySubmitted(Conflict):
    error = EudrErrorCode.ALREADY_SUBMITTED
    default_message = _("This delivery has already been submitted.")


class DeliveryFileNotFound(NotFound):
    """A document kind the delivery does not have, or one not stored (yet)."""

    error = EudrErrorCode.NOT_FOUND
    default_message = _("Not found.")


class LabelsNotFound(NotFound):
    """A bulk action naming labels that do not exist (or are another tenant's: the same answer)."""

    error = EudrErrorCode.NOT_FOUND
    default_message = _("Some of the selected labels do not exist.")


class CartonNotFound(NotFound):
    """The public trace of a code no carton has."""

    error = EudrErrorCode.CARTON_NOT_FOUND
    default_message = _("No carton was found for this code. Check the code printed under the QR code.")


class DdsInformationMissing(DomainError):
    status_code = 400
    error = EudrErrorCode.DDS_INFORMATION_MISSING
    default_message = _("Required information is missing: the due diligence package cannot be built.")


class DdsJobNotFound(NotFound):
    error = EudrErrorCode.DDS_JOB_NOT_FOUND
    default_message = _("This package job does not exist or has expired. Start a new package.")


class DdsPackageNotReady(DomainError):
    status_code = 409
    error = EudrErrorCode.DDS_PACKAGE_NOT_READY
    default_message = _("The package is not ready yet.")


class TracesAccountMissing(DomainError):
    status_code = 400
    error = EudrErrorCode.TRACES_ACCOUNT_MISSING
    default_message = _(
        "Enter the TRACES user name, web-service authentication key and client id in Company settings first."
    )


class DdsFilingNotAllowed(Conflict):
    error = EudrErrorCode.DDS_FILING_NOT_ALLOWED


class DdsSubmissionMissing(Conflict):
    error = EudrErrorCode.DDS_SUBMISSION_MISSING
    default_message = _("This delivery has no statement filed through the product.")


class DdsStatusNotDue(Conflict):
    """The system's status is read no sooner than 30 minutes after a submit or amend (docs/eudr.md);
    `data` carries `status_due_at`, the moment a refresh may be tried."""

    error = EudrErrorCode.DDS_STATUS_NOT_DUE
    default_message = _("The EU information system's status can be read from %(when)s.")


class UpstreamDeclarationNotUsable(Conflict):
    """The EU information system does not confirm the upstream statement a statement of ours would group."""

    error = EudrErrorCode.UPSTREAM_DECLARATION_NOT_USABLE
    default_message = _("The referenced statement may not be relied on.")


class PlacingNoCartons(Conflict):
    error = EudrErrorCode.PLACING_NO_CARTONS
    default_message = _(
        "These containers hold no labelled cartons: there is nothing for a statement to cover."
    )


class CartonsAlreadyCovered(Conflict):
    """A carton is covered by at most one live statement (docs/eudr.md, "Statements around the placing")."""

    error = EudrErrorCode.CARTONS_ALREADY_COVERED
    default_message = _("Some of these cartons are already covered by another statement.")


class PlacingInformationMissing(Conflict):
    """A delivery behind the cartons lacks what the statement needs (`data.deliveries` names them)."""

    error = EudrErrorCode.PLACING_INFORMATION_MISSING
    default_message = _("Required information is missing for the statement.")


class ReceivedReferenceRetained(Conflict):
    error = EudrErrorCode.RECEIVED_REFERENCE_RETAINED
    default_message = _("Received reference numbers are kept for 5 years.")


class ReceivedReferenceNotFound(NotFound):
    error = EudrErrorCode.RECEIVED_REFERENCE_NOT_FOUND
    default_message = _("This received reference number does not exist.")


class ReferencedStatementNotAllowed(Conflict):
    error = EudrErrorCode.REFERENCED_STATEMENT_NOT_ALLOWED
    default_message = _(
        "Only companies that are not SMEs may read referenced statements in the EU information system."
    )
