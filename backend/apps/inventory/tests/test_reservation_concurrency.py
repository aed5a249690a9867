"""Two confirmations of the same stock at the same moment (PostgreSQL row locks): only one reserves."""

import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction

from apps.common.exceptions import DomainError
from apps.inventory import selectors, services
from apps.inventory.models import Reservation
from apps.tenancy.context import tenant_context

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_concurrent_reservations_never_oversell(
    sales_world, put_stock, bare_order, in_tenant, pg_role_check
):
    w = sales_world
    put_stock(w["carton"], "100")
    orders = [bare_order([(w["carton"], "70")]), bare_order([(w["carton"], "70")])]
    with in_tenant(w["tenant3"]):
        line_ids = [order.lines.get().pk for order in orders]
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def work(index):
        try:
            with tenant_context(w["tenant3"]), transaction.atomic():
                from apps.salesorders.models import SalesOrderLine

                line = SalesOrderLine.objects.get(pk=line_ids[index])
                barrier.wait(timeout=10)
                services.reservations_reserve(
                    order_line=line, warehouse=w["warehouse"], quantity=Decimal("70"), allow_backorder=False
                )
            results[index] = "ok"
        except DomainError as exc:
            results[index] = exc.error
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results) == ["insufficient_available_stock", "ok"]
    with in_tenant(w["tenant3"]):
        assert Reservation.objects.filter(status="active").count() == 1
        assert selectors.stock_available(product_ids=[w["carton"].pk])[w["carton"].pk] == Decimal("30")
