"""The due diligence statement filed for a delivery: recording and clearing its numbers."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.exceptions import Conflict
from apps.eudr import errors
from apps.eudr.gates import filing_gate_check, refuse_if_kept
from apps.eudr.models import RawMaterialDelivery

# -- the filed due diligence statement -------------------------------------------------------------------


@transaction.atomic
def raw_material_record_dds(
    *, delivery_id: int, reference_number: str, verification_number: str, filed_at=None, user, queryset=None
) -> RawMaterialDelivery:
    """Records the reference and verification number the EU information system answered when the tenant
    filed its due diligence statement for this delivery (replacing an earlier record: an amended
    statement keeps its numbers, a withdrawn one is replaced by a new one). The inputs are validated by
    the API (serializers.RecordDdsSerializer); the public trace shows the reference number, never the
    verification number."""
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    if delivery.status == RawMaterialDelivery.Status.DRAFT:
        raise Conflict(_("Submit the draft first."), error=errors.EudrErrorCode.RAW_MATERIAL_DRAFT)
    if reference_number != delivery.dds_reference_number:
        filing_gate_check(delivery=delivery)
    delivery.dds_reference_number = reference_number
    delivery.dds_verification_number = verification_number
    delivery.dds_filed_at = filed_at or timezone.now()
    delivery.dds_filed_by = user
    delivery.save(
        update_fields=[
            "dds_reference_number",
            "dds_verification_number",
            "dds_filed_at",
            "dds_filed_by",
            "updated_at",
        ]
    )
    return delivery


@transaction.atomic
def raw_material_clear_dds(*, delivery_id: int, queryset=None) -> RawMaterialDelivery:
    """Removes a recorded statement (entered by mistake); the public trace falls back to the upstream
    reference number."""
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    refuse_if_kept(
        delivery_id=delivery.pk,
        message=_(
            "The recorded statement is kept for five years: void it with a reason instead of deleting it."
        ),
    )
    delivery.dds_reference_number = ""
    delivery.dds_verification_number = ""
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
    return delivery
