"""The import framework (apps/common/imports.py) through the products and customers importers:
template, dry run with row errors, all-or-nothing commit, file limits, permissions."""

import io
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook, load_workbook

from apps.common import imports
from apps.common.models import ImportJob
from apps.common.tests.import_helpers import import_job, start_import
from apps.customers.models import Customer, CustomerContact
from apps.products.models import Product, ProductGroup

pytestmark = pytest.mark.django_db

PRODUCTS = "/api/products/"
CUSTOMERS = "/api/customers/"


@pytest.fixture
def client(api, tenant3, make_user):
    return api(make_user(tenant3, username="boss"), tenant3)


@pytest.fixture
def groups(tenant3, in_tenant):
    with in_tenant(tenant3):
        cartons = ProductGroup.objects.create(name="Corrugated cartons", code="CC")
        single = ProductGroup.objects.create(name="Single wall", code="CC-SW", parent=cartons)
    return {"cartons": cartons, "single": single}


def csv_file(text: str, name: str = "products.csv", bom: bool = False) -> SimpleUploadedFile:
    data = text.encode("utf-8")
    if bom:
        data = b"\xef\xbb\xbf" + data
    return SimpleUploadedFile(name, data, content_type="text/csv")


def xlsx_file(rows: list[list], name: str = "products.xlsx") -> SimpleUploadedFile:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile(name, buffer.getvalue())


def upload(client, url, file, dry_run: bool) -> dict:
    """The finished import job (its counts and errors are the import report)."""
    return import_job(client, url, file, dry_run=dry_run)


GOOD_CSV = (
    "Article number,Name,Chinese name,Group,Unit,Weight per carton (kg),HS code,Sales price,Active\n"
    'CT-1,Carton one,纸箱一,CC-SW,pcs,"0,320",4819.10,0.69,yes\n'
    "CT-2,Carton two,,Corrugated cartons,Cartons,1.1,481910,1.20,no\n"
)


def test_template_csv_and_xlsx(client):
    response = client.get(f"{PRODUCTS}import-template/?format=csv")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.csv"')
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Article number,Name,Chinese name,Group")
    assert lines[1].startswith("CT-1001,")

    xlsx = client.get(f"{PRODUCTS}import-template/?format=xlsx")
    workbook = load_workbook(io.BytesIO(xlsx.content))
    rows = list(workbook.worksheets[0].values)
    assert rows[0][0] == "Article number" and rows[1][0] == "CT-1001"
    assert workbook.worksheets[1]["A2"].value == "Article number"
    assert client.get(f"{PRODUCTS}import-template/?format=pdf").status_code == 400


def test_the_template_itself_imports(client, groups, tenant3, in_tenant):
    """The example row of the template is valid, so a user can start from it."""
    template = client.get(f"{PRODUCTS}import-template/?format=xlsx").content
    report = upload(client, PRODUCTS, SimpleUploadedFile("t.xlsx", template), dry_run=True)
    assert report["errors"] == [] and report["to_create"] == 1
    template_csv = client.get(f"{CUSTOMERS}import-template/?format=csv").content
    report = upload(client, CUSTOMERS, SimpleUploadedFile("c.csv", template_csv), dry_run=True)
    assert report["errors"] == [] and report["to_create"] == 1


def test_dry_run_writes_nothing_and_reports(client, groups, tenant3, in_tenant):
    with in_tenant(tenant3):
        Product.objects.create(article_number="CT-2", name="Old name")
    report = upload(client, PRODUCTS, csv_file(GOOD_CSV, bom=True), dry_run=True)
    assert report["dry_run"] is True and report["status"] == "done"
    assert (report["rows_total"], report["rows_valid"], report["to_create"], report["to_update"]) == (
        2,
        2,
        1,
        1,
    )
    assert report["errors"] == []
    with in_tenant(tenant3):
        assert Product.objects.count() == 1
        assert Product.objects.get().name == "Old name"


def test_commit_creates_and_updates(client, groups, tenant3, in_tenant):
    with in_tenant(tenant3):
        Product.objects.create(article_number="CT-2", name="Old name", hs_code="481920", description="kept")
    report = upload(client, PRODUCTS, csv_file(GOOD_CSV), dry_run=False)
    assert report["status"] == "done" and report["progress"] == 100
    assert (report["created"], report["updated"]) == (1, 1)
    with in_tenant(tenant3):
        one = Product.objects.get(article_number="CT-1")
        two = Product.objects.get(article_number="CT-2")
    assert one.weight_per_carton_kg == Decimal("0.320") and one.hs_code == "481910"
    assert one.group_id == groups["single"].pk and one.name_zh == "纸箱一" and one.is_active
    assert two.name == "Carton two" and two.unit == "carton" and two.is_active is False
    assert two.group_id == groups["cartons"].pk
    assert two.description == "kept"  # not a column of the file: unchanged
    assert two.name_zh == ""  # an empty cell clears


def test_bad_row_rejects_the_whole_file(client, groups, tenant3, in_tenant):
    text = (
        "Article number,Name,Group,Weight per carton (kg),HS code\n"
        "CT-1,Carton one,CC-SW,0.3,481910\n"
        "CT-2,Carton two,NO-SUCH-GROUP,abc,48\n"
        "CT-3,,CC,0.4,481910\n"
        "CT-1,Duplicate,CC,0.4,481910\n"
    )
    dry = upload(client, PRODUCTS, csv_file(text), dry_run=True)
    assert dry["rows_total"] == 4 and dry["rows_valid"] == 1 and dry["rows_invalid"] == 3
    errors = {(e["row"], e["field"]) for e in dry["errors"]}
    assert errors == {
        (3, "group"),
        (3, "weight_per_carton_kg"),
        (4, "name"),
        (5, "article_number"),
    }
    by_field = {e["field"]: e for e in dry["errors"]}
    assert by_field["group"]["message"] == "“NO-SUCH-GROUP” was not found."
    assert by_field["group"]["column"] == "Group"
    assert "row 2" in by_field["article_number"]["message"]

    committed = upload(client, PRODUCTS, csv_file(text), dry_run=False)
    assert committed["status"] == "failed"
    assert committed["error"] == "import_rejected"
    assert committed["message"] == "3 of 4 rows have errors; nothing was imported."
    assert len(committed["errors"]) == 4 and (committed["created"], committed["updated"]) == (0, 0)
    with in_tenant(tenant3):
        assert not Product.objects.exists()


def test_serializer_rules_apply_to_rows(client, groups):
    text = "Article number,Name,HS code,Currency,Barcode\nCT-1,Carton,48A,EURO,123\n"
    report = upload(client, PRODUCTS, csv_file(text), dry_run=True)
    assert {e["field"] for e in report["errors"]} == {"hs_code", "currency", "barcode"}


def test_xlsx_with_numbers_and_semicolon_csv(client, groups, tenant3, in_tenant):
    rows = [
        ["Article number", "Name", "Weight per carton (kg)", "Carton length (mm)", "HS code", "Active"],
        [100234, "Numeric article", 0.35, 400.0, 481910, True],
        [None, None, None, None, None, None],
    ]
    report = upload(client, PRODUCTS, xlsx_file(rows), dry_run=False)
    assert report["created"] == 1 and report["rows_total"] == 1
    with in_tenant(tenant3):
        product = Product.objects.get()
    assert product.article_number == "100234" and product.weight_per_carton_kg == Decimal("0.350")
    assert product.carton_length_mm == 400 and product.hs_code == "481910"

    semicolons = "Article number;Name;Sales price\nCT-9;Semicolon carton;1,25\n"
    report = upload(client, PRODUCTS, csv_file(semicolons), dry_run=False)
    assert report["created"] == 1
    with in_tenant(tenant3):
        assert Product.objects.get(article_number="CT-9").sales_price == Decimal("1.25")


def test_export_reimports_unchanged(client, groups, tenant3, in_tenant):
    with in_tenant(tenant3):
        Product.objects.create(
            article_number="=CT-1", name="Formula-like", group=groups["single"], hs_code="481910"
        )
    exported = client.get(f"{PRODUCTS}export/?format=xlsx")
    report = upload(client, PRODUCTS, SimpleUploadedFile("e.xlsx", exported.content), dry_run=True)
    assert report["errors"] == [] and report["to_update"] == 1 and report["to_create"] == 0
    assert report["ignored_columns"] == ["Group path"]


@pytest.mark.parametrize(
    ("file", "error"),
    [
        (SimpleUploadedFile("empty.csv", b""), "import_file_empty"),
        (
            SimpleUploadedFile("latin1.csv", "Article number,Name\nCT-1,Café\n".encode("latin-1")),
            "import_file_encoding",
        ),
        (SimpleUploadedFile("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest"), "import_file_format"),
        (SimpleUploadedFile("broken.xlsx", b"PK\x03\x04garbage"), "import_file_format"),
        (SimpleUploadedFile("cols.csv", b"Name,HS code\nCarton,481910\n"), "import_missing_columns"),
        (SimpleUploadedFile("dup.csv", b"Article number,Name,name\nA,B,C\n"), "import_duplicate_column"),
    ],
)
def test_unreadable_files(client, file, error):
    """Refused in the request, before a job is created."""
    response = start_import(client, PRODUCTS, file, dry_run=True)
    assert response.status_code == 400
    assert response.json()["error"] == error
    assert not ImportJob.unscoped.exists()


def test_missing_file_and_limits(client, monkeypatch):
    assert client.post(f"{PRODUCTS}import/?dry_run=1", {}, format="multipart").status_code == 400
    big = SimpleUploadedFile("big.csv", b"Article number,Name\n" + b"A,B\n" * 10)
    monkeypatch.setattr(imports, "MAX_IMPORT_BYTES", 20)
    too_big = start_import(client, PRODUCTS, big, dry_run=True).json()
    assert too_big["error"] == "import_file_too_large" and "MB" in too_big["message"]
    assert not ImportJob.unscoped.exists()
    monkeypatch.setattr(imports, "MAX_IMPORT_BYTES", 5 * 1024 * 1024)
    monkeypatch.setattr(imports, "MAX_IMPORT_ROWS", 5)
    rows = "Article number,Name\n" + "".join(f"A{i},B\n" for i in range(6))
    # The rows are counted by the job, which fails with the same error key.
    too_many = upload(client, PRODUCTS, csv_file(rows), dry_run=True)
    assert too_many["status"] == "failed" and too_many["error"] == "import_too_many_rows"


def test_permissions(api, tenant3, make_user, groups):
    sales = api(make_user(tenant3, role="Sales", username="seller"), tenant3)
    assert start_import(sales, PRODUCTS, csv_file(GOOD_CSV), dry_run=True).status_code == 403
    assert sales.get(f"{PRODUCTS}import-template/?format=csv").status_code == 403
    # Sales manage customers, so they may import them.
    text = "Number,Name\nC-1,Customer one\n"
    assert upload(sales, CUSTOMERS, csv_file(text, "c.csv"), dry_run=False)["created"] == 1


def test_import_stays_in_the_tenant(api, client, tenant2, tenant3, in_tenant, make_user, groups):
    with in_tenant(tenant2):
        ProductGroup.objects.create(name="Foreign group", code="FG")
        Product.objects.create(article_number="CT-1", name="Tenant 2 product")
    text = "Article number,Name,Group\nCT-1,Carton one,FG\nCT-2,Carton two,\n"
    report = upload(client, PRODUCTS, csv_file(text), dry_run=True)
    assert report["errors"][0]["field"] == "group"  # another tenant's group is unknown here
    text = "Article number,Name\nCT-1,Carton one\n"
    report = upload(client, PRODUCTS, csv_file(text), dry_run=False)
    assert report["created"] == 1  # not an update of tenant 2's CT-1
    with in_tenant(tenant2):
        assert Product.objects.get(article_number="CT-1").name == "Tenant 2 product"


def test_customer_import_with_contacts(client, tenant3, in_tenant):
    with in_tenant(tenant3):
        existing = Customer.objects.create(number="C-1", name="Old")
        CustomerContact.objects.create(customer=existing, name="Keep Me", email="keep@example.com")
    text = (
        "Number,Name,Billing country,Currency,Payment terms (days),Contact name,Contact e-mail\n"
        "C-1,Hansen Møbler,dk,dkk,45,Mette Hansen,mette@example.com\n"
        "C-2,Küchenwelt,DE,EUR,30,,\n"
    )
    report = upload(client, CUSTOMERS, csv_file(text, "c.csv"), dry_run=False)
    assert (report["created"], report["updated"]) == (1, 1)
    with in_tenant(tenant3):
        one = Customer.objects.get(number="C-1")
        assert one.name == "Hansen Møbler" and one.billing_country == "DK" and one.currency == "DKK"
        assert one.payment_terms_days == 45
        assert sorted(one.contacts.values_list("name", flat=True)) == ["Keep Me", "Mette Hansen"]
        assert not Customer.objects.get(number="C-2").contacts.exists()
    # Re-importing the same contact updates it instead of adding a second one.
    upload(client, CUSTOMERS, csv_file(text, "c.csv"), dry_run=False)
    with in_tenant(tenant3):
        assert Customer.objects.get(number="C-1").contacts.count() == 2


def test_customer_import_errors(client, tenant3, in_tenant):
    text = (
        "Number,Name,Billing country,Contact name,Contact e-mail,Payment terms (days)\n"
        "C-1,Good,DE,,,30\n"
        "C-2,Bad,XX,,not-mail,thirty\n"
    )
    job = upload(client, CUSTOMERS, csv_file(text, "c.csv"), dry_run=False)
    assert job["status"] == "failed" and job["error"] == "import_rejected"
    fields = {(e["row"], e["field"]) for e in job["errors"]}
    assert fields == {(3, "payment_terms_days")}  # the parse error stops the row before other checks
    text = "Number,Name,Billing country,Contact name,Contact e-mail\nC-2,Bad,XX,,not-mail\n"
    fields = {e["field"] for e in upload(client, CUSTOMERS, csv_file(text, "c.csv"), dry_run=True)["errors"]}
    assert fields == {"billing_country", "contact_name", "contact_email"}
    with in_tenant(tenant3):
        assert not Customer.objects.exists()


def test_commit_failure_in_a_late_row_rolls_back_earlier_rows(
    client, groups, tenant3, in_tenant, monkeypatch
):
    """A row that passes validation but fails while saving still leaves nothing written."""
    from django.core.exceptions import ValidationError

    from apps.products import importers

    calls = {"n": 0}
    original = importers.services.product_create

    def flaky(*, data):
        calls["n"] += 1
        if calls["n"] == 2:
            raise ValidationError({"article_number": ["Taken meanwhile."]})
        return original(data=data)

    monkeypatch.setattr(importers.services, "product_create", flaky)
    text = "Article number,Name\nCT-1,One\nCT-2,Two\n"
    job = upload(client, PRODUCTS, csv_file(text), dry_run=False)
    assert job["status"] == "failed" and job["error"] == "import_rejected"
    assert (
        job["errors"][0]["row"] == 3 and job["message"] == "Row 3 could not be saved; nothing was imported."
    )
    with in_tenant(tenant3):
        assert not Product.objects.exists()


def test_product_group_import(client, groups, tenant3, in_tenant):
    text = "Name,Code,Parent group\nDouble wall,CC-DW,CC\nSingle wall,CC-SW,Double wall\n"
    report = upload(client, "/api/products/groups/", csv_file(text), dry_run=True)
    # "Double wall" does not exist yet when the file is read: parents must exist beforehand.
    assert report["to_create"] == 1 and report["errors"][0]["field"] == "parent"
    cycle = "Name,Parent group\nCorrugated cartons,CC-SW\n"
    report = upload(client, "/api/products/groups/", csv_file(cycle), dry_run=True)
    assert report["errors"][0]["field"] == "parent"
