"""The 2020 forest check over small rasters the tests write themselves (apps/duediligence/forest.py)."""

import numpy as np
import pytest
import rasterio
from rasterio.transform import from_origin

from apps.duediligence.forest import plot_stats

# 100 x 100 cells of 0.001 degree from (10.0 E, 1.0 N) down to (10.1 E, 0.9 N).
WEST, NORTH, CELL = 10.0, 1.0, 0.001


def box(col0, row0, col1, row1):
    """A polygon over cells [col0, col1) x [row0, row1)."""
    west, east = WEST + col0 * CELL, WEST + col1 * CELL
    north, south = NORTH - row0 * CELL, NORTH - row1 * CELL
    ring = [[west, south], [east, south], [east, north], [west, north], [west, south]]
    return {"type": "Polygon", "coordinates": [ring]}


def write_layer(path, data, nodata=None, crs="EPSG:4326"):
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        width=data.shape[1],
        height=data.shape[0],
        count=1,
        dtype=data.dtype,
        crs=crs,
        transform=from_origin(WEST, NORTH, CELL, CELL),
        nodata=nodata,
        tiled=True,
        blockxsize=16,
        blockysize=16,
    ) as dataset:
        dataset.write(data, 1)
    return str(path)


@pytest.fixture
def forest_layer(tmp_path):
    data = np.zeros((100, 100), dtype=np.uint8)
    data[:, :50] = 1  # the western half was forest in 2020
    data[90:, :] = 255  # the southern rows are nodata
    return write_layer(tmp_path / "forest.tif", data, nodata=255)


@pytest.fixture
def loss_layer(tmp_path):
    data = np.zeros((100, 100), dtype=np.uint8)
    data[50:60, 50:60] = 22  # lost in 2022
    data[10:20, 10:20] = 15  # lost in 2015
    data[10:20, 20:30] = 20  # lost in 2020 (before the cut-off's end)
    return write_layer(tmp_path / "loss.tif", data, nodata=None)


def test_forest_share_of_plots_over_a_synthetic_forest_cover_layer(forest_layer):
    plots = [
        box(40, 10, 60, 20),  # half forest
        box(0, 0, 30, 30),  # all forest
        box(60, 0, 100, 40),  # no forest
        box(0, 80, 100, 100),  # half of it nodata: only the 10 rows with data count
        box(200, 200, 210, 210),  # outside the layer
        {"type": "Point", "coordinates": [WEST + 0.0105, NORTH - 0.0105]},  # one forest cell
    ]
    stats = plot_stats(forest_layer, plots, "forest_2020")
    assert [s.forest_share for s in stats] == [0.5, 1.0, 0.0, 0.5, None, 1.0]
    assert stats[0].cells == 200 and stats[0].forest_cells == 100
    assert stats[3].cells == 1000
    assert stats[4].outside_layer is True
    assert stats[5].cells == 1


def test_loss_after_2020_is_flagged_and_earlier_loss_is_not(loss_layer):
    stats = plot_stats(
        loss_layer,
        [box(45, 45, 65, 65), box(5, 5, 30, 25), box(70, 70, 90, 90)],
        "loss_year",
    )
    assert stats[0].loss_after_cutoff is True
    assert stats[0].loss_cells_after_cutoff == 100
    assert stats[0].loss_years == [2022]
    assert [s.loss_after_cutoff for s in stats[1:]] == [False, False]
    assert stats[1].loss_years == []


def test_a_layer_in_another_crs_is_read_through_the_reprojected_plot(tmp_path):
    # The same grid in Web Mercator metres: the plot (WGS84) is reprojected to the layer's CRS.
    from rasterio.warp import transform

    data = np.ones((100, 100), dtype=np.uint8)
    xs, ys = transform("EPSG:4326", "EPSG:3857", [10.0], [1.0])
    path = tmp_path / "mercator.tif"
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        width=100,
        height=100,
        count=1,
        dtype="uint8",
        crs="EPSG:3857",
        transform=from_origin(xs[0], ys[0], 100.0, 100.0),
    ) as dataset:
        dataset.write(data, 1)
    (stats,) = plot_stats(str(path), [box(0, 0, 20, 20)], "forest_2020")
    assert stats.forest_share == 1.0
    assert stats.cells > 0


def test_a_point_on_a_cells_edge_or_corner_counts_one_of_the_cells_it_touches(forest_layer, loss_layer):
    # Points exactly on cell corners and edges once rasterized to nothing at the window's border.
    corner = {"type": "Point", "coordinates": [WEST + 0.010, NORTH - 0.010]}
    edge = {"type": "Point", "coordinates": [WEST + 0.050, NORTH - 0.0105]}  # the forest's eastern edge
    stats = plot_stats(forest_layer, [corner, edge], "forest_2020")
    assert [s.cells for s in stats] == [1, 1]
    assert stats[0].forest_share == 1.0
    (lost,) = plot_stats(
        loss_layer, [{"type": "Point", "coordinates": [WEST + 0.055, NORTH - 0.055]}], "loss_year"
    )
    assert lost.cells == 1 and lost.loss_years == [2022]
