"""Caching headers of the built web app's files (WHITENOISE_ADD_HEADERS_FUNCTION; apps/common/spa.py)."""

import re

HASHED_ASSET = re.compile(r"^/assets/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$")
IMMUTABLE = "public, max-age=31536000, immutable"
ALWAYS_REVALIDATE = {"/sw.js", "/registerSW.js", "/manifest.webmanifest", "/index.html", "/trace.html"}


def static_headers(headers, path: str, url: str) -> None:
    """WHITENOISE_ADD_HEADERS_FUNCTION: the caching of the built web app's files (module docstring)."""
    if HASHED_ASSET.match(url):
        headers["Cache-Control"] = IMMUTABLE
    elif url in ALWAYS_REVALIDATE:
        headers["Cache-Control"] = "no-cache"
