"""Response headers of every answer, in production and in the embedded default alike.

- Content-Security-Policy (on documents, workers and API answers; not on the built scripts, styles and
  fonts under /assets/, which the page's policy governs, see `is_page_resource`): scripts only from this
  origin (the built app and the trace page are module scripts loaded from files; Swagger UI's start-up script is served as a file too, see config/urls.py).
  Any inline <script> left in the built index.html / trace.html is allowed by its SHA-256 hash, computed
  from the built files. Styles may be inline: Ant Design writes its CSS-in-JS into <style> elements at
  run time (and Swagger UI sets style attributes); no script can be injected through that.
- Permissions-Policy: the camera for this origin only (the warehouse scans QR codes with the phone's
  camera); no microphone, location, payment or USB device: all of those are off.
- Cache-Control: no-store on the API's answers, which are personal (the signed-in user, tokens, the
  tenant's data), unless a view set its own (the public trace answers are public and cacheable).

Django's SecurityMiddleware and XFrameOptionsMiddleware add nosniff, the referrer policy, the opener
policy and X-Frame-Options (config/settings.py).
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache

from django.conf import settings

PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(self), display-capture=(), geolocation=(), gyroscope=(), "
    "magnetometer=(), microphone=(), midi=(), payment=(), usb=(), browsing-topics=()"
)
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)
# Answers that may be kept by a browser or a shared cache: the public trace (it sets its own
# Cache-Control and ETag).
PUBLIC_API_PREFIXES = ("/api/eudrtrack/",)


def _built_pages() -> tuple[tuple[str, float], ...]:
    pages = []
    for name in ("index.html", "trace.html"):
        path = settings.FRONTEND_DIST / name
        try:
            pages.append((str(path), path.stat().st_mtime))
        except OSError:
            continue
    return tuple(pages)


@lru_cache(maxsize=8)
def _hashes_of(pages: tuple[tuple[str, float], ...]) -> tuple[str, ...]:
    hashes: list[str] = []
    for path, _mtime in pages:
        try:
            with open(path, encoding="utf-8") as handle:
                html = handle.read()
        except OSError:
            continue
        for body in _INLINE_SCRIPT.findall(html):
            digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
            hashes.append(f"'sha256-{digest}'")
    return tuple(sorted(set(hashes)))


def inline_script_hashes() -> tuple[str, ...]:
    """'sha256-…' sources of the inline scripts of the built HTML pages (index.html paints the theme's
    background colour before the app loads), recomputed when the pages are rebuilt."""
    return _hashes_of(_built_pages())


def content_security_policy() -> str:
    # 'wasm-unsafe-eval' lets the page compile WebAssembly (the camera's QR reader, zxing-wasm, from
    # this origin); it allows no eval() of JavaScript.
    script_src = " ".join(["'self'", "'wasm-unsafe-eval'", *inline_script_hashes()])
    directives = [
        "default-src 'self'",
        f"script-src {script_src}",
        "style-src 'self' 'unsafe-inline'",
        # data: for inline SVG icons (Swagger UI), blob: for previews of attachments read through the API.
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
    return "; ".join(directives)


def is_page_resource(path: str) -> bool:
    """A built file under /assets/ that a page loads as a module script, style sheet, font, image or
    WebAssembly: the page's own policy governs it, and a Content-Security-Policy or Permissions-Policy on
    it would do nothing (both apply to documents and workers). Without them each such answer is about
    600 bytes smaller, some forty times on a first visit. An SVG can be opened as a document with
    scripts, so it keeps them; the service worker (/sw.js) is not under /assets/ and keeps them too."""
    return path.startswith("/assets/") and not path.lower().endswith((".svg", ".svgz", ".html"))


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        path = request.path
        if not is_page_resource(path):
            response.headers.setdefault("Content-Security-Policy", content_security_policy())
            response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        if (
            path.startswith("/api/")
            and not path.startswith(PUBLIC_API_PREFIXES)
            and "Cache-Control" not in response.headers
        ):
            response.headers["Cache-Control"] = "no-store"
        return response
