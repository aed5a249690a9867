"""TopoJSON decoding without dependencies: shared by the country check (apps/eudr/geo.py) and the build
step that writes its data (apps/eudr/data/build_countries.py, run with a plain python3)."""

from __future__ import annotations

Point = tuple[float, float]


def decode_arcs(topology: dict) -> list[list[Point]]:
    """The topology's delta-encoded, quantized arcs as absolute [lon, lat] points."""
    scale_x, scale_y = topology["transform"]["scale"]
    translate_x, translate_y = topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * scale_x + translate_x, y * scale_y + translate_y))
        arcs.append(points)
    return arcs


def ring_points(arcs: list[list[Point]], indexes: list[int]) -> list[Point]:
    """One ring from its arc indexes (a negative index ~i is arc i reversed)."""
    points: list[Point] = []
    for index in indexes:
        points.extend(arcs[index] if index >= 0 else list(reversed(arcs[~index])))
    return points
