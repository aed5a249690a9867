"""The annual review and public report (Art. 12): its figures equal the statements of the year, the PDF
carries them in English and Chinese, and another tenant's statements never appear. PostgreSQL under
row-level security."""

from datetime import timedelta

import pytest
from django.utils import timezone
from pypdf import PdfReader

from apps.duediligence.annual_report import annual_figures, annual_report_pdf
from apps.duediligence.models import RetentionHold
from apps.eudr.tests import factories

from .helpers import record

pytestmark = pytest.mark.django_db


def pdf_text(data: bytes) -> str:
    from io import BytesIO

    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


def test_annual_figures_equal_the_statements_of_the_year(eudr_world, api, in_tenant):
    year = timezone.now().year
    client = api(eudr_world.admin, eudr_world.tenant3)
    with in_tenant(eudr_world.tenant3):
        first = factories.delivery(eudr_world.vendor_a)
        second = factories.delivery(eudr_world.vendor_a)
        last_year = factories.delivery(eudr_world.vendor_a)
    assert record(client, first.pk, "26NLQ8M3ZP41TA").status_code == 200
    assert record(client, second.pk, "26NLQ8M3ZP41TB").status_code == 200
    assert record(client, last_year.pk, "25NLQ8M3ZP41TC").status_code == 200
    with in_tenant(eudr_world.tenant3):
        RetentionHold.objects.filter(delivery=last_year).update(
            started_at=timezone.now().replace(year=year - 1) - timedelta(days=1)
        )
    # Another tenant's statement of the same year never counts.
    with in_tenant(eudr_world.tenant2):
        foreign = factories.delivery(eudr_world.vendor_x)
    assert (
        record(api(eudr_world.admin_x, eudr_world.tenant2), foreign.pk, "26NLQ8M3ZP41TX").status_code == 200
    )

    with in_tenant(eudr_world.tenant3):
        held = RetentionHold.objects.filter(started_at__year=year)
        figures = annual_figures(year)
        assert sorted(figures.statements) == sorted(h.reference_number for h in held)
        assert sorted(figures.statements) == ["26NLQ8M3ZP41TA", "26NLQ8M3ZP41TB"]
        assert figures.statements_recorded == 2 and figures.statements_filed == 0
        assert sum(figures.countries.values()) == 2
        assert annual_figures(year - 1).statements == ["25NLQ8M3ZP41TC"]
        data = annual_report_pdf(year, "CartonTrace GmbH")

    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert "26NLQ8M3ZP41TA" in text and "26NLQ8M3ZP41TB" in text
    assert "25NLQ8M3ZP41TC" not in text and "26NLQ8M3ZP41TX" not in text
    assert f"annual review and report {year}" in text
    assert "年度审查与报告" in text.replace(" ", "")


REPORT = "/api/duediligence/annual-report/"


@pytest.mark.parametrize("year", ["", "abc", "1999", "20266", "２０２６", "-2026", "2101"])
def test_the_report_needs_a_year_in_four_digits(eudr_world, api, year):
    response = api(eudr_world.admin, eudr_world.tenant3).get(REPORT, {"year": year})
    assert response.status_code == 400
    assert "year" in str(response.json())


def test_the_report_is_a_pdf_of_the_tenants_own_statements(eudr_world, api, in_tenant):
    year = timezone.now().year
    with in_tenant(eudr_world.tenant2):
        foreign = factories.delivery(eudr_world.vendor_x)
    assert (
        record(api(eudr_world.admin_x, eudr_world.tenant2), foreign.pk, "26NLQ8M3ZP41TX").status_code == 200
    )
    response = api(eudr_world.admin, eudr_world.tenant3).get(REPORT, {"year": year})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "26NLQ8M3ZP41TX" not in pdf_text(response.content)
    own = api(eudr_world.admin_x, eudr_world.tenant2).get(REPORT, {"year": year})
    assert "26NLQ8M3ZP41TX" in pdf_text(own.content)


def test_suppliers_and_warehouse_users_cannot_read_the_report(eudr_world, api):
    year = timezone.now().year
    assert api(eudr_world.supplier_a, eudr_world.tenant3).get(REPORT, {"year": year}).status_code == 403
    assert api(eudr_world.warehouse, eudr_world.tenant3).get(REPORT, {"year": year}).status_code == 403


def test_the_figures_endpoint_answers_the_years_statements_and_the_pdf_one_language(
    eudr_world, api, in_tenant
):
    year = timezone.now().year
    client = api(eudr_world.admin, eudr_world.tenant3)
    with in_tenant(eudr_world.tenant3):
        first = factories.delivery(eudr_world.vendor_a, country_code="BR")
        second = factories.delivery(eudr_world.vendor_a)
    for delivery, reference in ((first, "26NLQ8M3ZP41TA"), (second, "26NLQ8M3ZP41TB")):
        client.post(
            f"/api/duediligence/deliveries/{delivery.pk}/override/", {"reason": "Test"}, format="json"
        )
        assert record(client, delivery.pk, reference).status_code == 200
    with in_tenant(eudr_world.tenant2):
        foreign = factories.delivery(eudr_world.vendor_x)
    record(api(eudr_world.admin_x, eudr_world.tenant2), foreign.pk, "26NLQ8M3ZP41TX")

    figures = client.get(f"{REPORT}figures/", {"year": year}).json()["data"]
    with in_tenant(eudr_world.tenant3):
        held = sorted(
            RetentionHold.objects.filter(started_at__year=year).values_list("reference_number", flat=True)
        )
    assert sorted(figures["statements"]) == held == ["26NLQ8M3ZP41TA", "26NLQ8M3ZP41TB"]
    assert figures["statements_recorded"] == 2 and figures["statements_filed"] == 0
    assert figures["countries"] == [
        {"country_code": "BR", "statements": 1, "level": "standard"},
        {"country_code": "CN", "statements": 1, "level": "low"},
    ]
    assert figures["assessments"] == {"negligible": 0, "not_negligible": 0}
    assert client.get(f"{REPORT}figures/", {"year": year - 1}).json()["data"]["statements"] == []
    assert client.get(f"{REPORT}figures/", {"year": "20x6"}).status_code == 400
    assert (
        api(eudr_world.supplier_a, eudr_world.tenant3).get(f"{REPORT}figures/", {"year": year}).status_code
        == 403
    )

    english = pdf_text(client.get(REPORT, {"year": year, "language": "en"}).content)
    chinese = pdf_text(client.get(REPORT, {"year": year, "language": "zh"}).content).replace(" ", "")
    assert "annual review and report" in english and "年度审查与报告" not in english.replace(" ", "")
    assert "年度审查与报告" in chinese and "annualreview" not in chinese
    assert "26NLQ8M3ZP41TA" in english and "26NLQ8M3ZP41TA" in chinese
    assert client.get(REPORT, {"year": year, "language": "fr"}).status_code == 400
