"""Import of suppliers and parent vendors: template, dry run with row errors, all-or-nothing commit."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.common.tests.import_helpers import import_job, start_import
from apps.suppliers.models import ParentVendor, Supplier

pytestmark = pytest.mark.django_db


def csv_file(text, name="import.csv"):
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/csv")


SUPPLIERS_CSV = (
    "Number,Name,Parent vendor,Country,Currency,Contact name,Contact e-mail,Accounting code\n"
    "S-N1,New Mill One,PV-A,cn,usd,Wang Fang,wang@mill.example,80001\n"
    "S-A1,Factory A1 renamed,Vendor B,CN,,,,\n"
)


def test_supplier_template(world, api, tenant3):
    response = api(world["admin"], tenant3).get("/api/suppliers/import-template/?format=csv")
    assert response.status_code == 200
    header = response.content.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("Number,Name,Parent vendor,Country")


def test_supplier_dry_run_then_commit(world, api, tenant3, in_tenant):
    client = api(world["purchaser"], tenant3)
    report = import_job(client, "/api/suppliers/", csv_file(SUPPLIERS_CSV), dry_run=True)
    assert (report["to_create"], report["to_update"], report["errors"]) == (1, 1, [])
    with in_tenant(tenant3):
        assert not Supplier.objects.filter(number="S-N1").exists()
    done = import_job(client, "/api/suppliers/", csv_file(SUPPLIERS_CSV))
    assert done["status"] == "done" and done["created"] == 1
    with in_tenant(tenant3):
        new = Supplier.objects.get(number="S-N1")
        assert new.parent_vendor == world["vendor_a"] and new.currency == "USD" and new.visma_code == "80001"
        assert new.contacts[0]["name"] == "Wang Fang"
        moved = Supplier.objects.get(number="S-A1")
        assert moved.parent_vendor == world["vendor_b"] and moved.name == "Factory A1 renamed"


def test_supplier_bad_row_writes_nothing(world, api, tenant3, in_tenant):
    bad = SUPPLIERS_CSV + "S-N2,Bad Mill,PV-X,ZZ,EUR,,,\n"  # PV-X is tenant 2's vendor; ZZ no country
    client = api(world["admin"], tenant3)
    dry = import_job(client, "/api/suppliers/", csv_file(bad), dry_run=True)
    assert {(e["row"], e["field"]) for e in dry["errors"]} == {(4, "parent_vendor")}
    job = import_job(client, "/api/suppliers/", csv_file(bad))
    assert job["status"] == "failed" and job["error"] == "import_rejected"
    assert {(e["row"], e["field"]) for e in job["errors"]} == {(4, "parent_vendor")}
    with in_tenant(tenant3):
        assert not Supplier.objects.filter(number__in=["S-N1", "S-N2"]).exists()
        assert Supplier.objects.get(number="S-A1").name == "Factory A1"


def test_supplier_users_cannot_import(world, api, tenant3):
    response = start_import(
        api(world["supplier_a"], tenant3), "/api/suppliers/", csv_file(SUPPLIERS_CSV), dry_run=True
    )
    assert response.status_code == 403


def test_parent_vendor_import(world, api, tenant3, in_tenant):
    text = (
        "Name,Chinese name,Code,Country\nXiamen Harbour Paper,厦门港纸业,pv-xhp,CN\nVendor A,甲新,PV-A,CN\n"
    )
    client = api(world["admin"], tenant3)
    report = import_job(client, "/api/suppliers/parent-vendors/", csv_file(text))
    assert (report["status"], report["created"], report["updated"]) == ("done", 1, 1)
    with in_tenant(tenant3):
        assert ParentVendor.objects.get(code="PV-XHP").cname == "厦门港纸业"
        assert ParentVendor.objects.get(name="Vendor A").cname == "甲新"
    template = client.get("/api/suppliers/parent-vendors/import-template/?format=xlsx")
    assert template.status_code == 200
