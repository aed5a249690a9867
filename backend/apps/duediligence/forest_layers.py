"""The 2020 forest check as the product runs it (docs/duediligence.md, "The 2020 forest check"): layers
uploaded once per installation, results stored per plot in each tenant, a map of a plot over its layer.

    forest_layer_upload(file=, name=, kind=, source=, layer_date=, user=) -> ForestLayer   (validated)
    forest_layer_delete(layer_id=)                   refused while a kept record's result rests on it
    forest_layer_process(layer_id=)                  every tenant's plots within the layer (the job)
    forest_layer_process_again(layer_id=)            a failed or stalled layer, queued again
    forest_check_delivery(delivery_id=)              one delivery's plots over every ready layer (the job)
    forest_plot_png(result) -> bytes                 the plot drawn over its layer's window

The computation itself is `forest.plot_stats` (pure, rasterio). A layer is read from the storage: a local
path on the file system storage, GDAL's `/vsicurl/` over the storage's (signed) URL otherwise, so only
the windows of the plots travel, never the whole raster.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping
from datetime import date
from io import BytesIO
from typing import Any

import numpy as np
import rasterio
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rasterio.errors import RasterioError
from rasterio.features import geometry_mask
from rasterio.io import MemoryFile
from rasterio.warp import transform_bounds, transform_geom
from rasterio.windows import Window, from_bounds
from shapely.geometry import box, shape

from apps.common.exceptions import FieldErrors

from . import forest
from .errors import DueDiligenceErrorCode, ForestLayerInUse, ForestLayerInvalid, ForestLayerNotFound
from .models import ForestLayer, ForestResult, RetentionHold

logger = logging.getLogger(__name__)

PLOT_TYPES = ("Polygon", "MultiPolygon", "Point", "MultiPoint")
PROGRESS_EVERY_SECONDS = 1.0
# Deliveries per transaction while a layer is processed (one read of the layer per batch).
BATCH = 200
MAP_SIZE = 256


# -- plots ------------------------------------------------------------------------------------------


def delivery_plots(geojson: Any) -> list[tuple[int, str, dict[str, Any]]]:
    """(index, id, geometry) of each plot of a delivery's GeoJSON (0-based, in the file's order); a
    feature without a usable geometry keeps its index and is left out."""
    if not isinstance(geojson, Mapping):
        return []
    if geojson.get("type") == "FeatureCollection":
        features = geojson.get("features") or []
    elif geojson.get("type") == "Feature":
        features = [geojson]
    else:
        features = [{"type": "Feature", "geometry": geojson, "properties": {}}]
    plots = []
    for index, feature in enumerate(features):
        if not isinstance(feature, Mapping):
            continue
        geometry = feature.get("geometry")
        if not isinstance(geometry, Mapping) or geometry.get("type") not in PLOT_TYPES:
            continue
        raw = feature.get("properties")
        properties: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        name = feature.get("id") or properties.get("ProductionPlace") or properties.get("ProducerName") or ""
        try:
            empty = shape(geometry).is_empty
        except Exception:  # malformed coordinates: the geolocation checks report them
            empty = True
        if empty:
            continue
        plots.append((index, str(name)[:200], dict(geometry)))
    return plots


def plots_digest(geojson: Any) -> str:
    if not geojson:
        return ""
    return hashlib.sha256(json.dumps(geojson, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _within(layer: ForestLayer, geometry: Mapping[str, Any]) -> bool:
    if len(layer.bounds or []) != 4:
        return False
    return box(*layer.bounds).intersects(shape(geometry))


# -- reading a layer --------------------------------------------------------------------------------


@contextlib.contextmanager
def layer_path(layer: ForestLayer) -> Iterator[str]:
    """A path rasterio opens: the file itself on the file system storage, else /vsicurl/ over its URL
    (ranged reads of the tiled GeoTIFF)."""
    storage, name = layer.file.storage, layer.file.name or ""
    try:
        local = storage.path(name)
    except NotImplementedError:
        local = f"/vsicurl/{storage.url(name)}"
    yield local


def _describe(dataset) -> dict[str, Any]:
    if dataset.count < 1 or dataset.crs is None or dataset.transform.is_identity:
        raise ForestLayerInvalid(
            _("The GeoTIFF has no georeference (coordinate system and transform): it cannot be placed.")
        )
    west, south, east, north = transform_bounds(dataset.crs, "EPSG:4326", *dataset.bounds, densify_pts=21)
    return {
        "width": dataset.width,
        "height": dataset.height,
        "crs": dataset.crs.to_string()[:100],
        "bounds": [round(west, 6), round(south, 6), round(east, 6), round(north, 6)],
    }


def inspect_upload(file) -> dict[str, Any]:
    """Opens the uploaded file with rasterio and answers its grid, or refuses (400) anything that is not
    a georeferenced GeoTIFF. A large upload is already a temporary file (read in place); a small one is
    in memory (at most FILE_UPLOAD_MAX_MEMORY_SIZE)."""
    try:
        with warnings.catch_warnings():
            # A raster without georeference warns; it is refused below with our own message.
            warnings.simplefilter("ignore", rasterio.errors.NotGeoreferencedWarning)
            return _inspect(file)
    finally:
        file.seek(0)


def _inspect(file) -> dict[str, Any]:
    try:
        if hasattr(file, "temporary_file_path"):
            with rasterio.open(file.temporary_file_path()) as dataset:
                driver, info = dataset.driver, _describe(dataset)
        else:
            file.seek(0)
            with MemoryFile(file.read()) as memory, memory.open() as dataset:
                driver, info = dataset.driver, _describe(dataset)
    except RasterioError as exc:
        raise ForestLayerInvalid() from exc
    if driver != "GTiff":
        raise ForestLayerInvalid()
    return info


# -- services ---------------------------------------------------------------------------------------


def forest_layer_upload(*, file, name: str, kind: str, source: str, layer_date: date, user) -> ForestLayer:
    """Validates the GeoTIFF, streams it to the storage and records the layer (status `uploaded`); the
    caller queues its processing once the row is committed."""
    name, source = (name or "").strip(), (source or "").strip()
    errors: dict[str, list] = {}
    if not name or len(name) > 200:
        errors["name"] = [_("Give the layer a name (at most 200 characters).")]
    if kind not in ForestLayer.Kind.values:
        errors["kind"] = [_("Choose forest cover 2020 or year of tree-cover loss.")]
    if len(source) > 300:
        errors["source"] = [_("At most 300 characters.")]
    if errors:
        raise FieldErrors(errors)
    info = inspect_upload(file)
    stored = default_storage.save(f"forest_layers/{uuid.uuid4().hex}.tif", file)
    try:
        return ForestLayer.objects.create(
            name=name,
            kind=kind,
            source=source,
            layer_date=layer_date,
            file=stored,
            file_name=(getattr(file, "name", "") or "")[:255],
            size=file.size or 0,
            uploaded_by=user,
            uploaded_by_name=getattr(user, "username", "") or "",
            **info,
        )
    except Exception:
        default_storage.delete(stored)
        raise


def _each_tenant(*, active_only: bool = True) -> Iterator[Any]:
    from apps.tenancy.models import Tenant

    tenants = Tenant.objects.filter(is_active=True) if active_only else Tenant.objects.all()
    yield from tenants.order_by("pk")


def forest_layer_delete(*, layer_id: int) -> None:
    """Removes a layer, its file and its results, unless a result of a kept record (a delivery whose
    statement was filed or recorded) rests on it: those are kept with the records (409)."""
    from apps.tenancy.context import tenant_context

    layer = ForestLayer.objects.select_for_update().filter(pk=layer_id).first()
    if layer is None:
        raise ForestLayerNotFound()
    if layer.status == ForestLayer.Status.PROCESSING and not layer.stale:
        raise ForestLayerInUse(_("The layer is being processed: delete it when it is ready or failed."))
    # Every tenant, inactive ones too: their kept records and results count as well.
    tenants = list(_each_tenant(active_only=False))
    for tenant in tenants:
        with tenant_context(tenant):
            kept = ForestResult.objects.filter(
                layer_id=layer.pk,
                delivery_id__in=RetentionHold.objects.values("delivery_id"),
            ).exists()
        if kept:
            raise ForestLayerInUse()
    for tenant in tenants:
        with tenant_context(tenant):
            ForestResult.objects.filter(layer_id=layer.pk).delete()
    name = layer.file.name or ""
    layer.delete()
    transaction.on_commit(lambda: default_storage.delete(name))


def forest_layer_process_again(*, layer_id: int) -> ForestLayer:
    """A failed layer, or one whose job was lost (`stale`), is set to `uploaded` again; the caller queues
    its processing once committed. A layer being processed, or ready, is refused (409)."""
    layer = ForestLayer.objects.select_for_update().filter(pk=layer_id).first()
    if layer is None:
        raise ForestLayerNotFound()
    if layer.status != ForestLayer.Status.FAILED and not layer.stale:
        raise ForestLayerInUse(
            _("Only a layer that failed, or whose processing stopped, can be processed again."),
            error=DueDiligenceErrorCode.FOREST_LAYER_NOT_STALLED,
        )
    layer.status = ForestLayer.Status.UPLOADED
    layer.progress = 0
    layer.message = ""
    layer.progress_at = timezone.now()
    layer.save(update_fields=["status", "progress", "message", "progress_at"])
    return layer


def _result_rows(layer: ForestLayer, path: str, deliveries: list) -> list[ForestResult]:
    """The layer over the plots of several deliveries of one tenant, in one read of the layer (one
    `plot_stats` call: the file is opened once, each plot reads its own window)."""
    inside = []
    for delivery in deliveries:
        digest = plots_digest(delivery.location_geojson)
        for index, plot_id, geometry in delivery_plots(delivery.location_geojson):
            if _within(layer, geometry):
                inside.append((delivery, digest, index, plot_id, geometry))
    if not inside:
        return []
    stats = forest.plot_stats(path, [item[4] for item in inside], layer.kind)  # type: ignore[arg-type]
    now = timezone.now()
    rows = []
    for (delivery, digest, index, plot_id, _geometry), stat in zip(inside, stats, strict=True):
        if stat.outside_layer:
            continue
        rows.append(
            ForestResult(
                delivery=delivery,
                plot_index=index,
                plot_id=plot_id,
                layer_id=layer.pk,
                layer_kind=layer.kind,
                layer_name=layer.name,
                layer_source=layer.source,
                layer_date=layer.layer_date,
                cells=stat.cells,
                forest_share=stat.forest_share,
                loss_cells_after_cutoff=stat.loss_cells_after_cutoff,
                loss_years=stat.loss_years,
                plots_digest=digest,
                computed_at=now,
            )
        )
    return rows


def _store(delivery_ids: list[int], layer: ForestLayer, rows: list[ForestResult]) -> None:
    ForestResult.objects.filter(delivery_id__in=delivery_ids, layer_id=layer.pk).delete()
    if rows:
        ForestResult.objects.bulk_create(rows)


def _deliveries_with_plots():
    from apps.eudr.models import RawMaterialDelivery

    return RawMaterialDelivery.objects.filter(location_geojson__isnull=False).only("pk", "location_geojson")


def forest_layer_process(*, layer_id: int, progress: Callable[[int, int], None] | None = None) -> int:
    """Computes the layer over every tenant's plots within its bounds (inside each tenant, BATCH
    deliveries per transaction), writing the layer's progress; answers the plots computed. The layer
    ends `ready`, or `failed` with a message."""
    from apps.tenancy.context import tenant_context

    layer = ForestLayer.objects.filter(pk=layer_id).first()
    if layer is None:
        return 0
    ForestLayer.objects.filter(pk=layer.pk).update(
        status=ForestLayer.Status.PROCESSING,
        progress=0,
        plots_done=0,
        message="",
        progress_at=timezone.now(),
    )
    tenants = list(_each_tenant())
    total = 0
    for tenant in tenants:
        with transaction.atomic(), tenant_context(tenant):
            total += _deliveries_with_plots().count()
    done = plots = 0
    last = time.monotonic()
    try:
        with layer_path(layer) as path:
            for tenant in tenants:
                with transaction.atomic(), tenant_context(tenant):
                    ids = list(_deliveries_with_plots().order_by("pk").values_list("pk", flat=True))
                for start in range(0, len(ids), BATCH):
                    chunk = ids[start : start + BATCH]
                    with transaction.atomic(), tenant_context(tenant):
                        deliveries = list(_deliveries_with_plots().filter(pk__in=chunk))
                        rows = _result_rows(layer, path, deliveries)
                        _store(chunk, layer, rows)
                        plots += len(rows)
                    done += len(chunk)
                    if time.monotonic() - last >= PROGRESS_EVERY_SECONDS:
                        last = time.monotonic()
                        percent = min(99, int(done * 100 / total)) if total else 99
                        ForestLayer.objects.filter(pk=layer.pk).update(
                            progress=percent, plots_done=plots, progress_at=timezone.now()
                        )
                        if progress:
                            progress(done, total)
    except Exception as exc:
        logger.exception("Forest layer %s could not be processed", layer.pk)
        ForestLayer.objects.filter(pk=layer.pk).update(
            status=ForestLayer.Status.FAILED,
            plots_done=plots,
            message=_("The layer could not be read: %(error)s") % {"error": str(exc)[:500]},
            processed_at=timezone.now(),
            progress_at=timezone.now(),
        )
        return plots
    ForestLayer.objects.filter(pk=layer.pk).update(
        status=ForestLayer.Status.READY,
        progress=100,
        plots_done=plots,
        processed_at=timezone.now(),
        progress_at=timezone.now(),
    )
    return plots


def ready_layers_covering(geojson: Any) -> list[ForestLayer]:
    plots = delivery_plots(geojson)
    if not plots:
        return []
    return [
        layer
        for layer in ForestLayer.objects.filter(status=ForestLayer.Status.READY)
        if any(_within(layer, g) for _i, _p, g in plots)
    ]


@transaction.atomic
def forest_check_delivery(*, delivery_id: int) -> int:
    """Computes one delivery's plots over every ready layer covering them (after its plots changed) and
    drops results of plots it no longer has; in the current tenant. Answers the results stored."""
    from apps.eudr.models import RawMaterialDelivery

    delivery = RawMaterialDelivery.objects.filter(pk=delivery_id).first()
    if delivery is None:
        return 0
    digest = plots_digest(delivery.location_geojson)
    stale = ForestResult.objects.filter(delivery=delivery).exclude(plots_digest=digest)
    if stale.exists() and RetentionHold.objects.filter(delivery=delivery).exists():
        return 0  # a kept record's plots cannot change: nothing to recompute
    stale.delete()
    stored = 0
    for layer in ready_layers_covering(delivery.location_geojson):
        with layer_path(layer) as path:
            rows = _result_rows(layer, path, [delivery])
        _store([delivery.pk], layer, rows)
        stored += len(rows)
    return stored


def needs_forest_check(delivery) -> bool:
    """True when the delivery's plots differ from those its results were computed from and a ready
    layer covers them (or old results must go)."""
    digest = plots_digest(delivery.location_geojson)
    digests = set(ForestResult.objects.filter(delivery=delivery).values_list("plots_digest", flat=True))
    if digests and digests != {digest}:
        return True
    if digests:
        return False
    return bool(digest) and bool(ready_layers_covering(delivery.location_geojson))


# -- the map ----------------------------------------------------------------------------------------

COLOURS = {
    "background": (236, 236, 236, 255),
    "forest": (46, 125, 50, 255),
    "loss_after": (211, 47, 47, 255),
    "loss_before": (245, 166, 35, 255),
    "nodata": (0, 0, 0, 0),
    "outline": (13, 71, 161, 255),
}


def forest_plot_png(result: ForestResult, geojson: Any) -> bytes | None:
    """The layer's window around the result's plot (the plot's extent and half as much again on each
    side), read at most MAP_SIZE cells a side, coloured (forest green; loss after 2020 red, before
    orange), with the plot's outline drawn over it. None when the layer or the plot is gone."""
    from PIL import Image

    layer = ForestLayer.objects.filter(pk=result.layer_id).first()
    plot = next((g for i, _p, g in delivery_plots(geojson) if i == result.plot_index), None)
    if layer is None or plot is None or not layer.file:
        return None
    with layer_path(layer) as path, rasterio.open(path) as dataset:
        reproject = dataset.crs is not None and dataset.crs.to_epsg() != 4326
        geometry = transform_geom("EPSG:4326", dataset.crs, plot) if reproject else plot
        left, bottom, right, top = shape(geometry).bounds
        cell_x, cell_y = abs(dataset.transform.a), abs(dataset.transform.e)
        pad_x = max((right - left) * 0.5, cell_x * 8)
        pad_y = max((top - bottom) * 0.5, cell_y * 8)
        window = from_bounds(
            left - pad_x, bottom - pad_y, right + pad_x, top + pad_y, transform=dataset.transform
        )
        window = window.round_offsets(op="floor").round_lengths(op="ceil")
        try:
            window = window.intersection(Window(0, 0, dataset.width, dataset.height))
        except rasterio.errors.WindowError:
            return None
        scale = max(window.width / MAP_SIZE, window.height / MAP_SIZE, 1)
        out_shape = (max(1, int(window.height / scale)), max(1, int(window.width / scale)))
        values = dataset.read(1, window=window, out_shape=out_shape)
        transform = dataset.window_transform(window) @ rasterio.Affine.scale(
            window.width / out_shape[1], window.height / out_shape[0]
        )
        nodata = dataset.nodata
        boundary = shape(geometry).boundary if shape(geometry).geom_type.endswith("Polygon") else None
        outline_geometry = boundary if boundary is not None else shape(geometry).buffer(max(cell_x, cell_y))
        outline = ~geometry_mask(
            [outline_geometry], out_shape=out_shape, transform=transform, all_touched=True
        )
    image = np.zeros((*out_shape, 4), dtype=np.uint8)
    image[:] = COLOURS["background"]
    if layer.kind == ForestLayer.Kind.FOREST_2020:
        image[values > 0] = COLOURS["forest"]
    else:
        years = values.astype(np.int64) + forest.LOSS_YEAR_OFFSET
        image[(values > 0) & (years <= forest.CUTOFF_YEAR)] = COLOURS["loss_before"]
        image[(values > 0) & (years > forest.CUTOFF_YEAR)] = COLOURS["loss_after"]
    if nodata is not None:
        image[values == nodata] = COLOURS["nodata"]
    image[outline] = COLOURS["outline"]
    picture = Image.fromarray(image, "RGBA")
    factor = max(1, MAP_SIZE // max(out_shape))
    if factor > 1:
        picture = picture.resize((out_shape[1] * factor, out_shape[0] * factor), Image.Resampling.NEAREST)
    buffer = BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()
