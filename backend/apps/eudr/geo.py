"""Plot geolocation: GeoJSON validated against the EU information system's rules (docs/eudr.md).

Pure functions, no database. The one entry point other code calls:

    validate_geojson(data, *, max_bytes=MAX_GEOJSON_BYTES) -> GeoResult
    geojson_size(data) -> int       the size the limit applies to (compact UTF-8 JSON)

- `data`: a parsed GeoJSON object (dict) or its text (str / bytes). A FeatureCollection, a single
  Feature or a bare geometry are accepted.
- `GeoResult.problems`: list of `GeoProblem(feature, code, message, severity, position)`. `feature` is the
  index of the feature in the input's feature list (None for problems of the whole file); `code` is a
  stable key (see `PROBLEM_CODES`); `message` is in the active language (gettext); `severity` is
  "error" or "warning"; `position` is a [lon, lat] where the problem is, when known.
- `GeoResult.feature_collection`: the normalised FeatureCollection, one feature per input feature and in
  the same order (so problem indexes point into it): coordinates rounded to 6 decimals, holes dropped,
  altitudes dropped, property names in their exact case. A feature whose geometry cannot be used has
  geometry null.
- `GeoResult.areas_ha`: per feature, the geodesic area in hectares of its polygons (WGS84 ellipsoid), or
  for point plots the declared `Area` (4 ha when absent); None when there is no usable geometry.
  `GeoResult.total_area_ha` sums them.
- `GeoResult.is_valid` is True when there is no problem of severity "error".
  `GeoResult.as_dict()` is the JSON shape the API returns.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from django.utils.translation import gettext as _
from pyproj import Geod
from shapely.geometry import MultiPolygon, Polygon
from shapely.validation import explain_validity

from apps.eudr.topojson import decode_arcs, ring_points

MAX_GEOJSON_BYTES = 25 * 1024 * 1024
DECIMALS = 6
POINT_MAX_AREA_HA = 4.0
MIN_AREA_HA = 0.0001
# A Point's declared Area: at least 0.0001 ha, at most POINT_MAX_AREA_HA. The EU texts disagree (0.1 ha in
# the validation rules 1.3, 0.0001 ha in the 2026 reference and the conformance catalogue): we follow the
# newer texts (docs/eudr.md, "Geolocation").
POINT_MIN_AREA_HA = MIN_AREA_HA
PRODUCER_NAME_MAX = 500
PROPERTY_NAMES = ("ProducerName", "ProducerCountry", "ProductionPlace", "Area")
POINT_TYPES = {"Point", "MultiPoint"}
POLYGON_TYPES = {"Polygon", "MultiPolygon"}
LINE_TYPES = {"LineString", "MultiLineString"}
GEOMETRY_TYPES = POINT_TYPES | POLYGON_TYPES | LINE_TYPES | {"GeometryCollection"}
WGS84_CRS_NAMES = {
    "urn:ogc:def:crs:OGC:1.3:CRS84",
    "urn:ogc:def:crs:OGC::CRS84",
    "urn:ogc:def:crs:EPSG::4326",
    "EPSG:4326",
    "CRS84",
}
# Relative difference between a declared Area and the computed one above which we warn.
AREA_MISMATCH_RATIO = 0.1

ERROR = "error"
WARNING = "warning"
Severity = Literal["error", "warning"]

PROBLEM_CODES = (
    "too_large",
    "invalid_json",
    "unknown_type",
    "crs_not_wgs84",
    "no_features",
    "not_a_feature",
    "missing_geometry",
    "line_refused",
    "unknown_geometry",
    "bad_coordinates",
    "out_of_range",
    "swapped_coordinates",
    "outside_country",
    "rounded",
    "low_precision",
    "altitude_dropped",
    "points_collapsed",
    "ring_not_closed",
    "ring_too_short",
    "self_intersection",
    "invalid_polygon",
    "parts_overlap",
    "holes_ignored",
    "point_over_4ha",
    "point_area_too_small",
    "collection_point_area_invalid",
    "crosses_antimeridian",
    "area_not_number",
    "area_too_small",
    "area_mismatch",
    "property_case",
    "properties_not_object",
    "invalid_country",
    "producer_name_too_long",
    "property_not_text",
)

_geod = Geod(ellps="WGS84")


@dataclass(frozen=True)
class GeoProblem:
    feature: int | None
    code: str
    message: str
    severity: Severity
    position: tuple[float, float] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
            "position": list(self.position) if self.position else None,
        }


@dataclass
class GeoResult:
    feature_collection: dict[str, Any]
    problems: list[GeoProblem] = field(default_factory=list)
    areas_ha: list[float | None] = field(default_factory=list)

    @property
    def errors(self) -> list[GeoProblem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[GeoProblem]:
        return [p for p in self.problems if p.severity == WARNING]

    @property
    def is_valid(self) -> bool:
        return not self.errors

    @property
    def total_area_ha(self) -> float:
        return round(sum(a for a in self.areas_ha if a is not None), 4)

    def problems_for(self, index: int) -> list[GeoProblem]:
        return [p for p in self.problems if p.feature == index]

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.is_valid,
            "error_count": len(self.errors),
            "warning_count": len(self.warnings),
            "problems": [p.as_dict() for p in self.problems],
            "feature_collection": self.feature_collection,
            "areas_ha": self.areas_ha,
            "total_area_ha": self.total_area_ha,
        }


# -- country data (ISO 3166-1 alpha-2 codes and the boxes of their land parts) --------------------------


@cache
def countries() -> dict[str, dict[str, Any]]:
    """{"CN": {"name": "China", "boxes": [[min_lon, min_lat, max_lon, max_lat], ...]}, ...}"""
    path = Path(__file__).with_name("data") / "countries.json"
    return json.loads(path.read_text(encoding="utf-8"))


def is_country_code(code: Any) -> bool:
    return isinstance(code, str) and code in countries()


# A plot counts as inside its country when it lies within this distance of the 1:50m boundary: the
# generalised coast and borders of that scale are off by up to a few kilometres (docs/duediligence.md).
COUNTRY_MARGIN_DEGREES = 0.05


@cache
def _country_shapes() -> dict[str, Any]:
    """{alpha-2 code: prepared shapely (Multi)Polygon} from country_shapes.json (world-atlas, Natural Earth),
    built by `make countries`; never read from the frontend's node_modules at run time."""
    import shapely

    path = Path(__file__).with_name("data") / "country_shapes.json"
    topology = json.loads(path.read_text(encoding="utf-8"))
    arcs = decode_arcs(topology)

    def ring(indexes: list[int]) -> list[tuple[float, float]]:
        return ring_points(arcs, indexes)

    shapes: dict[str, Any] = {}
    for geometry in topology["objects"]["countries"]["geometries"]:
        polygons = [geometry["arcs"]] if geometry["type"] == "Polygon" else geometry["arcs"]
        parts = []
        for rings in polygons:
            exterior = ring(rings[0])
            if len(exterior) < 4:
                continue
            polygon = Polygon(exterior, [ring(r) for r in rings[1:] if len(ring(r)) >= 4])
            parts.append(polygon if polygon.is_valid else polygon.buffer(0))
        if parts:
            shape = shapely.unary_union(
                [*parts, shapes[geometry["id"]]] if geometry["id"] in shapes else parts
            )
            shapes[geometry["id"]] = shape
    for shape in shapes.values():
        shapely.prepare(shape)
    return shapes


def country_shapes_source() -> dict[str, str]:
    """Which registry package and version the boundaries come from (shown beside the check's result)."""
    path = Path(__file__).with_name("data") / "country_shapes.json"
    text = path.read_text(encoding="utf-8")
    return json.loads(text[: text.index(',"transform"')] + "}")["source"]


def in_country(code: str, lon: float, lat: float, margin: float = COUNTRY_MARGIN_DEGREES) -> bool | None:
    """Whether [lon, lat] lies in country `code` (ISO alpha-2) against the shipped Natural Earth boundaries.

    True/False when the country's boundary is known, None when we have no shape for it (tiny territories
    absent at 1:50m). A point within `margin` degrees of the boundary counts as inside. The boxes of
    countries.json rule out most points before the polygon test.
    """
    import shapely

    boxes = countries().get(code, {}).get("boxes") or []
    shape = _country_shapes().get(code)
    if shape is None:
        return None
    if not any(
        box[0] - margin <= lon <= box[2] + margin and box[1] - margin <= lat <= box[3] + margin
        for box in boxes
    ):
        return False
    point = shapely.Point(lon, lat)
    return bool(shapely.contains(shape, point) or shapely.dwithin(shape, point, margin))


_in_country = in_country


# -- area --------------------------------------------------------------------------------------------------


def geodesic_area_ha(geometry: Polygon | MultiPolygon) -> float:
    """Geodesic area on the WGS84 ellipsoid in hectares (holes subtracted when present)."""
    area_m2, _perimeter = _geod.geometry_area_perimeter(geometry)
    return abs(area_m2) / 10_000


def feature_collection_area_ha(collection: Mapping[str, Any]) -> float:
    """Total area of a (validated) FeatureCollection, as `validate_geojson(...).total_area_ha`."""
    return validate_geojson(dict(collection)).total_area_ha


# -- the validator -----------------------------------------------------------------------------------------


class _Collector:
    def __init__(self) -> None:
        self.problems: list[GeoProblem] = []

    def add(
        self,
        feature: int | None,
        code: str,
        message: str,
        severity: Severity = ERROR,
        position: Iterable[float] | None = None,
    ) -> None:
        pos = tuple(round(float(v), DECIMALS) for v in position)[:2] if position is not None else None
        self.problems.append(GeoProblem(feature, code, str(message), severity, pos))  # type: ignore[arg-type]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def base64_size(size: int) -> int:
    return 4 * ((size + 2) // 3)


def geojson_size(data: Any) -> int:
    """The size the limit applies to, measured as the EU information system counts it and the same
    wherever the GeoJSON arrives (validate endpoint, PATCH, upload, package): the length of the base64
    text of its compact UTF-8 JSON (`geometryGeojson`). Text that is not JSON counts as it is, in base64."""
    if isinstance(data, (bytes, bytearray, str)):
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return base64_size(len(raw))
    try:
        return base64_size(len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")))
    except (TypeError, ValueError, RecursionError):
        return 0


def too_large(size: int, *, max_bytes: int | None = None) -> GeoResult:
    """The result for a file over the size limit (also used by the API before reading an upload)."""
    max_bytes = MAX_GEOJSON_BYTES if max_bytes is None else max_bytes
    out = _Collector()
    out.add(
        None,
        "too_large",
        _(
            "The geolocation is %(size).1f MB as the EU information system counts it (base64); at most "
            "%(max).0f MB are accepted."
        )
        % {"size": size / 1024 / 1024, "max": max_bytes / 1024 / 1024},
    )
    return GeoResult({"type": "FeatureCollection", "features": []}, out.problems, [])


def validate_geojson(data: Mapping[str, Any] | str | bytes, *, max_bytes: int | None = None) -> GeoResult:
    """Validates plot geolocation against the EU information system's rules; see the module docstring."""
    max_bytes = MAX_GEOJSON_BYTES if max_bytes is None else max_bytes
    out = _Collector()
    empty = {"type": "FeatureCollection", "features": []}

    size = geojson_size(data)
    if size > max_bytes:
        return too_large(size, max_bytes=max_bytes)

    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            out.add(None, "invalid_json", _("The file is not valid JSON."))
            return GeoResult(empty, out.problems, [])

    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        out.add(
            None,
            "unknown_type",
            _("This is not GeoJSON: a FeatureCollection, Feature or geometry is expected."),
        )
        return GeoResult(empty, out.problems, [])

    crs = data.get("crs")
    if crs is not None:
        name = (crs.get("properties") or {}).get("name") if isinstance(crs, Mapping) else None
        if name not in WGS84_CRS_NAMES:
            out.add(
                None,
                "crs_not_wgs84",
                _("Coordinates must be WGS84 longitude/latitude (EPSG:4326); the file declares %(crs)s.")
                % {"crs": name or "?"},
            )
            return GeoResult(empty, out.problems, [])

    kind = data["type"]
    if kind == "FeatureCollection":
        features = data.get("features")
        if not isinstance(features, list):
            out.add(None, "unknown_type", _("A FeatureCollection needs a list of features."))
            return GeoResult(empty, out.problems, [])
    elif kind == "Feature":
        features = [data]
    elif kind in GEOMETRY_TYPES:
        features = [{"type": "Feature", "properties": {}, "geometry": data}]
    else:
        out.add(
            None,
            "unknown_type",
            _("Unknown GeoJSON type “%(type)s”: a FeatureCollection, Feature or geometry is expected.")
            % {"type": kind},
        )
        return GeoResult(empty, out.problems, [])

    if not features:
        out.add(None, "no_features", _("The file holds no plot: add at least one Point or Polygon."))

    normalised: list[dict[str, Any]] = []
    areas: list[float | None] = []
    for index, feature in enumerate(features):
        feature_out, area = _validate_feature(index, feature, out)
        normalised.append(feature_out)
        areas.append(area)
    return GeoResult({"type": "FeatureCollection", "features": normalised}, out.problems, areas)


def _validate_properties(index: int, raw: Any, out: _Collector) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        out.add(index, "properties_not_object", _("Feature properties must be an object."))
        return {}
    properties = dict(raw)
    exact = {name.lower(): name for name in PROPERTY_NAMES}
    for key in list(properties):
        correct = exact.get(str(key).lower())
        if correct and key != correct:
            out.add(
                index,
                "property_case",
                _("Property “%(key)s” must be written “%(correct)s” (names are case-sensitive); renamed.")
                % {"key": key, "correct": correct},
                WARNING,
            )
            value = properties.pop(key)
            properties.setdefault(correct, value)

    country = properties.get("ProducerCountry")
    if country is not None:
        if (
            isinstance(country, str)
            and country.strip().upper() != country
            and is_country_code(country.strip().upper())
        ):
            properties["ProducerCountry"] = country = country.strip().upper()
        if not is_country_code(country):
            out.add(
                index,
                "invalid_country",
                _("ProducerCountry “%(value)s” is not an ISO 3166-1 alpha-2 country code (e.g. FI, BR).")
                % {"value": country},
            )
    for key in ("ProducerName", "ProductionPlace"):
        value = properties.get(key)
        if value is not None and not isinstance(value, str):
            out.add(index, "property_not_text", _("Property %(key)s must be text.") % {"key": key})
    name = properties.get("ProducerName")
    if isinstance(name, str) and len(name) > PRODUCER_NAME_MAX:
        out.add(
            index,
            "producer_name_too_long",
            _("ProducerName has %(length)d characters; at most %(max)d are allowed.")
            % {"length": len(name), "max": PRODUCER_NAME_MAX},
        )
    if "Area" in properties:
        area = properties["Area"]
        if not _is_number(area):
            out.add(
                index,
                "area_not_number",
                _("Area must be a number of hectares (e.g. 3.5), not “%(value)s”.") % {"value": area},
            )
        elif area < MIN_AREA_HA:
            out.add(
                index,
                "area_too_small",
                _("Area must be at least %(min)s ha; it is %(value)s.") % {"min": MIN_AREA_HA, "value": area},
            )
    return properties


class _Positions:
    """Checks and rounds positions of one feature, reporting each kind of problem once."""

    def __init__(self, index: int, out: _Collector, country: str | None) -> None:
        self.index = index
        self.out = out
        self.country = country
        self.rounded = 0
        self.decimals = 0  # the most decimals any coordinate of the feature has
        self.altitude = False
        self.bad = False
        self.out_of_range = False
        self.swap_votes = 0
        self.outside_votes = 0
        self.checked = 0
        self.first_outside: tuple[float, float] | None = None

    def position(self, raw: Any) -> tuple[float, float] | None:
        if not isinstance(raw, (list, tuple)) or len(raw) < 2 or not all(_is_number(v) for v in raw[:3]):
            if not self.bad:
                self.out.add(
                    self.index,
                    "bad_coordinates",
                    _("Coordinates must be [longitude, latitude] numbers; found %(value)s.")
                    % {"value": json.dumps(raw)[:60]},
                )
            self.bad = True
            return None
        if len(raw) > 2 and not self.altitude:
            self.altitude = True
            self.out.add(
                self.index, "altitude_dropped", _("Altitude values are not used and were removed."), WARNING
            )
        lon, lat = float(raw[0]), float(raw[1])
        self.decimals = max(self.decimals, _decimals(lon), _decimals(lat))
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            if not self.out_of_range:
                self.out_of_range = True
                if -90 <= lon <= 90 and -180 <= lat <= 180:
                    message = _(
                        "Latitude %(lat)s is outside -90..90: the coordinates look like [latitude, longitude]; "
                        "GeoJSON needs [longitude, latitude]."
                    ) % {"lat": lat}
                    self.out.add(self.index, "swapped_coordinates", message, ERROR, (lon, lat))
                else:
                    self.out.add(
                        self.index,
                        "out_of_range",
                        _("Coordinates [%(lon)s, %(lat)s] are outside WGS84 longitude/latitude ranges.")
                        % {"lon": lon, "lat": lat},
                        ERROR,
                        (lon, lat),
                    )
            return None
        rounded_lon, rounded_lat = round(lon, DECIMALS), round(lat, DECIMALS)
        if rounded_lon != lon or rounded_lat != lat:
            self.rounded += 1
        if self.country:
            inside = _in_country(self.country, rounded_lon, rounded_lat)
            if inside is False:
                self.checked += 1
                self.outside_votes += 1
                if self.first_outside is None:
                    self.first_outside = (rounded_lon, rounded_lat)
                if _in_country(self.country, rounded_lat, rounded_lon):
                    self.swap_votes += 1
            elif inside is True:
                self.checked += 1
        return rounded_lon, rounded_lat

    def finish(self) -> None:
        if self.decimals < DECIMALS and not self.bad and not self.out_of_range:
            self.out.add(
                self.index,
                "low_precision",
                _(
                    "The coordinates have at most %(decimals)d decimals (about %(metres)s m); the EU information "
                    "system expects 6 decimals (about 0.1 m). Enter the plot as it was measured."
                )
                % {"decimals": self.decimals, "metres": _precision_metres(self.decimals)},
                WARNING,
            )
        if self.rounded:
            self.out.add(
                self.index,
                "rounded",
                _("%(count)d coordinates had more than 6 decimals and were rounded to 6.")
                % {"count": self.rounded},
                WARNING,
            )
        if self.country and self.checked and self.outside_votes:
            name = countries()[self.country]["name"]
            if self.swap_votes and self.swap_votes >= self.outside_votes / 2:
                self.out.add(
                    self.index,
                    "swapped_coordinates",
                    _(
                        "The coordinates lie outside %(country)s but would lie inside it if swapped: they look "
                        "like [latitude, longitude]; GeoJSON needs [longitude, latitude]."
                    )
                    % {"country": name},
                    ERROR,
                    self.first_outside,
                )
            else:
                self.out.add(
                    self.index,
                    "outside_country",
                    _("%(count)d of the coordinates lie outside %(country)s (ProducerCountry).")
                    % {"count": self.outside_votes, "country": name},
                    WARNING,
                    self.first_outside,
                )


def _decimals(value: float) -> int:
    """The decimals a coordinate was given with (26.0 has none, 22.87 two)."""
    from decimal import Decimal

    exponent = Decimal(repr(value)).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _precision_metres(decimals: int) -> str:
    metres = 111_320 / 10**decimals
    return f"{metres:,.0f}" if metres >= 10 else f"{metres:.1f}"


def _validate_feature(index: int, feature: Any, out: _Collector) -> tuple[dict[str, Any], float | None]:
    if not isinstance(feature, Mapping) or feature.get("type") != "Feature":
        out.add(index, "not_a_feature", _("Item %(n)d is not a GeoJSON Feature.") % {"n": index + 1})
        return {"type": "Feature", "properties": {}, "geometry": None}, None
    properties = _validate_properties(index, feature.get("properties"), out)
    country = (
        properties.get("ProducerCountry") if is_country_code(properties.get("ProducerCountry")) else None
    )
    geometry = feature.get("geometry")
    result: dict[str, Any] = {"type": "Feature", "properties": properties, "geometry": None}
    if not isinstance(geometry, Mapping) or not isinstance(geometry.get("type"), str):
        out.add(index, "missing_geometry", _("The feature has no geometry."))
        return result, None

    positions = _Positions(index, out, country)
    checker = _GeometryChecker(index, out, positions)
    normalised = checker.geometry(geometry)
    positions.finish()
    if normalised is None or checker.failed:
        result["geometry"] = normalised if normalised is not None and not positions.bad else None
        return result, None
    result["geometry"] = normalised

    declared = properties.get("Area")
    declared_area = float(declared) if _is_number(declared) and declared >= MIN_AREA_HA else None
    if checker.polygons:
        area = round(sum(geodesic_area_ha(p) for p in checker.polygons), 4)
        if (
            declared_area is not None
            and not checker.points
            and area > 0
            and abs(declared_area - area) / area > AREA_MISMATCH_RATIO
        ):
            out.add(
                index,
                "area_mismatch",
                _("The declared Area is %(declared)s ha but the polygon measures %(computed)s ha.")
                % {"declared": declared_area, "computed": area},
                WARNING,
            )
        if checker.points:
            # Beside a polygon the feature's Area is the point's: the system refuses a point over 4 ha
            # there too (EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID), so it is an error, not a mismatch.
            point_area = declared_area if declared_area is not None else POINT_MAX_AREA_HA
            if point_area > POINT_MAX_AREA_HA:
                out.add(
                    index,
                    "collection_point_area_invalid",
                    _(
                        "The plot joins a point to a polygon and declares %(area)s ha: the EU information "
                        "system takes the Area as the point's, and a point may stand for at most 4 ha. Put the "
                        "point in a feature of its own with its area, or draw it as a polygon."
                    )
                    % {"area": point_area},
                    ERROR,
                    checker.points[0],
                )
            area += point_area
        return result, round(area, 4)
    if checker.points:
        point_area = declared_area if declared_area is not None else POINT_MAX_AREA_HA
        if declared_area is not None and declared_area < POINT_MIN_AREA_HA:
            out.add(
                index,
                "point_area_too_small",
                _(
                    "A point plot's Area must be at least %(min)s ha; it is %(area)s ha. Enter the plot's real "
                    "area in hectares (or draw it as a polygon)."
                )
                % {"min": POINT_MIN_AREA_HA, "area": declared_area},
                ERROR,
                checker.points[0],
            )
        if point_area > POINT_MAX_AREA_HA:
            out.add(
                index,
                "point_over_4ha",
                _("A plot of %(area)s ha needs a polygon: a single point is allowed only up to 4 ha.")
                % {"area": point_area},
                ERROR,
                checker.points[0],
            )
        return result, round(point_area, 4)
    return result, None


class _GeometryChecker:
    def __init__(self, index: int, out: _Collector, positions: _Positions) -> None:
        self.index = index
        self.out = out
        self.positions = positions
        self.polygons: list[Polygon] = []
        self.points: list[tuple[float, float]] = []
        self.failed = False
        self.holes_reported = False

    def error(self, code: str, message: str, position: Iterable[float] | None = None) -> None:
        self.failed = True
        self.out.add(self.index, code, message, ERROR, position)

    def geometry(self, geometry: Mapping[str, Any]) -> dict[str, Any] | None:
        kind = geometry.get("type")
        if kind in LINE_TYPES:
            self.error(
                "line_refused",
                _("%(type)s is not accepted: a plot is a Point or a Polygon.") % {"type": kind},
            )
            return None
        if kind == "GeometryCollection":
            members = geometry.get("geometries")
            if not isinstance(members, list) or not members:
                self.error("unknown_geometry", _("The GeometryCollection is empty."))
                return None
            parts = [self.geometry(member) if isinstance(member, Mapping) else None for member in members]
            if any(part is None for part in parts):
                self.failed = True
                return None
            return {"type": "GeometryCollection", "geometries": parts}
        if kind not in POINT_TYPES | POLYGON_TYPES:
            self.error("unknown_geometry", _("Unknown geometry type “%(type)s”.") % {"type": kind})
            return None
        coordinates = geometry.get("coordinates")
        if kind == "Point":
            point = self.positions.position(coordinates)
            if point is None:
                self.failed = True
                return None
            self.points.append(point)
            return {"type": "Point", "coordinates": list(point)}
        if kind == "MultiPoint":
            if not isinstance(coordinates, list) or not coordinates:
                self.error("bad_coordinates", _("A MultiPoint needs at least one position."))
                return None
            raw_points = [self.positions.position(c) for c in coordinates]
            if any(p is None for p in raw_points):
                self.failed = True
                return None
            unique = list(dict.fromkeys(raw_points))
            if len(unique) < len(raw_points):
                self.out.add(
                    self.index,
                    "points_collapsed",
                    _("%(count)d points of the MultiPoint are identical at 6 decimals; duplicates removed.")
                    % {"count": len(raw_points) - len(unique)},
                    WARNING,
                )
            self.points.extend(unique)  # type: ignore[arg-type]
            return {"type": "MultiPoint", "coordinates": [list(p) for p in unique]}  # type: ignore[arg-type]
        if kind == "Polygon":
            rings = self.polygon(coordinates)
            return None if rings is None else {"type": "Polygon", "coordinates": rings}
        if not isinstance(coordinates, list) or not coordinates:
            self.error("bad_coordinates", _("A MultiPolygon needs at least one polygon."))
            return None
        first = len(self.polygons)
        polygons = [self.polygon(c) for c in coordinates]
        if any(p is None for p in polygons):
            return None
        mine = self.polygons[first:]
        if len(mine) > 1 and not MultiPolygon(mine).is_valid:
            self.out.add(
                self.index,
                "parts_overlap",
                _(
                    "Parts of the MultiPolygon overlap or share an edge: the EU information system refuses "
                    "them. Merge those parts into one polygon or separate them."
                ),
                ERROR,
            )
            self.failed = True
            return None
        return {"type": "MultiPolygon", "coordinates": polygons}

    def polygon(self, rings: Any) -> list[list[list[float]]] | None:
        """The polygon's normalised rings (the outer one only), or None when it is unusable."""
        if not isinstance(rings, list) or not rings or not isinstance(rings[0], list):
            self.error(
                "bad_coordinates", _("A Polygon needs a list of rings of [longitude, latitude] positions.")
            )
            return None
        if len(rings) > 1 and not self.holes_reported:
            self.holes_reported = True
            self.out.add(
                self.index,
                "holes_ignored",
                _("Holes in polygons are ignored by the EU information system; only the outer ring is kept."),
                WARNING,
            )
        raw = rings[0]
        positions = [self.positions.position(p) for p in raw]
        if any(p is None for p in positions):
            self.failed = True
            return None
        ring: list[tuple[float, float]] = positions  # type: ignore[assignment]
        if any(abs(a[0] - b[0]) > 180 for a, b in itertools.pairwise(ring)):
            # An edge longer than half the globe: the outline crosses the 180th meridian, which the EU
            # information system refuses as invalid geometry.
            self.error(
                "crosses_antimeridian",
                _(
                    "The polygon crosses the 180th meridian (antimeridian): split it into two polygons, one "
                    "on each side."
                ),
                ring[0],
            )
            return None
        if len(ring) >= 2 and ring[0] != ring[-1]:
            # Not closed silently: an open ring often means a truncated file.
            self.error(
                "ring_not_closed",
                _("The polygon is not closed: its last position must repeat the first."),
                ring[0],
            )
            return None
        collapsed = 0
        cleaned: list[tuple[float, float]] = []
        for point in ring:
            if cleaned and cleaned[-1] == point:
                collapsed += 1
                continue
            cleaned.append(point)
        cleaned_closed = cleaned
        original_duplicates = sum(
            1 for a, b in itertools.pairwise(raw) if isinstance(a, list) and a[:2] == b[:2]
        )
        if collapsed > original_duplicates:
            self.out.add(
                self.index,
                "points_collapsed",
                _("%(count)d consecutive positions became identical when rounded to 6 decimals; removed.")
                % {"count": collapsed - original_duplicates},
                WARNING,
                cleaned[0] if cleaned else None,
            )
        elif collapsed:
            self.out.add(
                self.index,
                "points_collapsed",
                _("%(count)d repeated consecutive positions were removed.") % {"count": collapsed},
                WARNING,
            )
        if len(set(cleaned_closed)) < 3 or len(cleaned_closed) < 4:
            self.error(
                "ring_too_short",
                _("A polygon needs at least 3 distinct corners (4 positions with the closing one)."),
                ring[0] if ring else None,
            )
            return None
        shape = Polygon(cleaned_closed)
        if not shape.is_valid:
            reason = explain_validity(shape)
            where = _reason_position(reason)
            if reason.lower().startswith(("self-intersection", "ring self-intersection")):
                self.error(
                    "self_intersection",
                    _("The polygon crosses itself near [%(lon)s, %(lat)s].")
                    % {"lon": where[0] if where else "?", "lat": where[1] if where else "?"},
                    where,
                )
            else:
                self.error(
                    "invalid_polygon", _("The polygon is not valid (%(reason)s).") % {"reason": reason}, where
                )
            return None
        self.polygons.append(shape)
        return [[[lon, lat] for lon, lat in cleaned_closed]]


def _reason_position(reason: str) -> tuple[float, float] | None:
    """explain_validity gives e.g. "Self-intersection[10.5 20.25]"."""
    if "[" not in reason or "]" not in reason:
        return None
    inner = reason[reason.index("[") + 1 : reason.index("]")].split()
    try:
        return float(inner[0]), float(inner[1])
    except (IndexError, ValueError):
        return None


def collection_to_base64(collection: Mapping[str, Any]) -> str:
    """The geometry as the EU information system's API expects it (`geometryGeojson`: base64 of GeoJSON)."""
    import base64

    text = json.dumps(collection, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def geojson_digest(value: Any) -> str:
    """A digest of the plots as stored (canonical JSON): what a confirmation of them holds for."""
    import hashlib

    if not value:
        return ""
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
