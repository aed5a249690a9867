"""Every response under /api/ carries the envelope, for every kind of error too."""

import pytest
from django.urls import path
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework.views import APIView

pytestmark = pytest.mark.django_db


def assert_error(response, status, error):
    assert response.status_code == status
    body = response.json()
    assert body["code"] == status
    assert body["error"] == error
    assert isinstance(body["message"], str) and body["message"]
    assert "data" in body
    assert "Traceback" not in response.content.decode()
    return body


def test_success_envelope(tenant3, make_user, api):
    body = api(make_user(tenant3), tenant3).get("/api/suppliers/").json()
    assert body["code"] == 200 and body["message"] == "success"
    assert set(body["data"]) == {"count", "count_more", "next", "previous", "results"}


def test_a_create_answers_http_201_with_code_200(tenant3, make_user, api, in_tenant):
    """docs/specification.md section 8: a numeric code of 200 or 0 is success, any other code a business error."""
    response = api(make_user(tenant3), tenant3).post(
        "/api/suppliers/parent-vendors/", {"name": "Envelope Vendor"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["code"] == 200 and body["message"] == "success" and body["data"]["name"] == "Envelope Vendor"


def test_401_when_not_signed_in():
    assert_error(APIClient().get("/api/suppliers/?tenant_id=3"), 401, "not_authenticated")


def test_401_for_a_broken_token():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert_error(client.get("/api/users/me/"), 401, "token_not_valid")


def test_400_without_tenant_and_403_for_a_foreign_tenant(tenant2, tenant3, make_user, api):
    user = make_user(tenant3)
    body = assert_error(api(user).get("/api/suppliers/"), 400, "tenant_required")
    assert body["message"] == "The tenant_id query parameter is required."
    assert_error(api(user, tenant2).get("/api/suppliers/"), 403, "tenant_forbidden")
    assert_error(api(user, 999).get("/api/suppliers/"), 403, "tenant_forbidden")
    assert_error(api(user).get("/api/suppliers/?tenant_id=abc"), 400, "tenant_required")


def test_403_without_the_model_permission(tenant3, make_user, api):
    user = make_user(tenant3, role="Sales")
    assert_error(api(user, tenant3).post("/api/suppliers/", {}, format="json"), 403, "permission_denied")


def test_404_for_unknown_paths_and_records(tenant3, make_user, api):
    client = api(make_user(tenant3), tenant3)
    assert_error(client.get("/api/suppliers/999999/"), 404, "not_found")
    assert_error(APIClient().get("/api/no-such-thing/"), 404, "not_found")


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "get"])
def test_a_path_without_trailing_slash_answers_the_envelope(tenant3, make_user, api, settings, method, debug):
    # Django's APPEND_SLASH would answer a bare 301 (or, with DEBUG, an HTML error page for a POST).
    settings.DEBUG = debug
    client = api(make_user(tenant3), tenant3)
    response = getattr(client, method)("/api/suppliers", {"number": "S-1"}, format="json")
    body = assert_error(response, 404, "not_found")
    assert body["message"] == "This API path needs a trailing slash: /api/suppliers/"
    assert "Location" not in response


def test_an_unknown_path_without_slash_is_a_plain_404(tenant3, make_user, api):
    body = assert_error(APIClient().post("/api/no-such-thing", {}, format="json"), 404, "not_found")
    assert body["message"] == "Not found."


def test_405(tenant3, make_user, api):
    assert_error(
        api(make_user(tenant3), tenant3).put("/api/suppliers/", {}, format="json"), 405, "method_not_allowed"
    )


def test_validation_errors_carry_field_messages(tenant3, make_user, api):
    body = assert_error(
        api(make_user(tenant3), tenant3).post("/api/suppliers/", {}, format="json"), 400, "validation_error"
    )
    assert "number" in body["data"] and "parent_vendor" in body["data"]
    assert isinstance(body["data"]["number"], list)


def test_messages_follow_accept_language(tenant3, make_user, api):
    client = api(make_user(tenant3))
    body = client.get("/api/suppliers/", HTTP_ACCEPT_LANGUAGE="zh").json()
    assert body["error"] == "tenant_required"
    assert body["message"] != "The tenant_id query parameter is required."


class Boom(APIView):
    permission_classes: list = []
    authentication_classes: list = []

    def get(self, request):
        raise RuntimeError("secret internals")

    def delete(self, request):
        return Response(status=204)


urlpatterns = [path("api/boom/", Boom.as_view())]


@pytest.mark.urls("apps.common.tests.test_envelope")
def test_500_has_a_generic_message_and_no_details(caplog):
    body = assert_error(APIClient().get("/api/boom/"), 500, "server_error")
    assert "secret" not in body["message"]
    assert "secret internals" in caplog.text
    # logged once (by the exception handler, with the stack), not a second time by django.request
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.name for r in errors] == ["apps.api"], [(r.name, r.getMessage()) for r in errors]


@pytest.mark.urls("apps.common.tests.test_envelope")
def test_204_becomes_200_with_the_envelope():
    response = APIClient().delete("/api/boom/")
    assert response.status_code == 200
    assert response.json() == {"code": 200, "message": "success", "data": None}
