"""Error envelopes for what never reaches a DRF view: unknown /api/ paths and crashes in middleware."""

import json
import logging

from django.http import HttpResponse
from django.middleware.common import CommonMiddleware
from django.urls import is_valid_path
from django.utils.translation import gettext as _

from apps.common.api.envelope import error_body
from apps.common.client_ip import client_ip

logger = logging.getLogger("apps.api")


def json_error(status_code: int, message: str, error: str) -> HttpResponse:
    return HttpResponse(
        json.dumps(error_body(status_code, message, error)),
        status=status_code,
        content_type="application/json",
    )


def _needs_trailing_slash(request) -> bool:
    path = request.path_info
    if path.endswith("/"):
        return False
    urlconf = getattr(request, "urlconf", None)
    return not is_valid_path(path, urlconf) and bool(is_valid_path(f"{path}/", urlconf))


class ApiCommonMiddleware(CommonMiddleware):
    """Django's CommonMiddleware without APPEND_SLASH under /api/: a redirect would drop a POST's body
    (and with DEBUG it raises); the API answers the error envelope instead (ApiErrorMiddleware)."""

    def should_redirect_with_slash(self, request):
        if request.path_info.startswith("/api/"):
            return False
        return super().should_redirect_with_slash(request)


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
                if _needs_trailing_slash(request):
                    return json_error(
                        404,
                        _("This API path needs a trailing slash: %(path)s") % {"path": f"{request.path}/"},
                        "not_found",
                    )
                return json_error(404, _("Not found."), "not_found")
            if response.status_code == 405:
                return json_error(405, _("Method not allowed."), "method_not_allowed")
            return json_error(500, _("An unexpected error occurred. Please try again later."), "server_error")
        return response

    def process_exception(self, request, exception):
        if not request.path.startswith("/api/"):
            return None
        logger.exception("Unhandled error on %s %s from %s", request.method, request.path, client_ip(request))
        return json_error(500, _("An unexpected error occurred. Please try again later."), "server_error")
