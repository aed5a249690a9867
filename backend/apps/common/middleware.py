"""Error envelopes for what never reaches a DRF view: unknown /api/ paths and crashes in middleware."""

import json
import logging

from django.http import HttpResponse
from django.utils.translation import gettext as _

from apps.common.api.envelope import error_body

logger = logging.getLogger("apps.api")


def json_error(status_code: int, message: str, error: str) -> HttpResponse:
    return HttpResponse(
        json.dumps(error_body(status_code, message, error)),
        status=status_code,
        content_type="application/json",
    )


class ApiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code in (404, 405, 500)
            and not (response.get("Content-Type", "").startswith("application/json"))
        ):
            if response.status_code == 404:
                return json_error(404, _("Not found."), "not_found")
            if response.status_code == 405:
                return json_error(405, _("Method not allowed."), "method_not_allowed")
            return json_error(500, _("An unexpected error occurred. Please try again later."), "server_error")
        return response

    def process_exception(self, request, exception):
        if not request.path.startswith("/api/"):
            return None
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return json_error(500, _("An unexpected error occurred. Please try again later."), "server_error")
