import uuid

import pytest

from . import s3server


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    server = s3server.start(tmp_path_factory.mktemp("seaweedfs"))
    yield server
    server.stop()


@pytest.fixture
def s3_storage(s3_server, settings):
    """The default storage is a fresh bucket on the real S3-compatible server."""
    bucket = f"cartontrace-{uuid.uuid4().hex[:12]}"
    s3_server.client().create_bucket(Bucket=bucket)
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": s3_server.storage_options(bucket),
        },
    }
    return bucket
