"""EUDR at normal use: generating 10,000 cartons in one request, exporting 10,000 labels as CSV and PDF
(labels per second in `extra_info`), and the raw-material deliveries list at 50 rows.

Run with `make bench` (DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace for PostgreSQL).
Nothing here asserts a time; pytest-benchmark reports the figures.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from itertools import count

import pytest

from apps.eudr import services
from apps.eudr.models import CartonLabel, RawMaterialDelivery
from apps.tenancy.context import tenant_context

LABELS = 10_000
DELIVERIES = 60
_batch_day = count(1)


def _batch_code() -> str:
    return f"{date(2026, 1, 1) + timedelta(days=next(_batch_day)):%Y%m%d}A"


@pytest.fixture(scope="module")
def eudr_bench(django_db_setup, django_db_blocker):
    from apps.products.models import Product
    from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine
    from apps.suppliers.models import ParentVendor, Supplier
    from apps.tenancy.models import Membership, Tenant
    from apps.users.models import User
    from apps.users.roles import roles_ensure_defaults

    with django_db_blocker.unblock():
        tenant, _ = Tenant.objects.get_or_create(pk=91, defaults={"name": "EUDR bench", "code": "eudr-bench"})
        user, _ = User.objects.get_or_create(username="eudr-bench-admin")
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([roles_ensure_defaults()["Administrator"]])
            vendor, _ = ParentVendor.objects.get_or_create(name="Bench Vendor")
            supplier, _ = Supplier.objects.get_or_create(
                number="S-BENCH", defaults={"name": "Bench Factory", "parent_vendor": vendor}
            )
            product, _ = Product.objects.get_or_create(
                article_number="CT-BENCH",
                defaults={"name": "Export carton 600x400x400", "weight_per_carton_kg": Decimal("0.450")},
            )
            order, _ = PurchaseOrder.objects.get_or_create(
                order_number="PO-BENCH-1",
                # confirmed: carton labels are issued only for a confirmed order
                defaults={
                    "order_date": date.today(),
                    "supplier": supplier,
                    "status": PurchaseOrder.Status.CONFIRMED,
                },
            )
            line, _ = PurchaseOrderLine.objects.get_or_create(
                order=order,
                line_number=1,
                defaults={
                    "product": product,
                    "product_number": product.article_number,
                    "order_qty": Decimal("1000000"),
                    "unit_cost": Decimal("0.85"),
                    "weight_per_carton": Decimal("0.500"),
                },
            )

            def delivery(number: str, weight: str) -> RawMaterialDelivery:
                existing = RawMaterialDelivery.objects.filter(delivery_number=number).first()
                if existing:
                    return existing
                return services.raw_material_create(
                    data={
                        "parent_vendor": vendor,
                        "delivery_number": number,
                        "country_code": "CN",
                        "forest_supplier_name": "Guangxi Gaofeng Forest Farm",
                        "coc_certification": "FSC Mix 70%",
                    },
                    lines=[
                        {
                            "material_type": "paper",
                            "weight_kg": Decimal(weight),
                            "pulp_type": "virgin",
                            "scientific_names": ["Pinus massoniana"],
                            "common_names": ["Masson pine"],
                        }
                    ],
                    user=user,
                    as_draft=False,
                )

            big = delivery("BENCH-BIG", "100000000")
            exported = delivery("BENCH-EXPORT", "10000")
            if not CartonLabel.objects.filter(raw_material=exported).exists():
                services.cartons_generate(
                    delivery_id=exported.pk,
                    count=LABELS,
                    production_batch_code="20250101A",
                    product=product,
                    purchase_order_line=line,
                )
            for n in range(DELIVERIES):
                delivery(f"BENCH-LIST-{n:03d}", "1000")
        yield {"tenant": tenant, "user": user, "big": big, "exported": exported, "line": line}


@pytest.mark.django_db
def test_bench_generate_10000_cartons(benchmark, eudr_bench):
    tenant, line = eudr_bench["tenant"], eudr_bench["line"]

    def generate():
        with tenant_context(tenant):
            services.cartons_generate(
                delivery_id=eudr_bench["big"].pk,
                count=LABELS,
                production_batch_code=_batch_code(),
                product=line.product,
                purchase_order_line=line,
            )

    benchmark.pedantic(generate, rounds=3, iterations=1)
    benchmark.extra_info["labels_per_second"] = round(LABELS / benchmark.stats.stats.mean)


def _export(client, delivery_id: int, fmt: str, template: str = "default") -> int:
    response = client.get(
        "/api/eudr/cartons/export/",
        {"format": fmt, "template": template, "raw_material": delivery_id},
    )
    assert response.status_code == 200
    return sum(len(chunk) for chunk in response.streaming_content)


@pytest.mark.django_db
def test_bench_export_10000_labels_csv(benchmark, eudr_bench, api):
    client = api(eudr_bench["user"], eudr_bench["tenant"])
    size = benchmark.pedantic(
        _export, args=(client, eudr_bench["exported"].pk, "csv"), rounds=3, iterations=1
    )
    benchmark.extra_info["labels_per_second"] = round(LABELS / benchmark.stats.stats.mean)
    benchmark.extra_info["bytes"] = size


@pytest.mark.django_db
@pytest.mark.parametrize("template", ["default", "compact"])
def test_bench_export_10000_labels_pdf(benchmark, eudr_bench, api, template):
    client = api(eudr_bench["user"], eudr_bench["tenant"])
    size = benchmark.pedantic(
        _export, args=(client, eudr_bench["exported"].pk, "pdf", template), rounds=3, iterations=1
    )
    benchmark.extra_info["labels_per_second"] = round(LABELS / benchmark.stats.stats.mean)
    benchmark.extra_info["bytes"] = size


@pytest.mark.django_db
def test_bench_deliveries_list_50_rows(measure_requests, eudr_bench, api):
    client = api(eudr_bench["user"], eudr_bench["tenant"])

    def page():
        response = client.get("/api/eudr/raw-materials/", {"page_size": 50})
        assert response.status_code == 200
        return response

    # the answer read once, outside the rounds: decoding it is the client's work, not the server's
    assert len(measure_requests(page).json()["data"]["results"]) == 50


@pytest.mark.django_db
def test_bench_deliveries_list_50_rows_database_only(benchmark, eudr_bench, api):
    """The reference for the deliveries list: PostgreSQL's own time for the statements of the same
    request that read deliveries (count, page and what the page joins), captured from the request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api(eudr_bench["user"], eudr_bench["tenant"])
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/eudr/raw-materials/", {"page_size": 50}).status_code == 200
    statements = [q["sql"] for q in captured.captured_queries if "eudr_" in q["sql"]]
    assert statements

    def run():
        with tenant_context(eudr_bench["tenant"]), connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
                cursor.fetchall()

    benchmark(run)


@pytest.mark.django_db
def test_bench_copy_10000_carton_rows_reference(benchmark, eudr_bench):
    """The reference for carton generation: PostgreSQL's COPY of the same 10,000 label rows into a table
    of the same shape and indexes (a temporary one, so the real codes stay unique)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's")
    tenant = eudr_bench["tenant"]
    with tenant_context(tenant), connection.cursor() as cursor:
        cursor.execute(
            "SELECT batch_id FROM eudr_cartonlabel WHERE raw_material_id = %s LIMIT 1",
            [eudr_bench["exported"].pk],
        )
        batch_id = cursor.fetchone()[0]
        rows = []
        with cursor.copy(
            "COPY (SELECT * FROM eudr_cartonlabel WHERE batch_id = %s) TO STDOUT", [batch_id]
        ) as copy:
            rows = [bytes(chunk) for chunk in copy]
        data = b"".join(rows)

    def copy_rows():
        with tenant_context(tenant), connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_labels")
            cursor.execute("CREATE TEMP TABLE bench_labels (LIKE eudr_cartonlabel INCLUDING ALL)")
            with cursor.copy("COPY bench_labels FROM STDIN") as copy:
                copy.write(data)

    benchmark.pedantic(copy_rows, rounds=3, iterations=1)
