"""The due diligence area's refusals (docs/duediligence.md): each a stable `error` key of the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, NotFound


class DueDiligenceErrorCode(StrEnum):
    RECORDS_KEPT = "records_kept"
    FILING_BLOCKED = "filing_blocked"
    STATEMENT_BLOCKED_BY_CONCERN = "statement_blocked_by_concern"
    CONCERN_RESOLVED = "concern_resolved"
    CONCERN_NOT_FOUND = "concern_not_found"
    ASSESSMENT_NOT_FOUND = "assessment_not_found"
    DELIVERY_NOT_FOUND = "due_diligence_delivery_not_found"
    STATEMENT_NOT_FOUND = "due_diligence_statement_not_found"
    NOTHING_TO_VOID = "nothing_to_void"
    BENCHMARK_INVALID = "benchmark_invalid"
    AUDIT_IMMUTABLE = "audit_immutable"
    FOREST_LAYER_INVALID = "forest_layer_invalid"
    FOREST_LAYER_NOT_FOUND = "forest_layer_not_found"
    FOREST_LAYER_IN_USE = "forest_layer_in_use"
    FOREST_LAYER_NOT_STALLED = "forest_layer_not_stalled"
    FOREST_RESULT_NOT_FOUND = "forest_result_not_found"


class RecordsKept(Conflict):
    """A record a filed statement rests on: kept unchanged for five years (Art. 12(3) of 2023/1115)."""

    error = DueDiligenceErrorCode.RECORDS_KEPT
    default_message = _(
        "A due diligence statement rests on this record: it is kept for five years and cannot be deleted. "
        "Archive or void it with a reason instead."
    )


class FilingBlocked(Conflict):
    error = DueDiligenceErrorCode.FILING_BLOCKED
    default_message = _("The due diligence is not complete: the statement cannot be filed yet.")


class ConcernAlreadyResolved(Conflict):
    error = DueDiligenceErrorCode.CONCERN_RESOLVED
    default_message = _("This concern has already been resolved.")


class ConcernNotFound(NotFound):
    error = DueDiligenceErrorCode.CONCERN_NOT_FOUND
    default_message = _("No such concern.")


class AssessmentNotFound(NotFound):
    error = DueDiligenceErrorCode.ASSESSMENT_NOT_FOUND
    default_message = _("No such risk assessment.")


class DeliveryNotFound(NotFound):
    error = DueDiligenceErrorCode.DELIVERY_NOT_FOUND
    default_message = _("No such raw-material delivery.")


class StatementNotFound(NotFound):
    error = DueDiligenceErrorCode.STATEMENT_NOT_FOUND
    default_message = _("No such due diligence statement.")


class NothingToVoid(Conflict):
    error = DueDiligenceErrorCode.NOTHING_TO_VOID
    default_message = _("No statement is recorded on this delivery.")


class BenchmarkInvalid(DomainError):
    error = DueDiligenceErrorCode.BENCHMARK_INVALID
    default_message = _("The country benchmark file is not valid.")


class AuditImmutable(Conflict):
    error = DueDiligenceErrorCode.AUDIT_IMMUTABLE
    default_message = _("The audit trail cannot be changed or deleted.")


class ForestLayerInvalid(DomainError):
    error = DueDiligenceErrorCode.FOREST_LAYER_INVALID
    default_message = _("This file is not a GeoTIFF raster: upload the layer as a georeferenced GeoTIFF.")


class ForestLayerNotFound(NotFound):
    error = DueDiligenceErrorCode.FOREST_LAYER_NOT_FOUND
    default_message = _("No such forest layer.")


class ForestLayerInUse(Conflict):
    error = DueDiligenceErrorCode.FOREST_LAYER_IN_USE
    default_message = _(
        "Forest check results of a kept record (a filed or recorded statement) rest on this layer: it is "
        "kept with them and cannot be deleted."
    )


class ForestResultNotFound(NotFound):
    error = DueDiligenceErrorCode.FOREST_RESULT_NOT_FOUND
    default_message = _("No such forest check result, or its layer is no longer kept.")
