"""Regenerates countries.json: ISO 3166-1 alpha-2 codes, English names and the bounding boxes of each
country's land parts (a quick first test), and country_shapes.json: the country boundaries themselves
(world-atlas's countries-50m TopoJSON with each geometry's id turned into its alpha-2 code and the
package's name and version recorded), against which a plot is checked to lie in its declared country
(docs/duediligence.md, "Plot in its declared country").

Sources (both on every development machine): Debian's iso-codes (/usr/share/iso-codes/json/iso_3166-1.json)
and world-atlas's countries-50m.json (Natural Earth, public domain) from frontend/node_modules.
The backend never reads node_modules at run time: this build step copies the data into the backend
package and both outputs are committed. world-atlas is pinned in frontend/package-lock.json.
Run from the repository root: `make countries` (= `python3 backend/apps/eudr/data/build_countries.py`).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # backend/: run as a plain script
from apps.eudr.topojson import decode_arcs, ring_points

ISO = Path("/usr/share/iso-codes/json/iso_3166-1.json")
ATLAS = Path("frontend/node_modules/world-atlas/countries-50m.json")
ATLAS_PACKAGE = Path("frontend/node_modules/world-atlas/package.json")
OUT = Path(__file__).with_name("countries.json")
SHAPES_OUT = Path(__file__).with_name("country_shapes.json")


def main() -> None:
    iso = json.loads(ISO.read_text())["3166-1"]
    by_numeric = {row["numeric"]: row["alpha_2"] for row in iso}
    topology = json.loads(ATLAS.read_text())
    arcs = decode_arcs(topology)
    boxes: dict[str, list[list[float]]] = {}
    for geometry in topology["objects"]["countries"]["geometries"]:
        code = by_numeric.get(geometry.get("id"))
        if not code:
            continue
        if geometry["type"] == "Polygon":
            polygons = [geometry["arcs"]]
        elif geometry["type"] == "MultiPolygon":
            polygons = geometry["arcs"]
        else:
            continue
        for polygon in polygons:
            points = ring_points(arcs, polygon[0])
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            box = [round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2)]
            boxes.setdefault(code, []).append(box)
    countries = {
        row["alpha_2"]: {
            "name": row.get("common_name") or row["name"],
            "boxes": boxes.get(row["alpha_2"], []),
        }
        for row in sorted(iso, key=lambda r: r["alpha_2"])
    }
    OUT.write_text(json.dumps(countries, separators=(",", ":"), ensure_ascii=False) + "\n")
    package = json.loads(ATLAS_PACKAGE.read_text())
    shapes = {
        "type": "Topology",
        "source": {
            "package": package["name"],
            "version": package["version"],
            "file": ATLAS.name,
            "data": "Natural Earth 1:50m admin 0 countries (public domain)",
        },
        "transform": topology["transform"],
        "arcs": topology["arcs"],
        "objects": {
            "countries": {
                "type": "GeometryCollection",
                "geometries": [
                    {"type": g["type"], "id": by_numeric[g["id"]], "arcs": g["arcs"]}
                    for g in topology["objects"]["countries"]["geometries"]
                    if g.get("id") in by_numeric and g["type"] in ("Polygon", "MultiPolygon")
                ],
            }
        },
    }
    SHAPES_OUT.write_text(json.dumps(shapes, separators=(",", ":")) + "\n")
    print(f"{len(countries)} countries, {sum(len(b) for b in boxes.values())} boxes -> {OUT}")


if __name__ == "__main__":
    main()
