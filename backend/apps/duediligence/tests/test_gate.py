"""Risk assessment, mitigation, the override and substantiated concerns: a statement is filed (or its
reference recorded) only when the due diligence is complete."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.duediligence import benchmark
from apps.duediligence.models import FilingOverride
from apps.eudr.tests import factories

from .helpers import DD, PLOT_BR, criteria, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def brazil(eudr_world, in_tenant):
    """A delivery from a standard-risk country: the full due diligence applies."""
    with in_tenant(eudr_world.tenant3):
        return factories.delivery(eudr_world.vendor_a, country_code="BR")


def assess(client, delivery_id, **body):
    payload = {"criteria": criteria(), "conclusion": "negligible", **body}
    return client.post(f"{DD}deliveries/{delivery_id}/assessments/", payload, format="json")


def test_shipped_benchmark_names_the_act_and_its_levels():
    current = benchmark.current()
    assert current.act_reference == "Commission Implementing Regulation (EU) 2025/1093"
    assert current.act_date.isoformat() == "2025-05-22"
    assert current.level_of("RU") == "high"
    assert current.level_of("de") == "low"
    assert current.level_of("CN") == "low"
    assert current.level_of("BR") == "standard"  # not named: the regulation's default
    assert current.level_of("??") is None


def test_a_newer_benchmark_is_loaded_by_the_command(tmp_path):
    newer = {
        "act_reference": "Commission Implementing Regulation (EU) 2027/1",
        "act_date": "2027-01-15",
        "default_level": "standard",
        "levels": {"low": ["BR"], "high": ["RU"]},
    }
    path = tmp_path / "benchmark.json"
    path.write_text(json.dumps(newer))
    call_command("load_country_benchmark", str(path))
    current = benchmark.current()
    assert current.act_reference.endswith("2027/1")
    assert current.level_of("BR") == "low"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**newer, "levels": {"low": ["BR"], "high": ["BR"]}}))
    with pytest.raises(CommandError):
        call_command("load_country_benchmark", str(bad))
    assert benchmark.current().act_reference.endswith("2027/1")


def test_low_risk_countries_get_simplified_due_diligence(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a, country_code="CN")
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    overview = client.get(f"{DD}deliveries/{delivery.pk}/").json()["data"]
    assert overview["countries"] == [{"country_code": "CN", "level": "low"}]
    assert overview["simplified"] is True and overview["can_file"] is True
    assert "2025/1093" in overview["benchmark"]


def test_a_plot_in_a_standard_risk_country_needs_the_full_assessment(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a, country_code="CN", location_geojson=PLOT_BR)
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    overview = client.get(f"{DD}deliveries/{delivery.pk}/").json()["data"]
    assert overview["countries"] == [
        {"country_code": "CN", "level": "low"},
        {"country_code": "BR", "level": "standard"},
    ]
    assert overview["simplified"] is False
    assert [b["code"] for b in overview["blockers"]] == ["assessment_missing"]


def test_no_statement_without_a_negligible_assessment(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    refused = record(client, brazil.pk)
    assert refused.status_code == 409
    assert refused.json()["error"] == "filing_blocked"
    assert refused.json()["data"]["blockers"][0]["code"] == "assessment_missing"

    not_negligible = assess(client, brazil.pk, criteria=criteria(risk=("f",)), conclusion="not_negligible")
    assert not_negligible.status_code == 201, not_negligible.content
    again = record(client, brazil.pk)
    assert again.status_code == 409
    assert again.json()["data"]["blockers"][0]["code"] == "assessment_not_negligible"


def test_a_risk_found_needs_mitigation_before_negligible(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    refused = assess(client, brazil.pk, criteria=criteria(risk=("f", "h")))
    assert refused.status_code == 400
    assert "mitigation" in refused.json()["data"]
    measures = [
        {
            "kind": "independent_audit",
            "description": "Site audit of the forest concession",
            "evidence": "Audit report 2026-114",
        }
    ]
    done = assess(client, brazil.pk, criteria=criteria(risk=("f", "h")), mitigation=measures)
    assert done.status_code == 201, done.content
    body = done.json()["data"]
    assert body["assessed_by"] == eudr_world.purchaser.username
    assert body["country_levels"] == {"BR": "standard"}
    assert body["mitigation"][0]["kind"] == "independent_audit"
    assert record(client, brazil.pk).status_code == 200


def test_every_criterion_needs_a_finding_and_evidence(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    partial = criteria()[:-1]
    assert assess(client, brazil.pk, criteria=partial).status_code == 400
    no_evidence = [dict(c, evidence="") for c in criteria()]
    assert assess(client, brazil.pk, criteria=no_evidence).status_code == 400
    for body in (
        {"criteria": "x", "conclusion": "negligible"},
        {"criteria": [1, 2], "conclusion": "negligible"},
        {"criteria": criteria(), "conclusion": "maybe"},
        {"criteria": criteria(), "conclusion": "negligible", "mitigation": [{"kind": "magic"}]},
        {},
        [],
    ):
        answer = client.post(f"{DD}deliveries/{brazil.pk}/assessments/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)


def test_a_supplier_relationship_assessment_covers_its_deliveries(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    made = client.post(
        f"{DD}assessments/",
        {"parent_vendor": eudr_world.vendor_a.pk, "criteria": criteria(), "conclusion": "negligible"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert record(client, brazil.pk).status_code == 200
    listed = client.get(f"{DD}assessments/", {"parent_vendor": eudr_world.vendor_a.pk}).json()["data"][
        "results"
    ]
    assert len(listed) == 1
    # Another tenant's vendor does not exist here.
    foreign = client.post(
        f"{DD}assessments/",
        {"parent_vendor": eudr_world.vendor_x.pk, "criteria": criteria(), "conclusion": "negligible"},
        format="json",
    )
    assert foreign.status_code == 400


def test_only_an_authorised_user_overrides_with_a_reason(eudr_world, api, brazil, in_tenant):
    purchaser = api(eudr_world.purchaser, eudr_world.tenant3)
    assert purchaser.post(f"{DD}deliveries/{brazil.pk}/override/", {"reason": "Urgent"}).status_code == 403
    admin = api(eudr_world.admin, eudr_world.tenant3)
    assert admin.post(f"{DD}deliveries/{brazil.pk}/override/", {"reason": ""}).status_code == 400
    done = admin.post(f"{DD}deliveries/{brazil.pk}/override/", {"reason": "Assessed on paper, see binder 4"})
    assert done.status_code == 201, done.content
    assert done.json()["data"]["blocked_by"] == ["assessment_missing"]
    assert record(purchaser, brazil.pk).status_code == 200
    with in_tenant(eudr_world.tenant3):
        assert FilingOverride.objects.get(delivery=brazil).by == eudr_world.admin


def test_a_concern_blocks_new_statements_until_resolved(eudr_world, api, in_tenant):
    with in_tenant(eudr_world.tenant3):
        delivery = factories.delivery(eudr_world.vendor_a)  # low risk: only the concern blocks
    warehouse = api(eudr_world.warehouse, eudr_world.tenant3)
    raised = warehouse.post(
        f"{DD}concerns/",
        {
            "parent_vendor": eudr_world.vendor_a.pk,
            "description": "NGO report on illegal logging",
            "source": "NGO",
        },
        format="json",
    )
    assert raised.status_code == 201, raised.content
    concern_id = raised.json()["data"]["id"]
    purchaser = api(eudr_world.purchaser, eudr_world.tenant3)
    blocked = record(purchaser, delivery.pk)
    assert blocked.status_code == 409
    assert blocked.json()["data"]["blockers"][0]["code"] == "open_concern"
    # An override does not lift a concern.
    admin = api(eudr_world.admin, eudr_world.tenant3)
    assert admin.post(f"{DD}deliveries/{delivery.pk}/override/", {"reason": "x"}).status_code == 409
    # Warehouse users record concerns but do not resolve them.
    assert warehouse.post(f"{DD}concerns/{concern_id}/resolve/", {"resolution": "ok"}).status_code == 403
    assert purchaser.post(f"{DD}concerns/{concern_id}/resolve/", {"resolution": " "}).status_code == 400
    resolved = purchaser.post(
        f"{DD}concerns/{concern_id}/resolve/", {"resolution": "Audit found the concession legal"}
    )
    assert resolved.status_code == 200, resolved.content
    assert resolved.json()["data"]["is_open"] is False
    assert purchaser.post(f"{DD}concerns/{concern_id}/resolve/", {"resolution": "again"}).status_code == 409
    assert record(purchaser, delivery.pk).status_code == 200


def test_a_concern_names_exactly_one_record(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    both = client.post(
        f"{DD}concerns/",
        {"parent_vendor": eudr_world.vendor_a.pk, "delivery": brazil.pk, "description": "x"},
        format="json",
    )
    assert both.status_code == 400
    none = client.post(f"{DD}concerns/", {"description": "x"}, format="json")
    assert none.status_code == 400
    missing = client.post(f"{DD}concerns/", {"delivery": 999999, "description": "x"}, format="json")
    assert missing.status_code == 404
    on_delivery = client.post(
        f"{DD}concerns/", {"delivery": brazil.pk, "description": "Doubtful plot"}, format="json"
    )
    assert on_delivery.status_code == 201


def test_another_tenant_and_suppliers_see_nothing(eudr_world, api, brazil):
    client = api(eudr_world.purchaser, eudr_world.tenant3)
    assert assess(client, brazil.pk).status_code == 201
    assert (
        client.post(f"{DD}concerns/", {"delivery": brazil.pk, "description": "x"}, format="json").status_code
        == 201
    )

    outsider = api(eudr_world.admin_x, eudr_world.tenant2)
    assert outsider.get(f"{DD}deliveries/{brazil.pk}/").status_code == 404
    assert outsider.get(f"{DD}deliveries/{brazil.pk}/audit/").status_code == 404
    assert assess(outsider, brazil.pk).status_code == 404
    assert outsider.get(f"{DD}concerns/").json()["data"]["results"] == []
    assert outsider.get(f"{DD}assessments/").json()["data"]["results"] == []
    assert (
        outsider.post(
            f"{DD}concerns/", {"delivery": brazil.pk, "description": "x"}, format="json"
        ).status_code
        == 404
    )

    for supplier in (eudr_world.supplier_a, eudr_world.supplier_b):
        portal = api(supplier, eudr_world.tenant3)
        assert portal.get(f"{DD}deliveries/{brazil.pk}/").status_code == 403
        assert portal.get(f"{DD}concerns/").status_code == 403
        assert portal.get(f"{DD}deliveries/{brazil.pk}/audit/").status_code == 403
