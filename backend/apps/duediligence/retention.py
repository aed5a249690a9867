"""Records kept five years (Art. 12(3) of Regulation (EU) 2023/1115; docs/duediligence.md).

From the moment a delivery's statement is filed through the product (the system accepted it) or its
reference number is recorded by hand, a `RetentionHold` keeps the delivery and everything its statement
rests on for five years: the delivery, its materials, plots and documents, its statements and the
system's answers, its risk assessments, overrides, concerns and archive records.

Deleting any of them is refused (`RecordsKept`), wherever the delete comes from (the API, the admin, a
cascade): the models' `pre_delete` signal checks the hold. The fields the statement declared (origin,
plots, certificates, documents, upstream statement) cannot be changed either (`pre_save`). "Delete"
becomes archive (the delivery, set inactive) or void (a recorded reference), with who, when and why
(`services.delivery_archive`, `services.statement_void`).
"""

from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.db.models.signals import post_save, pre_delete, pre_save
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.dates import day_text

from .errors import RecordsKept

RETENTION = timedelta(days=5 * 366)

# The delivery's fields a filed statement declared: kept unchanged while the hold lasts.
KEPT_DELIVERY_FIELDS = (
    "parent_vendor_id",
    "delivery_number",
    "country_code",
    "forest_supplier_name",
    "fm_certification_type",
    "fm_certificate_number",
    "fm_certificate_expiry",
    "coc_certification",
    "coc_certificate_number",
    "coc_certificate_expiry",
    "material_sc_number",
    "harvest_begin_month",
    "harvest_end_month",
    "location_geojson",
    "geolocation_confidential",
    "upstream_dds_reference",
    "upstream_dds_verification",
    "delivery_file",
    "vendor_certificate",
    "sc_invoice",
    "forest_supplier_certificate",
    "logging_license",
    "location_file",
)


# model label -> how to find the delivery id of a row
def _submission_delivery(submission) -> int | None:
    """The delivery a statement rests on: its own, or for a statement around a placing the first delivery
    behind its cartons (every one of them holds the statement's records, `_submission_saved`)."""
    if submission.delivery_id is not None:
        return submission.delivery_id
    from apps.eudr.models import DdsCoveredCarton

    return (
        DdsCoveredCarton.unscoped.filter(submission_id=submission.pk)
        .order_by("delivery_id")
        .values_list("delivery_id", flat=True)
        .first()
    )


KEPT_MODELS = {
    "eudr.RawMaterialDelivery": lambda obj: obj.pk,
    "eudr.RawMaterialLine": lambda obj: obj.delivery_id,
    "eudr.DdsSubmission": _submission_delivery,
    "eudr.DdsSubmissionEvent": lambda obj: _submission_delivery(obj.submission),
    "eudr.DdsSubmissionShipment": lambda obj: _submission_delivery(obj.submission),
    "eudr.DdsCoveredCarton": lambda obj: obj.delivery_id,
    "duediligence.RiskAssessment": lambda obj: obj.delivery_id,
    "duediligence.FilingOverride": lambda obj: obj.delivery_id,
    "duediligence.SubstantiatedConcern": lambda obj: (
        obj.delivery_id or (obj.submission.delivery_id if obj.submission_id else None)
    ),
    "duediligence.RecordArchive": lambda obj: obj.delivery_id,
    "duediligence.RetentionHold": lambda obj: obj.delivery_id,
}


def hold_of(delivery_id: int | None):
    """The delivery's hold while it lasts, else None."""
    from .models import RetentionHold

    if delivery_id is None:
        return None
    return RetentionHold.unscoped.filter(delivery_id=delivery_id, keep_until__gt=timezone.now()).first()


def refuse_if_kept(*, delivery_id: int | None, message=None) -> None:
    """Raises `RecordsKept` when a filed statement rests on the delivery (the hook of every delete of a
    kept record: the delivery, its documents, its recorded statement)."""
    hold = hold_of(delivery_id)
    if hold is not None:
        raise RecordsKept(
            message
            or _(
                "A due diligence statement (%(reference)s) rests on this record: it is kept until %(until)s "
                "and cannot be deleted. Archive or void it with a reason instead."
            )
            % {
                "reference": hold.reference_number or "-",
                "until": day_text(timezone.localtime(hold.keep_until)),
            },
            data={"keep_until": hold.keep_until.isoformat(), "reference_number": hold.reference_number},
        )


def place_hold(*, delivery, reason: str, reference_number: str = "") -> None:
    from .models import RetentionHold

    now = timezone.now()
    hold = RetentionHold.unscoped.filter(delivery_id=delivery.pk).first()
    if hold is None:
        RetentionHold.objects.create(
            delivery=delivery,
            reason=reason,
            reference_number=reference_number,
            started_at=now,
            keep_until=now + RETENTION,
        )
    elif hold.keep_until < now + RETENTION:
        # A newer statement on the same delivery: five years from the latest.
        hold.keep_until = now + RETENTION
        hold.reference_number = reference_number or hold.reference_number
        hold.save(update_fields=["keep_until", "reference_number"])


def _delivery_saved(sender, instance, created, raw=False, **kwargs):
    if raw or not instance.dds_reference_number:
        return
    from .models import RetentionHold

    if RetentionHold.unscoped.filter(
        delivery_id=instance.pk, reference_number=instance.dds_reference_number
    ).exists():
        return
    filed = instance.dds_submissions.filter(reference_number=instance.dds_reference_number).exists()
    place_hold(
        delivery=instance,
        reason=RetentionHold.Reason.FILED if filed else RetentionHold.Reason.RECORDED,
        reference_number=instance.dds_reference_number,
    )


def _submission_saved(sender, instance, created, raw=False, **kwargs):
    # Accepted by the system (a uuid): from now on it is a filed statement.
    if raw or not instance.uuid:
        return
    from apps.eudr.models import DdsCoveredCarton, RawMaterialDelivery

    from .models import RetentionHold

    if instance.delivery_id is not None:
        delivery_ids = [instance.delivery_id]
    else:
        # A statement around a placing rests on every delivery behind the cartons it declares.
        delivery_ids = sorted(
            set(
                DdsCoveredCarton.unscoped.filter(submission_id=instance.pk).values_list(
                    "delivery_id", flat=True
                )
            )
        )
    held = set(
        RetentionHold.unscoped.filter(delivery_id__in=delivery_ids).values_list("delivery_id", flat=True)
    )
    for delivery in RawMaterialDelivery.unscoped.filter(pk__in=[d for d in delivery_ids if d not in held]):
        place_hold(
            delivery=delivery,
            reason=RetentionHold.Reason.FILED,
            reference_number=instance.reference_number,
        )


def _refuse_delete(sender, instance, **kwargs):
    delivery_id = KEPT_MODELS[f"{sender._meta.app_label}.{sender.__name__}"](instance)
    refuse_if_kept(delivery_id=delivery_id)


def _refuse_kept_changes(sender, instance, raw=False, update_fields=None, **kwargs):
    if raw or instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & {
        f.removesuffix("_id") for f in KEPT_DELIVERY_FIELDS
    }:
        return
    hold = hold_of(instance.pk)
    if hold is None:
        return
    before = sender.unscoped.filter(pk=instance.pk).values(*KEPT_DELIVERY_FIELDS).first() or {}
    changed = []
    for name in KEPT_DELIVERY_FIELDS:
        value = getattr(instance, name)
        if hasattr(value, "storage"):  # a document: compare the stored file's name
            value = value.name
        if (value or None) != (before.get(name) or None):
            changed.append(name.removesuffix("_id"))
    if changed:
        raise RecordsKept(
            _(
                "A due diligence statement (%(reference)s) rests on this delivery: what it declared (%(fields)s) "
                "is kept unchanged until %(until)s. Record a new delivery instead."
            )
            % {
                "reference": hold.reference_number or "-",
                "fields": ", ".join(changed),
                "until": day_text(timezone.localtime(hold.keep_until)),
            },
            data={"fields": changed, "keep_until": hold.keep_until.isoformat()},
        )


def connect() -> None:
    delivery = apps.get_model("eudr.RawMaterialDelivery")
    submission = apps.get_model("eudr.DdsSubmission")
    post_save.connect(_delivery_saved, sender=delivery, dispatch_uid="duediligence-hold-delivery", weak=False)
    post_save.connect(
        _submission_saved, sender=submission, dispatch_uid="duediligence-hold-submission", weak=False
    )
    pre_save.connect(
        _refuse_kept_changes, sender=delivery, dispatch_uid="duediligence-kept-fields", weak=False
    )
    for label in KEPT_MODELS:
        pre_delete.connect(
            _refuse_delete,
            sender=apps.get_model(label),
            dispatch_uid=f"duediligence-kept-{label}",
            weak=False,
        )
