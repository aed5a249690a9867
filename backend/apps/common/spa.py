"""Serves the built React app: index.html for the app's routes, trace.html for the public trace page."""

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
