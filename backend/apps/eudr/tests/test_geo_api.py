"""POST /api/eudr/geojson/validate/: JSON body or multipart file, tenant-scoped, internal and supplier users."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.eudr.geo import MAX_GEOJSON_BYTES

URL = "/api/eudr/geojson/validate/"
BOWTIE = {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}
GOOD = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {"ProducerCountry": "FI"},
            "geometry": {"type": "Point", "coordinates": [26.1234567, 62.1]},
        }
    ],
}


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator")


def test_json_body_is_validated(api, admin, tenant3):
    response = api(admin, tenant3).post(URL, GOOD, format="json")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["valid"] is True
    assert data["warning_count"] == 1 and data["problems"][0]["code"] == "rounded"
    assert data["feature_collection"]["features"][0]["geometry"]["coordinates"] == [26.123457, 62.1]
    assert data["areas_ha"] == [4.0] and data["total_area_ha"] == 4.0


def test_problems_are_listed_with_feature_index_and_position(api, admin, tenant3):
    data = api(admin, tenant3).post(URL, BOWTIE, format="json").json()["data"]
    assert data["valid"] is False
    assert [p for p in data["problems"] if p["code"] != "low_precision"] == [
        {
            "feature": 0,
            "code": "self_intersection",
            "message": "The polygon crosses itself near [0.5, 0.5].",
            "severity": "error",
            "position": [0.5, 0.5],
        }
    ]


def test_multipart_file_is_validated(api, admin, tenant3):
    upload = SimpleUploadedFile(
        "plots.geojson", json.dumps(GOOD).encode(), content_type="application/geo+json"
    )
    response = api(admin, tenant3).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 200
    assert response.json()["data"]["valid"] is True


def test_multipart_without_file_is_a_validation_error(api, admin, tenant3):
    response = api(admin, tenant3).post(URL, {"other": "x"}, format="multipart")
    assert response.status_code == 400
    assert response.json()["data"] == {"file": ["Choose a GeoJSON file."]}


def test_oversized_file_is_refused_without_reading_it(api, admin, tenant3):
    upload = SimpleUploadedFile("big.geojson", b" " * (MAX_GEOJSON_BYTES + 10))
    data = api(admin, tenant3).post(URL, {"file": upload}, format="multipart").json()["data"]
    assert data["valid"] is False
    assert [p["code"] for p in data["problems"]] == ["too_large"]


def test_not_json_is_reported(api, admin, tenant3):
    response = api(admin, tenant3).post(URL, data="{oops", content_type="application/json")
    assert response.status_code == 200
    assert [p["code"] for p in response.json()["data"]["problems"]] == ["invalid_json"]


def test_supplier_users_may_validate(api, make_user, tenant3):
    supplier = make_user(tenant3, "Supplier", is_supplier=True)
    assert api(supplier, tenant3).post(URL, GOOD, format="json").status_code == 200


def test_access_rules(api, admin, make_user, tenant2, tenant3):
    assert api(None, tenant3).post(URL, GOOD, format="json").status_code == 401
    assert api(admin, None).post(URL, GOOD, format="json").status_code == 400
    assert api(admin, tenant2).post(URL, GOOD, format="json").status_code == 403
    sales = make_user(tenant3, "Sales")
    assert api(sales, tenant3).post(URL, GOOD, format="json").status_code == 403
    warehouse = make_user(tenant3, "Warehouse", is_warehouse=True)
    assert api(warehouse, tenant3).post(URL, GOOD, format="json").status_code == 403
