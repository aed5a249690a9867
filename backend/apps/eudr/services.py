"""Writes of the EUDR area. Here it is decided that cartons are issued only while weight remains.

Locking: every write that changes a delivery's weight balance (`original_kg`, `used_kg`,
`issued_cartons`, `approved_over_cap`) first locks the delivery rows it touches with
`select_for_update`, in primary-key order, then the production batches, in primary-key order; it
re-reads the balance inside the lock. Two requests on the same delivery therefore run one after the
other, and neither can spend weight the other has already spent (tests/test_concurrency.py).
"""

from __future__ import annotations

import base64
import mimetypes
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Q, Sum
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ValidationError

from apps.common.exceptions import Conflict, DomainError
from apps.duediligence.retention import refuse_if_kept
from apps.duediligence.services import filing_gate_check
from apps.eudr import errors, trace_store
from apps.eudr.generation import (
    MAX_CARTONS_PER_REQUEST,
    GenerationLimit,
    OrderLineRoom,
    generation_limit,
    net_weight_per_carton,
    order_line_room,
)
from apps.eudr.models import (
    EUDR_CUTOFF_MONTH,
    CapApproval,
    CartonLabel,
    FileKind,
    MaterialType,
    ProductionBatch,
    RawMaterialDelivery,
    RawMaterialLine,
    SupplierPolicy,
)
from apps.eudr.selectors import carton_cap_of, kg, weight_balance
from apps.inventory import carton_life
from apps.notifications.emit import emit, emit_many
from apps.purchaseorders.models import PurchaseOrderLine
from apps.tenancy.context import TenantNotSet, get_current_tenant_id
from config import fixed_clock

MIN_AVAILABLE_TO_GENERATE_KG = Decimal("10")  # docs/specification.md section 9
LABEL_INSERT_BATCH = 2_000

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
MSG_SELECT_LABELS = errors.MSG_SELECT_LABELS

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
        raise ValidationError(problems)
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


def _duplicate_number_error() -> ValidationError:
    return ValidationError(
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
        raise ValidationError(
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
        raise ValidationError({"status": [_("Choose active or inactive.")]})
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
                    % {"kind": label, "date": expiry.isoformat()},
                }
            )
    if not delivery.location_geojson:
        checks.append({"key": "geolocation_missing", "message": _("No plot geolocation yet.")})
    return checks


# -- files -----------------------------------------------------------------------------------------------

ALLOWED_FILE_TYPES = {
    "pdf": (b"%PDF",),
    "png": (b"\x89PNG",),
    "jpg": (b"\xff\xd8\xff",),
    "jpeg": (b"\xff\xd8\xff",),
    "gif": (b"GIF8",),
    "bmp": (b"BM",),
    "webp": (b"RIFF",),
    "xlsx": (b"PK\x03\x04",),
    "csv": (),
    "json": (),
    "geojson": (),
}


def check_upload(upload, *, max_bytes: int | None = None) -> str:
    """Type (extension and content signature) and size of an uploaded document; returns its extension."""
    if upload is None:
        raise ValidationError({"file": [_("Choose a file to upload.")]})
    max_bytes = max_bytes or getattr(settings, "EUDR_FILE_MAX_BYTES", 20 * 1024 * 1024)
    extension = PurePath(upload.name or "").suffix.lower().lstrip(".")
    if extension not in ALLOWED_FILE_TYPES:
        raise ValidationError(
            {
                "file": [
                    _(
                        "This file type is not accepted. Use PDF, an image (JPG, PNG, GIF, BMP, WEBP), CSV, "
                        "XLSX or GeoJSON."
                    )
                ]
            }
        )
    if upload.size == 0:
        raise ValidationError({"file": [_("The file is empty.")]})
    if max_bytes is not None and upload.size > max_bytes:
        raise ValidationError(
            {"file": [_("The file is larger than %(limit).0f MB.") % {"limit": max_bytes / (1024 * 1024)}]}
        )
    signatures = ALLOWED_FILE_TYPES[extension]
    if signatures:
        upload.seek(0)
        head = upload.read(8)
        upload.seek(0)
        if not any(head.startswith(sig) for sig in signatures):
            raise ValidationError(
                {"file": [_("The file's content does not match its type (.%(ext)s).") % {"ext": extension}]}
            )
    return extension


def _clean_file_name(name: str) -> str:
    name = PurePath((name or "").replace("\\", "/")).name.strip() or "file"
    return "".join(ch for ch in name if ch.isprintable() and ch not in '<>:"/\\|?*')[:200] or "file"


@transaction.atomic
def raw_material_attach_file(*, delivery_id: int, kind: str, upload, queryset=None) -> RawMaterialDelivery:
    """Stores one of the delivery's documents (replacing the previous one of that kind). A GeoJSON
    location file also fills the delivery's plots when they are still empty and the file is valid."""
    if kind not in FileKind.values:
        raise errors.DeliveryFileNotFound()
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    refuse_if_kept(delivery_id=delivery.pk)
    max_bytes = 25 * 1024 * 1024 if kind == FileKind.LOCATION_FILE else None
    extension = check_upload(upload, max_bytes=max_bytes)
    name = _clean_file_name(upload.name)
    if kind == FileKind.LOCATION_FILE and extension in ("json", "geojson") and not delivery.location_geojson:
        upload.seek(0)
        delivery.location_geojson = validated_geojson(upload.read())
        upload.seek(0)
    field = getattr(delivery, kind)
    previous = field.name if field else None
    storage = field.storage
    field.save(name, upload, save=False)
    meta = dict(delivery.files_meta or {})
    meta[kind] = {
        "name": name,
        "size": upload.size,
        "content_type": mimetypes.guess_type(name)[0] or "application/octet-stream",
        "uploaded_at": timezone.now().isoformat(),
    }
    delivery.files_meta = meta
    try:
        delivery.save()
    except Exception:
        storage.delete(getattr(delivery, kind).name)
        raise
    if previous:
        transaction.on_commit(lambda: storage.delete(previous))
    return delivery


@transaction.atomic
def raw_material_remove_file(*, delivery_id: int, kind: str, queryset=None) -> RawMaterialDelivery:
    if kind not in FileKind.values:
        raise errors.DeliveryFileNotFound()
    queryset = queryset if queryset is not None else RawMaterialDelivery.objects.all()
    delivery = get_object_or_404(queryset.select_for_update(of=("self",)), pk=delivery_id)
    field = getattr(delivery, kind)
    if not field:
        raise errors.DeliveryFileNotFound()
    refuse_if_kept(delivery_id=delivery.pk)
    stored, storage = field.name, field.storage
    setattr(delivery, kind, "")
    meta = dict(delivery.files_meta or {})
    meta.pop(kind, None)
    delivery.files_meta = meta
    delivery.save()
    transaction.on_commit(lambda: storage.delete(stored))
    return delivery


def validated_geojson(value: Any) -> dict[str, Any]:
    """The plots, checked against the EU information system's rules (apps/eudr/geo.py) and normalised;
    refuses them with one message per problem."""
    from apps.eudr.geo import validate_geojson

    result = validate_geojson(value)
    if not result.is_valid:
        messages = []
        for problem in result.errors:
            if problem.feature is None:
                messages.append(problem.message)
            else:
                messages.append(
                    _("Plot %(n)d: %(message)s") % {"n": problem.feature + 1, "message": problem.message}
                )
        raise ValidationError({"location_geojson": messages})
    return result.feature_collection


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


# -- cap approvals ---------------------------------------------------------------------------------------


@transaction.atomic
def cap_approve(*, delivery_id: int, extra_cartons: int, reason: str, user) -> CapApproval:
    """Records an approval of cartons over the delivery's cap (who, when, how many, why) and adds it to the
    delivery's `approved_over_cap`. The weight rules still apply: an approval never creates weight."""
    delivery = get_object_or_404(RawMaterialDelivery.objects.select_for_update(of=("self",)), pk=delivery_id)
    if delivery.status == RawMaterialDelivery.Status.DRAFT:
        raise Conflict(_("Submit the draft first."), error=errors.EudrErrorCode.RAW_MATERIAL_DRAFT)
    approval = CapApproval.objects.create(
        delivery=delivery, extra_cartons=extra_cartons, reason=reason.strip(), approved_by=user
    )
    delivery.approved_over_cap += extra_cartons
    delivery.save(update_fields=["approved_over_cap", "updated_at"])
    emit(
        "cartons.over_cap_approved",
        record=delivery,
        key=str(approval.pk),
        extra={"extra_cartons": extra_cartons, "reason": approval.reason, "approved_by": user},
    )
    return approval


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


# -- cartons ---------------------------------------------------------------------------------------------


def new_public_code() -> str:
    """20 characters of base32 from 96 random bits: unguessable, globally unique in practice (and by the
    unique index)."""
    return base64.b32encode(fixed_clock.random_bytes(12)).decode("ascii").rstrip("=")


def _refuse_unless_active(delivery: RawMaterialDelivery) -> None:
    status = delivery.effective_status()
    if status == RawMaterialDelivery.Status.ACTIVE:
        return
    if status == RawMaterialDelivery.Status.DRAFT:
        raise errors.RawMaterialNotActive(
            _("This delivery is a draft: submit it before generating cartons."),
            error=errors.EudrErrorCode.RAW_MATERIAL_DRAFT,
        )
    if status == RawMaterialDelivery.Status.EXPIRED:
        raise errors.RawMaterialNotActive(
            _("A certificate of this delivery has expired: it cannot issue cartons."),
            error=errors.EudrErrorCode.RAW_MATERIAL_EXPIRED,
        )
    raise errors.RawMaterialNotActive(_("This delivery is inactive: it cannot issue cartons."))


def check_generation(
    *, delivery: RawMaterialDelivery, count: int, net_weight_kg: Decimal, limit: GenerationLimit | None = None
) -> None:
    """The weight and cap rules of docs/specification.md sections 4, 5 and 9, in this order:
    no weight left -> under 10 kg left -> the request needs more than remains -> over the cap (+ approved).
    Every refusal carries `max_cartons` and `binding`: the one limit of all rules (apps/eudr/generation.py)."""
    balance = weight_balance(delivery)
    remaining = balance.remaining_kg
    limit = limit or generation_limit(delivery=delivery, net_weight_kg=net_weight_kg)
    facts = {
        "remaining_kg": str(remaining),
        "required_kg": str(kg(net_weight_kg * count)),
        **limit.as_data(),
    }
    if balance.available_kg <= 0 or remaining <= 0:
        raise errors.NoWeightAvailable(data=facts)
    if remaining < MIN_AVAILABLE_TO_GENERATE_KG:
        raise errors.InsufficientWeightMin(data=facts)
    if net_weight_kg * count > remaining:
        raise errors.InsufficientWeight(data=facts)
    if delivery.allowed_carton_cap is not None:
        cap = delivery.allowed_carton_cap + delivery.approved_over_cap
        if delivery.issued_cartons + count > cap:
            emit(
                "cartons.over_cap",
                record=delivery,
                key=f"{delivery.issued_cartons}/{cap}",
                extra={"requested": count, "max_cartons": max(cap - delivery.issued_cartons, 0)},
                detached=True,
            )
            raise errors.WeightLimitExceeded(
                data={
                    **facts,
                    "allowed_carton_cap": delivery.allowed_carton_cap,
                    "approved_over_cap": delivery.approved_over_cap,
                    "issued_cartons": delivery.issued_cartons,
                }
            )


def _check_order_quantity(*, room: OrderLineRoom, count: int, limit: GenerationLimit | None = None) -> None:
    """Refuses labels beyond the line's ordered quantity plus the tolerance, over every delivery (`room`,
    read under the line's row lock, so concurrent generations on one line are counted one after the
    other). Voided labels do not count."""
    if room.issued + count <= room.limit:
        return
    values = {
        "ordered": f"{room.ordered.normalize():f}",
        "tolerance": f"{room.tolerance.normalize():f}",
        "limit": room.limit,
        "issued": room.issued,
        "remaining": room.remaining,
    }
    raise errors.OrderQuantityExceeded(
        _(
            "The purchase order line allows %(limit)s cartons (%(ordered)s ordered plus %(tolerance)s%% "
            "tolerance); %(issued)s are labelled, so at most %(remaining)s more."
        )
        % values,
        data={**values, **(limit.as_data() if limit is not None else {})},
    )


def cartons_generate(
    *,
    delivery_id: int,
    count: int,
    production_batch_code: str,
    product,
    purchase_order_line,
    container: str = "",
    user=None,
    delivery_queryset=None,
) -> ProductionBatch:
    """Issues `count` carton labels of one production batch from a delivery's remaining weight.

    Locks the delivery row (select_for_update), re-reads its balance inside the lock, checks the rules
    (status active; the purchase order line of the delivery's parent vendor and of this product; the net
    weight per carton = the line's weight per carton, else the product's, never below the policy's
    minimum consumption; weight and cap as in `check_generation`), then locks or creates the batch and
    bulk-inserts the labels with random public codes. One transaction: all labels or none.

    Continuing an existing batch (same code on the same delivery) needs the batch's product, order line,
    container (compared without case) and net weight per carton; anything else is refused, so every label
    of a batch carries the same facts and the batch's used weight stays carton count x net weight.
    """
    if not 1 <= count <= MAX_CARTONS_PER_REQUEST:
        raise ValidationError(
            {"count": [_("Request between 1 and %(max)d cartons.") % {"max": MAX_CARTONS_PER_REQUEST}]}
        )
    queryset = delivery_queryset if delivery_queryset is not None else RawMaterialDelivery.objects.all()
    delivery = queryset.select_for_update(of=("self",)).select_related("parent_vendor").get(pk=delivery_id)
    _refuse_unless_active(delivery)
    # The line is locked too (after the delivery: one order everywhere), so a purchase order edit that
    # changes its product or weight per carton waits for this transaction, and the check it makes on
    # labels sees the ones issued here (apps/purchaseorders/services.py locks order, then lines).
    purchase_order_line = (
        PurchaseOrderLine.objects.select_for_update(of=("self",))
        .select_related("order__supplier")
        .get(pk=purchase_order_line.pk)
    )

    order = purchase_order_line.order
    if order.supplier.parent_vendor_id != delivery.parent_vendor_id:
        raise errors.GenerationInputError(
            _("The purchase order line belongs to another parent vendor's order."),
            error=errors.EudrErrorCode.PURCHASE_ORDER_LINE_MISMATCH,
            data={
                "purchase_order_line": [
                    _("The purchase order line belongs to another parent vendor's order.")
                ]
            },
        )
    if purchase_order_line.product_id != product.pk:
        raise errors.GenerationInputError(
            _("The product does not match the purchase order line's product."),
            error=errors.EudrErrorCode.PRODUCT_MISMATCH,
            data={"product": [_("The product does not match the purchase order line's product.")]},
        )
    if order.status == "cancelled":
        raise Conflict(
            _("The purchase order is cancelled."), error=errors.EudrErrorCode.PURCHASE_ORDER_CANCELLED
        )
    if order.status == "draft":  # docs/purchasing.md, "Lifecycle": cartons only for a confirmed order
        raise Conflict(
            _("The purchase order is a draft: confirm it before issuing carton labels."),
            error=errors.EudrErrorCode.PURCHASE_ORDER_NOT_CONFIRMED,
        )
    net_weight = net_weight_per_carton(
        delivery=delivery, product=product, purchase_order_line=purchase_order_line
    )
    if net_weight is None:
        raise errors.GenerationInputError(
            _("Neither the purchase order line nor the product has a weight per carton."),
            error=errors.EudrErrorCode.CARTON_WEIGHT_MISSING,
            data={"purchase_order_line": [_("Enter the weight per carton on the purchase order line.")]},
        )
    room = order_line_room(delivery=delivery, purchase_order_line=purchase_order_line)  # counted once
    limit = generation_limit(delivery=delivery, net_weight_kg=net_weight, room=room)
    check_generation(delivery=delivery, count=count, net_weight_kg=net_weight, limit=limit)
    _check_order_quantity(room=room, count=count, limit=limit)

    container = (container or "").strip()
    batch = _batch_for_generation(
        delivery=delivery,
        code=production_batch_code,
        product=product,
        purchase_order_line=purchase_order_line,
        container=container,
        net_weight=net_weight,
        user=user,
    )
    first = batch.last_sequence + 1
    # In the order drawn (a dict, not a set: a set's order follows the process's string hashing), so that
    # under a fixed clock (config/fixed_clock.py) the same label gets the same code on every load.
    codes: dict[str, None] = {}
    while len(codes) < count:
        codes[new_public_code()] = None
    _insert_labels(
        template=CartonLabel(
            tenant_id=delivery.tenant_id,
            batch=batch,
            raw_material=delivery,
            production_batch_code=batch.production_batch_code,
            product=product,
            article_number=product.article_number,
            purchase_order_line=purchase_order_line,
            purchase_order=order.order_number,
            container=batch.container,
            net_weight_kg=net_weight,
            status=CartonLabel.Status.ACTIVE,
            created_at=timezone.now(),
        ),
        codes=list(codes),
        first_sequence=first,
    )

    batch.last_sequence = first + count - 1
    batch.carton_count += count
    batch.save(update_fields=["last_sequence", "carton_count", "updated_at"])
    # The line's counter of active labels (the purchase order list reads it), under the line's lock.
    PurchaseOrderLine.objects.filter(pk=purchase_order_line.pk).update(
        cartons_issued=F("cartons_issued") + count
    )
    delivery.used_kg = kg(delivery.used_kg + net_weight * count)
    delivery.issued_cartons += count
    delivery.save(update_fields=["used_kg", "issued_cartons", "updated_at"])
    batch.generated_count = count  # type: ignore[attr-defined]  # this call's count, for the answer
    return batch


# The columns of a carton label row, in the order `_insert_labels` writes them.
_LABEL_COLUMNS = (
    "tenant_id",
    "batch_id",
    "raw_material_id",
    "code",
    "production_batch_code",
    "batch_sequence",
    "product_id",
    "article_number",
    "purchase_order_line_id",
    "purchase_order",
    "container",
    "net_weight_kg",
    "status",
    "created_at",
    "voided_at",
    "void_reason",
)


def _insert_labels(*, template: CartonLabel, codes, first_sequence: int) -> None:
    """Writes one label per code, numbered from `first_sequence`, every other column as in `template`.

    The rows differ only in code and sequence, so the model is not instantiated per row: the template's
    foreign keys are checked against the tenant once (as `bulk_create` would for every row), its values
    are converted for the database once. On PostgreSQL one INSERT ... SELECT over two arrays (codes and
    sequence numbers) writes them all: row-level security's WITH CHECK, the foreign keys and the unique
    indexes still apply to every row (COPY FROM, which would skip the statement, is refused on a table
    with row-level security). Elsewhere plain tuples go in batches of LABEL_INSERT_BATCH rows.
    """
    tenant_id = get_current_tenant_id()
    if tenant_id is None or template.tenant_id != tenant_id:
        raise TenantNotSet("carton labels written outside their tenant")
    # Written without the model: their public answers are built once the generation commits.
    trace_store.changed(tenant_id, codes=codes)
    CartonLabel.clean_tenant_relations_bulk([template])
    fields = {field.column: field for field in CartonLabel._meta.concrete_fields}
    fixed = {
        column: fields[column].get_db_prep_save(
            getattr(template, fields[column].attname), connection=connection
        )
        for column in _LABEL_COLUMNS
        if column not in ("code", "batch_sequence")
    }
    code_at, sequence_at = _LABEL_COLUMNS.index("code"), _LABEL_COLUMNS.index("batch_sequence")
    prefix = [fixed[column] for column in _LABEL_COLUMNS[:code_at]]
    middle = [fixed[column] for column in _LABEL_COLUMNS[code_at + 1 : sequence_at]]
    suffix = [fixed[column] for column in _LABEL_COLUMNS[sequence_at + 1 :]]
    table = connection.ops.quote_name(CartonLabel._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(column) for column in _LABEL_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement: the fixed values once, the codes and sequence numbers as two arrays.
            # (COPY FROM is refused on a table with row-level security.)
            values = ", ".join(
                "u.code"
                if column == "code"
                else "u.seq"
                if column == "batch_sequence"
                else f"%s::{fields[column].cast_db_type(connection)}"
                for column in _LABEL_COLUMNS
            )
            cursor.execute(
                # the names come from the model, every value is bound
                f"INSERT INTO {table} ({columns}) SELECT {values} "  # noqa: S608
                f"FROM unnest(%s::varchar[], %s::integer[]) AS u(code, seq)",
                [
                    *(fixed[column] for column in _LABEL_COLUMNS if column in fixed),
                    list(codes),
                    list(range(first_sequence, first_sequence + len(codes))),
                ],
            )
            return
        rows = ((*prefix, code, *middle, first_sequence + index, *suffix) for index, code in enumerate(codes))
        placeholders = ", ".join(["%s"] * len(_LABEL_COLUMNS))
        insert = f"INSERT INTO {table} ({columns}) VALUES ({placeholders})"  # noqa: S608 (names of the model)
        batch: list[tuple] = []
        for row in rows:
            batch.append(row)
            if len(batch) == LABEL_INSERT_BATCH:
                cursor.executemany(insert, batch)
                batch = []
        if batch:
            cursor.executemany(insert, batch)


def _batch_for_generation(
    *, delivery, code: str, product, purchase_order_line, container: str, net_weight: Decimal, user
) -> ProductionBatch:
    existing = (
        ProductionBatch.objects.select_for_update(of=("self",)).filter(production_batch_code=code).first()
    )
    if existing is not None:
        if existing.delivery_id != delivery.pk:
            raise Conflict(
                _("Production batch %(code)s belongs to another raw-material delivery.") % {"code": code},
                error=errors.EudrErrorCode.BATCH_CODE_IN_USE,
                data={"production_batch_code": [_("This batch code is used by another delivery.")]},
            )
        if existing.product_id != product.pk or existing.purchase_order_line_id != purchase_order_line.pk:
            raise errors.GenerationInputError(
                _("Production batch %(code)s was started for another product or order line.")
                % {"code": code},
                error=errors.EudrErrorCode.BATCH_MISMATCH,
                data={
                    "production_batch_code": [_("This batch was started for another product or order line.")]
                },
            )
        if existing.container.upper() != container.upper():
            # A batch's labels all name one container; another container is another batch.
            raise Conflict(
                _(
                    "Production batch %(code)s was started for container %(old)s, not %(new)s: use a new "
                    "batch code for this container."
                )
                % {"code": code, "old": existing.container or "-", "new": container or "-"},
                error=errors.EudrErrorCode.BATCH_CONTAINER_MISMATCH,
                data={"container": [_("This batch was started for another container.")]},
            )
        if existing.net_weight_per_carton_kg != net_weight:
            # The batch's used weight is its carton count x its net weight per carton: one weight only.
            raise Conflict(
                _(
                    "Production batch %(code)s was started with %(old)s kg per carton; the order line now "
                    "gives %(new)s kg: use a new batch code."
                )
                % {"code": code, "old": existing.net_weight_per_carton_kg, "new": net_weight},
                error=errors.EudrErrorCode.BATCH_WEIGHT_MISMATCH,
                data={
                    "production_batch_code": [_("This batch was started with another net weight per carton.")]
                },
            )
        return existing
    try:
        with transaction.atomic():
            return ProductionBatch.objects.create(
                delivery=delivery,
                production_batch_code=code,
                product=product,
                purchase_order_line=purchase_order_line,
                container=container or "",
                net_weight_per_carton_kg=net_weight,
                created_by=user,
            )
    except IntegrityError:
        # Another request created the same batch code for another delivery a moment ago.
        raise Conflict(
            _("Production batch %(code)s was just created by another request: try again.") % {"code": code},
            error=errors.EudrErrorCode.BATCH_CODE_IN_USE,
        ) from None


@transaction.atomic
def cartons_delete(*, ids: list[int], queryset, user=None, reason: str = "") -> dict[str, Any]:
    """Voids the selected labels (their codes are never reused; the trace page no longer finds them) and
    gives their weight back to their deliveries, keeping who voided them, when and why. Only a carton
    that never reached the warehouse can be voided (the carton's state machine,
    `apps.inventory.carton_life`): one received, in stock, picked, shipped or delivered (so also
    invoiced) refuses the whole request, naming it. `queryset`: the labels the user may see; an id outside it
    answers 404 and nothing is deleted. Locks the deliveries, then the labels' order lines, then the
    batches, in id order (the order carton generation takes them in); each line's `cartons_issued` counter
    goes down by its labels voided here."""
    if not ids:
        raise errors.LabelsNotSelected()
    wanted = set(ids)
    found = list(
        queryset.filter(pk__in=wanted).values(
            "pk", "raw_material_id", "batch_id", "purchase_order_line_id", "status", "net_weight_kg"
        )
    )
    if len(found) != len(wanted):
        raise errors.LabelsNotFound()
    active = [row for row in found if row["status"] == CartonLabel.Status.ACTIVE]
    delivery_ids = sorted({row["raw_material_id"] for row in active})
    batch_ids = sorted({row["batch_id"] for row in active})
    deliveries = {
        d.pk: d
        for d in RawMaterialDelivery.objects.select_for_update(of=("self",))
        .filter(pk__in=delivery_ids)
        .order_by("pk")
    }
    # The labels' order lines, after the deliveries and before the batches, as carton generation locks them.
    line_ids = sorted({row["purchase_order_line_id"] for row in active})
    list(PurchaseOrderLine.objects.select_for_update(of=("self",)).filter(pk__in=line_ids).order_by("pk"))
    batches = {
        b.pk: b
        for b in ProductionBatch.objects.select_for_update(of=("self",))
        .filter(pk__in=batch_ids)
        .order_by("pk")
    }
    # Re-read inside the locks: only labels still active are voided and counted. The labels are locked
    # so a scan at the warehouse (which locks the label first) cannot receive one while it is voided.
    still_active = CartonLabel.objects.filter(
        pk__in=[row["pk"] for row in active], status=CartonLabel.Status.ACTIVE
    )
    carton_life.labels_void_check(
        labels=list(
            still_active.select_for_update(of=("self",))
            .order_by("pk")
            .only("pk", "code", "status", "container")
        )
    )
    per_delivery: dict[int, list[Any]] = defaultdict(lambda: [0, Decimal(0)])
    per_batch: dict[int, int] = defaultdict(int)
    per_line: dict[int, int] = defaultdict(int)
    for row in (
        still_active.order_by()
        .values("raw_material_id", "batch_id", "purchase_order_line_id")
        .annotate(n=Count("id"), kg=Sum("net_weight_kg"))
    ):
        per_delivery[row["raw_material_id"]][0] += row["n"]
        per_delivery[row["raw_material_id"]][1] += row["kg"] or 0
        per_batch[row["batch_id"]] += row["n"]
        per_line[row["purchase_order_line_id"]] += row["n"]
    voided = still_active.update(
        status=CartonLabel.Status.VOIDED, voided_at=timezone.now(), voided_by=user, void_reason=reason[:200]
    )
    # An update() sends no signal: the voided cartons' public answers go in this transaction.
    voided_ids = [row["pk"] for row in active]
    trace_store.withdrawn(voided_ids)
    trace_store.changed(get_current_tenant_id(), labels=voided_ids)
    returned = Decimal(0)
    for delivery_id, (n, weight) in per_delivery.items():
        delivery = deliveries[delivery_id]
        delivery.used_kg = kg(max(delivery.used_kg - weight, Decimal(0)))
        delivery.issued_cartons = max(delivery.issued_cartons - n, 0)
        delivery.save(update_fields=["used_kg", "issued_cartons", "updated_at"])
        returned += weight
    for batch_id, n in per_batch.items():
        batch = batches[batch_id]
        batch.carton_count = max(batch.carton_count - n, 0)
        batch.save(update_fields=["carton_count", "updated_at"])
    for line_id, n in sorted(per_line.items()):
        PurchaseOrderLine.objects.filter(pk=line_id).update(cartons_issued=F("cartons_issued") - n)
    return {"deleted": voided, "returned_kg": str(kg(returned))}
