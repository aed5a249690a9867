"""Company settings for business documents: registration number, IBAN (check digits), BIC (format) and the
default payment terms (docs/tenancy.md, docs/sales.md "Company and payment details")."""

import pytest

from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db

URL = "/api/tenants/current/"


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator", username="payment-admin")


def test_payment_details_are_saved_in_their_compact_form(api, admin, tenant3):
    client = api(admin, tenant3)
    data = client.get(URL).json()["data"]
    assert (data["registration_number"], data["iban"], data["bic"], data["payment_terms_days"]) == (
        "",
        "",
        "",
        30,
    )
    saved = client.patch(
        URL,
        {
            "registration_number": "  KvK   24123456 ",
            "iban": "nl91 abna 0417 1643 00",
            "bic": "abna nl 2a",
            "payment_terms_days": 14,
        },
        format="json",
    )
    assert saved.status_code == 200, saved.content
    data = saved.json()["data"]
    assert (data["registration_number"], data["iban"], data["bic"], data["payment_terms_days"]) == (
        "KvK 24123456",
        "NL91ABNA0417164300",
        "ABNANL2A",
        14,
    )
    tenant3.refresh_from_db()
    assert (tenant3.iban, tenant3.bic, tenant3.payment_terms_days) == ("NL91ABNA0417164300", "ABNANL2A", 14)
    # an 11-character BIC (with the branch) and a German IBAN
    ok = client.patch(URL, {"iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX"}, format="json")
    assert ok.status_code == 200, ok.content
    # emptied again
    assert client.patch(URL, {"iban": "", "bic": ""}, format="json").json()["data"]["iban"] == ""


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"iban": "NL91ABNA0417164301"}, "iban", "check digits"),  # one digit wrong
        ({"iban": "NL91ABNA041716430"}, "iban", "check digits"),  # too short for NL
        ({"iban": "XX00123"}, "iban", "IBAN"),
        ({"iban": "NL91ABNA0417164300", "bic": "ABNA"}, "bic", "BIC"),
        ({"iban": "NL91ABNA0417164300", "bic": "1BNANL2A"}, "bic", "BIC"),
        ({"bic": "ABNANL2A"}, "iban", "BIC alone"),
        ({"registration_number": "<script>"}, "registration_number", "registration number"),
        ({"registration_number": "1" * 41}, "registration_number", "registration number"),
        ({"payment_terms_days": 366}, "payment_terms_days", "365"),
        ({"payment_terms_days": -1}, "payment_terms_days", "0"),
    ],
)
def test_malformed_payment_details_are_refused(api, admin, tenant3, body, field, words):
    response = api(admin, tenant3).patch(URL, body, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()["data"]
    assert words in " ".join(errors[field]), errors
    tenant3.refresh_from_db()
    assert (tenant3.iban, tenant3.bic, tenant3.registration_number, tenant3.payment_terms_days) == (
        "",
        "",
        "",
        30,
    )


def test_messages_are_translated(api, admin, tenant3):
    response = api(admin, tenant3).patch(
        URL, {"iban": "NL91ABNA0417164301"}, format="json", HTTP_ACCEPT_LANGUAGE="zh"
    )
    assert response.status_code == 400
    assert "IBAN" in response.json()["data"]["iban"][0]
    assert "check digits" not in response.json()["data"]["iban"][0]


def test_only_administrators_of_the_tenant_change_them(api, make_user, tenant2, tenant3):
    body = {"iban": "NL91ABNA0417164300"}
    sales = make_user(tenant3, "Sales")
    assert api(sales, tenant3).patch(URL, body, format="json").status_code == 403
    for user in (
        make_user(tenant3, "Supplier", is_supplier=True),
        make_user(tenant3, "Warehouse", is_warehouse=True),
    ):
        assert api(user, tenant3).get(URL).status_code == 403
        assert api(user, tenant3).patch(URL, body, format="json").status_code == 403
    other_admin = make_user(tenant2, "Administrator")
    assert api(other_admin, tenant3).patch(URL, body, format="json").status_code == 403
    assert Tenant.objects.get(pk=tenant3.pk).iban == ""
