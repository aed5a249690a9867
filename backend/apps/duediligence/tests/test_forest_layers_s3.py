"""A forest layer in object storage: uploaded through the API into a bucket of a real S3-compatible
server (SeaweedFS, apps/operations/tests/s3server.py), then read by the layer job through GDAL's
/vsicurl/ over the storage's signed URL (ranged reads), never copied to local disk. PostgreSQL under
row-level security."""

from __future__ import annotations

import pytest

from apps.duediligence.forest_layers import layer_path
from apps.duediligence.models import ForestLayer
from apps.operations.tests.conftest import s3_server, s3_storage  # noqa: F401  (fixtures)

from .test_forest_layers import DD, LAYERS, deliveries, forest_tif, upload  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def test_a_layer_in_the_bucket_is_read_through_vsicurl(
    eudr_world,
    api,
    deliveries,  # noqa: F811
    s3_storage,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    half, _lost, _far, _foreign = deliveries
    admin = api(eudr_world.admin, eudr_world.tenant3)
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(admin, forest_tif())
    assert response.status_code == 201, response.json()
    layer = ForestLayer.objects.get(pk=response.json()["data"]["id"])
    with layer_path(layer) as path:
        assert path.startswith("/vsicurl/http://127.0.0.1:")  # the bucket, not a local file

    body = admin.get(f"{LAYERS}{layer.pk}/").json()["data"]
    assert body["status"] == "ready", body
    assert body["plots_done"] == 3
    (result,) = admin.get(f"{DD}deliveries/{half.pk}/").json()["data"]["forest"]
    assert result["forest_share"] == 0.5 and result["cells"] == 200
