"""Writes of the due diligence area (docs/duediligence.md): risk assessments, the filing gate and its
overrides, substantiated concerns, and the archive/void that replaces deleting a kept record."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.common.exceptions import Conflict, FieldErrors
from apps.eudr.filing_models import DdsSubmission
from apps.eudr.models import RawMaterialDelivery

from . import benchmark as benchmarks
from . import selectors
from .errors import (
    ConcernAlreadyResolved,
    ConcernNotFound,
    DeliveryNotFound,
    DueDiligenceErrorCode,
    FilingBlocked,
    NothingToVoid,
)
from .models import (
    FilingOverride,
    RecordArchive,
    RiskAssessment,
    SubstantiatedConcern,
)

# Art. 10(2) of Regulation (EU) 2023/1115: the criteria of the risk assessment, (a) to (n).
CRITERIA: dict[str, Any] = {
    "a": gettext_lazy("The risk level of the country of production or parts of it (Art. 29)"),
    "b": gettext_lazy("The presence of forests in the country or area of production"),
    "c": gettext_lazy("The presence of indigenous peoples in the country or area of production"),
    "d": gettext_lazy("The consultation and cooperation in good faith with indigenous peoples"),
    "e": gettext_lazy("Duly reasoned claims by indigenous peoples on the use or ownership of the area"),
    "f": gettext_lazy("The prevalence of deforestation or forest degradation in the country or area"),
    "g": gettext_lazy(
        "The source, reliability, validity and links to other documentation of the information"
    ),
    "h": gettext_lazy(
        "Concerns about the country: corruption, falsification of documents and data, lack of law "
        "enforcement, violations of human rights, armed conflict or sanctions"
    ),
    "i": gettext_lazy("The complexity of the supply chain and the stage of processing"),
    "j": gettext_lazy("The risk of circumvention or of mixing with products of unknown origin"),
    "k": gettext_lazy("Conclusions of the Commission's expert group meetings"),
    "l": gettext_lazy("Substantiated concerns and the history of non-compliance of the suppliers"),
    "m": gettext_lazy("Any information that would point to a risk that the products are non-compliant"),
    "n": gettext_lazy(
        "Complementary information on compliance, such as certification or third-party schemes"
    ),
}
FINDINGS = ("no_risk", "risk")
# Art. 11(1): the mitigation measures.
MITIGATION_KINDS: dict[str, Any] = {
    "more_information": gettext_lazy("Additional information, data or documents"),
    "independent_audit": gettext_lazy("Independent surveys or audits"),
    "other": gettext_lazy("Other measures, such as supporting suppliers"),
}
MAX_TEXT = 2000


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _clean_criteria(raw: Any, errors: dict[str, list]) -> list[dict[str, Any]]:
    by_code: dict[str, dict] = {}
    if not isinstance(raw, list):
        errors["criteria"] = [_("Answer every criterion of Art. 10(2).")]
        return []
    for item in raw:
        code = item.get("code") if isinstance(item, dict) else None
        if code not in CRITERIA or code in by_code:
            errors.setdefault("criteria", []).append(_("Unknown or repeated criterion."))
            continue
        by_code[code] = item
    cleaned = []
    for code, label in CRITERIA.items():
        item = by_code.get(code)
        if item is None:
            errors.setdefault("criteria", []).append(
                _("Criterion (%(code)s) is not answered: %(label)s.") % {"code": code, "label": label}
            )
            continue
        finding = item.get("finding")
        evidence = _text(item.get("evidence"))
        if finding not in FINDINGS:
            errors.setdefault("criteria", []).append(
                _("Criterion (%(code)s): choose no risk or risk.") % {"code": code}
            )
        if not evidence or len(evidence) > MAX_TEXT:
            errors.setdefault("criteria", []).append(
                _("Criterion (%(code)s): give the evidence (at most 2000 characters).") % {"code": code}
            )
        cleaned.append({"code": code, "finding": finding, "evidence": evidence})
    return cleaned


def _clean_mitigation(raw: Any, errors: dict[str, list]) -> list[dict[str, Any]]:
    if raw in (None, ""):
        return []
    if not isinstance(raw, list) or len(raw) > 50:
        errors["mitigation"] = [_("Mitigation measures must be a list (at most 50).")]
        return []
    cleaned = []
    for n, item in enumerate(raw, start=1):
        item = item if isinstance(item, dict) else {}
        kind = item.get("kind")
        description, evidence = _text(item.get("description")), _text(item.get("evidence"))
        if kind not in MITIGATION_KINDS:
            errors.setdefault("mitigation", []).append(
                _("Measure %(n)d: choose additional information, an independent audit or another measure.")
                % {"n": n}
            )
        if not description or not evidence or len(description) > MAX_TEXT or len(evidence) > MAX_TEXT:
            errors.setdefault("mitigation", []).append(
                _("Measure %(n)d: describe the measure and its evidence (at most 2000 characters each).")
                % {"n": n}
            )
        cleaned.append({"kind": kind, "description": description, "evidence": evidence})
    return cleaned


def _delivery(delivery_id: int, *, lock: bool = False) -> RawMaterialDelivery:
    queryset = RawMaterialDelivery.objects.all()
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    delivery = queryset.filter(pk=delivery_id).first()
    if delivery is None:
        raise DeliveryNotFound()
    return delivery


@transaction.atomic
def assessment_create(
    *,
    delivery_id: int | None,
    parent_vendor=None,
    criteria: Any,
    conclusion: str,
    mitigation: Any = None,
    summary: str = "",
    user,
) -> RiskAssessment:
    """Records a risk assessment (Art. 10) of one delivery's statement, or of a supplier relationship
    (a parent vendor; it covers the vendor's deliveries for a year). Every Art. 10(2) criterion needs a
    finding and its evidence. "Negligible" with a criterion found at risk needs the mitigation measures
    taken (Art. 11) and their evidence. Assessments are never edited: a new one supersedes the last."""
    delivery = _delivery(delivery_id, lock=True) if delivery_id is not None else None
    if delivery is not None:
        parent_vendor = delivery.parent_vendor
    errors: dict[str, list] = {}
    if parent_vendor is None:
        errors["parent_vendor"] = [_("Name the supplier (parent vendor) the assessment is about.")]
    cleaned = _clean_criteria(criteria, errors)
    measures = _clean_mitigation(mitigation, errors)
    if conclusion not in RiskAssessment.Conclusion.values:
        errors["conclusion"] = [_("Choose negligible or not negligible.")]
    elif (
        conclusion == RiskAssessment.Conclusion.NEGLIGIBLE
        and not errors.get("criteria")
        and any(item["finding"] == "risk" for item in cleaned)
        and not measures
    ):
        errors["mitigation"] = [
            _(
                "A criterion was found at risk: record the mitigation measures (Art. 11) before concluding negligible."
            )
        ]
    summary = _text(summary)
    if len(summary) > 4000:
        errors["summary"] = [_("At most 4000 characters.")]
    if errors:
        raise FieldErrors(errors)
    current = benchmarks.current()
    countries = selectors.countries_of_production(delivery) if delivery is not None else []
    return RiskAssessment.objects.create(
        delivery=delivery,
        parent_vendor=parent_vendor,
        criteria=cleaned,
        conclusion=conclusion,
        mitigation=measures,
        summary=summary,
        country_levels={c["country_code"]: c["level"] for c in countries},
        benchmark=current.label[:250],
        assessed_by=user,
    )


def gate_status(delivery: RawMaterialDelivery) -> dict[str, Any]:
    """What stands between the delivery and a filed statement (docs/duediligence.md, "The filing gate")."""
    countries = selectors.countries_of_production(delivery)
    simplified = selectors.simplified_due_diligence(countries)
    assessment = selectors.current_assessment(delivery)
    override = selectors.latest_override(delivery)
    flags = selectors.forest_flags(delivery)
    blockers: list[dict[str, Any]] = []
    assessment_blockers: list[dict[str, Any]] = []
    if flags:
        # Loss after 2020 on a plot: the risk is assessed for this delivery, after the loss was found,
        # even where simplified due diligence would apply (docs/duediligence.md, "The filing gate").
        found_at = max(flag.computed_at for flag in flags)
        if assessment is None or assessment.delivery_id != delivery.pk or assessment.assessed_at < found_at:
            plots = sorted({flag.plot_index + 1 for flag in flags})
            years = sorted({year for flag in flags for year in flag.loss_years})
            assessment_blockers.append(
                {
                    "code": "forest_loss",
                    "message": _(
                        "Tree cover was lost after 2020 on plot %(plots)s (%(years)s, %(layer)s): assess the "
                        "risk of this delivery (Art. 10) with this finding."
                    )
                    % {
                        "plots": ", ".join(str(n) for n in plots),
                        "years": ", ".join(str(y) for y in years),
                        "layer": flags[0].layer_name,
                    },
                }
            )
    if not simplified or flags:
        if assessment is None and not simplified:
            assessment_blockers.append(
                {
                    "code": "assessment_missing",
                    "message": _(
                        "No risk assessment: a country of production is not low risk, so the risk must be "
                        "assessed (Art. 10)."
                    ),
                }
            )
        elif assessment is not None and assessment.conclusion != RiskAssessment.Conclusion.NEGLIGIBLE:
            assessment_blockers.append(
                {
                    "code": "assessment_not_negligible",
                    "message": _(
                        "The risk assessment did not find the risk negligible: mitigate it (Art. 11)."
                    ),
                }
            )
    if assessment_blockers and override is None:
        blockers.extend(assessment_blockers)
    elif flags and override is not None and override.at < max(flag.computed_at for flag in flags):
        # An override made before the loss was found did not weigh it.
        blockers.extend(b for b in assessment_blockers if b["code"] == "forest_loss")
    for concern in selectors.open_concerns_for(delivery):
        blockers.append(
            {
                "code": "open_concern",
                "concern": concern.pk,
                "message": _("A substantiated concern is open: %(text)s")
                % {"text": concern.description[:200]},
            }
        )
    return {
        "countries": countries,
        "simplified": simplified,
        "forest_flags": flags,
        "assessment": assessment,
        "override": override if assessment_blockers else None,
        "overridable": [b["code"] for b in assessment_blockers],
        "blockers": blockers,
        "can_file": not blockers,
    }


def filing_gate_check(*, delivery: RawMaterialDelivery) -> None:
    """Refuses (409 `filing_blocked`) to file or record a statement for the delivery while its due
    diligence is incomplete: the assessment missing or not negligible (unless the country benchmark
    allows simplified due diligence, or an authorised user recorded an override), or a substantiated
    concern open on the delivery, its statements or its supplier. Called by the filing services of
    apps/eudr before a statement is sent or its reference recorded."""
    status = gate_status(delivery)
    if status["blockers"]:
        raise FilingBlocked(
            " ".join(str(b["message"]) for b in status["blockers"]),
            data={"blockers": [dict(b) for b in status["blockers"]]},
        )


@transaction.atomic
def filing_override_record(*, delivery_id: int, reason: str, user) -> FilingOverride:
    """An authorised user (`duediligence.override_filing_gate`) decides to file although the assessment
    is missing or not negligible; the reason and what the gate said are kept. It does not lift an open
    substantiated concern: that one must be resolved."""
    delivery = _delivery(delivery_id, lock=True)
    reason = _text(reason)
    if not reason or len(reason) > MAX_TEXT:
        raise FieldErrors.on("reason", _("Give the reason for the override (at most 2000 characters)."))
    status = gate_status(delivery)
    if not status["overridable"]:
        raise Conflict(
            _("The risk assessment does not block this statement: there is nothing to override."),
            error=DueDiligenceErrorCode.FILING_BLOCKED,
        )
    return FilingOverride.objects.create(
        delivery=delivery,
        reason=reason,
        blocked_by=[str(code) for code in status["overridable"]],
        by=user,
    )


@transaction.atomic
def concern_raise(
    *,
    parent_vendor=None,
    delivery_id: int | None = None,
    submission_id: int | None = None,
    description: str,
    source: str = "",
    user,
) -> SubstantiatedConcern:
    """Anyone inside the company records a substantiated concern (Art. 31) against exactly one supplier,
    delivery or statement. Until resolved it blocks new statements on what it names."""
    description, source = _text(description), _text(source)
    errors: dict[str, list] = {}
    named = [x for x in (parent_vendor, delivery_id, submission_id) if x is not None]
    if len(named) != 1:
        errors["non_field_errors"] = [_("Name exactly one supplier, delivery or statement.")]
    if not description or len(description) > 4000:
        errors["description"] = [_("Describe the concern (at most 4000 characters).")]
    if len(source) > 300:
        errors["source"] = [_("At most 300 characters.")]
    delivery = submission = None
    if delivery_id is not None:
        delivery = _delivery(delivery_id)
    if submission_id is not None:
        submission = DdsSubmission.objects.filter(pk=submission_id).first()
        if submission is None:
            errors["submission"] = [_("No such statement.")]
    if errors:
        raise FieldErrors(errors)
    return SubstantiatedConcern.objects.create(
        parent_vendor=parent_vendor,
        delivery=delivery,
        submission=submission,
        description=description,
        source=source,
        raised_by=user,
    )


@transaction.atomic
def concern_resolve(*, concern_id: int, resolution: str, user) -> SubstantiatedConcern:
    concern = SubstantiatedConcern.objects.select_for_update().filter(pk=concern_id).first()
    if concern is None:
        raise ConcernNotFound()
    if not concern.is_open:
        raise ConcernAlreadyResolved()
    resolution = _text(resolution)
    if not resolution or len(resolution) > 4000:
        raise FieldErrors.on(
            "resolution", _("Give the reason the concern is resolved (at most 4000 characters).")
        )
    from django.utils import timezone

    concern.resolution = resolution
    concern.resolved_by = user
    concern.resolved_at = timezone.now()
    concern.save(update_fields=["resolution", "resolved_by", "resolved_at"])
    return concern


def _reason(reason: str) -> str:
    reason = _text(reason)
    if not reason or len(reason) > MAX_TEXT:
        raise FieldErrors.on("reason", _("Give the reason (at most 2000 characters)."))
    return reason


@transaction.atomic
def delivery_archive(*, delivery_id: int, reason: str, user) -> RecordArchive:
    """ "Delete" of a kept delivery: it is set inactive (issues no cartons) and the archive records who,
    when and why; nothing is removed."""
    reason = _reason(reason)
    delivery = _delivery(delivery_id, lock=True)
    archive = RecordArchive.objects.create(
        delivery=delivery,
        kind=RecordArchive.Kind.DELIVERY_ARCHIVED,
        reason=reason,
        details={"status": delivery.status},
        by=user,
    )
    if delivery.status != RawMaterialDelivery.Status.INACTIVE:
        delivery.status = RawMaterialDelivery.Status.INACTIVE
        delivery.save(update_fields=["status", "updated_at"])
    return archive


@transaction.atomic
def statement_void(*, delivery_id: int, reason: str, user) -> RecordArchive:
    """ "Delete" of a reference recorded by hand (e.g. entered by mistake): the numbers leave the delivery
    (and the public trace), the archive keeps them with who, when and why, and the records stay kept.
    A statement filed through the product is withdrawn through the system instead."""
    reason = _reason(reason)
    delivery = _delivery(delivery_id, lock=True)
    if not delivery.dds_reference_number:
        raise NothingToVoid()
    live = DdsSubmission.objects.filter(
        delivery=delivery, reference_number=delivery.dds_reference_number
    ).exclude(status__in=DdsSubmission.FINAL)
    if live.exists():
        raise Conflict(
            _(
                "This statement was filed through the product: withdraw it in the EU information system instead."
            ),
            error=DueDiligenceErrorCode.NOTHING_TO_VOID,
        )
    archive = RecordArchive.objects.create(
        delivery=delivery,
        kind=RecordArchive.Kind.STATEMENT_VOIDED,
        reason=reason,
        details={
            "reference_number": delivery.dds_reference_number,
            "verification_number": delivery.dds_verification_number,
            "filed_at": delivery.dds_filed_at.isoformat() if delivery.dds_filed_at else None,
        },
        by=user,
    )
    delivery.dds_reference_number = delivery.dds_verification_number = ""
    delivery.dds_filed_at = None
    delivery.dds_filed_by = None
    delivery.save(
        update_fields=[
            "dds_reference_number",
            "dds_verification_number",
            "dds_filed_at",
            "dds_filed_by",
            "updated_at",
        ]
    )
    return archive
