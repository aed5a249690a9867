"""GET /api/common/imports/: the tenant's import jobs, newest first, filtered by kind, status and dry run,
only of the kinds the user may import."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.common.models import ImportJob

URL = "/api/common/imports/"


@pytest.fixture
def boss(api, tenant3, make_user):
    return api(make_user(tenant3, username="boss"), tenant3)


def jobs(in_tenant, tenant, *rows):
    """Creates jobs (kind, status, dry_run) in this order, so the last is the newest."""
    created = []
    with in_tenant(tenant):
        for kind, status, dry_run in rows:
            created.append(
                ImportJob.objects.create(kind=kind, status=status, dry_run=dry_run, file_name="f.csv")
            )
    return [job.pk for job in created]


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["data"]["results"]]


@pytest.mark.django_db
def test_newest_first_filtered_by_kind_status_and_dry_run(boss, tenant3, in_tenant):
    old_done, dry_running, groups_running, running = jobs(
        in_tenant,
        tenant3,
        ("products.product", "done", False),
        ("products.product", "running", True),
        ("products.productgroup", "running", False),
        ("products.product", "running", False),
    )
    assert ids(boss.get(URL)) == [running, groups_running, dry_running, old_done]
    assert ids(boss.get(f"{URL}?kind=products.product")) == [running, dry_running, old_done]
    assert ids(boss.get(f"{URL}?kind=products.product&status=queued,running&dry_run=false")) == [running]
    assert ids(boss.get(f"{URL}?status=done")) == [old_done]
    assert ids(boss.get(f"{URL}?kind=customers.customer")) == []

    page = boss.get(f"{URL}?page_size=2").json()["data"]
    assert page["count"] == 4 and len(page["results"]) == 2 and page["next"]
    row = page["results"][0]
    assert (row["kind"], row["status"], row["phase"], row["started_by"]) == (
        "products.product",
        "running",
        "reading",
        None,
    )

    refused = boss.get(f"{URL}?status=running,lost")
    assert refused.status_code == 400 and refused.json()["error"] == "validation_error"
    assert "status" in refused.json()["data"]
    assert boss.get(f"{URL}?dry_run=perhaps").status_code == 400


@pytest.mark.django_db
def test_another_tenant_sees_none_of_the_jobs(boss, api, tenant2, tenant3, make_user, in_tenant):
    (mine,) = jobs(in_tenant, tenant3, ("products.product", "running", False))
    (theirs,) = jobs(in_tenant, tenant2, ("products.product", "running", False))
    other_admin = make_user(tenant2, username="other-admin")
    assert ids(api(other_admin, tenant2).get(URL)) == [theirs]
    assert ids(boss.get(URL)) == [mine]
    assert api(other_admin, tenant3).get(URL).status_code == 403  # not a member of tenant 3
    assert api(None, tenant3).get(URL).status_code == 401


@pytest.mark.django_db
def test_supplier_users_and_users_without_the_import_permission(api, tenant3, make_user, in_tenant):
    from apps.suppliers.models import ParentVendor

    _products, _suppliers, customers = jobs(
        in_tenant,
        tenant3,
        ("products.product", "running", False),
        ("suppliers.supplier", "done", False),
        ("customers.customer", "done", False),
    )
    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="Vendor", code="PV")
        other_vendor = ParentVendor.objects.create(name="Other vendor", code="PV2")
    for parent_vendor in (vendor, other_vendor):
        supplier_user = make_user(
            tenant3,
            role="Supplier",
            username=f"mill-{parent_vendor.code}",
            is_supplier=True,
            parent_vendor=parent_vendor,
        )
        refused = api(supplier_user, tenant3).get(URL)
        assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"

    # An internal user sees only the kinds they may import (add and change of the model): Sales
    # imports customers, and only reads products and suppliers.
    seller = api(make_user(tenant3, role="Sales", username="seller"), tenant3)
    assert ids(seller.get(URL)) == [customers]
    assert ids(seller.get(f"{URL}?kind=products.product")) == []


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_jobs(boss, tenant3, in_tenant):
    def queries() -> int:
        # Each real request authenticates a fresh user object; the forced one would keep its permissions.
        boss.handler._force_user.__dict__.pop("_tenant_perm_cache", None)
        with CaptureQueriesContext(connection) as captured:
            assert boss.get(f"{URL}?kind=products.product").status_code == 200
        return len(captured.captured_queries)

    jobs(in_tenant, tenant3, ("products.product", "done", False))
    few = queries()
    jobs(
        in_tenant,
        tenant3,
        *[("products.product", "done", False)] * 15,
        ("products.product", "running", False),
    )
    assert queries() == few
    assert few == PINNED_QUERIES


# The request's savepoints, the membership (with its tenant, setting the tenant in the same statement:
# apps/tenancy/context.py, `tenant_setting`), the roles' permissions, the count and the page (with the user
# who started each job joined).
PINNED_QUERIES = 6
