"""The 2020 forest check as users run it: a layer uploaded (validated with rasterio, stored, processed by
its job over every tenant's plots within its bounds), the results per plot on the due diligence
overview, loss after 2020 flagged on the filing gate, the plot's map, and who may do what. PostgreSQL
under row-level security; the rasters are tiny and written by the tests."""

from __future__ import annotations

import io

import numpy as np
import pytest
import rasterio
from django.core.files.uploadedfile import SimpleUploadedFile
from rasterio.transform import from_origin

from apps.duediligence.forest_layers import forest_layer_process
from apps.duediligence.models import ForestLayer, ForestResult
from apps.eudr import services as eudr_services
from apps.eudr.tests import factories

from .helpers import DD, criteria, record

pytestmark = pytest.mark.django_db

# 100 x 100 cells of 0.001 degree from (116.0 E, 40.0 N): near Beijing, inside China (low risk).
WEST, NORTH, CELL = 116.0, 40.0, 0.001
LAYERS = f"{DD}forest-layers/"


def cells(col0, row0, col1, row1):
    west, east = WEST + col0 * CELL, WEST + col1 * CELL
    north, south = NORTH - row0 * CELL, NORTH - row1 * CELL
    ring = [[west, south], [east, south], [east, north], [west, north], [west, south]]
    return {"type": "Polygon", "coordinates": [ring]}


def plots(*geometries):
    return {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {"ProducerCountry": "CN", "Area": 10}, "geometry": g}
            for g in geometries
        ],
    }


def geotiff(data: np.ndarray, nodata=None) -> bytes:
    buffer = io.BytesIO()
    with rasterio.open(
        buffer,
        "w",
        driver="GTiff",
        width=data.shape[1],
        height=data.shape[0],
        count=1,
        dtype=data.dtype,
        crs="EPSG:4326",
        transform=from_origin(WEST, NORTH, CELL, CELL),
        nodata=nodata,
    ) as dataset:
        dataset.write(data, 1)
    return buffer.getvalue()


def forest_tif() -> bytes:
    data = np.zeros((100, 100), dtype=np.uint8)
    data[:, :50] = 1  # the western half was forest in 2020
    return geotiff(data)


def loss_tif() -> bytes:
    data = np.zeros((100, 100), dtype=np.uint8)
    data[50:60, 50:60] = 22  # lost in 2022
    data[10:20, 10:20] = 15  # lost in 2015
    return geotiff(data)


def upload(client, content: bytes, *, kind="forest_2020", name="JRC GFC2020", filename="layer.tif"):
    return client.post(
        LAYERS,
        {
            "file": SimpleUploadedFile(filename, content, content_type="image/tiff"),
            "name": name,
            "kind": kind,
            "source": "JRC GFC2020 v2",
            "layer_date": "2023-10-01",
        },
        format="multipart",
    )


@pytest.fixture
def deliveries(eudr_world, in_tenant):
    """Tenant 3: one delivery half over forest, one with a plot lost in 2022; tenant 2: one plot."""
    with in_tenant(eudr_world.tenant3):
        half = factories.delivery(eudr_world.vendor_a, location_geojson=plots(cells(40, 0, 60, 10)))
        lost = factories.delivery(eudr_world.vendor_a, location_geojson=plots(cells(50, 50, 60, 60)))
        far = factories.delivery(
            eudr_world.vendor_a,
            location_geojson=plots({"type": "Point", "coordinates": [121.47, 31.23]}),
        )
    with in_tenant(eudr_world.tenant2):
        foreign = factories.delivery(eudr_world.vendor_x, location_geojson=plots(cells(0, 0, 10, 10)))
    return half, lost, far, foreign


def test_an_uploaded_layer_is_processed_over_every_tenants_plots_within_it(
    eudr_world, api, in_tenant, deliveries, django_capture_on_commit_callbacks
):
    half, _lost, far, foreign = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(admin, forest_tif())
    assert response.status_code == 201, response.json()
    body = response.json()["data"]
    assert body["status"] == "uploaded" and body["kind"] == "forest_2020"
    assert body["bounds"] == [116.0, 39.9, 116.1, 40.0]
    assert body["width"] == 100 and body["size"] > 0

    layer = admin.get(f"{LAYERS}{body['id']}/").json()["data"]
    assert layer["status"] == "ready" and layer["progress"] == 100
    assert layer["plots_done"] == 3  # two plots of tenant 3, one of tenant 2; the far plot is outside

    overview = admin.get(f"{DD}deliveries/{half.pk}/").json()["data"]
    (result,) = overview["forest"]
    assert result["forest_share"] == 0.5 and result["cells"] == 200
    assert result["layer_name"] == "JRC GFC2020" and result["layer_date"] == "2023-10-01"
    assert result["layer_source"] == "JRC GFC2020 v2"
    assert overview["forest_flagged"] is False and overview["can_file"] is True
    assert admin.get(f"{DD}deliveries/{far.pk}/").json()["data"]["forest"] == []

    # Each tenant sees its own results only.
    with in_tenant(eudr_world.tenant3):
        assert ForestResult.objects.count() == 2
    with in_tenant(eudr_world.tenant2):
        (own,) = ForestResult.objects.all()
        assert own.delivery_id == foreign.pk and own.forest_share == 1.0
    assert admin.get(f"{DD}deliveries/{foreign.pk}/").status_code == 404


def test_loss_after_2020_is_flagged_and_needs_an_assessment_even_in_a_low_risk_country(
    eudr_world, api, deliveries, django_capture_on_commit_callbacks
):
    half, lost, _far, _foreign = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        assert upload(admin, loss_tif(), kind="loss_year", name="Tree cover loss").status_code == 201

    overview = admin.get(f"{DD}deliveries/{lost.pk}/").json()["data"]
    assert overview["simplified"] is True  # China is low risk ...
    assert overview["forest_flagged"] is True  # ... but the plot lost its tree cover in 2022
    (result,) = overview["forest"]
    assert result["loss_years"] == [2022] and result["loss_cells_after_cutoff"] == 100
    assert result["loss_after_cutoff"] is True
    assert [b["code"] for b in overview["blockers"]] == ["forest_loss"]
    assert "2022" in overview["blockers"][0]["message"]
    assert overview["can_file"] is False
    refused = record(admin, lost.pk)
    assert refused.status_code == 409 and refused.json()["error"] == "filing_blocked"
    assert admin.get(f"{DD}deliveries/{half.pk}/").json()["data"]["can_file"] is True

    # The delivery's own assessment, made with the finding, lifts it (a mitigated risk).
    assessed = admin.post(
        f"{DD}deliveries/{lost.pk}/assessments/",
        {
            "criteria": criteria(risk=("f",)),
            "conclusion": "negligible",
            "mitigation": [
                {
                    "kind": "independent_audit",
                    "description": "Field visit of the plot",
                    "evidence": "Audit report: the loss is a fire scar outside the harvested area",
                }
            ],
        },
        format="json",
    )
    assert assessed.status_code == 201
    overview = admin.get(f"{DD}deliveries/{lost.pk}/").json()["data"]
    assert overview["blockers"] == [] and overview["can_file"] is True


def test_changed_plots_are_computed_again_over_the_ready_layers(
    eudr_world, api, in_tenant, deliveries, django_capture_on_commit_callbacks
):
    half, _lost, far, _foreign = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        assert upload(admin, forest_tif()).status_code == 201
    with in_tenant(eudr_world.tenant3), django_capture_on_commit_callbacks(execute=True):
        eudr_services.raw_material_update(
            delivery_id=far.pk,
            data={"location_geojson": plots(cells(0, 0, 10, 10), cells(80, 80, 90, 90))},
            lines=None,
            user=eudr_world.admin,
        )
        eudr_services.raw_material_update(
            delivery_id=half.pk,
            data={"location_geojson": plots(cells(60, 0, 70, 10))},
            lines=None,
            user=eudr_world.admin,
        )
    far_forest = admin.get(f"{DD}deliveries/{far.pk}/").json()["data"]["forest"]
    assert [(r["plot_index"], r["forest_share"]) for r in far_forest] == [(0, 1.0), (1, 0.0)]
    (half_forest,) = admin.get(f"{DD}deliveries/{half.pk}/").json()["data"]["forest"]
    assert half_forest["forest_share"] == 0.0


def test_the_plot_is_drawn_over_its_layer(eudr_world, api, deliveries, django_capture_on_commit_callbacks):
    from PIL import Image

    half, *_ = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        upload(admin, forest_tif())
    (result,) = admin.get(f"{DD}deliveries/{half.pk}/").json()["data"]["forest"]
    response = admin.get(f"{DD}deliveries/{half.pk}/forest/{result['id']}/map/")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content)).convert("RGBA")
    colours = {colour for _n, colour in image.getcolors(maxcolors=1000)}
    assert (46, 125, 50, 255) in colours  # forest
    assert (13, 71, 161, 255) in colours  # the plot's outline
    # Another tenant's user sees neither the delivery nor its map.
    foreign = api(eudr_world.admin_x, eudr_world.tenant2)
    assert foreign.get(f"{DD}deliveries/{half.pk}/forest/{result['id']}/map/").status_code == 404
    assert admin.get(f"{DD}deliveries/{half.pk}/forest/999999/map/").status_code == 404


def test_a_file_that_is_not_a_raster_is_refused(eudr_world, api):
    admin = api(eudr_world.admin, eudr_world.tenant3)
    response = upload(admin, b"west,south\n1,2\n", filename="layer.tif")
    assert response.status_code == 400
    assert response.json()["error"] == "forest_layer_invalid"
    assert "GeoTIFF" in response.json()["message"]
    # A raster without georeference cannot be placed either.
    buffer = io.BytesIO()
    with (
        pytest.warns(rasterio.errors.NotGeoreferencedWarning),
        rasterio.open(buffer, "w", driver="GTiff", width=4, height=4, count=1, dtype="uint8") as dataset,
    ):
        dataset.write(np.ones((4, 4), dtype=np.uint8), 1)
    assert upload(admin, buffer.getvalue()).status_code == 400
    missing = admin.post(LAYERS, {"name": "x", "kind": "forest_2020"}, format="multipart")
    assert missing.status_code == 400
    assert ForestLayer.objects.count() == 0


def test_who_may_see_upload_and_delete_layers(eudr_world, api):
    tif = forest_tif()
    assert upload(api(eudr_world.supplier_a, eudr_world.tenant3), tif).status_code == 403
    assert api(eudr_world.supplier_a, eudr_world.tenant3).get(LAYERS).status_code == 403
    assert api(eudr_world.warehouse, eudr_world.tenant3).get(LAYERS).status_code == 403
    purchaser = api(eudr_world.purchaser, eudr_world.tenant3)
    assert upload(purchaser, tif).status_code == 403  # sees the layers, may not change them
    assert purchaser.get(LAYERS).status_code == 200
    created = upload(api(eudr_world.admin, eudr_world.tenant3), tif).json()["data"]
    assert purchaser.delete(f"{LAYERS}{created['id']}/").status_code == 403
    # The layers are the installation's: another company's administrator sees the same list.
    assert [row["id"] for row in api(eudr_world.admin_x, eudr_world.tenant2).get(LAYERS).json()["data"]] == [
        created["id"]
    ]


def test_a_layer_is_deleted_unless_a_kept_records_result_rests_on_it(
    eudr_world, api, in_tenant, deliveries, django_capture_on_commit_callbacks
):
    half, *_ = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        first = upload(admin, forest_tif()).json()["data"]
        second = upload(admin, forest_tif(), name="Second").json()["data"]
    assert record(admin, half.pk).status_code == 200  # the statement: its records are kept 5 years
    refused = admin.delete(f"{LAYERS}{first['id']}/")
    assert refused.status_code == 409 and refused.json()["error"] == "forest_layer_in_use"
    # Without kept records resting on it, the layer, its file and its results go.
    with in_tenant(eudr_world.tenant3):
        ForestResult.objects.filter(layer_id=second["id"], delivery=half).delete()
    assert admin.delete(f"{LAYERS}{second['id']}/").status_code == 200
    assert admin.get(f"{LAYERS}{second['id']}/").status_code == 404
    with in_tenant(eudr_world.tenant2):
        assert not ForestResult.objects.filter(layer_id=second["id"]).exists()
    assert admin.delete(f"{LAYERS}{second['id']}/").status_code == 404


def test_a_layer_that_cannot_be_read_fails_with_a_message(eudr_world, api, deliveries):
    admin = api(eudr_world.admin, eudr_world.tenant3)
    created = upload(admin, forest_tif()).json()["data"]
    layer = ForestLayer.objects.get(pk=created["id"])
    layer.file.storage.delete(layer.file.name)
    forest_layer_process(layer_id=layer.pk)
    layer.refresh_from_db()
    assert layer.status == "failed" and layer.message


def test_a_large_upload_is_streamed_from_its_temporary_file_to_the_storage(eudr_world, api, settings):
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024  # the layer is larger: Django writes it to a temporary file
    content = forest_tif()
    assert len(content) > 1024
    created = upload(api(eudr_world.admin, eudr_world.tenant3), content).json()["data"]
    layer = ForestLayer.objects.get(pk=created["id"])
    with layer.file.open("rb") as stored:
        assert stored.read() == content
    assert layer.size == len(content) and layer.file_name == "layer.tif"


def test_a_failed_or_stalled_layer_is_processed_again(
    eudr_world, api, deliveries, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        created = upload(admin, forest_tif()).json()["data"]
    again = f"{LAYERS}{created['id']}/process-again/"
    refused = admin.post(again)
    assert refused.status_code == 409 and refused.json()["error"] == "forest_layer_not_stalled"
    # Its job was lost: no sign of life for more than 30 minutes.
    ForestLayer.objects.filter(pk=created["id"]).update(
        status="processing", progress=40, progress_at=timezone.now() - timedelta(minutes=31)
    )
    assert admin.get(f"{LAYERS}{created['id']}/").json()["data"]["stale"] is True
    assert api(eudr_world.purchaser, eudr_world.tenant3).post(again).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(again).status_code == 200
    layer = admin.get(f"{LAYERS}{created['id']}/").json()["data"]
    assert layer["status"] == "ready" and layer["stale"] is False and layer["plots_done"] == 3
    # A stalled layer may also be deleted.
    ForestLayer.objects.filter(pk=created["id"]).update(
        status="processing", progress_at=timezone.now() - timedelta(hours=2)
    )
    assert admin.delete(f"{LAYERS}{created['id']}/").status_code == 200
