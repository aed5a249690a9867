"""Checking received reference numbers with the EU information system (`verifyDeclaration`,
EUDRVerifyDeclarationServiceV3) and keeping the ones a downstream operator or trader received
(docs/eudr.md, "Received reference numbers"). Services are keyword-only (docs/architecture.md).

- A pair (reference or simplified-declaration identifier + verification number) is checked when it is
  entered (a delivery's upstream statement, a received reference) and again before a statement of ours
  groups it; the answer (EXISTING_USABLE, EXISTING_NON_USABLE, NON_EXISTENT), the declaration's status and
  the time are kept with the pair. Without a TRACES account, or without an answer, the pair is kept
  unchecked with the reason in words: the reference is on the supplier's paper either way.
- Received references are kept 5 years from receipt; a wrong entry may be deleted on the day it was
  entered, later it is refused.
- A non-SME company may read the referenced statement (`getDdsByIdentifiers`); an SME may not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.common.dates import day_text
from apps.common.exceptions import FieldErrors
from apps.eudr import references, traces
from apps.eudr.errors import (
    ReceivedReferenceRetained,
    ReferencedStatementNotAllowed,
    UpstreamDeclarationNotUsable,
)
from apps.eudr.filing_models import TracesAccount
from apps.eudr.models import RawMaterialDelivery
from apps.eudr.received_models import RETENTION_YEARS, ReceivedReference, VerificationResult
from apps.tenancy.context import require_tenant_id
from apps.tenancy.models import Tenant
from apps.tenancy.operator import may_read_referenced_statements

CORRECTION_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Outcome:
    result: str  # "" when not checked
    status: str
    verified_at: Any
    message: str


def _client() -> traces.TracesClient | None:
    from apps.eudr.filing import client_for

    account = TracesAccount.objects.first()
    if account is None or not account.is_complete:
        return None
    return client_for(account)


def verify_pair(*, reference: str, verification: str) -> Outcome:
    """Asks the system about one pair; never raises for the system's own troubles (they are the outcome's
    message), so an entry is kept even when the system cannot be asked."""
    client = _client()
    if client is None:
        return Outcome(
            "",
            "",
            None,
            _("Not verified: enter the TRACES account in Company settings to verify reference numbers."),
        )
    try:
        answer = client.verify_declaration(reference, verification)
    except traces.TracesError as exc:
        return Outcome("", "", None, _("Not verified: %(reason)s") % {"reason": exc.describe()})
    moment = parse_datetime(answer.checked_at) if answer.checked_at else None
    return Outcome(answer.result, answer.status, moment or timezone.now(), "")


def _describe(result: str, status: str) -> str:
    if result == VerificationResult.EXISTING_NON_USABLE:
        return _(
            "The EU information system says the declaration exists but may not be relied on (status "
            "%(status)s)."
        ) % {"status": status or "-"}
    if result == VerificationResult.NON_EXISTENT:
        return _(
            "The EU information system knows no declaration with this reference and verification number."
        )
    return ""


# -- a delivery's upstream statement ---------------------------------------------------------------------


def delivery_verify_upstream(*, delivery: RawMaterialDelivery) -> RawMaterialDelivery:
    """Checks the delivery's upstream pair and keeps the answer on the delivery (nothing to check: the
    earlier answer is cleared)."""
    if delivery.upstream_dds_reference and delivery.upstream_dds_verification:
        outcome = verify_pair(
            reference=delivery.upstream_dds_reference, verification=delivery.upstream_dds_verification
        )
    else:
        outcome = Outcome("", "", None, "")
    delivery.upstream_verification_result = outcome.result
    delivery.upstream_verification_status = outcome.status
    delivery.upstream_verified_at = outcome.verified_at
    delivery.upstream_verification_message = outcome.message[:1000]
    RawMaterialDelivery.objects.filter(pk=delivery.pk).update(
        upstream_verification_result=outcome.result,
        upstream_verification_status=outcome.status,
        upstream_verified_at=outcome.verified_at,
        upstream_verification_message=outcome.message[:1000],
    )
    return delivery


def ensure_upstream_usable(*, delivery: RawMaterialDelivery) -> None:
    """Before a statement of ours groups the delivery's upstream statement: verified now, and refused
    unless the system says it exists and may be relied on (or the system cannot be asked)."""
    if not delivery.upstream_dds_reference:
        return
    delivery_verify_upstream(delivery=delivery)
    result = delivery.upstream_verification_result
    if result == VerificationResult.EXISTING_USABLE:
        return
    if not result:
        raise UpstreamDeclarationNotUsable(
            _("The referenced statement %(reference)s could not be verified: %(reason)s")
            % {
                "reference": delivery.upstream_dds_reference,
                "reason": delivery.upstream_verification_message,
            },
            data={"result": "", "reference": delivery.upstream_dds_reference},
        )
    raise UpstreamDeclarationNotUsable(
        _("The referenced statement %(reference)s cannot be grouped: %(reason)s")
        % {
            "reference": delivery.upstream_dds_reference,
            "reason": _describe(result, delivery.upstream_verification_status),
        },
        data={"result": result, "reference": delivery.upstream_dds_reference},
    )


# -- received reference numbers (downstream operators and traders) --------------------------------------


def _keep_until(received_on: date) -> date:
    try:
        return received_on.replace(year=received_on.year + RETENTION_YEARS)
    except ValueError:  # 29 February
        return received_on.replace(year=received_on.year + RETENTION_YEARS, day=28)


def _apply(reference: ReceivedReference, outcome: Outcome) -> None:
    reference.verification_result = outcome.result
    reference.verification_status = outcome.status
    reference.verified_at = outcome.verified_at
    reference.verification_message = outcome.message[:1000]


@transaction.atomic
def received_reference_create(*, data: dict[str, Any], user) -> ReceivedReference:
    """Keeps a received pair (checked for the system's format by the serializer) and verifies it."""
    number = references.normalise_reference(data["reference_number"])
    kind = references.reference_kind(number)
    if kind is None:
        raise FieldErrors.on("reference_number", references.MSG_REFERENCE_FORMAT)
    reference = ReceivedReference(
        parent_vendor=data["parent_vendor"],
        document_number=data["document_number"],
        received_on=data.get("received_on") or timezone.localdate(),
        reference_number=number,
        verification_number=data["verification_number"],
        kind=kind,
        notes=data.get("notes", ""),
        created_by=user,
    )
    reference.keep_until = _keep_until(reference.received_on)
    _apply(reference, verify_pair(reference=number, verification=reference.verification_number))
    try:
        with transaction.atomic():
            reference.save()
    except IntegrityError:
        raise FieldErrors.on(
            "reference_number",
            _("This reference number is already recorded for this supplier's document."),
        ) from None
    return reference


@transaction.atomic
def received_reference_verify(*, reference_id: int, queryset=None) -> ReceivedReference:
    queryset = queryset if queryset is not None else ReceivedReference.objects.all()
    reference = queryset.select_for_update(of=("self",)).get(pk=reference_id)
    _apply(
        reference,
        verify_pair(reference=reference.reference_number, verification=reference.verification_number),
    )
    reference.save(
        update_fields=[
            "verification_result",
            "verification_status",
            "verified_at",
            "verification_message",
            "updated_at",
        ]
    )
    return reference


@transaction.atomic
def received_reference_delete(*, reference: ReceivedReference) -> None:
    """A wrong entry may be deleted on the day it was entered; after that it is kept until
    `keep_until` (5 years from receipt)."""
    now = timezone.now()
    if reference.created_at < now - CORRECTION_WINDOW and reference.keep_until > now.date():
        raise ReceivedReferenceRetained(
            _("Received reference numbers are kept for 5 years: this one is kept until %(date)s.")
            % {"date": day_text(reference.keep_until)}
        )
    reference.delete()


def received_reference_statement(*, reference: ReceivedReference) -> traces.ReferencedStatement:
    """The referenced statement's content (getDdsByIdentifiers): for non-SME companies only."""
    tenant = Tenant.objects.get(pk=require_tenant_id())
    if not may_read_referenced_statements(tenant):
        raise ReferencedStatementNotAllowed()
    if reference.kind != ReceivedReference.Kind.DDS:
        raise ReferencedStatementNotAllowed(
            _("A simplified declaration is not read here: only due diligence statements are.")
        )
    from apps.eudr.filing import client_for

    return client_for(TracesAccount.objects.first()).get_dds_by_identifiers(
        reference.reference_number, reference.verification_number
    )
