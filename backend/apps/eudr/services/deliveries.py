"""Raw-material deliveries: the policy snapshot, completeness, the unique number, create/update/submit,
status and expiry, deletion, the points to look at and the confirmation of plots outside their country."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.common.dates import day_text
from apps.common.exceptions import Conflict, DomainError, FieldErrors
from apps.eudr import errors, trace_store
from apps.eudr.gates import refuse_if_kept
from apps.eudr.models import (
    EUDR_CUTOFF_MONTH,
    CartonLabel,
    FileKind,
    MaterialType,
    RawMaterialDelivery,
    RawMaterialLine,
    SupplierPolicy,
)
from apps.eudr.selectors import carton_cap_of, kg, weight_balance
from apps.notifications.emit import emit, emit_many

# The built-in default when neither the vendor nor the tenant has a policy: a carton consumes at least
# 100 g, no production loss, cap derived from the weight (docs/eudr.md).
DEFAULT_MIN_CONSUMPTION_KG = Decimal("0.100")
DEFAULT_LOSS_RATE_PERCENT = Decimal("0")
# Cartons beyond a purchase order line's ordered quantity, in percent, without a supplier policy.

# Messages of docs/specification.md section 5, exactly.
MSG_PARENT_VENDOR_REQUIRED = gettext_lazy("Parent vendor is required")
MSG_DELIVERY_NUMBER_REQUIRED = gettext_lazy("Delivery number is required")
MSG_MATERIAL_TYPE_REQUIRED = gettext_lazy("Material type is required")
MSG_VALID_WEIGHT_REQUIRED = gettext_lazy("Valid weight is required")
MSG_PULP_TYPE_REQUIRED = gettext_lazy("Pulp type is required for Paper materials")
MSG_AT_LEAST_ONE_MATERIAL = gettext_lazy("At least one material is required")
MSG_DELIVERY_FILE_REQUIRED = gettext_lazy("Delivery file is required (parse)")

DELIVERY_FIELDS = (
    "parent_vendor",
    "delivery_number",
    "document_from",
    "description",
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
)


LINE_FIELDS = ("material_type", "weight_kg", "pulp_type", "pulp_brand", "scientific_names", "common_names")


# -- policies --------------------------------------------------------------------------------------------


def policy_for_delivery(*, parent_vendor_id: int | None, material_type: str) -> SupplierPolicy | None:
    """The active policy that applies: the vendor's for this material, else the vendor's for every
    material, else the tenant default (no vendor) for this material, else for every material."""
    today = timezone.localdate()
    candidates = list(
        SupplierPolicy.objects.filter(is_active=True, valid_from__lte=today)
        .filter(Q(parent_vendor_id=parent_vendor_id) | Q(parent_vendor__isnull=True))
        .filter(material_type__in=[material_type or "", ""])
        .select_related("parent_vendor")
    )

    def rank(policy: SupplierPolicy) -> tuple[int, int]:
        return (0 if policy.parent_vendor_id else 1, 0 if policy.material_type else 1)

    candidates = [p for p in candidates if p.parent_vendor_id in (parent_vendor_id, None)]
    return min(candidates, key=rank) if candidates else None


def _policy_source(policy: SupplierPolicy | None, on: date) -> str:
    if policy is None:
        return f"built-in default (no supplier policy) {on.isoformat()}"
    vendor = policy.parent_vendor.name if policy.parent_vendor is not None else "all vendors"
    material = policy.material_type or "all materials"
    prefix = "policy" if policy.parent_vendor_id else "tenant default policy"
    return f"{prefix} #{policy.pk} ({vendor}, {material}) {on.isoformat()}"


def _main_material_type(lines: list[RawMaterialLine]) -> str:
    typed = [line for line in lines if line.material_type]
    if not typed:
        return ""
    return max(typed, key=lambda line: line.weight_kg or Decimal(0)).material_type


def _apply_policy_snapshot(delivery: RawMaterialDelivery, lines: list[RawMaterialLine]) -> None:
    policy = policy_for_delivery(
        parent_vendor_id=delivery.parent_vendor_id, material_type=_main_material_type(lines)
    )
    delivery.policy = policy
    if policy is None:
        delivery.min_consumption_per_carton = DEFAULT_MIN_CONSUMPTION_KG
        delivery.loss_rate_percent = DEFAULT_LOSS_RATE_PERCENT
        delivery.cap_mode = SupplierPolicy.CapMode.BY_WEIGHT
        delivery.cap_value = None
    else:
        delivery.min_consumption_per_carton = policy.min_consumption_per_carton
        delivery.loss_rate_percent = policy.loss_rate_percent
        delivery.cap_mode = policy.cap_mode
        delivery.cap_value = policy.cap_value
    delivery.policy_source = _policy_source(policy, timezone.localdate())


def _recompute_cap(delivery: RawMaterialDelivery) -> None:
    balance = weight_balance(delivery)
    delivery.allowed_carton_cap = carton_cap_of(
        cap_mode=delivery.cap_mode,
        cap_value=delivery.cap_value,
        available_kg=balance.available_kg,
        min_consumption=delivery.min_consumption_per_carton,
    )


# -- deliveries ------------------------------------------------------------------------------------------


def completeness_errors(delivery: RawMaterialDelivery, lines: list[RawMaterialLine]) -> dict[str, Any]:
    """The required-field checks a submitted delivery must pass (drafts skip them), with docs/specification.md's
    messages. Returns field errors ({} when complete)."""
    problems: dict[str, Any] = {}
    if not delivery.parent_vendor_id:
        problems["parent_vendor"] = [MSG_PARENT_VENDOR_REQUIRED]
    if not (delivery.delivery_number or "").strip():
        problems["delivery_number"] = [MSG_DELIVERY_NUMBER_REQUIRED]
    if not lines:
        problems["lines"] = [MSG_AT_LEAST_ONE_MATERIAL]
    else:
        line_problems = [line_errors(line) for line in lines]
        if any(line_problems):
            problems["lines"] = line_problems
    if delivery.upstream_dds_reference and not delivery.upstream_dds_verification:
        problems["upstream_dds_verification"] = [
            _("Enter the verification number of the referenced due diligence statement.")
        ]
    if delivery.upstream_dds_verification and not delivery.upstream_dds_reference:
        problems["upstream_dds_reference"] = [
            _("Enter the reference number of the referenced due diligence statement.")
        ]
    return problems


def line_errors(line: RawMaterialLine | dict) -> dict[str, list]:
    get = line.get if isinstance(line, dict) else (lambda name, default=None: getattr(line, name, default))
    problems: dict[str, list] = {}
    material_type = get("material_type") or ""
    weight = get("weight_kg")
    if not material_type:
        problems["material_type"] = [MSG_MATERIAL_TYPE_REQUIRED]
    if weight is None or Decimal(weight) <= 0:
        problems["weight_kg"] = [MSG_VALID_WEIGHT_REQUIRED]
    if material_type == MaterialType.PAPER and not get("pulp_type"):
        problems["pulp_type"] = [MSG_PULP_TYPE_REQUIRED]
    return problems


def _country_name(code: str) -> str:
    if not code:
        return ""
    from apps.eudr.geo import countries

    return countries().get(code, {}).get("name", "")


def _apply_fields(delivery: RawMaterialDelivery, data: dict[str, Any]) -> None:
    for name in DELIVERY_FIELDS:
        if name in data:
            value = data[name]
            if value is None and name not in (
                "parent_vendor",
                "location_geojson",
                "fm_certificate_expiry",
                "coc_certificate_expiry",
            ):
                value = "" if name != "geolocation_confidential" else False
            setattr(delivery, name, value)
    delivery.country_name = _country_name(delivery.country_code)


def _replace_lines(delivery: RawMaterialDelivery, lines: list[dict[str, Any]]) -> list[RawMaterialLine]:
    RawMaterialLine.objects.filter(delivery=delivery).delete()
    objs = [
        RawMaterialLine(
            delivery=delivery,
            tenant_id=delivery.tenant_id,
            position=index,
            material_type=line.get("material_type") or "",
            weight_kg=line.get("weight_kg"),
            pulp_type=line.get("pulp_type") or "",
            pulp_brand=line.get("pulp_brand") or "",
            scientific_names=list(line.get("scientific_names") or []),
            common_names=list(line.get("common_names") or []),
        )
        for index, line in enumerate(lines)
    ]
    trace_store.changed(delivery.tenant_id, deliveries=[delivery.pk])  # bulk_create sends no signal
    return RawMaterialLine.objects.bulk_create(objs)


def _original_kg(lines: list[RawMaterialLine]) -> Decimal:
    return kg(sum((line.weight_kg for line in lines if line.weight_kg and line.weight_kg > 0), Decimal(0)))


def _status_after_activation(delivery: RawMaterialDelivery) -> str:
    expiry = delivery.certificate_expiry
    if expiry is not None and expiry < timezone.localdate():
        return RawMaterialDelivery.Status.EXPIRED
    return RawMaterialDelivery.Status.ACTIVE


def _save_delivery(
    delivery: RawMaterialDelivery, lines: list[RawMaterialLine], *, activating: bool, user
) -> RawMaterialDelivery:
    if delivery.status == RawMaterialDelivery.Status.DRAFT and not activating:
        # A draft follows the current policy until it is submitted.
        _apply_policy_snapshot(delivery, lines)
        delivery.original_kg = _original_kg(lines)
        _recompute_cap(delivery)
        _save_unique_number(delivery)
        return delivery

    problems = completeness_errors(delivery, lines)
    if problems:
        raise FieldErrors(problems)
    original = _original_kg(lines)
    if activating:
        _apply_policy_snapshot(delivery, lines)
        delivery.submitted_at = timezone.now()
        delivery.status = _status_after_activation(delivery)
    delivery.original_kg = original
    balance = weight_balance(delivery)
    if balance.remaining_kg < 0:
        raise DomainError(
            _(
                "The delivery's available weight (%(available)s kg) would be less than the weight its "
                "cartons already use (%(used)s kg)."
            )
            % {"available": balance.available_kg, "used": balance.used_kg},
            error=errors.EudrErrorCode.WEIGHT_BELOW_USED,
            data={"lines": [_("The weight is less than the cartons already use.")]},
        )
    _recompute_cap(delivery)
    if (
        delivery.status == RawMaterialDelivery.Status.EXPIRED
        and not activating
        and _status_after_activation(delivery) == RawMaterialDelivery.Status.ACTIVE
    ):
        # Renewed certificates bring an expired delivery back.
        delivery.status = RawMaterialDelivery.Status.ACTIVE
    _save_unique_number(delivery)
    return delivery


def _number_clashes(delivery: RawMaterialDelivery) -> bool:
    if not delivery.delivery_number or not delivery.parent_vendor_id:
        return False
    return (
        RawMaterialDelivery.objects.filter(
            parent_vendor_id=delivery.parent_vendor_id, delivery_number=delivery.delivery_number
        )
        .exclude(pk=delivery.pk)
        .exists()
    )


def _duplicate_number_error() -> FieldErrors:
    return FieldErrors(
        {"delivery_number": [_("This parent vendor already has a delivery with this number.")]}
    )


def _save_unique_number(delivery: RawMaterialDelivery, **save_kwargs) -> None:
    """Saves the delivery; a delivery number the parent vendor already uses is a validation error.

    Checked before saving (the usual case) and again by the unique constraint: two requests creating the
    same number at the same moment both pass the check, the second insert then fails the constraint. The
    save runs in a savepoint, so that failure is turned into the same validation error instead of a 500,
    and the request's transaction stays usable.
    """
    if _number_clashes(delivery):
        raise _duplicate_number_error()
    try:
        with transaction.atomic():
            delivery.save(**save_kwargs)
    except IntegrityError:
        if _number_clashes(delivery):
            raise _duplicate_number_error() from None
        raise


@transaction.atomic
def raw_material_create(
    *, data: dict[str, Any], lines: list[dict[str, Any]], user, as_draft: bool
) -> RawMaterialDelivery:
    """Creates a delivery: as a draft (no required fields, resumable) or submitted straight away (full
    validation, policy snapshot, active)."""
    delivery = RawMaterialDelivery(status=RawMaterialDelivery.Status.DRAFT, created_by=user)
    _apply_fields(delivery, data)
    _save_unique_number(delivery)
    saved_lines = _replace_lines(delivery, lines)
    delivery = _save_delivery(delivery, saved_lines, activating=not as_draft, user=user)
    if delivery.upstream_dds_reference:
        _verify_upstream(delivery)
    return delivery


def _verify_upstream(delivery: RawMaterialDelivery) -> None:
    """A received upstream pair is checked with the EU information system when it is entered."""
    from apps.eudr.verification import delivery_verify_upstream

    delivery_verify_upstream(delivery=delivery)


@transaction.atomic
def raw_material_update(
    *, delivery_id: int, data: dict[str, Any], lines: list[dict[str, Any]] | None, user, queryset=None
) -> RawMaterialDelivery:
    """Edits a delivery (lines replaced when given). A submitted delivery stays fully valid, keeps its
    policy snapshot, and its weight may not fall below what its cartons already use."""
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    if (
        "parent_vendor" in data
        and delivery.status != RawMaterialDelivery.Status.DRAFT
        and (data["parent_vendor"].pk if data["parent_vendor"] else None) != delivery.parent_vendor_id
    ):
        raise FieldErrors(
            {"parent_vendor": [_("The parent vendor cannot change once the delivery is submitted.")]}
        )
    upstream_before = (delivery.upstream_dds_reference, delivery.upstream_dds_verification)
    _apply_fields(delivery, data)
    current_lines = _replace_lines(delivery, lines) if lines is not None else list(delivery.lines.all())
    delivery = _save_delivery(delivery, current_lines, activating=False, user=user)
    if (delivery.upstream_dds_reference, delivery.upstream_dds_verification) != upstream_before:
        _verify_upstream(delivery)
    return delivery


@transaction.atomic
def raw_material_submit(*, delivery_id: int, user, queryset=None) -> RawMaterialDelivery:
    """Submits a draft: every required field is checked (docs/specification.md section 5), the supplier policy in force
    is copied into the delivery, and it becomes active (expired if a certificate already is)."""
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    if delivery.status != RawMaterialDelivery.Status.DRAFT:
        raise errors.AlreadySubmitted()
    delivery = _save_delivery(delivery, list(delivery.lines.all()), activating=True, user=user)
    emit("raw_material.submitted", record=delivery)
    return delivery


@transaction.atomic
def raw_material_set_status(*, delivery_id: int, status: str, user) -> RawMaterialDelivery:
    """Internal users switch a submitted delivery between active and inactive. An expired certificate
    keeps it expired."""
    delivery = get_object_or_404(RawMaterialDelivery.objects.select_for_update(of=("self",)), pk=delivery_id)
    if delivery.status == RawMaterialDelivery.Status.DRAFT:
        raise Conflict(_("Submit the draft first."), error=errors.EudrErrorCode.STATUS_NOT_ALLOWED)
    if status == RawMaterialDelivery.Status.INACTIVE:
        delivery.status = RawMaterialDelivery.Status.INACTIVE
    elif status == RawMaterialDelivery.Status.ACTIVE:
        if _status_after_activation(delivery) == RawMaterialDelivery.Status.EXPIRED:
            raise Conflict(
                _("A certificate of this delivery has expired: renew it before activating the delivery."),
                error=errors.EudrErrorCode.RAW_MATERIAL_EXPIRED,
            )
        delivery.status = RawMaterialDelivery.Status.ACTIVE
    else:
        raise FieldErrors({"status": [_("Choose active or inactive.")]})
    delivery.save(update_fields=["status", "updated_at"])
    return delivery


@transaction.atomic
def raw_material_delete(*, delivery: RawMaterialDelivery) -> None:
    """A delivery without cartons (typically a draft) can be deleted; one with cartons is set inactive
    instead, so that every label keeps its origin. Once a statement rests on it, it is kept (archive it)."""
    refuse_if_kept(delivery_id=delivery.pk)
    if CartonLabel.objects.filter(raw_material=delivery).exists() or delivery.batches.exists():
        raise Conflict(
            _("This delivery has carton labels: set it inactive instead of deleting it."),
            error=errors.EudrErrorCode.RAW_MATERIAL_HAS_CARTONS,
        )
    stored = [
        (getattr(delivery, kind).storage, getattr(delivery, kind).name)
        for kind in FileKind.values
        if getattr(delivery, kind)
    ]
    delivery.delete()
    transaction.on_commit(lambda: [storage.delete(name) for storage, name in stored])


def raw_materials_expire(*, today: date | None = None) -> int:
    """Stores `expired` on the current tenant's active deliveries whose FM or COC certificate expiry date
    has passed (they already show as expired on read). Returns how many changed."""
    today = today or timezone.localdate()
    expiring = RawMaterialDelivery.objects.filter(status=RawMaterialDelivery.Status.ACTIVE).filter(
        Q(fm_certificate_expiry__lt=today) | Q(coc_certificate_expiry__lt=today)
    )
    emit_many("raw_material.expired", pks=expiring, key=today.isoformat())
    return expiring.update(status=RawMaterialDelivery.Status.EXPIRED, updated_at=timezone.now())


def raw_materials_expire_all_tenants(*, today: date | None = None) -> dict[str, int]:
    """`raw_materials_expire` in every active tenant, each in its own transaction (the nightly job:
    `manage.py expire_raw_materials` and the Celery beat task `eudr.expire_raw_materials`). Returns
    {tenant name: deliveries expired} for the tenants where something changed."""
    from apps.tenancy.context import tenant_context
    from apps.tenancy.models import Tenant

    changed: dict[str, int] = {}
    for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
        with transaction.atomic(), tenant_context(tenant):
            count = raw_materials_expire(today=today)
        if count:
            changed[tenant.name] = count
    return changed


def delivery_checks(delivery: RawMaterialDelivery) -> list[dict[str, str]]:
    """Points to look at (not refusals): harvest before the EUDR cut-off, expired certificates, ..."""
    checks = []
    if delivery.harvest_begin_month and delivery.harvest_begin_month < EUDR_CUTOFF_MONTH:
        checks.append(
            {
                "key": "harvest_before_cutoff",
                "message": _(
                    "The harvest began before the EUDR cut-off (31 December 2020): keep evidence that the "
                    "wood was harvested without deforestation."
                ),
            }
        )
    today = timezone.localdate()
    for key, label, expiry in (
        ("fm_certificate_expired", _("FM"), delivery.fm_certificate_expiry),
        ("coc_certificate_expired", _("COC"), delivery.coc_certificate_expiry),
    ):
        if expiry and expiry < today:
            checks.append(
                {
                    "key": key,
                    "message": _("The %(kind)s certificate expired on %(date)s.")
                    % {"kind": label, "date": day_text(expiry)},
                }
            )
    if not delivery.location_geojson:
        checks.append({"key": "geolocation_missing", "message": _("No plot geolocation yet.")})
    return checks


# -- plots outside their country ---------------------------------------------------------------------------


@transaction.atomic
def raw_material_confirm_outside(*, delivery_id: int, reason: str, user) -> RawMaterialDelivery:
    """An internal user confirms, with a reason, that the plots lying outside their declared country of
    production are right (a border plot, an enclave, a coarse boundary). Kept with who and when, audited,
    and valid for the plots as they are now: changed plots are checked again. Until then the plots are an
    error of the statement and hidden from the public trace."""
    from apps.eudr.errors import NoPlotOutsideCountry
    from apps.eudr.geo import geojson_digest

    delivery = RawMaterialDelivery.objects.select_for_update(of=("self",)).get(pk=delivery_id)
    if not delivery.plots_outside_country():
        raise NoPlotOutsideCountry()
    delivery.outside_confirmed_at = timezone.now()
    delivery.outside_confirmed_by = user
    delivery.outside_confirmed_reason = reason.strip()
    delivery.outside_confirmed_plots = geojson_digest(delivery.location_geojson)
    delivery.save(
        update_fields=[
            "outside_confirmed_at",
            "outside_confirmed_by",
            "outside_confirmed_reason",
            "outside_confirmed_plots",
            "updated_at",
        ]
    )
    return delivery
