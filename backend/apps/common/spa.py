"""Serves the built React app: index.html for the app's routes, trace.html for the public trace page.

The rest of frontend/dist/ is served by WhiteNoise (settings: WHITENOISE_ROOT). The build writes a
brotli and a gzip copy beside each text file (frontend/vite.config.ts, `precompress`); WhiteNoise sends
the one the browser accepts with `Content-Encoding` and `Vary: Accept-Encoding`. `static_headers` sets
the caching: a file under /assets/ carries a content hash in its name, so it never changes
(`immutable`, a year); the service worker and the HTML are asked for anew on every visit (`no-cache`),
so a new release is picked up at once. `static_headers` lives in apps/common/static_headers.py
(imported by the settings, so free of Django imports).
"""

from django.conf import settings
from django.http import FileResponse, HttpResponse
from django.views.decorators.cache import never_cache


def _serve(file_name: str):
    path = settings.FRONTEND_DIST / file_name
    if not path.exists():
        return HttpResponse(
            "The web app is not built yet: run `make run` (it builds frontend/).",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    return FileResponse(path.open("rb"), content_type="text/html; charset=utf-8")


@never_cache
def app_index(request, *args, **kwargs):
    return _serve("index.html")


@never_cache
def trace_index(request, *args, **kwargs):
    return _serve("trace.html")
