"""GeoJSON validation against the EU information system's rules (apps/eudr/geo.py)."""

import json

import pytest

from apps.eudr.geo import (
    MAX_GEOJSON_BYTES,
    collection_to_base64,
    countries,
    country_shapes_source,
    geodesic_area_ha,
    in_country,
    validate_geojson,
)

# A 1 km x 1 km square at the equator: 1 km east is 1/111.32 degree of longitude, 1 km north 1/110.574.
KM_LON = round(1 / 111.319491, 6)
KM_LAT = round(1 / 110.574, 6)


def square(lon=10.0, lat=0.0, dx=KM_LON, dy=KM_LAT):
    east, north = round(lon + dx, 6), round(lat + dy, 6)
    return [[lon, lat], [east, lat], [east, north], [lon, north], [lon, lat]]


def feature(geometry, **properties):
    return {"type": "Feature", "properties": properties, "geometry": geometry}


def collection(*features):
    return {"type": "FeatureCollection", "features": list(features)}


def codes(result, feature=None):
    # The precision warning has its own test: the other tests' hand-written plots have few decimals.
    return [
        p.code
        for p in result.problems
        if (feature is None or p.feature == feature) and p.code != "low_precision"
    ]


def test_valid_polygon_and_point_pass_with_areas():
    fc = collection(
        feature(
            {"type": "Polygon", "coordinates": [square(26.0, 62.0, 0.01, 0.005)]},
            ProducerName="Metsä Forest Oy",
            ProducerCountry="FI",
            ProductionPlace="Kuopio",
        ),
        feature({"type": "Point", "coordinates": [26.5, 62.5]}, ProducerCountry="FI", Area=2.5),
    )
    result = validate_geojson(fc)
    assert result.is_valid, result.problems
    assert codes(result) == []
    assert result.areas_ha[0] == pytest.approx(29.2, rel=0.01)  # 0.01 deg x 0.005 deg at 62 N
    assert result.areas_ha[1] == 2.5
    assert result.total_area_ha == pytest.approx(result.areas_ha[0] + 2.5)
    assert result.feature_collection == fc
    data = result.as_dict()
    assert data["valid"] is True and data["error_count"] == 0
    assert json.loads(json.dumps(data))["feature_collection"]["features"][1]["properties"]["Area"] == 2.5


def test_geodesic_area_of_a_square_kilometre_at_the_equator_is_100_ha():
    from shapely.geometry import Polygon

    assert geodesic_area_ha(Polygon(square())) == pytest.approx(100.0, rel=0.01)
    result = validate_geojson({"type": "Polygon", "coordinates": [square()]})
    assert result.is_valid
    assert result.areas_ha == [pytest.approx(100.0, rel=0.01)]
    assert result.total_area_ha == pytest.approx(100.0, rel=0.01)


def test_bare_geometry_and_single_feature_are_wrapped_in_a_collection():
    point = {"type": "Point", "coordinates": [26.1, 62.1]}
    for data in (point, feature(point)):
        result = validate_geojson(data)
        assert result.is_valid
        assert result.feature_collection["type"] == "FeatureCollection"
        assert result.feature_collection["features"][0]["geometry"] == point
        assert result.areas_ha == [4.0]  # 4 ha assumed when Area is absent


def test_text_and_bytes_input_are_parsed():
    text = json.dumps({"type": "Point", "coordinates": [26.1, 62.1]})
    assert validate_geojson(text).is_valid
    assert validate_geojson(text.encode()).is_valid
    bad = validate_geojson("{not json")
    assert codes(bad) == ["invalid_json"]
    assert bad.problems[0].feature is None


def test_self_intersecting_polygon_is_refused_with_the_crossing_point():
    bowtie = [[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]
    result = validate_geojson(feature({"type": "Polygon", "coordinates": [bowtie]}))
    assert not result.is_valid
    problem = result.errors[0]
    assert problem.code == "self_intersection"
    assert problem.feature == 0
    assert problem.position == (0.5, 0.5)
    assert "crosses itself" in problem.message
    assert result.feature_collection["features"][0]["geometry"] is None
    assert result.areas_ha == [None]


def test_open_ring_is_an_error_not_silently_closed():
    ring = square()[:-1]
    result = validate_geojson(feature({"type": "Polygon", "coordinates": [ring]}))
    assert codes(result) == ["ring_not_closed"]
    assert result.errors[0].severity == "error"


def test_ring_with_too_few_corners_is_refused():
    result = validate_geojson({"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]})
    assert "ring_too_short" in codes(result)
    assert not result.is_valid


@pytest.mark.parametrize("kind", ["LineString", "MultiLineString"])
def test_lines_are_refused(kind):
    coordinates = [[0, 0], [1, 1]] if kind == "LineString" else [[[0, 0], [1, 1]]]
    result = validate_geojson(collection(feature({"type": kind, "coordinates": coordinates})))
    assert codes(result) == ["line_refused"]
    assert kind in result.errors[0].message


def test_more_than_six_decimals_are_rounded_with_a_warning():
    result = validate_geojson({"type": "Point", "coordinates": [26.123456789, 62.98765432101]})
    assert result.is_valid
    assert codes(result) == ["rounded"]
    assert result.warnings[0].severity == "warning"
    assert result.feature_collection["features"][0]["geometry"]["coordinates"] == [26.123457, 62.987654]


def test_points_collapsing_after_rounding_are_reported():
    ring = [
        [26.0, 62.0],
        [26.0100001, 62.0],
        [26.0100004, 62.0000001],  # the same as the previous one at 6 decimals
        [26.01, 62.01],
        [26.0, 62.01],
        [26.0, 62.0],
    ]
    result = validate_geojson({"type": "Polygon", "coordinates": [ring]})
    assert result.is_valid
    assert "points_collapsed" in codes(result)
    assert len(result.feature_collection["features"][0]["geometry"]["coordinates"][0]) == 5

    multipoint = validate_geojson({"type": "MultiPoint", "coordinates": [[1.0000001, 2.0], [1.0000002, 2.0]]})
    assert "points_collapsed" in codes(multipoint)
    assert multipoint.feature_collection["features"][0]["geometry"]["coordinates"] == [[1.0, 2.0]]


def test_polygon_collapsing_entirely_after_rounding_is_an_error():
    tiny = [[1.0, 1.0], [1.0000001, 1.0], [1.0000001, 1.0000001], [1.0, 1.0]]
    result = validate_geojson({"type": "Polygon", "coordinates": [tiny]})
    assert "ring_too_short" in codes(result)
    assert "points_collapsed" in codes(result)


def test_point_over_4_ha_needs_a_polygon():
    result = validate_geojson(feature({"type": "Point", "coordinates": [26.1, 62.1]}, Area=4.5))
    assert codes(result) == ["point_over_4ha"]
    assert "needs a polygon" in result.errors[0].message
    assert validate_geojson(feature({"type": "Point", "coordinates": [26.1, 62.1]}, Area=4)).is_valid


@pytest.mark.parametrize(
    ("area", "code"),
    [
        ("3", "area_not_number"),
        (None, "area_not_number"),
        (True, "area_not_number"),
        (0.00001, "area_too_small"),
        (-1, "area_too_small"),
    ],
)
def test_area_must_be_a_number_of_at_least_0_0001(area, code):
    result = validate_geojson(feature({"type": "Point", "coordinates": [26.1, 62.1]}, Area=area))
    assert code in codes(result)
    assert not result.is_valid


def test_declared_area_far_from_the_computed_one_is_a_warning():
    result = validate_geojson(feature({"type": "Polygon", "coordinates": [square()]}, Area=50))
    assert result.is_valid
    assert codes(result) == ["area_mismatch"]


def test_latitude_out_of_range_hints_at_swapped_coordinates():
    # Wuhan, China, written as [lat, lon]
    result = validate_geojson(feature({"type": "Point", "coordinates": [30.59, 114.3]}))
    assert codes(result) == ["swapped_coordinates"]
    assert "[longitude, latitude]" in result.errors[0].message


def test_swapped_coordinates_detected_for_the_producer_country():
    # Finland: lon 20..31, lat 59..70; [62.5, 26.5] is [lat, lon].
    result = validate_geojson(feature({"type": "Point", "coordinates": [62.5, 26.5]}, ProducerCountry="FI"))
    assert codes(result) == ["swapped_coordinates"]
    assert "Finland" in result.errors[0].message
    # Brazil, a polygon given as [lat, lon]
    ring = [[-10.0, -50.0], [-10.0, -49.9], [-9.9, -49.9], [-9.9, -50.0], [-10.0, -50.0]]
    result = validate_geojson(feature({"type": "Polygon", "coordinates": [ring]}, ProducerCountry="BR"))
    assert "swapped_coordinates" in codes(result)


def test_coordinates_outside_the_producer_country_are_a_warning():
    result = validate_geojson(feature({"type": "Point", "coordinates": [2.35, 48.85]}, ProducerCountry="FI"))
    assert result.is_valid
    assert codes(result) == ["outside_country"]


def test_a_plot_inside_the_box_but_outside_the_boundary_is_outside_its_country():
    # Ulaanbaatar lies within China's bounding box but in Mongolia: the Natural Earth boundary decides.
    result = validate_geojson(
        feature({"type": "Point", "coordinates": [106.9176, 47.9186]}, ProducerCountry="CN")
    )
    assert codes(result) == ["outside_country"]
    assert in_country("CN", 106.9176, 47.9186) is False
    assert in_country("MN", 106.9176, 47.9186) is True


@pytest.mark.parametrize(
    ("code", "lon", "lat", "inside"),
    [
        ("CN", 116.4074, 39.9042, True),  # Beijing
        ("BR", -47.8825, -15.7942, True),  # Brasilia
        ("ID", 110.4203, -6.9932, True),  # Semarang, on the Java coast (within the margin)
        ("SE", 18.0686, 59.3293, True),  # Stockholm
        ("FI", 18.0686, 59.3293, False),
        ("US", -106.4850, 31.7619, True),  # El Paso, on the border with Mexico
        ("MX", -106.4245, 31.6904, True),  # Ciudad Juarez, across the river
        ("FR", -30.0, 45.0, False),  # the Atlantic
    ],
)
def test_in_country_against_the_shipped_natural_earth_boundaries(code, lon, lat, inside):
    assert in_country(code, lon, lat) is inside


def test_country_boundaries_name_the_registry_package_they_come_from():
    assert country_shapes_source()["package"] == "world-atlas"
    assert country_shapes_source()["version"] == "2.0.2"
    assert in_country("ZZ", 0.0, 0.0) is None


def test_out_of_range_longitude_is_an_error():
    result = validate_geojson({"type": "Point", "coordinates": [200.0, 95.0]})
    assert codes(result) == ["out_of_range"]


def test_bad_coordinates_are_reported_once():
    result = validate_geojson({"type": "Polygon", "coordinates": [[["a", 1], ["b", 2], [0, 0], [0, 0]]]})
    assert codes(result) == ["bad_coordinates"]


def test_holes_are_ignored_with_a_warning_and_dropped():
    outer = square(10, 0, 0.1, 0.1)
    hole = square(10.02, 0.02, 0.01, 0.01)
    result = validate_geojson({"type": "Polygon", "coordinates": [outer, hole]})
    assert result.is_valid
    assert codes(result) == ["holes_ignored"]
    assert len(result.feature_collection["features"][0]["geometry"]["coordinates"]) == 1


def test_multipolygon_and_geometry_collection_are_accepted():
    multi = {"type": "MultiPolygon", "coordinates": [[square(10, 0)], [square(10.1, 0)]]}
    result = validate_geojson(multi)
    assert result.is_valid
    assert result.areas_ha[0] == pytest.approx(200.0, rel=0.01)

    gc = {
        "type": "GeometryCollection",
        "geometries": [
            {"type": "Point", "coordinates": [26.0, 62.0]},
            {"type": "Polygon", "coordinates": [square()]},
        ],
    }
    result = validate_geojson(gc)
    assert result.is_valid
    assert result.areas_ha[0] == pytest.approx(104.0, rel=0.01)

    with_line = {
        "type": "GeometryCollection",
        "geometries": [{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}],
    }
    assert codes(validate_geojson(with_line)) == ["line_refused"]


def test_overlapping_multipolygon_parts_are_refused():
    multi = {"type": "MultiPolygon", "coordinates": [[square(10, 0)], [square(10.004, 0)]]}
    result = validate_geojson(multi)
    assert "parts_overlap" in codes(result)
    assert not result.is_valid


def test_property_names_are_case_sensitive_wrong_case_warns_and_is_renamed():
    result = validate_geojson(
        feature(
            {"type": "Point", "coordinates": [26.1, 62.1]}, producername="Oy", AREA=3, producerCountry="fi"
        )
    )
    assert result.is_valid
    assert codes(result).count("property_case") == 3
    properties = result.feature_collection["features"][0]["properties"]
    assert properties == {"ProducerName": "Oy", "Area": 3, "ProducerCountry": "FI"}


def test_invalid_country_and_long_producer_name_are_errors():
    result = validate_geojson(
        feature(
            {"type": "Point", "coordinates": [26.1, 62.1]}, ProducerCountry="Finland", ProducerName="x" * 501
        )
    )
    assert set(codes(result)) == {"invalid_country", "producer_name_too_long"}


def test_problems_are_listed_per_feature():
    fc = collection(
        feature({"type": "Point", "coordinates": [26.1, 62.1]}),
        feature({"type": "LineString", "coordinates": [[0, 0], [1, 1]]}),
        feature({"type": "Point", "coordinates": [26.1, 62.1]}, Area=10),
        {"type": "Nonsense"},
        feature(None),
    )
    result = validate_geojson(fc)
    assert [(p.feature, p.code) for p in result.problems if p.code != "low_precision"] == [
        (1, "line_refused"),
        (2, "point_over_4ha"),
        (3, "not_a_feature"),
        (4, "missing_geometry"),
    ]
    assert len(result.feature_collection["features"]) == 5
    assert result.areas_ha == [4.0, None, 10.0, None, None]


def test_size_limit_is_25_mb():
    big = " " * (MAX_GEOJSON_BYTES + 1)
    result = validate_geojson(big)
    assert codes(result) == ["too_large"]
    assert "25 MB" in result.errors[0].message
    small_limit = validate_geojson({"type": "Point", "coordinates": [1, 1]}, max_bytes=10)
    assert codes(small_limit) == ["too_large"]


@pytest.mark.parametrize(
    "data",
    [[], 42, {"type": "Topology"}, {"features": []}, {"type": "FeatureCollection", "features": "x"}],
)
def test_not_geojson_is_refused(data):
    result = validate_geojson(data)
    assert codes(result) == ["unknown_type"]


def test_empty_collection_and_foreign_crs_are_errors():
    assert codes(validate_geojson(collection())) == ["no_features"]
    projected = {
        "type": "Point",
        "coordinates": [1, 1],
        "crs": {"type": "name", "properties": {"name": "EPSG:3067"}},
    }
    assert codes(validate_geojson(projected)) == ["crs_not_wgs84"]


def test_messages_follow_the_active_language():
    from django.utils import translation

    line = {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}
    with translation.override("zh-hans"):
        chinese = validate_geojson(line)
    with translation.override("en"):
        english = validate_geojson(line)
    assert chinese.problems[0].code == english.problems[0].code == "line_refused"
    assert chinese.problems[0].message == "不接受 LineString：地块必须是 Point 或 Polygon。"
    assert english.problems[0].message == "LineString is not accepted: a plot is a Point or a Polygon."


def test_base64_geometry_round_trips():
    import base64

    fc = validate_geojson({"type": "Point", "coordinates": [26.1, 62.1]}).feature_collection
    assert json.loads(base64.b64decode(collection_to_base64(fc))) == fc


def test_country_table_covers_iso_codes():
    table = countries()
    assert len(table) >= 249
    assert table["FI"]["name"] == "Finland"
    assert table["CN"]["boxes"]


def test_fewer_than_six_decimals_warn_with_the_precision_found():
    result = validate_geojson(feature({"type": "Point", "coordinates": [26.1234, 62.1234]}, Area=2))
    [warning] = [p for p in result.problems if p.code == "low_precision"]
    assert warning.severity == "warning" and result.is_valid
    assert warning.message.startswith("The coordinates have at most 4 decimals (about 11 m)")
    whole = validate_geojson(feature({"type": "Point", "coordinates": [26, 62]}, Area=2))
    assert "at most 0 decimals (about 111,320 m)" in whole.warnings[0].message
    precise = validate_geojson(feature({"type": "Point", "coordinates": [26.123456, 62.12345]}, Area=2))
    assert precise.problems == []


def test_a_point_over_4_ha_beside_a_polygon_is_refused_as_the_system_does():
    # EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID: the feature's Area is taken as the point's.
    mixed = {
        "type": "GeometryCollection",
        "geometries": [
            {"type": "Polygon", "coordinates": [square(26.0, 62.0, 0.01, 0.005)]},
            {"type": "Point", "coordinates": [26.5, 62.5]},
        ],
    }
    refused = validate_geojson(feature(mixed, Area=10))
    assert not refused.is_valid
    assert codes(refused) == ["collection_point_area_invalid"]
    assert "10.0 ha" in refused.errors[0].message
    assert refused.errors[0].position == [26.5, 62.5] or tuple(refused.errors[0].position) == (26.5, 62.5)
    accepted = validate_geojson(feature(mixed, Area=2))
    assert accepted.is_valid and codes(accepted) == []
    assert accepted.areas_ha[0] == pytest.approx(29.2 + 2, rel=0.01)


def test_the_size_is_measured_as_the_system_counts_it_base64():
    from apps.eudr.geo import geojson_size

    data = {"type": "Point", "coordinates": [26.123456, 62.123456]}
    compact = len(json.dumps(data, separators=(",", ":")).encode())
    assert geojson_size(data) == 4 * ((compact + 2) // 3)
    # fits as JSON, not as the base64 the system counts: refused where it is entered
    refused = validate_geojson(data, max_bytes=compact + 1)
    assert codes(refused) == ["too_large"] and "base64" in refused.errors[0].message
    assert validate_geojson(data, max_bytes=geojson_size(data)).is_valid
