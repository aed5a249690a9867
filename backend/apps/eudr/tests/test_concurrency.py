"""Two carton generations at the same moment on the same delivery (PostgreSQL row locks): together they
can never spend more than the remaining weight, nor issue more than the cap."""

import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction

from apps.common.exceptions import DomainError
from apps.eudr import services
from apps.eudr.models import CartonLabel, RawMaterialDelivery, SupplierPolicy
from apps.eudr.selectors import used_weight_recount, weight_balance
from apps.tenancy.context import tenant_context

from . import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_concurrently(tenant, delivery_id, line, counts):
    """Starts one thread per count, all released by one barrier; returns [(count, error key or None)]."""
    barrier = threading.Barrier(len(counts))
    results = [None] * len(counts)

    def work(index, count):
        try:
            barrier.wait(timeout=10)
            with transaction.atomic(), tenant_context(tenant):
                services.cartons_generate(
                    delivery_id=delivery_id,
                    count=count,
                    production_batch_code=f"20261121{chr(ord('A') + index)}",
                    product=line.product,
                    purchase_order_line=line,
                )
            results[index] = (count, None)
        except DomainError as exc:
            results[index] = (count, exc.error)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, c)) for i, c in enumerate(counts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_generations_never_exceed_the_remaining_weight(eudr_world, in_tenant, pg_role_check):
    w = eudr_world
    with in_tenant(w.tenant3):
        delivery = factories.delivery(w.vendor_a, weight="100")  # 200 cartons of 0.5 kg
    results = run_concurrently(w.tenant3, delivery.pk, w.line_a, [150, 150])
    assert sorted(error or "ok" for _, error in results) == ["insufficient_weight", "ok"]
    with in_tenant(w.tenant3):
        delivery.refresh_from_db()
        assert delivery.issued_cartons == 150
        assert weight_balance(delivery).remaining_kg == Decimal("25.000")
        assert used_weight_recount(delivery.pk) == (Decimal("75.000"), 150)


def test_many_generations_never_exceed_the_cap(eudr_world, in_tenant, pg_role_check):
    w = eudr_world
    with in_tenant(w.tenant3):
        factories.policy(w.vendor_a, cap_mode=SupplierPolicy.CapMode.FIXED, cap_value=100)
        delivery = factories.delivery(w.vendor_a, weight="10000")
    results = run_concurrently(w.tenant3, delivery.pk, w.line_a, [40, 40, 40, 40])
    succeeded = [count for count, error in results if error is None]
    assert sum(succeeded) == 80
    assert {error for _, error in results if error} == {"weight_limit_exceeded"}
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=delivery.pk).issued_cartons == 80
        assert CartonLabel.objects.filter(raw_material_id=delivery.pk).count() == 80


def test_many_generations_on_one_order_line_never_exceed_its_quantity(eudr_world, in_tenant, pg_role_check):
    """Four generations at once on one line of 100 cartons (tolerance 0 %), from two deliveries: the line's
    row lock counts them one after the other."""
    w = eudr_world
    with in_tenant(w.tenant3):
        factories.policy(w.vendor_a, order_tolerance_percent=Decimal("0"))
        w.line_a.order_qty = Decimal("100")
        w.line_a.save()
        first = factories.delivery(w.vendor_a, weight="1000")
        second = factories.delivery(w.vendor_a, weight="1000")
    barrier = threading.Barrier(4)
    results = []

    def work(index, delivery_id):
        try:
            barrier.wait(timeout=10)
            with transaction.atomic(), tenant_context(w.tenant3):
                services.cartons_generate(
                    delivery_id=delivery_id,
                    count=40,
                    production_batch_code=f"20261121{chr(ord('A') + index)}",
                    product=w.line_a.product,
                    purchase_order_line=w.line_a,
                )
            results.append(None)
        except DomainError as exc:
            results.append(exc.error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=work, args=(i, delivery.pk))
        for i, delivery in enumerate([first, second, first, second])
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(error or "ok" for error in results) == [
        "ok",
        "ok",
        "order_quantity_exceeded",
        "order_quantity_exceeded",
    ]
    with in_tenant(w.tenant3):
        assert CartonLabel.objects.filter(purchase_order_line_id=w.line_a.pk).count() == 80
