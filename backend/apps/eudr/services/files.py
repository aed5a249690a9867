"""A delivery's documents and plots: the upload checks, attaching and removing files, the plots' GeoJSON."""

from __future__ import annotations

import mimetypes
from pathlib import PurePath
from typing import Any

from django.conf import settings
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.exceptions import FieldErrors
from apps.eudr import errors
from apps.eudr.gates import refuse_if_kept
from apps.eudr.models import (
    FileKind,
    RawMaterialDelivery,
)

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
        raise FieldErrors({"file": [_("Choose a file to upload.")]})
    max_bytes = max_bytes or getattr(settings, "EUDR_FILE_MAX_BYTES", 20 * 1024 * 1024)
    extension = PurePath(upload.name or "").suffix.lower().lstrip(".")
    if extension not in ALLOWED_FILE_TYPES:
        raise FieldErrors(
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
        raise FieldErrors({"file": [_("The file is empty.")]})
    if max_bytes is not None and upload.size > max_bytes:
        raise FieldErrors(
            {"file": [_("The file is larger than %(limit).0f MB.") % {"limit": max_bytes / (1024 * 1024)}]}
        )
    signatures = ALLOWED_FILE_TYPES[extension]
    if signatures:
        upload.seek(0)
        head = upload.read(8)
        upload.seek(0)
        if not any(head.startswith(sig) for sig in signatures):
            raise FieldErrors(
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
        raise FieldErrors({"location_geojson": messages})
    return result.feature_collection
