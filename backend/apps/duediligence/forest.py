"""The 2020 forest check of plots over a raster layer (docs/duediligence.md, "The 2020 forest check").

Pure functions, no database. A layer is a GeoTIFF of one of two kinds:

- ``forest_2020``: forest cover on 31 December 2020 (e.g. the JRC global forest cover 2020): a cell is
  forest when its value is > 0 and not nodata.
- ``loss_year``: the year a cell's tree cover was lost (e.g. tree-cover-loss year layers): 0 for no loss,
  otherwise ``year_offset + value`` (2000 + 21 = 2021). Loss in a year after 2020 breaks the cut-off of
  Art. 2(13) (harvest without deforestation after 31 December 2020).

    plot_stats(path, plots, kind) -> list[PlotForestStats]

`plots` are GeoJSON geometries in WGS84 (Polygon, MultiPolygon, Point, MultiPoint). Each plot is read
through a window of its own bounds (never the whole raster), reprojected to the layer's CRS when it is
not WGS84. A plot smaller than a cell (a point) counts the cells it touches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import rasterio
from rasterio.features import geometry_mask
from rasterio.warp import transform_geom
from rasterio.windows import Window, from_bounds
from shapely.geometry import shape

CUTOFF_YEAR = 2020
LOSS_YEAR_OFFSET = 2000
Kind = Literal["forest_2020", "loss_year"]
KINDS: tuple[str, ...] = ("forest_2020", "loss_year")


@dataclass
class PlotForestStats:
    cells: int = 0
    forest_cells: int = 0
    loss_cells_after_cutoff: int = 0
    loss_years: list[int] = field(default_factory=list)
    outside_layer: bool = False

    @property
    def forest_share(self) -> float | None:
        """Share of the plot's cells that were forest in 2020 (forest_2020 layers), 0..1."""
        return round(self.forest_cells / self.cells, 4) if self.cells else None

    @property
    def loss_after_cutoff(self) -> bool:
        return self.loss_cells_after_cutoff > 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "cells": self.cells,
            "forest_cells": self.forest_cells,
            "forest_share": self.forest_share,
            "loss_cells_after_cutoff": self.loss_cells_after_cutoff,
            "loss_years": self.loss_years,
            "loss_after_cutoff": self.loss_after_cutoff,
            "outside_layer": self.outside_layer,
        }


def _plot_window(dataset: Any, geometry: Mapping[str, Any]) -> Window | None:
    left, bottom, right, top = shape(geometry).bounds
    full = Window(0, 0, dataset.width, dataset.height)
    window = from_bounds(left, bottom, right, top, transform=dataset.transform)
    window = window.round_offsets(op="floor").round_lengths(op="ceil")
    # One cell more on each side: a plot on a cell's edge (a point on a corner) touches its neighbours.
    window = Window(
        window.col_off - 1, window.row_off - 1, max(window.width, 1) + 2, max(window.height, 1) + 2
    )
    try:
        return window.intersection(full)
    except rasterio.errors.WindowError:
        return None


def plot_stats(path: str, plots: Iterable[Mapping[str, Any]], kind: Kind) -> list[PlotForestStats]:
    """Per plot, its cells over the layer and what they say (see the module docstring)."""
    results: list[PlotForestStats] = []
    with rasterio.open(path) as dataset:
        reproject = dataset.crs is not None and dataset.crs.to_epsg() != 4326
        nodata = dataset.nodata
        for plot in plots:
            geometry = transform_geom("EPSG:4326", dataset.crs, plot) if reproject else plot
            stats = PlotForestStats()
            window = _plot_window(dataset, geometry)
            if window is None or window.width <= 0 or window.height <= 0:
                stats.outside_layer = True
                results.append(stats)
                continue
            values = dataset.read(1, window=window)
            transform = dataset.window_transform(window)
            shape_ = (int(window.height), int(window.width))
            inside = ~geometry_mask([geometry], out_shape=shape_, transform=transform)
            if not inside.any():
                # Smaller than a cell: the cells it touches. A point exactly on a cell's edge or corner
                # may rasterize to nothing, so it is widened by a hundredth of a cell first.
                touching = shape(geometry).buffer(min(abs(transform.a), abs(transform.e)) / 100)
                inside = ~geometry_mask([touching], out_shape=shape_, transform=transform, all_touched=True)
            if nodata is not None:
                inside &= values != nodata
            cells = values[inside]
            stats.cells = int(cells.size)
            if kind == "forest_2020":
                stats.forest_cells = int(np.count_nonzero(cells > 0))
            else:
                years = cells[cells > 0].astype(np.int64) + LOSS_YEAR_OFFSET
                after = years[years > CUTOFF_YEAR]
                stats.loss_cells_after_cutoff = int(after.size)
                stats.loss_years = sorted(int(y) for y in np.unique(after))
            results.append(stats)
    return results
