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


TRACE_HTML = (
    b"<!doctype html><title>Carton origin</title><script type=module src=/assets/trace.js></script>"
    + b"<!-- -->" * 100
)


def serve_app(dist, path: str, accept: str = "", method: str = "get", **headers):
    """The served stack's static part: the app's WhiteNoise (config/settings.py) before any view."""
    from django.test import RequestFactory

    from apps.common.static_files import AppWhiteNoiseMiddleware

    reached = []
    with override_settings(WHITENOISE_ROOT=dist, DEBUG=False):
        middleware = AppWhiteNoiseMiddleware(
            get_response=lambda request: reached.append(request.path) or "view"
        )
        request = getattr(RequestFactory(), method)(path, HTTP_ACCEPT_ENCODING=accept, **headers)
        return middleware(request), reached


@pytest.fixture
def trace_dist(dist):
    (dist / "trace.html").write_bytes(TRACE_HTML)
    (dist / "trace.html.gz").write_bytes(gzip.compress(TRACE_HTML))
    return dist


@pytest.mark.parametrize("path", ["/eudrtrace/ABC123", "/eudrtrace/abc123?x=1", "/eudrtrace/"])
def test_every_address_of_the_trace_page_is_the_built_trace_page_like_a_static_file(trace_dist, path):
    response, reached = serve_app(trace_dist, path, "gzip")
    assert reached == []  # answered before sessions, authentication, tenant, URL resolver and view
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(response.streaming_content)) == TRACE_HTML
    assert response["Cache-Control"] == "no-cache"  # revalidated on every visit: a release shows at once
    assert response["X-Frame-Options"] == "DENY"
    # revalidated with its ETag: 304, no body
    again, _ = serve_app(trace_dist, path, "gzip", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_other_addresses_and_methods_go_on_to_the_views(trace_dist):
    for path in ("/eudrtracex/ABC", "/api/eudrtrack/ABC123/", "/purchase/orders"):
        assert serve_app(trace_dist, path)[1] == [path]
    assert serve_app(trace_dist, "/eudrtrace/ABC123", method="post")[1] == ["/eudrtrace/ABC123"]


def test_without_a_built_trace_page_the_view_answers(dist):
    assert serve_app(dist, "/eudrtrace/ABC123")[1] == ["/eudrtrace/ABC123"]
