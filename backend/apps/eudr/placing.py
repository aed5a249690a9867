"""Statements around the placing on the market (docs/eudr.md, "Statements around the placing").

An operator files before it places goods on the market, for what it places. A statement around a placing
(`DdsSubmission` without a delivery) covers the cartons of one or more inbound shipments (containers: what
one customs declaration brings in, or several placings grouped):

- its commodities are the HS headings of the cartons actually in those containers, with their net mass;
- its producers and plots are those of every raw-material delivery behind those cartons (their labels);
- its grouped declarations are those deliveries' upstream references (another operator's statements);
- each carton is covered by at most one live statement (`DdsCoveredCarton`, a partial unique constraint).

The filing itself (queue, SOAP call, idempotency, status reads, amend, withdraw) is `filing.py`'s, the
same for both shapes of statement. A statement of one delivery (the earlier shape) covers the cartons of
that delivery labelled before it was filed (`carton_statements`): a carton labelled later is not
declared by it.

Selectors: `container_labels`, `placing_preview`, `carton_statements`, `cartons_not_covered`.
Services: `placing_statement_request`, `coverage_release`. Builder: `placing_request`.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from apps.common.signals import public_trace_changed
from apps.eudr.dds.checks import ERROR, DdsCheck, run_checks, statement_checks
from apps.eudr.dds.package import load_facts
from apps.eudr.dds.statement import (
    ACTIVITY_IMPORT,
    COMMENT_MAX,
    INTERNAL_REFERENCE_MAX,
    OPERATOR,
    _kg,
    _represented_operator,
    _truncate,
    hs_heading,
    producers,
    species_info,
)
from apps.eudr.errors import (
    CartonsAlreadyCovered,
    PlacingInformationMissing,
    PlacingNoCartons,
)
from apps.eudr.filing_models import DdsCoveredCarton, DdsSubmission, DdsSubmissionShipment
from apps.eudr.models import CartonLabel, RawMaterialDelivery
from apps.tenancy.models import EudrImportRole, Tenant

# A statement whose reference numbers may be given on: the system made it available (or amended it).
AVAILABLE = (DdsSubmission.Status.AVAILABLE, DdsSubmission.Status.AMENDED)
DESCRIPTION_MAX = 150


# -- which cartons a container holds ------------------------------------------------------------------


def container_labels_q(shipment) -> Q:
    """The labels of the cartons in an inbound shipment: labelled for its container on an order it
    carries (containers are reused, so the number alone is not enough), labelled for no container on an
    order it carries, or scanned in from it at the warehouse."""
    carried = Q(purchase_order_line__order__shipment_links__shipment=shipment)
    return (
        Q(container=shipment.container_number, purchase_order_line__order__shipment_links__shipment=shipment)
        | Q(container="") & carried
        | Q(warehouse_state__inbound_shipment=shipment)
    )


def container_labels(shipments: Iterable) -> QuerySet[CartonLabel]:
    where = Q(pk__in=[])
    for shipment in shipments:
        where |= container_labels_q(shipment)
    return CartonLabel.objects.filter(status=CartonLabel.Status.ACTIVE).filter(where).distinct()


# -- which statement covers a carton ------------------------------------------------------------------


@dataclass
class CartonStatement:
    """The statement behind one carton, as documents and the trace show it.

    kind: `own` (our statement covers the carton: reference and verification numbers), `pending` (ours is
    filed, not yet available), `upstream` (only another operator's statement is known: its reference
    number only, never its verification number) or `none`."""

    kind: str
    reference: str = ""
    verification: str = ""
    submission_id: int | None = None
    delivery_id: int | None = None
    delivery_number: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reference": self.reference,
            "verification": self.verification if self.kind == "own" else "",
            "statement": self.submission_id,
            "delivery": self.delivery_number,
        }


def carton_statements(label_ids: Iterable[int]) -> dict[int, CartonStatement]:
    """label id -> the statement that covered its placing (two queries, whatever the number of cartons)."""
    ids = list(set(label_ids))
    if not ids:
        return {}
    return statements_for(CartonLabel.objects.filter(pk__in=ids).select_related("raw_material"))


def statements_for(labels: Iterable[CartonLabel]) -> dict[int, CartonStatement]:
    """The same for labels already loaded with their delivery (one query)."""
    labels = list(labels)
    covered = {
        row.label_id: row
        for row in DdsCoveredCarton.objects.filter(
            label_id__in=[label.pk for label in labels], active=True
        ).select_related("submission")
    }
    result: dict[int, CartonStatement] = {}
    for label in labels:
        delivery = label.raw_material
        row = covered.get(label.pk)
        if row is not None:
            submission = row.submission
            if submission.status in AVAILABLE and submission.reference_number:
                result[label.pk] = CartonStatement(
                    "own",
                    submission.reference_number,
                    submission.verification_number,
                    submission.pk,
                    delivery.pk,
                    delivery.delivery_number,
                )
            else:
                result[label.pk] = CartonStatement(
                    "pending", "", "", submission.pk, delivery.pk, delivery.delivery_number
                )
            continue
        if delivery.dds_reference_number and (
            delivery.dds_filed_at is None or label.created_at <= delivery.dds_filed_at
        ):
            # The delivery's own statement (filed before statements followed the goods, or recorded by
            # hand): it declared the cartons labelled before it was filed.
            result[label.pk] = CartonStatement(
                "own",
                delivery.dds_reference_number,
                delivery.dds_verification_number,
                None,
                delivery.pk,
                delivery.delivery_number,
            )
        elif delivery.upstream_dds_reference:
            result[label.pk] = CartonStatement(
                "upstream", delivery.upstream_dds_reference, "", None, delivery.pk, delivery.delivery_number
            )
        else:
            result[label.pk] = CartonStatement("none", "", "", None, delivery.pk, delivery.delivery_number)
    return result


def statements_of_labels(label_ids: Iterable[int]) -> list[dict[str, Any]]:
    """The distinct statements behind the cartons, for a document: [{kind, reference, verification,
    statement, delivery, deliveries, cartons, codes}], ours first, then the pending ones, another operator's, and `none`
    (cartons no statement of ours covers yet)."""
    groups: OrderedDict[tuple[str, str, int | None], dict[str, Any]] = OrderedDict()
    found_by_label = carton_statements(label_ids)
    codes = dict(CartonLabel.objects.filter(pk__in=list(found_by_label)).values_list("pk", "code"))
    for label_id, found in sorted(found_by_label.items()):
        key = (found.kind, found.reference, found.submission_id if found.kind == "pending" else None)
        entry = groups.setdefault(key, {**found.as_dict(), "deliveries": [], "cartons": 0, "codes": []})
        entry["cartons"] += 1
        entry["codes"].append(codes.get(label_id, ""))
        if found.delivery_number and found.delivery_number not in entry["deliveries"]:
            entry["deliveries"].append(found.delivery_number)
    order = {"own": 0, "pending": 1, "upstream": 2, "none": 3}
    rows = sorted(groups.values(), key=lambda g: (order[g["kind"]], g["reference"]))
    for row in rows:
        row["deliveries"].sort()
        row["delivery"] = ", ".join(row["deliveries"])
    return rows


def cartons_not_covered(label_ids: Iterable[int]) -> tuple[list[int], bool]:
    """The imported cartons (scanned in from a container) among `label_ids` that no available statement of
    ours covers, when the company files statements itself ([] otherwise), and whether the company allows
    shipping them anyway (Company settings). One read of the company; used by the shipping gate."""
    from apps.eudr.warehouse import warehouse
    from apps.tenancy.context import get_current_tenant_id

    tenant = Tenant.objects.filter(pk=get_current_tenant_id() or 0).first()
    if tenant is None or tenant.eudr_import_role != EudrImportRole.OPERATOR:
        return [], True
    imported = warehouse().imported_label_ids(label_ids)
    statements = carton_statements(imported)
    return [pk for pk in imported if statements[pk].kind != "own"], tenant.allow_uncovered_shipping


# -- the statement's content --------------------------------------------------------------------------


@dataclass
class PlacingContent:
    """What a statement around a placing declares: the cartons per HS heading and the deliveries behind."""

    labels: list[CartonLabel]
    deliveries: dict[int, RawMaterialDelivery]
    headings: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)

    @property
    def net_kg(self) -> Decimal:
        return sum((h["kg"] for h in self.headings.values()), Decimal(0))


def _content(labels: list[CartonLabel]) -> PlacingContent:
    deliveries: dict[int, RawMaterialDelivery] = {}
    content = PlacingContent(labels=labels, deliveries=deliveries)
    for label in sorted(labels, key=lambda label: (hs_heading(label.product.hs_code), label.pk)):
        deliveries.setdefault(label.raw_material_id, label.raw_material)
        heading = hs_heading(label.product.hs_code)
        entry = content.headings.setdefault(
            heading, {"kg": Decimal(0), "cartons": 0, "names": [], "deliveries": []}
        )
        entry["kg"] += Decimal(label.net_weight_kg or 0)
        entry["cartons"] += 1
        name = f"{label.product.name} ({label.product.article_number})"
        if name not in entry["names"]:
            entry["names"].append(name)
        if label.raw_material_id not in entry["deliveries"]:
            entry["deliveries"].append(label.raw_material_id)
    return content


def _labels_of_submission(submission: DdsSubmission) -> list[CartonLabel]:
    return list(
        CartonLabel.objects.filter(coverage__submission=submission)
        .select_related("product", "raw_material__parent_vendor")
        .order_by("pk")
    )


def placing_request(
    submission: DdsSubmission, *, labels: list[CartonLabel] | None = None, containers: list[str] | None = None
) -> tuple[dict[str, Any], list[DdsCheck]]:
    """The V3 `SubmitDdsRequest` of a statement around a placing, and the checks of every delivery behind
    its cartons plus the rules on the whole statement (errors refuse the filing)."""
    from apps.eudr.dds import xml as dds_xml

    labels = labels if labels is not None else _labels_of_submission(submission)
    content = _content(labels)
    tenant = Tenant.objects.get(pk=submission.tenant_id or _tenant_id())
    found: list[DdsCheck] = []
    producers_of: dict[int, list[dict[str, Any]]] = {}
    species_of: dict[int, list[dict[str, str]]] = {}
    for delivery in content.deliveries.values():
        facts = load_facts(delivery)
        for check in run_checks(facts):
            if check.severity == ERROR:
                found.append(
                    DdsCheck(check.code, f"{delivery.delivery_number}: {check.message}", ERROR, check.feature)
                )
        producers_of[delivery.pk] = producers(facts)
        species_of[delivery.pk] = species_info(facts.lines)
    commodities = []
    for position, (heading, entry) in enumerate(content.headings.items(), start=1):
        plot_producers: list[dict[str, Any]] = []
        species: list[dict[str, str]] = []
        for delivery_id in entry["deliveries"]:
            for producer in producers_of.get(delivery_id, []):
                plot_producers.append({**producer, "position": len(plot_producers) + 1})
            for pair in species_of.get(delivery_id, []):
                if pair not in species:
                    species.append(pair)
        commodities.append(
            {
                "position": position,
                "descriptors": {
                    "descriptionOfGoods": _truncate("; ".join(entry["names"]), DESCRIPTION_MAX),
                    "goodsMeasure": {"netWeight": _kg(entry["kg"])},
                },
                "hsHeading": heading,
                "speciesInfo": species[:500],
                "producers": plot_producers,
            }
        )
    grouped: list[dict[str, str]] = []
    for delivery in content.deliveries.values():
        reference = delivery.upstream_dds_reference
        if reference and {"groupedDeclaration": reference} not in grouped:
            grouped.append({"groupedDeclaration": reference})
    if containers is None:
        containers = list(
            DdsSubmissionShipment.objects.filter(submission=submission)
            .order_by("shipment__container_number")
            .values_list("shipment__container_number", flat=True)
        )
    customs = submission.customs_declaration_number
    comment = _(
        "Import of container(s) %(containers)s: %(cartons)s cartons from deliveries %(deliveries)s."
    ) % {
        "containers": ", ".join(sorted(containers)) or "-",
        "cartons": len(labels),
        "deliveries": ", ".join(sorted(d.delivery_number for d in content.deliveries.values())),
    }
    if customs:
        comment += " " + _("Customs declaration %(number)s of %(date)s.") % {
            "number": customs,
            "date": submission.customs_declaration_date.isoformat()
            if submission.customs_declaration_date
            else "-",
        }
    statement: dict[str, Any] = {
        "internalReferenceNumber": submission.internal_reference[:INTERNAL_REFERENCE_MAX],
        "activityType": ACTIVITY_IMPORT,
        **_represented_operator(tenant),
        "countryOfActivity": tenant.country,
        "borderCrossCountry": tenant.country,
        "comment": _truncate(str(comment), COMMENT_MAX),
        "commodities": commodities,
        "geoLocationConfidential": any(d.geolocation_confidential for d in content.deliveries.values()),
        "groupedDeclarations": grouped,
    }
    request = {"operatorRole": tenant.operator_role or OPERATOR, "statement": statement}
    if not any(c.severity == ERROR for c in found):
        found.extend(statement_checks(request))
    if not any(c.severity == ERROR for c in found):
        problems = dds_xml.validate_request(dds_xml.submit_request(request))
        if problems:
            found.append(
                DdsCheck(
                    "statement_schema_invalid",
                    str(
                        _("The statement does not match the EU information system's format (%(problem)s).")
                        % {"problem": problems[0]}
                    ),
                    ERROR,
                )
            )
    return request, found


# -- preview and request ------------------------------------------------------------------------------


def _covered_elsewhere(labels: list[CartonLabel]) -> dict[int, CartonStatement]:
    """The labels already covered by a live statement of ours (around a placing, filed or pending, or a
    delivery's own statement that declared them). The labels come with their delivery loaded; a
    `pending` carton always has an active coverage row, so one read of the coverage answers both."""
    return {pk: found for pk, found in statements_for(labels).items() if found.kind in ("own", "pending")}


def placing_preview(*, shipments: list) -> dict[str, Any]:
    """What a statement for these containers would declare: cartons and net mass per HS heading, the
    deliveries behind them, cartons already covered by another statement, and the statements of ours that
    cover any of them."""
    labels = list(container_labels(shipments).select_related("product", "raw_material__parent_vendor"))
    covered = _covered_elsewhere(labels)
    free = [label for label in labels if label.pk not in covered]
    content = _content(free)
    submissions = (
        DdsSubmission.objects.filter(shipment_links__shipment__in=shipments)
        .distinct()
        .order_by("-created_at", "-pk")
    )
    return {
        "cartons": len(free),
        "cartons_covered": len(covered),
        "net_weight_kg": content.net_kg,
        "commodities": [
            {
                "hs_heading": heading,
                "cartons": entry["cartons"],
                "net_weight_kg": entry["kg"],
                "description": "; ".join(entry["names"]),
            }
            for heading, entry in content.headings.items()
        ],
        "deliveries": [
            {
                "id": d.pk,
                "delivery_number": d.delivery_number,
                "supplier": d.parent_vendor.name if d.parent_vendor_id else "",
                "country": d.country_code,
                "upstream_reference": d.upstream_dds_reference,
            }
            for d in sorted(content.deliveries.values(), key=lambda d: d.delivery_number)
        ],
        "statements": list(submissions),
    }


@transaction.atomic
def placing_statement_request(
    *,
    shipment_ids: list[int],
    customs_declaration_number: str = "",
    customs_declaration_date=None,
    user,
) -> DdsSubmission:
    """A new statement covering the cartons of the inbound shipments, queued for filing (the caller queues
    `eudr.file_dds` after commit). Refused when the company does not file statements, without TRACES
    credentials, when the containers hold no carton or only cartons already covered (a statement covers
    those not yet covered), when a
    delivery behind the cartons fails the filing gate (risk assessment, open concern) or lacks required
    information, and when an upstream statement it would group is not usable."""
    from apps.eudr.filing import _event, filing_allowed_check
    from apps.eudr.gates import filing_gate_check
    from apps.eudr.verification import ensure_upstream_usable
    from apps.logistics.models import ShipmentInfo

    from .filing_models import DdsSubmission as Submission

    account = filing_allowed_check(Tenant.objects.get(pk=_tenant_id()))
    shipments = list(
        ShipmentInfo.objects.select_for_update(of=("self",)).filter(pk__in=shipment_ids).order_by("pk")
    )
    if len(shipments) != len(set(shipment_ids)):
        from apps.common.exceptions import NotFound

        raise NotFound(_("Inbound shipment not found."))
    labels = list(
        container_labels(shipments).select_related("product", "raw_material__parent_vendor").order_by("pk")
    )
    # The labels' rows are locked so that a carton cannot be covered twice by two requests at once, nor
    # voided while it is being declared.
    list(
        CartonLabel.objects.select_for_update(of=("self",))
        .filter(pk__in=[label.pk for label in labels])
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not labels:
        raise PlacingNoCartons()
    covered = _covered_elsewhere(labels)
    if covered and len(covered) == len(labels):
        codes = [label.code for label in labels]
        references = sorted({str(c.reference or _("a statement being filed")) for c in covered.values()})
        raise CartonsAlreadyCovered(
            _(
                "Every carton of these containers is already covered by %(statements)s (e.g. %(codes)s): a "
                "carton is declared once."
            )
            % {"statements": ", ".join(references), "codes": ", ".join(codes[:3])},
            data={"cartons": codes[:50], "count": len(codes)},
        )
    # Cartons already covered (e.g. by an earlier statement of the same container) stay with it.
    labels = [label for label in labels if label.pk not in covered]
    deliveries = {label.raw_material_id: label.raw_material for label in labels}
    for delivery in sorted(deliveries.values(), key=lambda d: d.pk):
        filing_gate_check(delivery=delivery)
        ensure_upstream_usable(delivery=delivery)
    submission = Submission(
        delivery=None,
        environment=account.environment,
        created_by=user,
        customs_declaration_number=customs_declaration_number.strip(),
        customs_declaration_date=customs_declaration_date,
    )
    submission.internal_reference = placing_internal_reference(shipments, submission.key.hex[:8])
    _request, found = placing_request(
        submission, labels=labels, containers=[shipment.container_number for shipment in shipments]
    )
    errors = [c for c in found if c.severity == ERROR]
    if errors:
        raise PlacingInformationMissing(
            _("Required information is missing: %(problems)s")
            % {"problems": "; ".join(c.message for c in errors[:5])},
            data={"errors": [c.as_dict() for c in errors]},
        )
    submission.pending_action = Submission.Action.SUBMIT
    submission.save()
    DdsSubmissionShipment.objects.bulk_create(
        [DdsSubmissionShipment(submission=submission, shipment=shipment) for shipment in shipments]
    )
    try:
        with transaction.atomic():
            _cover(submission, labels)
    except IntegrityError as exc:  # a concurrent statement covered one of them first
        raise CartonsAlreadyCovered() from exc
    _event(submission, Submission.Action.SUBMIT, "queued", user=user)
    return submission


def _cover(submission: DdsSubmission, labels: list[CartonLabel]) -> None:
    """The statement's coverage rows: each carton with its delivery, HS heading and net mass."""
    # bulk_create sends no model signal (apps/common/signals.py)
    public_trace_changed.send(
        sender=DdsCoveredCarton, tenant_id=submission.tenant_id, labels=[label.pk for label in labels]
    )
    DdsCoveredCarton.objects.bulk_create(
        [
            DdsCoveredCarton(
                submission=submission,
                label=label,
                delivery_id=label.raw_material_id,
                hs_heading=hs_heading(label.product.hs_code),
                net_weight_kg=label.net_weight_kg,
            )
            for label in labels
        ]
    )


def _tenant_id() -> int:
    from apps.tenancy.context import get_current_tenant_id

    return get_current_tenant_id() or 0


def placing_internal_reference(shipments: list, suffix: str) -> str:
    """Our reference of a statement around a placing (at most 35 characters): the first container's number
    and a suffix."""
    first = "".join(ch for ch in (shipments[0].container_number if shipments else "IMPORT") if ch.isalnum())
    suffix = suffix.upper()
    return f"{first[: INTERNAL_REFERENCE_MAX - len(suffix) - 1]}-{suffix}"


def coverage_release(submission: DdsSubmission) -> int:
    """A rejected or withdrawn statement covers nothing: its cartons may be declared again. Its rows stay
    (inactive) as the record of what it declared. Returns how many were released."""
    if submission.status not in DdsSubmission.FINAL:
        return 0
    released = DdsCoveredCarton.objects.filter(submission=submission, active=True).update(active=False)
    if released:  # update() sends no model signal (apps/common/signals.py)
        public_trace_changed.send(
            sender=DdsCoveredCarton, tenant_id=submission.tenant_id, submissions=[submission.pk]
        )
    return released


def available_statement_record(
    *, shipment, reference_number: str, verification_number: str, submitted_at
) -> DdsSubmission:
    """A statement around the placing of a container as the system made it available, written without
    calling the system: for the demo data, which has no EU information system to file with, and for tests
    of what follows from an available statement."""
    labels = list(container_labels([shipment]).select_related("product").order_by("pk"))
    submission = DdsSubmission.objects.create(
        delivery=None,
        internal_reference=placing_internal_reference([shipment], "DEMO0001"),
        environment="acceptance",
        status=DdsSubmission.Status.AVAILABLE,
        system_status="AVAILABLE",
        uuid=str(uuid.uuid5(uuid.NAMESPACE_URL, f"cartontrace-demo-placing-{shipment.pk}")),
        reference_number=reference_number,
        verification_number=verification_number,
        customs_declaration_number="26NL" + "0" * 10 + "4812",
        customs_declaration_date=submitted_at.date(),
        submitted_at=submitted_at,
        checked_at=submitted_at,
    )
    DdsSubmissionShipment.objects.create(submission=submission, shipment=shipment)
    _cover(submission, labels)
    return submission
