"""Headers of every answer (apps/common/security.py, config/settings.py): the embedded default is a
demonstration of production, with debug off, a Content-Security-Policy, a Permissions-Policy and
no-store on personal answers."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.common import security

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def _assert_common_headers(response):
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    script_src = csp.split("script-src", 1)[1].split(";")[0]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in script_src
    # WebAssembly (the camera's QR reader) may compile; JavaScript may not be eval'ed
    assert "'wasm-unsafe-eval'" in script_src and "'unsafe-eval'" not in script_src
    assert "object-src 'none'" in csp and "frame-ancestors 'none'" in csp
    policy = response["Permissions-Policy"]
    assert "camera=(self)" in policy  # the warehouse's camera scanner, this origin only
    assert "microphone=()" in policy and "geolocation=()" in policy and "payment=()" in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/purchase/orders",
        "/eudrtrace/ABC123",
        "/api/docs/",
        "/api/schema/",
        "/api/users/me/",
        "/api/nope/",
    ],
)
def test_every_answer_carries_the_security_headers(path):
    _assert_common_headers(APIClient().get(path))


def test_personal_answers_are_not_stored(tenant3, make_user):
    make_user(tenant3, username="anna")
    client = APIClient()
    login = client.post("/api/users/login/", {"username": "anna", "password": "demo1234"}, format="json")
    assert login.status_code == 200 and login["Cache-Control"] == "no-store"
    tokens = login.json()["data"]
    refreshed = client.post("/api/users/refresh/", {"refresh": tokens["refresh"]}, format="json")
    assert refreshed.status_code == 200 and refreshed["Cache-Control"] == "no-store"
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {refreshed.json()['data']['access']}")
    me = client.get("/api/users/me/")
    assert me.status_code == 200 and me["Cache-Control"] == "no-store"
    tenants = client.get("/api/tenants/")
    assert tenants["Cache-Control"] == "no-store"
    failed = APIClient().post("/api/users/login/", {"username": "anna", "password": "x"}, format="json")
    assert failed["Cache-Control"] == "no-store"


def test_the_public_trace_keeps_its_own_cache_policy():
    response = APIClient().get("/api/eudrtrack/NOSUCHCODE/")
    assert response.status_code == 404
    assert response.get("Cache-Control") != "no-store"


def test_swagger_ui_has_no_inline_script():
    html = APIClient().get("/api/docs/").content.decode()
    assert "<script" in html
    assert not security._INLINE_SCRIPT.findall(html)


def test_inline_scripts_of_the_built_pages_are_allowed_by_hash(tmp_path, settings):
    settings.FRONTEND_DIST = tmp_path
    (tmp_path / "index.html").write_text(
        "<html><head><script>document.title='x'</script><script type=module src=/a.js></script></head></html>",
        encoding="utf-8",
    )
    (tmp_path / "trace.html").write_text("<html><script src=/t.js></script></html>", encoding="utf-8")
    # sha256 of "document.title='x'", base64
    import base64
    import hashlib

    expected = base64.b64encode(hashlib.sha256(b"document.title='x'").digest()).decode()
    assert security.inline_script_hashes() == (f"'sha256-{expected}'",)
    assert f"'sha256-{expected}'" in security.content_security_policy()


def test_the_embedded_default_runs_with_debug_off():
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_DEBUG", "DATABASE_URL", "DJANGO_ENV"}}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django,os;os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings');"
            "django.setup();from django.conf import settings as s;print(s.DEBUG, s.DATABASES['default']['ENGINE'])",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["False", "django.db.backends.sqlite3"]


@pytest.mark.parametrize(
    "path", ["/assets/main-Ab12Cd34.js", "/assets/main-Ab12Cd34.css", "/assets/reader-1a2b.wasm"]
)
def test_the_built_files_a_page_loads_go_without_the_page_policies(path):
    """A module script, style sheet or WebAssembly under /assets/ is governed by the page's policy: the
    ~600 bytes of CSP and Permissions-Policy are left off; nosniff stays."""
    response = APIClient().get(path)
    assert "Content-Security-Policy" not in response
    assert "Permissions-Policy" not in response
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "path", ["/assets/logo-1a2b.svg", "/sw.js", "/", "/eudrtrace/ABC123", "/api/users/me/"]
)
def test_documents_workers_and_svg_keep_the_policies(path):
    response = APIClient().get(path)
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert "camera=(self)" in response["Permissions-Policy"]
