"""The migration that adds `PurchaseOrderLine.cartons_issued` counts each line's active labels once,
tenant by tenant (0005_line_cartons_issued.count_issued). Its function is run here against lines whose
counter is wrong, in two tenants, on PostgreSQL as the ordinary role (row-level security forced on both
tables: a tenant not entered would see no label and count 0)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from apps.eudr import services
from apps.eudr.models import CartonLabel
from apps.eudr.tests import factories
from apps.purchaseorders.models import PurchaseOrderLine

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

migration = importlib.import_module("apps.purchaseorders.migrations.0005_line_cartons_issued")


def _counters() -> dict[int, tuple[int, int]]:
    """Each line of the current tenant: (its counter, its active labels)."""
    return {
        line.pk: (
            line.cartons_issued,
            CartonLabel.objects.filter(purchase_order_line=line, status=CartonLabel.Status.ACTIVE).count(),
        )
        for line in PurchaseOrderLine.objects.all()
    }


def test_the_backfill_counts_every_tenants_active_labels(
    tenant2, tenant3, in_tenant, make_user, pg_role_check
):
    w = factories.world(tenant3, tenant2, in_tenant, make_user)
    with in_tenant(tenant3):
        first = factories.delivery(w.vendor_a, weight="1000")
        second = factories.delivery(w.vendor_b, weight="1000")
        factories.generate(first, w.line_a, 7)
        factories.generate(first, w.line_a, 5, code="20261121B")
        factories.generate(second, w.line_b, 4, code="20261121C")
        voided = list(
            CartonLabel.objects.filter(purchase_order_line=w.line_a)
            .order_by("pk")
            .values_list("pk", flat=True)[:3]
        )
        services.cartons_delete(ids=voided, queryset=CartonLabel.objects.all())
        empty = factories.order_line(w.vendor_a)  # a line without labels
    with in_tenant(tenant2):
        theirs = factories.delivery(w.vendor_x, weight="1000")
        factories.generate(theirs, w.line_x, 6, code="20261121D")
    expected = {
        tenant3.pk: {w.line_a.pk: (9, 9), w.line_b.pk: (4, 4), empty.pk: (0, 0)},
        tenant2.pk: {w.line_x.pk: (6, 6)},
    }
    for tenant in (tenant3, tenant2):
        with in_tenant(tenant):
            assert _counters() == expected[tenant.pk]  # the services kept them
            # the rows as they were before the migration: a counter that says anything
            PurchaseOrderLine.objects.update(cartons_issued=999)
            assert {counter for counter, _active in _counters().values()} == {999}

    migration.count_issued(apps, SimpleNamespace(connection=connection))

    for tenant in (tenant3, tenant2):
        with in_tenant(tenant):
            assert _counters() == expected[tenant.pk]
    with connection.cursor() as cursor:  # it leaves no tenant entered behind it
        cursor.execute("SELECT current_setting('app.tenant_id', true)")
        assert (cursor.fetchone()[0] or "") == ""
