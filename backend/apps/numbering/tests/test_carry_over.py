"""The migration that moves the old counters into the numbering module (numbering 0002_carry_over): every
series continues after its last number, in every tenant, on PostgreSQL as the ordinary role (row-level
security forced on the old tables: a tenant not entered would see no counter)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from apps.numbering import services as numbering

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

migration = importlib.import_module("apps.numbering.migrations.0002_carry_over")


def _old_counters(tenant, in_tenant, sequences, invoices):
    with in_tenant(tenant), connection.cursor() as cursor:
        for key, year, value in sequences:
            cursor.execute(
                "INSERT INTO purchaseorders_numbersequence (tenant_id, key, year, last_value) VALUES (%s, %s, %s, %s)",
                [tenant.pk, key, year, value],
            )
        for series, year, value in invoices:
            cursor.execute(
                "INSERT INTO salesorders_invoicecounter (tenant_id, series, year, last_value) VALUES (%s, %s, %s, %s)",
                [tenant.pk, series, year, value],
            )


def _carry_over():
    migration.carry_over(apps, SimpleNamespace(connection=connection))


def test_every_series_continues_after_the_migration(tenant2, tenant3, in_tenant, pg_role_check):
    _old_counters(
        tenant3,
        in_tenant,
        sequences=[
            ("purchase_order", 2026, 41),
            ("purchase_order", 2025, 300),
            ("receipt", 2026, 7),
            ("sales_order", 2026, 12),
            ("sales_shipment", 2026, 9),
            ("stockcount", 2026, 3),
        ],
        invoices=[("INV", 2026, 120), ("CN", 2026, 4)],
    )
    _old_counters(tenant2, in_tenant, sequences=[("purchase_order", 2026, 5)], invoices=[("INV", 2026, 2)])
    with in_tenant(tenant2):
        # a counter the numbering table already has keeps the higher value
        numbering.number_next(numbering.PURCHASE_ORDER, year=2026)
        for _ in range(8):
            numbering.number_next(numbering.PURCHASE_ORDER, year=2026)

    _carry_over()
    _carry_over()  # a second run changes nothing

    with in_tenant(tenant3):
        taken = lambda number: False  # noqa: E731
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2026, taken=taken).text == "PO-2026-00042"
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2025, taken=taken).text == "PO-2025-00301"
        assert numbering.number_next(numbering.RECEIPT, year=2026, taken=taken).text == "RC-2026-00008"
        assert numbering.number_next(numbering.SALES_ORDER, year=2026, taken=taken).text == "SO-2026-00013"
        assert numbering.number_next(numbering.SALES_SHIPMENT, year=2026, taken=taken).text == "SH-2026-00010"
        assert numbering.number_next(numbering.STOCK_COUNT, year=2026, taken=taken).text == "SC-2026-00004"
        assert numbering.number_next(numbering.INVOICE, year=2026).text == "INV-2026-00121"
        assert numbering.number_next(numbering.CREDIT_NOTE, year=2026).text == "CN-2026-00005"
    with in_tenant(tenant2):
        assert numbering.number_next(numbering.PURCHASE_ORDER, year=2026).text == "PO-2026-00010"
        assert numbering.number_next(numbering.INVOICE, year=2026).text == "INV-2026-00003"
