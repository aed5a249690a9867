"""Two requests at the same moment create a dispatch for the same sales shipment (PostgreSQL): one is
created, the other is refused with a clear error; never a server error, never two dispatches. Both
requests pass the serializer's "already has a dispatch" check before either inserts (a barrier holds
them there), which is the race the row lock in the view closes."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from django.db import connection

from apps.logistics.api import serializers as logistics_serializers
from apps.logistics.models import Dispatch, ShipmentCompany
from apps.salesorders.models import Shipment

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_concurrent_dispatches_of_one_shipment(
    sales_world, bare_order, api, in_tenant, monkeypatch, pg_role_check
):
    w = sales_world
    order = bare_order([(w["carton"], "10")])
    with in_tenant(w["tenant3"]):
        shipment = Shipment.objects.create(
            shipment_number="SH-RACE-1", sales_order=order, warehouse=w["warehouse"]
        )
        carrier = ShipmentCompany.objects.create(name="DHL Freight")

    barrier = threading.Barrier(2)
    checked = logistics_serializers.DispatchSerializer.validate_sales_shipment

    def check_then_wait(self, value):
        value = checked(self, value)
        barrier.wait(timeout=10)  # both have seen "no dispatch yet"
        return value

    monkeypatch.setattr(logistics_serializers.DispatchSerializer, "validate_sales_shipment", check_then_wait)
    answers: list = [None, None]

    def work(index):
        try:
            client = api(w["warehouse_user"], w["tenant3"])
            answers[index] = client.post(
                "/api/logistics/dispatches/",
                {
                    "sales_shipment": shipment.pk,
                    "carrier": carrier.pk,
                    "pickup_date": date(2026, 11, 24).isoformat(),
                    "tracking_number": f"JJD-{index}",
                    "packages": 2,
                },
                format="json",
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    codes = sorted(answer.status_code for answer in answers)
    assert codes[0] == 201 and codes[1] in (400, 409), [a.content for a in answers]
    refused = next(answer for answer in answers if answer.status_code != 201).json()
    assert refused["error"] == "dispatch_exists", refused
    with in_tenant(w["tenant3"]):
        assert Dispatch.objects.filter(sales_shipment=shipment).count() == 1
