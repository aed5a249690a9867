"""The 2020 forest check at size: a 10,000 x 10,000 cell layer (tiled GeoTIFF, about 30 m cells over
3 x 3 degrees) against 1,000 plots of 1 to 25 ha (apps/duediligence/forest.py; docs/duediligence.md).

Run with `make bench`. Nothing here asserts a time; pytest-benchmark reports the figures and
`extra_info` the plots per second and the peak resident memory of the process.
"""

from __future__ import annotations

import random
import resource

import numpy as np
import pytest
import rasterio
from rasterio.transform import from_origin
from rasterio.windows import Window

from apps.duediligence.forest import plot_stats

SIZE = 10_000
PLOTS = 1_000
WEST, NORTH = 100.0, 3.0
CELL = 3.0 / SIZE


@pytest.fixture(scope="module")
def big_layer(tmp_path_factory):
    path = tmp_path_factory.mktemp("forest") / "loss.tif"
    rng = np.random.default_rng(2020)
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        width=SIZE,
        height=SIZE,
        count=1,
        dtype="uint8",
        crs="EPSG:4326",
        transform=from_origin(WEST, NORTH, CELL, CELL),
        nodata=255,
        tiled=True,
        blockxsize=512,
        blockysize=512,
        compress="deflate",
    ) as dataset:
        for row in range(0, SIZE, 1000):  # written in strips: the whole layer is never in memory
            strip = rng.integers(0, 25, size=(1000, SIZE), dtype=np.uint8)
            strip[strip < 15] = 0
            dataset.write(strip, 1, window=Window(0, row, SIZE, 1000))
    random.seed(7)
    plots = []
    for _ in range(PLOTS):
        side = random.uniform(0.0009, 0.0045)  # 1 to 25 ha near the equator
        west = WEST + random.uniform(0, 3.0 - side)
        south = NORTH - 3.0 + random.uniform(0, 3.0 - side)
        ring = [[west, south], [west + side, south], [west + side, south + side], [west, south + side]]
        plots.append({"type": "Polygon", "coordinates": [[*ring, ring[0]]]})
    return str(path), plots


def test_bench_forest_check_10000x10000_layer_1000_plots(benchmark, big_layer):
    path, plots = big_layer
    stats = benchmark.pedantic(plot_stats, args=(path, plots, "loss_year"), rounds=3, iterations=1)
    assert len(stats) == PLOTS
    assert any(s.loss_after_cutoff for s in stats)
    benchmark.extra_info["plots_per_second"] = round(PLOTS / benchmark.stats.stats.mean)
    benchmark.extra_info["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
