"""Document numbers (apps/numbering/services.py): per tenant, series and year; typed-in numbers skipped in
the ordinary series; the gapless series skip nothing and give a rolled-back number back."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from apps.numbering import services as numbering
from apps.numbering.models import Counter
from apps.tenancy.context import tenant_context

pytestmark = pytest.mark.django_db


def test_each_series_counts_per_tenant_and_year(tenant2, tenant3, in_tenant):
    with in_tenant(tenant3):
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2026).text == "PO-2026-00001"
        second = numbering.number_next(numbering.PURCHASE_ORDER, year=2026)
        assert (second.value, second.text) == (2, "PO-2026-00002")
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2027).text == "PO-2027-00001"
        assert numbering.number_next(numbering.RECEIPT, year=2026).text == "RC-2026-00001"
        assert numbering.last_value(numbering.PURCHASE_ORDER, year=2026) == 2
    with in_tenant(tenant2):
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2026).text == "PO-2026-00001"
        assert numbering.last_value(numbering.RECEIPT, year=2026) == 0


def test_every_series_has_its_own_prefix():
    prefixes = [series.prefix for series in numbering.SERIES.values()]
    assert len(prefixes) == len(set(prefixes))
    assert {key for key, series in numbering.SERIES.items() if series.gapless} == {"invoice", "credit_note"}


def test_an_ordinary_series_skips_numbers_already_in_use(tenant3, in_tenant):
    used = {"SO-2026-00001", "SO-2026-00002", "SO-2026-00004"}
    with in_tenant(tenant3):
        got = [
            numbering.number_next(numbering.SALES_ORDER, year=2026, taken=used.__contains__).text
            for _ in "ab"
        ]
        assert got == ["SO-2026-00003", "SO-2026-00005"]


def test_a_gapless_series_skips_nothing_and_a_rollback_gives_the_number_back(tenant3, in_tenant):
    with in_tenant(tenant3):
        with pytest.raises(ValueError):
            numbering.number_next(numbering.INVOICE, year=2026, taken=lambda number: False)
        assert numbering.number_next(numbering.INVOICE, year=2026).text == "INV-2026-00001"
        with pytest.raises(RuntimeError), transaction.atomic():
            assert numbering.number_next(numbering.INVOICE, year=2026).value == 2
            raise RuntimeError("the posting failed after numbering")
        assert numbering.number_next(numbering.INVOICE, year=2026).text == "INV-2026-00002"
        assert numbering.number_next(numbering.CREDIT_NOTE, year=2026).text == "CN-2026-00001"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_get_consecutive_distinct_numbers(tenant3, pg_role_check):
    workers = 4
    barrier = threading.Barrier(workers)
    numbers: list[int] = []
    errors: list[Exception] = []

    def work():
        try:
            with tenant_context(tenant3), transaction.atomic():
                barrier.wait(timeout=10)
                numbers.append(numbering.number_next(numbering.STOCK_COUNT, year=2026).value)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert sorted(numbers) == [1, 2, 3, 4]
    with tenant_context(tenant3):
        assert Counter.objects.get(series="stock_count", year=2026).last_value == 4
