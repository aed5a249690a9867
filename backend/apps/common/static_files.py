"""WhiteNoise, serving also the public trace page's addresses from the built trace.html.

Every address of the trace page (`/eudrtrace/<code>`, what a carton's QR code holds) answers the same
built file: the page reads the carton with the trace API. Answered here, right after the security
headers and before the session, CSRF, authentication, tenant and audit middleware, the URL resolver and
the request's transaction, a scan's page costs what a static file costs (docs/performance.md, "The
public trace"), precompressed (brotli or gzip as the browser accepts), with the ETag and
`Cache-Control: no-cache` of the HTML pages (apps/common/static_headers.py: revalidated on every visit, so
a new release is picked up at once). X-Frame-Options is set as XFrameOptionsMiddleware would.

When the app was not built when the process started, the address goes on to `spa.trace_index`, which
answers that the app is not built yet.
"""

from __future__ import annotations

from django.conf import settings
from whitenoise.middleware import WhiteNoiseMiddleware

TRACE_PAGE_PREFIX = "/eudrtrace/"
TRACE_PAGE_FILE = "/trace.html"


class AppWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    def __call__(self, request):
        if request.path_info.startswith(TRACE_PAGE_PREFIX) and request.method in ("GET", "HEAD"):
            if self.autorefresh:
                static_file = self.find_file(TRACE_PAGE_FILE)
            else:
                static_file = self.files.get(TRACE_PAGE_FILE)
            if static_file is not None:
                response = self.serve(static_file, request)
                response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
                return response
        return super().__call__(request)
