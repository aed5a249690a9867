"""The operator in the due diligence package comes from the company settings: the checks point to that
page when something is missing, and an authorised representative names the represented operator."""

import io
import json
import zipfile

import pytest
from pypdf import PdfReader

from apps.eudr.tests.trace_data import make_cartons, make_delivery

pytestmark = pytest.mark.django_db

SETTINGS_URL = "/api/tenants/current/"


@pytest.fixture
def admin(make_user, tenant3):
    return make_user(tenant3, "Administrator")


@pytest.fixture
def delivery(tenant3, in_tenant):
    with in_tenant(tenant3):
        delivery = make_delivery()
        make_cartons(delivery, count=2)
        return delivery


def checks(api, user, tenant, delivery_id) -> dict:
    response = api(user, tenant).get(f"/api/eudr/raw-materials/{delivery_id}/dds-package/checks/")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def package(api, user, tenant, delivery_id) -> zipfile.ZipFile:
    job = api(user, tenant).post(f"/api/eudr/raw-materials/{delivery_id}/dds-package/").json()["data"]
    assert job["status"] == "done", job
    response = api(user, tenant).get(job["download_url"])
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_missing_company_settings_are_listed_and_point_to_the_page(api, admin, tenant3, delivery):
    tenant3.eori_number = ""
    tenant3.save()
    found = checks(api, admin, tenant3, delivery.pk)
    assert found["ready"] is False
    by_code = {c["code"]: c["message"] for c in found["errors"]}
    assert by_code["operator_address_missing"] == (
        "The operator's address is missing: enter it in Company settings (user menu)."
    )
    assert by_code["operator_identifier_missing"] == (
        "The operator's EORI or VAT number is missing or malformed: enter it in Company settings (user menu)."
    )
    assert by_code["operator_country_missing"] == (
        "The operator's country of activity (an EU member state) is missing: choose it in Company settings "
        "(user menu)."
    )
    refused = api(admin, tenant3).post(f"/api/eudr/raw-materials/{delivery.pk}/dds-package/")
    assert refused.status_code == 400
    assert refused.json()["error"] == "dds_information_missing"

    # filled in on the company settings page; a VAT number alone is not enough for an import
    saved = api(admin, tenant3).patch(
        SETTINGS_URL,
        {"address": "Havenweg 12, 3089 JA Rotterdam", "country": "NL", "vat_number": "NL862345678B01"},
        format="json",
    )
    assert saved.status_code == 200, saved.content
    found = checks(api, admin, tenant3, delivery.pk)
    assert [c["code"] for c in found["errors"]] == ["operator_eori_missing"]
    assert found["errors"][0]["message"] == (
        "An import needs the operator's EORI number: enter it in Company settings (user menu)."
    )
    api(admin, tenant3).patch(SETTINGS_URL, {"eori_number": "NL862345678"}, format="json")
    assert checks(api, admin, tenant3, delivery.pk)["ready"] is True


def test_a_malformed_stored_identifier_is_an_error(api, admin, tenant3, delivery):
    tenant3.address, tenant3.country, tenant3.eori_number = "Havenweg 12", "NL", "862345678"
    tenant3.save()
    codes = {c["code"] for c in checks(api, admin, tenant3, delivery.pk)["errors"]}
    assert codes == {"operator_identifier_missing"}


def test_a_representative_files_for_the_represented_operator(api, admin, tenant3, delivery):
    client = api(admin, tenant3)
    client.patch(
        SETTINGS_URL,
        {"address": "Havenweg 12, 3089 JA Rotterdam", "country": "NL", "legal_name": "EuroTrade Goods B.V."},
        format="json",
    )
    # a representative with an incomplete represented operator (stored before the rule) is refused
    tenant3.refresh_from_db()
    tenant3.operator_role = "REPRESENTATIVE_OPERATOR"
    tenant3.save()
    codes = {c["code"] for c in checks(api, admin, tenant3, delivery.pk)["errors"]}
    assert codes == {"represented_operator_missing"}

    saved = client.patch(
        SETTINGS_URL,
        {
            "operator_role": "REPRESENTATIVE_OPERATOR",
            "represented_operator_name": "Shenzhen Carton Trading Ltd",
            "represented_operator_address": "8 Keji Road, 518057 Shenzhen",
            "represented_operator_street": "8 Keji Road",
            "represented_operator_postal_code": "518057",
            "represented_operator_city": "Shenzhen",
            "represented_operator_country": "CN",
            "represented_operator_eori": "CN9144030012",
            "represented_operator_email": "trade@szcarton.example",
        },
        format="json",
    )
    assert saved.status_code == 200, saved.content
    archive = package(api, admin, tenant3, delivery.pk)
    dds = json.loads(archive.read("dds.json"))
    statement = dds["statement"]
    assert dds["operatorRole"] == "REPRESENTATIVE_OPERATOR"
    assert "operatorRole" not in statement and "operator" not in statement
    assert statement["representedOperator"] == {
        "operatorReferenceNumber": [{"identifierType": "eori", "identifierValue": "CN9144030012"}],
        "operatorAddress": {
            "country": "CN",
            "street": "8 Keji Road",
            "postalCode": "518057",
            "city": "Shenzhen",
            "fullAddress": "8 Keji Road, 518057 Shenzhen",
        },
        "operatorEmail": "trade@szcarton.example",
        "operatorName": "Shenzhen Carton Trading Ltd",
    }
    assert list(statement)[:3] == ["internalReferenceNumber", "activityType", "representedOperator"]
    summary = "".join(
        page.extract_text() for page in PdfReader(io.BytesIO(archive.read("summary.pdf"))).pages
    )
    assert "REPRESENTATIVE_OPERATOR" in summary
    assert "Shenzhen Carton Trading Ltd" in summary


def test_an_operator_has_no_represented_operator_in_the_statement(api, admin, tenant3, delivery):
    api(admin, tenant3).patch(
        SETTINGS_URL,
        {"address": "Havenweg 12", "country": "NL", "vat_number": "NL862345678B01"},
        format="json",
    )
    dds = json.loads(package(api, admin, tenant3, delivery.pk).read("dds.json"))
    statement = dds["statement"]
    assert dds["operatorRole"] == "OPERATOR"
    assert "representedOperator" not in statement and "operator" not in statement
    assert statement["countryOfActivity"] == "NL"
