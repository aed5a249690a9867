"""The company's EUDR role per flow of goods in the company settings, and the duties it gives."""

import pytest

from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

URL = "/api/tenants/current/"


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator", username="roles-admin")


def test_an_importer_files_statements_by_default(api, admin, tenant3):
    data = api(admin, tenant3).get(URL).json()["data"]
    assert (data["eudr_import_role"], data["eudr_purchase_role"], data["eudr_primary_role"]) == (
        "operator",
        "none",
        "none",
    )
    assert data["eudr_is_sme"] is False and data["simplified_declaration_id"] == ""
    assert data["eudr_duties"] == ["file_statements"]


def test_a_downstream_trader_keeps_references_and_registers_unless_sme(api, admin, tenant3):
    client = api(admin, tenant3)
    body = {"eudr_import_role": "none", "eudr_purchase_role": "downstream"}
    data = client.patch(URL, body, format="json").json()["data"]
    assert data["eudr_duties"] == ["keep_supplier_references", "register_in_information_system"]
    data = client.patch(URL, {"eudr_is_sme": True}, format="json").json()["data"]
    assert data["eudr_duties"] == ["keep_supplier_references"]
    tenant3.refresh_from_db()
    assert tenant3.eudr_purchase_role == "downstream" and tenant3.eudr_is_sme is True


def test_a_micro_or_small_primary_operator_needs_its_simplified_declaration_and_sme(api, admin, tenant3):
    client = api(admin, tenant3)
    response = client.patch(URL, {"eudr_primary_role": "micro_small_primary"}, format="json")
    assert response.status_code == 400
    assert set(response.json()["data"]) == {"eudr_is_sme", "simplified_declaration_id"}
    response = client.patch(
        URL,
        {
            "eudr_primary_role": "micro_small_primary",
            "eudr_is_sme": True,
            "simplified_declaration_id": "26NLX7TVCZAQ2S",
        },
        format="json",
    )
    assert response.status_code == 400  # a statement's reference is not a simplified declaration's identifier
    assert set(response.json()["data"]) == {"simplified_declaration_id"}
    response = client.patch(
        URL,
        {
            "eudr_primary_role": "micro_small_primary",
            "eudr_is_sme": True,
            "simplified_declaration_id": " s26frnmnbsa96q",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["simplified_declaration_id"] == "S26FRNMNBSA96Q"
    assert "simplified_declaration" in data["eudr_duties"]


@pytest.mark.parametrize(
    "body",
    [
        {"eudr_import_role": "trader"},
        {"eudr_purchase_role": ["downstream"]},
        {"eudr_primary_role": None},
        {"eudr_is_sme": "perhaps"},
        {"simplified_declaration_id": {"x": 1}},
        {"simplified_declaration_id": "S26-FRNMNBSA96Q"},
    ],
)
def test_malformed_roles_are_refused(api, admin, tenant3, body):
    response = api(admin, tenant3).patch(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["data"]) == set(body)
    assert Tenant.objects.get(pk=tenant3.pk).eudr_import_role == "operator"


def test_only_the_settings_permission_changes_the_roles(api, make_user, tenant3):
    purchaser = make_user(tenant3, "Purchasing", username="roles-purchaser")
    response = api(purchaser, tenant3).patch(URL, {"eudr_purchase_role": "downstream"}, format="json")
    assert response.status_code == 403
    assert Tenant.objects.get(pk=tenant3.pk).eudr_purchase_role == "none"
