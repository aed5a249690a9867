"""The report lab at scale: a report grouped by month and product group, pivoted by kind, over 100,000
stock moves, against PostgreSQL's own time for the same GROUP BY (`make bench`; no time is asserted)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from apps.tenancy.context import tenant_context

ROWS = 100_000
BODY = {
    "dataset": "stock_moves",
    "group_by": ["moved_at:month", "product_group"],
    "pivot": "kind",
    "measures": [{"field": "quantity", "agg": "sum"}, {"field": "id", "agg": "count"}],
}


@pytest.fixture(scope="module")
def many_moves(django_db_setup, django_db_blocker):
    from apps.inventory.models import Location, StockMove, Warehouse
    from apps.products.models import Product, ProductGroup
    from apps.tenancy.models import Membership, Tenant
    from apps.users.models import User
    from apps.users.roles import roles_ensure_defaults

    with django_db_blocker.unblock():
        tenant, _ = Tenant.objects.get_or_create(
            pk=91, defaults={"name": "Bench reports", "code": "bench-reports"}
        )
        with tenant_context(tenant):
            if StockMove.objects.count() < ROWS:
                warehouse = Warehouse.objects.create(code="BR", name="Bench")
                locations = [
                    Location.objects.create(warehouse=warehouse, code=f"L{i:02d}") for i in range(10)
                ]
                groups = [ProductGroup.objects.create(name=f"Group {i}") for i in range(8)]
                products = Product.objects.bulk_create(
                    [
                        Product(article_number=f"R{i:05d}", name=f"Carton {i}", group=groups[i % 8])
                        for i in range(200)
                    ]
                )
                now = timezone.now()
                kinds = ["receipt", "issue", "transfer", "adjustment"]
                StockMove.objects.bulk_create(
                    [
                        StockMove(
                            kind=kinds[i % 4],
                            product=products[i % 200],
                            quantity=Decimal(1 + i % 50),
                            to_location=locations[i % 10],
                            moved_at=now - timedelta(hours=i % 8760),
                        )
                        for i in range(ROWS)
                    ],
                    batch_size=5000,
                )
        user, _ = User.objects.get_or_create(username="bench-reports-admin")
        membership, _ = Membership.objects.get_or_create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([roles_ensure_defaults()["Administrator"]])
        yield tenant, user


@pytest.mark.django_db
def test_bench_report_grouped_100000_moves(benchmark, many_moves, api):
    tenant, user = many_moves
    client = api(user, tenant)

    def run():
        response = client.post("/api/reports/run/", BODY, format="json")
        assert response.status_code == 200, response.content
        return response

    benchmark(run)


@pytest.mark.django_db
def test_bench_report_grouped_100000_moves_database_only(benchmark, many_moves):
    """The rows of the same report as one GROUP BY, what the database itself needs (no subtotals)."""
    tenant, _ = many_moves

    def query():
        with tenant_context(tenant), connection.cursor() as cursor:
            cursor.execute(
                "SELECT date_trunc('month', m.moved_at), g.name, m.kind, sum(m.quantity), count(*) "
                "FROM inventory_stockmove m JOIN products_product p ON p.id = m.product_id "
                "LEFT JOIN products_productgroup g ON g.id = p.group_id WHERE m.tenant_id = %s "
                "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
                [tenant.pk],
            )
            return cursor.fetchall()

    benchmark(query)
