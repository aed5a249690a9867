"""The built web app goes out precompressed and cached by name: hashed assets for a year (immutable),
the service worker and the HTML revalidated on every visit."""

from __future__ import annotations

import gzip

import pytest
from django.test import override_settings
from whitenoise.middleware import WhiteNoiseMiddleware

from apps.common.static_headers import IMMUTABLE

ASSET = "assets/index-Ab12Cd34.js"
BODY = b"console.log('carton');\n" * 200


@pytest.fixture
def dist(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / ASSET).write_bytes(BODY)
    (tmp_path / f"{ASSET}.gz").write_bytes(gzip.compress(BODY))
    (tmp_path / f"{ASSET}.br").write_bytes(b"brotli-bytes")
    (tmp_path / "sw.js").write_bytes(b"self.addEventListener('install', () => {});")
    (tmp_path / "favicon.svg").write_bytes(b"<svg/>")
    return tmp_path


def serve(dist, path: str, accept: str = ""):
    from django.test import RequestFactory

    with override_settings(WHITENOISE_ROOT=dist, DEBUG=False):
        middleware = WhiteNoiseMiddleware(get_response=lambda request: None)
        request = RequestFactory().get(path, HTTP_ACCEPT_ENCODING=accept)
        return middleware(request)


def test_a_hashed_asset_is_immutable_for_a_year_and_precompressed(dist):
    brotli = serve(dist, f"/{ASSET}", "gzip, deflate, br")
    assert brotli["Cache-Control"] == IMMUTABLE
    assert brotli["Content-Encoding"] == "br"
    assert "Accept-Encoding" in brotli["Vary"]
    assert b"".join(brotli.streaming_content) == b"brotli-bytes"
    gzipped = serve(dist, f"/{ASSET}", "gzip")
    assert gzipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(gzipped.streaming_content)) == BODY
    plain = serve(dist, f"/{ASSET}")
    assert "Content-Encoding" not in plain
    assert b"".join(plain.streaming_content) == BODY


def test_the_service_worker_is_revalidated_and_other_files_are_not_immutable(dist):
    assert serve(dist, "/sw.js")["Cache-Control"] == "no-cache"
    assert "immutable" not in serve(dist, "/favicon.svg")["Cache-Control"]


@pytest.mark.django_db
def test_the_app_page_is_not_cached(client, settings, tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>CartonTrace</title>")
    settings.FRONTEND_DIST = tmp_path
    response = client.get("/purchase/orders")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
