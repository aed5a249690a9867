import pytest
from django.core.management import call_command

from apps.reports.models import SavedReport
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant
from apps.users.models import User

pytestmark = pytest.mark.django_db


def test_every_ready_made_demo_report_runs_and_has_figures(api):
    call_command("load_demo", verbosity=0)
    tenant = Tenant.objects.get(pk=3)
    admin = User.objects.get(username="admin")
    with tenant_context(tenant):
        reports = list(SavedReport.objects.all())
    assert len(reports) == 4 and all(r.shared for r in reports)
    client = api(admin, tenant)
    for report in reports:
        response = client.post("/api/reports/run/", report.definition, format="json")
        assert response.status_code == 200, (report.name, response.content)
    cartons = next(r for r in reports if r.definition["dataset"] == "cartons")
    data = client.post("/api/reports/run/", cartons.definition, format="json").json()["data"]
    assert data["totals"]["id__count"] > 0
