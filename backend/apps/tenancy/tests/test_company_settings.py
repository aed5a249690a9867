"""Company settings (GET/PATCH /api/tenants/current/): the operator data of due diligence statements."""

import pytest

from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

URL = "/api/tenants/current/"

COMPLETE = {
    "legal_name": "EuroTrade Goods B.V.",
    "address": "Havenweg 12, 3089 JA Rotterdam",
    "country": "NL",
    "eori_number": "NL862345678",
    "vat_number": "NL862345678B01",
    "email": "compliance@eurotrade.example",
    "phone": "+31 10 123 4567",
}


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator", username="settings-admin")


def field_errors(response) -> dict:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "validation_error"
    return body["data"]


def test_an_administrator_reads_and_changes_the_settings(api, admin, tenant3):
    client = api(admin, tenant3)
    response = client.get(URL)
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["id"] == str(tenant3.pk)
    assert data["name"] == "EuroTrade Goods BV"
    assert data["can_edit"] is True
    assert data["operator_role"] == "OPERATOR"
    assert data["missing_for_statement"] == ["address", "country"]

    saved = client.patch(URL, COMPLETE, format="json")
    assert saved.status_code == 200, saved.content
    data = saved.json()["data"]
    for key, value in COMPLETE.items():
        assert data[key] == value, key
    assert data["missing_for_statement"] == []
    tenant3.refresh_from_db()
    assert tenant3.address == COMPLETE["address"]
    assert tenant3.vat_number == "NL862345678B01"


def test_identifiers_are_normalised_and_name_and_code_stay(api, admin, tenant3):
    response = api(admin, tenant3).patch(
        URL,
        {"eori_number": " nl 8623-45678 ", "vat_number": "nl.862345678.b01", "name": "Renamed", "code": "x"},
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert (data["eori_number"], data["vat_number"]) == ("NL862345678", "NL862345678B01")
    phone = api(admin, tenant3).patch(URL, {"phone": " (010)  123-4567 "}, format="json")
    assert phone.json()["data"]["phone"] == "(010) 123-4567"
    tenant3.refresh_from_db()
    assert (tenant3.name, tenant3.code) == ("EuroTrade Goods BV", "eurotrade")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "eori_number",
            "862345678",
            "Enter the EORI number as the 2-letter country code and up to 15 letters or digits, "
            "e.g. NL862345678.",
        ),
        (
            "eori_number",
            "NL1234567890123456",
            "Enter the EORI number as the 2-letter country code and up to 15 letters or digits, "
            "e.g. NL862345678.",
        ),
        ("vat_number", "NL1", "Enter the VAT number with its 2-letter country prefix, e.g. NL862345678B01."),
        (
            "vat_number",
            "NL86234567#B01",
            "Enter the VAT number with its 2-letter country prefix, e.g. NL862345678B01.",
        ),
        (
            "country",
            "CN",
            "Choose the EU member state where the company places the products on the market.",
        ),
        (
            "phone",
            "call me",
            "Enter the phone number with digits, spaces and + ( ) - . / only, e.g. +31 10 123 4567.",
        ),
        ("email", "not-an-address", "Enter a valid email address."),
        ("represented_operator_country", "XX", "Enter a two-letter ISO 3166-1 country code, e.g. CN."),
        ("operator_role", "IMPORTER", '"IMPORTER" is not a valid choice.'),
    ],
)
def test_malformed_values_are_refused_with_a_clear_message(api, admin, tenant3, field, value, message):
    errors = field_errors(api(admin, tenant3).patch(URL, {field: value}, format="json"))
    assert errors == {field: [message]}
    tenant3.refresh_from_db()
    assert getattr(tenant3, field) != value


def test_a_representative_names_the_represented_operator(api, admin, tenant3):
    client = api(admin, tenant3)
    errors = field_errors(client.patch(URL, {"operator_role": "REPRESENTATIVE_OPERATOR"}, format="json"))
    required = ["Required when the company files as an authorised representative."]
    assert errors == {
        "represented_operator_name": required,
        "represented_operator_street": required,
        "represented_operator_postal_code": required,
        "represented_operator_city": required,
        "represented_operator_country": required,
        "represented_operator_eori": ["Enter the represented operator's EORI or VAT number."],
    }
    saved = client.patch(
        URL,
        {
            **COMPLETE,
            "operator_role": "REPRESENTATIVE_OPERATOR",
            "represented_operator_name": "Shenzhen Carton Trading Ltd",
            "represented_operator_address": "8 Keji Road, 518057 Shenzhen",
            "represented_operator_street": "8 Keji Road",
            "represented_operator_postal_code": "518057",
            "represented_operator_city": "Shenzhen",
            "represented_operator_country": "cn",
            "represented_operator_vat": "CN91440300MA5",
        },
        format="json",
    )
    assert saved.status_code == 200, saved.content
    data = saved.json()["data"]
    assert data["operator_role"] == "REPRESENTATIVE_OPERATOR"
    assert data["represented_operator_country"] == "CN"
    assert data["missing_for_statement"] == []
    # Back to operator: the represented operator is kept but no longer needed.
    back = client.patch(URL, {"operator_role": "OPERATOR", "represented_operator_vat": ""}, format="json")
    assert back.status_code == 200, back.content
    assert back.json()["data"]["missing_for_statement"] == []


@pytest.mark.parametrize("role", ["Sales", "Purchasing"])
def test_internal_users_without_the_permission_read_but_cannot_change(api, make_user, tenant3, role):
    user = make_user(tenant3, role)
    client = api(user, tenant3)
    read = client.get(URL)
    assert read.status_code == 200, read.content
    assert read.json()["data"]["can_edit"] is False
    refused = client.patch(URL, {"address": "Elsewhere 1"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"] == "permission_denied"
    tenant3.refresh_from_db()
    assert tenant3.address == ""


def test_supplier_and_warehouse_users_are_refused(api, make_user, tenant3):
    supplier = make_user(tenant3, "Supplier", is_supplier=True)
    warehouse = make_user(tenant3, "Warehouse", is_warehouse=True)
    for user in (supplier, warehouse):
        client = api(user, tenant3)
        assert client.get(URL).status_code == 403
        assert client.patch(URL, {"address": "Elsewhere 1"}, format="json").status_code == 403
    # even with every permission, a supplier account cannot change the operator
    supplier_admin = make_user(tenant3, "Administrator", is_supplier=True)
    assert api(supplier_admin, tenant3).patch(URL, {"address": "x"}, format="json").status_code == 403
    tenant3.refresh_from_db()
    assert tenant3.address == ""


def test_another_tenants_settings_are_out_of_reach(api, make_user, tenant2, tenant3):
    admin_x = make_user(tenant2, "Administrator")
    client = api(admin_x, tenant3)
    assert client.get(URL).status_code == 403
    response = client.patch(URL, {"address": "Hijacked 1"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == "tenant_forbidden"
    # The own tenant's change leaves the other one alone.
    own = api(admin_x, tenant2).patch(URL, {"address": "Storgatan 1, Malmö", "country": "SE"}, format="json")
    assert own.status_code == 200, own.content
    assert Tenant.objects.get(pk=tenant3.pk).address == ""
    assert Tenant.objects.get(pk=tenant2.pk).address == "Storgatan 1, Malmö"


def test_sign_in_and_tenant_are_required(api, admin, tenant3):
    assert api(None, tenant3).get(URL).status_code == 401
    response = api(admin).get(URL)
    assert response.status_code == 400
    assert response.json()["error"] == "tenant_required"


def test_the_tenant_list_still_shows_only_id_and_name(api, admin, tenant3):
    response = api(admin).get("/api/tenants/")
    assert response.json()["data"] == [{"id": str(tenant3.pk), "name": "EuroTrade Goods BV"}]
