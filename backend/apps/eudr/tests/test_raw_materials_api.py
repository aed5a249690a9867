"""Raw-material deliveries over the API: the wizard (drafts, submit), docs/specification.md section 5's messages,
field formats, the JSON names of the contract, status and expiry, list query counts."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from apps.common.dates import day_text
from apps.eudr import services
from apps.eudr.models import RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

URL = "/api/eudr/raw-materials/"


def full_payload(vendor_id, **overrides):
    payload = {
        "parent_vendor": vendor_id,
        "delivery_number": "DN-2026-0001",
        "document_from": "Guangxi Sun Paper",
        "description": "Kraftliner",
        "country_code": "cn",
        "forest_supplier_name": "Guangxi Gaofeng Forest Farm",
        "fm_certification_type": "FSC",
        "fm_certificate_number": "FSC-C100200",
        "fm_certificate_expiry": (date.today() + timedelta(days=200)).isoformat(),
        "coc_certification": "FSC Mix 70%",
        "coc_certificate_number": "SGSHK-COC-000123",
        "coc_certificate_expiry": (date.today() + timedelta(days=300)).isoformat(),
        "material_sc_number": "SC-1",
        "harvest_begin_month": "2025-01",
        "harvest_end_month": "2025-06",
        "upstream_dds_reference": "25FIKGLE0Q7R3B",
        "upstream_dds_verification": "VRF7Q2K9",
        "lines": [
            {
                "material_type": "paper",
                "weight_kg": "1200.5",
                "pulp_type": "virgin",
                "pulp_brand": "Sun Paper",
                "scientific_names": ["Pinus massoniana", "Eucalyptus urophylla"],
                "common_names": ["Masson pine", "eucalyptus"],
            }
        ],
    }
    payload.update(overrides)
    return payload


CONTRACT_FIELDS = {
    "parent_vendor",
    "delivery_number",
    "document_from",
    "description",
    "status",
    "country_code",
    "country_name",
    "lines",
    "forest_supplier_name",
    "fm_certification_type",
    "coc_certification",
    "material_sc_number",
    "harvest_begin_month",
    "harvest_end_month",
    "location_geojson",
    "min_consumption_per_carton",
    "loss_rate_percent",
    "allowed_carton_cap",
    "approved_over_cap",
    "issued_cartons",
    "policy_source",
    "lines_count",
    "created_at",
    "updated_at",
    "weight",
}


def test_create_submitted_delivery_has_the_contract_fields(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        factories.policy(
            w.vendor_a,
            material_type="paper",
            min_consumption_per_carton=Decimal("0.5"),
            loss_rate_percent=Decimal("10"),
        )
        factories.policy(w.vendor_a, min_consumption_per_carton=Decimal("9"))  # vendor-wide: less specific
    response = api(w.purchaser, w.tenant3).post(URL, full_payload(w.vendor_a.pk), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert set(data) >= CONTRACT_FIELDS
    assert data["status"] == "active"
    assert data["is_draft"] is False
    assert data["country_code"] == "CN"
    assert data["country_name"] == "China"
    assert data["lines_count"] == 1
    assert data["lines"][0]["scientific_names"] == ["Pinus massoniana", "Eucalyptus urophylla"]
    assert set(data["lines"][0]) >= {
        "material_type",
        "weight_kg",
        "pulp_type",
        "pulp_brand",
        "scientific_names",
        "common_names",
    }
    assert data["weight"] == {
        "original_kg": "1200.500",
        "loss_kg": "120.050",
        "available_kg": "1080.450",
        "used_kg": "0.000",
        "remaining_kg": "1080.450",
    }
    assert data["min_consumption_per_carton"] == "0.500"
    assert data["allowed_carton_cap"] == 2160  # floor(1080.45 / 0.5)
    assert data["policy_source"].startswith("policy #")
    assert "Shanghai Evergreen Packaging, paper" in data["policy_source"]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"parent_vendor": None}, "parent_vendor", "Parent vendor is required"),
        ({"delivery_number": ""}, "delivery_number", "Delivery number is required"),
        ({"lines": []}, "lines", "At least one material is required"),
    ],
)
def test_required_messages_on_submit(eudr_world, api, overrides, field, message):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(URL, full_payload(w.vendor_a.pk, **overrides), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "validation_error"
    assert body["data"][field] == [message]


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        (
            {"material_type": "", "weight_kg": "10", "pulp_type": ""},
            "material_type",
            "Material type is required",
        ),
        ({"material_type": "pulp", "weight_kg": None}, "weight_kg", "Valid weight is required"),
        ({"material_type": "pulp", "weight_kg": "0"}, "weight_kg", "Valid weight is required"),
        ({"material_type": "pulp", "weight_kg": "-3"}, "weight_kg", "Valid weight is required"),
        ({"material_type": "pulp", "weight_kg": "abc"}, "weight_kg", "Valid weight is required"),
        (
            {"material_type": "paper", "weight_kg": "10", "pulp_type": ""},
            "pulp_type",
            "Pulp type is required for Paper materials",
        ),
    ],
)
def test_line_messages(eudr_world, api, line, field, message):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(URL, full_payload(w.vendor_a.pk, lines=[line]), format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["data"]["lines"][0][field] == [message], response.json()


def test_draft_skips_required_fields_then_submit_validates(eudr_world, api):
    w = eudr_world
    client = api(w.supplier_a, w.tenant3)
    response = client.post(URL, {"is_draft": True, "description": "half done"}, format="json")
    assert response.status_code == 201, response.json()
    draft = response.json()["data"]
    assert draft["status"] == "draft" and draft["is_draft"] is True
    assert draft["parent_vendor"] == w.vendor_a.pk  # forced to the supplier's own vendor

    refused = client.post(f"{URL}{draft['id']}/submit/")
    assert refused.status_code == 400
    assert refused.json()["data"] == {
        "delivery_number": ["Delivery number is required"],
        "lines": ["At least one material is required"],
    }

    patch = client.patch(
        f"{URL}{draft['id']}/",
        {"delivery_number": "DN-9", "lines": [{"material_type": "paper", "weight_kg": "500"}]},
        format="json",
    )
    assert patch.status_code == 200, patch.json()
    assert patch.json()["data"]["status"] == "draft"
    refused = client.post(f"{URL}{draft['id']}/submit/")
    assert refused.json()["data"]["lines"][0]["pulp_type"] == ["Pulp type is required for Paper materials"]

    client.patch(
        f"{URL}{draft['id']}/",
        {"lines": [{"material_type": "paper", "weight_kg": "500", "pulp_type": "recycled"}]},
        format="json",
    )
    submitted = client.post(f"{URL}{draft['id']}/submit/")
    assert submitted.status_code == 200, submitted.json()
    assert submitted.json()["data"]["status"] == "active"
    assert submitted.json()["data"]["policy_source"].startswith("built-in default")
    again = client.post(f"{URL}{draft['id']}/submit/")
    assert again.status_code == 409


def test_status_draft_is_a_synonym_of_is_draft(eudr_world, api):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(URL, {"status": "draft"}, format="json")
    assert response.status_code == 201
    assert response.json()["data"]["status"] == "draft"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"country_code": "XX"}, "country_code"),
        ({"harvest_begin_month": "2025-13"}, "harvest_begin_month"),
        ({"harvest_begin_month": "2025-07", "harvest_end_month": "2025-01"}, "harvest_end_month"),
        ({"harvest_end_month": "2999-01"}, "harvest_end_month"),
        ({"upstream_dds_reference": "X" * 15}, "upstream_dds_reference"),
        ({"upstream_dds_reference": "25FI-KGLE 0Q7R"}, "upstream_dds_reference"),
        ({"upstream_dds_reference": "25FIKGLE0Q7R"}, "upstream_dds_reference"),
        ({"upstream_dds_verification": "UP-VERIF-99"}, "upstream_dds_verification"),
        ({"upstream_dds_verification": "abc"}, "upstream_dds_verification"),
        ({"upstream_dds_verification": ""}, "upstream_dds_verification"),
        ({"location_geojson": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}, "location_geojson"),
    ],
)
def test_field_formats(eudr_world, api, overrides, field):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(URL, full_payload(w.vendor_a.pk, **overrides), format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["data"]


@pytest.mark.parametrize(
    ("typed", "stored"),
    [(" 25fikgle0q7r3b ", "25FIKGLE0Q7R3B"), ("S26FRNMNBSA96Q", "S26FRNMNBSA96Q")],
)
def test_upstream_reference_and_simplified_declaration_identifier_are_accepted(
    eudr_world, api, typed, stored
):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(
        URL, full_payload(w.vendor_a.pk, upstream_dds_reference=typed), format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["upstream_dds_reference"] == stored


def test_valid_geojson_is_stored_normalised(eudr_world, api):
    w = eudr_world
    plots = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"ProducerName": "Gaofeng", "Area": 2.5},
                "geometry": {"type": "Point", "coordinates": [108.3512345678, 22.8798765432]},
            }
        ],
    }
    response = api(w.purchaser, w.tenant3).post(
        URL, full_payload(w.vendor_a.pk, location_geojson=plots), format="json"
    )
    assert response.status_code == 201, response.json()
    point = response.json()["data"]["location_geojson"]["features"][0]["geometry"]["coordinates"]
    assert point == [108.351235, 22.879877]


def test_delivery_number_unique_per_vendor(eudr_world, api):
    w = eudr_world
    client = api(w.purchaser, w.tenant3)
    assert client.post(URL, full_payload(w.vendor_a.pk), format="json").status_code == 201
    clash = client.post(URL, full_payload(w.vendor_a.pk), format="json")
    assert clash.status_code == 400
    assert "delivery_number" in clash.json()["data"]
    other_vendor = client.post(URL, full_payload(w.vendor_b.pk), format="json")
    assert other_vendor.status_code == 201


def test_expired_certificate_shows_expired_and_filters(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a)
        RawMaterialDelivery.objects.filter(pk=d.pk).update(
            fm_certificate_expiry=date.today() - timedelta(days=1)
        )
        fresh = factories.delivery(w.vendor_a)
    client = api(w.purchaser, w.tenant3)
    data = client.get(f"{URL}{d.pk}/").json()["data"]
    assert data["status"] == "expired"
    [expired_check] = [check for check in data["checks"] if check["key"] == "fm_certificate_expired"]
    # the day as the page prints days, in the user's language
    assert day_text(date.today() - timedelta(days=1), "en") in expired_check["message"]
    expired_ids = [row["id"] for row in client.get(URL, {"status": "expired"}).json()["data"]["results"]]
    active_ids = [row["id"] for row in client.get(URL, {"status": "active"}).json()["data"]["results"]]
    assert expired_ids == [d.pk]
    assert active_ids == [fresh.pk]


def test_harvest_before_cutoff_is_a_check_not_a_refusal(eudr_world, api):
    w = eudr_world
    response = api(w.purchaser, w.tenant3).post(
        URL, full_payload(w.vendor_a.pk, harvest_begin_month="2019-05"), format="json"
    )
    assert response.status_code == 201
    assert "harvest_before_cutoff" in [c["key"] for c in response.json()["data"]["checks"]]


def test_set_status_internal_only(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a)
    refused = api(w.supplier_a, w.tenant3).post(
        f"{URL}{d.pk}/set-status/", {"status": "inactive"}, format="json"
    )
    assert refused.status_code == 403
    done = api(w.purchaser, w.tenant3).post(f"{URL}{d.pk}/set-status/", {"status": "inactive"}, format="json")
    assert done.status_code == 200
    assert done.json()["data"]["status"] == "inactive"


def test_delete_draft_but_not_a_delivery_with_cartons(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        draft = factories.delivery(w.vendor_a, draft=True)
        used = factories.delivery(w.vendor_a)
        factories.generate(used, w.line_a, 2)
    client = api(w.supplier_a, w.tenant3)
    assert client.delete(f"{URL}{draft.pk}/").status_code == 200
    refused = client.delete(f"{URL}{used.pk}/")
    assert refused.status_code == 409
    assert refused.json()["error"] == "raw_material_has_cartons"


def test_list_query_count_is_constant(eudr_world, api, in_tenant, django_assert_max_num_queries):
    w = eudr_world
    client = api(w.purchaser, w.tenant3)
    with in_tenant(w.tenant3):
        factories.delivery(w.vendor_a)
    client.get(URL)  # warm the permission cache path
    with django_assert_max_num_queries(12) as one:
        assert client.get(URL).json()["data"]["count"] == 1
    with in_tenant(w.tenant3):
        for _ in range(15):
            factories.delivery(w.vendor_b)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert client.get(URL, {"page_size": 50}).json()["data"]["count"] == 16


def test_warehouse_and_sales_users_get_nothing(eudr_world, api):
    w = eudr_world
    assert api(w.warehouse, w.tenant3).get(URL).status_code == 403
    assert api(w.sales, w.tenant3).get(URL).status_code == 403


def test_other_tenant_sees_nothing(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d = factories.delivery(w.vendor_a)
    client = api(w.admin_x, w.tenant2)
    assert client.get(URL).json()["data"]["count"] == 0
    assert client.get(f"{URL}{d.pk}/").status_code == 404
    # and a tenant-3 delivery id is not reachable with tenant 2's admin through tenant 3
    assert api(w.admin_x, w.tenant3).get(URL).status_code == 403


def test_policy_snapshot_not_rewritten_by_policy_changes(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        policy = factories.policy(
            w.vendor_a, min_consumption_per_carton=Decimal("0.5"), loss_rate_percent=Decimal("10")
        )
    client = api(w.purchaser, w.tenant3)
    created = client.post(URL, full_payload(w.vendor_a.pk), format="json").json()["data"]
    change = client.patch(
        f"/api/eudr/supplier-policies/{policy.pk}/",
        {"min_consumption_per_carton": "2.000", "loss_rate_percent": "50"},
        format="json",
    )
    assert change.status_code == 200, change.json()
    after = client.get(f"{URL}{created['id']}/").json()["data"]
    for key in (
        "min_consumption_per_carton",
        "loss_rate_percent",
        "allowed_carton_cap",
        "policy_source",
        "weight",
    ):
        assert after[key] == created[key]
    # editing the delivery later keeps its snapshot too
    client.patch(f"{URL}{created['id']}/", {"description": "edited"}, format="json")
    assert client.get(f"{URL}{created['id']}/").json()["data"]["loss_rate_percent"] == "10.00"
    # a new delivery takes the new policy
    newer = client.post(URL, full_payload(w.vendor_a.pk, delivery_number="DN-NEW"), format="json").json()[
        "data"
    ]
    assert newer["loss_rate_percent"] == "50.00"


LIST_ITEM_FIELDS = {
    "id",
    "parent_vendor",
    "parent_vendor_name",
    "parent_vendor_cname",
    "delivery_number",
    "description",
    "status",
    "is_draft",
    "country_code",
    "country_name",
    "material_types",
    "lines_count",
    "weight",
    "issued_cartons",
    "allowed_carton_cap",
    "remaining_cartons",
    "dds_reference_number",
    "submitted_at",
    "created_at",
    "updated_at",
}


def test_the_list_answers_each_delivery_as_its_summary(eudr_world, api, in_tenant):
    """The list reads neither plots nor files nor checks; the page of a delivery has them."""
    w = eudr_world
    with in_tenant(w.tenant3):
        mixed = services.raw_material_create(
            data=factories.delivery_data(w.vendor_a, location_geojson=None),
            lines=[
                factories.paper_line("600"),
                factories.paper_line("400", material_type="pulp"),
                factories.paper_line("200"),
            ],
            user=None,
            as_draft=False,
        )
        RawMaterialDelivery.objects.filter(pk=mixed.pk).update(
            fm_certificate_expiry=date.today() - timedelta(days=1)
        )
    client = api(w.purchaser, w.tenant3)
    row = next(r for r in client.get(URL).json()["data"]["results"] if r["id"] == mixed.pk)
    assert set(row) == LIST_ITEM_FIELDS
    assert row["material_types"] == ["paper", "pulp"]  # each once, in the order of the lines
    assert row["lines_count"] == 3
    assert row["status"] == "expired"  # the effective status, as on the delivery's page
    assert row["is_draft"] is False
    assert row["weight"]["original_kg"] == "1200.000"
    assert row["parent_vendor_name"] == w.vendor_a.name
    detail = client.get(f"{URL}{mixed.pk}/").json()["data"]
    assert detail["status"] == row["status"] and detail["weight"] == row["weight"]
    assert len(detail["lines"]) == 3 and "checks" in detail and "files" in detail
