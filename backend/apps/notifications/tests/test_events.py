"""The business events reach the scenarios; conditions and recipients resolve; date events run daily."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.eudr.tests.trace_data import make_delivery
from apps.notifications import events as registry
from apps.notifications.daily import daily_events_all_tenants
from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate
from apps.notifications.rendering import condition_holds, conditions_hold
from apps.purchaseorders import services as po_services

pytestmark = pytest.mark.django_db


def _template(event, subject="{{ record.label }}", body="x"):
    return EmailTemplate.objects.create(name=event, event=event, subject_en=subject, body_text_en=body)


def _scenario(event, **fields):
    values = {
        "name": event,
        "event": event,
        "template": _template(event, fields.pop("subject", "{{ record.label }}"), fields.pop("body", "x")),
        "recipients": [{"type": "address", "address": "ops@x.example"}],
        "language": "en",
    }
    values.update(fields)
    return EmailScenario.objects.create(**values)


def _log(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return list(EmailMessage.objects.order_by("pk").values_list("event", "subject", "status"))


def test_purchase_order_status_changed_with_the_previous_status(
    world, in_tenant, confirmed_order, django_capture_on_commit_callbacks
):
    order = confirmed_order(confirm=False)
    with in_tenant(world["tenant3"]):
        _scenario(
            "purchase_order.status_changed",
            subject="{{ order.number }}: {{ previous_status_label }} -> {{ order.status_label }}",
            conditions=[{"field": "order.status", "operator": "in", "value": ["sent", "cancelled"]}],
        )
        with django_capture_on_commit_callbacks(execute=True):
            po_services.purchase_order_confirm(order=order)  # the condition does not hold
        with django_capture_on_commit_callbacks(execute=True):
            po_services.purchase_order_cancel(order=order)
    assert _log(world, in_tenant) == [
        ("purchase_order.status_changed", f"{order.order_number}: Confirmed -> Cancelled", "sent")
    ]


def test_conditions_select_the_orders(
    world, in_tenant, make_order, make_scenario, django_capture_on_commit_callbacks
):
    make_scenario(
        conditions=[
            {"field": "order.total", "operator": "gte", "value": "1000"},
            {"field": "supplier.name", "operator": "contains", "value": "evergreen"},
        ]
    )
    with django_capture_on_commit_callbacks(execute=True):
        small = make_order(lines=[(world["carton"], "10", "1.00")])
        big = make_order(lines=[(world["carton"], "1000", "1.25")])
        other = make_order(supplier=world["supplier_b"], lines=[(world["carton"], "1000", "1.25")])
    subjects = [s for _e, s, _st in _log(world, in_tenant)]
    assert len(subjects) == 1 and big.order_number in subjects[0]
    assert small.order_number not in subjects[0] and other.order_number not in subjects[0]


@pytest.mark.parametrize(
    ("operator", "actual", "value", "holds"),
    [
        ("eq", "open", "open", True),
        ("ne", "open", "open", False),
        ("gt", Decimal("10.5"), "9", True),
        ("gt", Decimal("9"), "10", False),  # numbers, not text ("9" > "10" as text)
        ("lte", 3, "3", True),
        ("lt", "2026-03-01", "2026-04-01", True),
        ("in", "on_hold", "open, on_hold", True),
        ("not_in", "on_hold", ["open"], True),
        ("contains", "Evergreen No.1", "GREEN", True),
        ("is_empty", "", "", True),
        ("is_not_empty", None, "", False),
        ("gt", None, "1", False),
        ("gt", Decimal("1"), "abc", False),
    ],
)
def test_condition_operators(operator, actual, value, holds):
    context = {"a": {"b": actual}}
    assert condition_holds({"field": "a.b", "operator": operator, "value": value}, context) is holds


def test_no_conditions_hold_always():
    assert conditions_hold([], {}) is True


def test_contact_roles_resolve(world, in_tenant, make_order, make_user):
    order = make_order()
    with in_tenant(world["tenant3"]):
        supplier = world["supplier_a"]
        supplier.email = "factory@evergreen.example"
        supplier.country = "CN"
        supplier.contacts = [
            {"name": "Li", "email": "li@evergreen.example", "role": "Sales"},
            {"name": "Wu", "email": "wu@evergreen.example", "role": "Quality"},
            "garbage",
        ]
        supplier.save()
        world["supplier_user_a"].email = "portal@evergreen.example"
        world["supplier_user_a"].save()
        world["supplier_user_b"].email = "portal@bluewave.example"  # another vendor: never
        world["supplier_user_b"].save()
        stranger = make_user(
            world["tenant2"],
            "Supplier",
            is_supplier=True,
            parent_vendor=world["vendor_a"],
            email="x@y.example",
        )
        assert stranger  # a user of the same vendor id but not a member of tenant 3
        order = type(order).objects.select_related("supplier__parent_vendor", "owner").get(pk=order.pk)
        event = registry.EVENTS["purchase_order.sent"]
        assert registry.contacts(event, order, "supplier") == [
            registry.Recipient("factory@evergreen.example", "Evergreen No.1", "zh", registry.SUPPLIER),
            registry.Recipient("li@evergreen.example", "Li", "zh", registry.SUPPLIER),
            registry.Recipient("wu@evergreen.example", "Wu", "zh", registry.SUPPLIER),
        ]
        assert [r.email for r in registry.contacts(event, order, "supplier", "sales")] == [
            "li@evergreen.example"
        ]
        assert [(r.email, r.audience) for r in registry.contacts(event, order, "parent_vendor_users")] == [
            ("portal@evergreen.example", registry.SUPPLIER)
        ]
        assert registry.contacts(event, order, "owner") == []
        assert registry.contacts(event, order, "nonsense") == []


def test_raw_material_events(world, in_tenant, django_capture_on_commit_callbacks):
    from apps.eudr import services as eudr

    with in_tenant(world["tenant3"]):
        for event in ("raw_material.submitted", "raw_material.expired", "cartons.over_cap_approved"):
            _scenario(event, subject=event + " {{ delivery.number }} {{ delivery.status }}")
        draft = make_delivery(delivery_number="DLV-NEW", status="draft", suffix="-n")
        with django_capture_on_commit_callbacks(execute=True):
            eudr.raw_material_submit(delivery_id=draft.pk, user=world["admin"])
        old = make_delivery(
            delivery_number="DLV-OLD",
            suffix="-o",
            fm_certificate_expiry=timezone.localdate() - timedelta(days=1),
        )
        with django_capture_on_commit_callbacks(execute=True):
            assert eudr.raw_materials_expire() == 1
        with django_capture_on_commit_callbacks(execute=True):
            eudr.cap_approve(delivery_id=old.pk, extra_cartons=5, reason="Urgent order", user=world["admin"])
    assert _log(world, in_tenant) == [
        ("raw_material.submitted", "raw_material.submitted DLV-NEW active", "sent"),
        ("raw_material.expired", "raw_material.expired DLV-OLD expired", "sent"),
        ("cartons.over_cap_approved", "cartons.over_cap_approved DLV-OLD expired", "sent"),
    ]


def test_certificates_expiring_in_n_days_mail_once(world, in_tenant, django_capture_on_commit_callbacks):
    today = timezone.localdate()
    with in_tenant(world["tenant3"]):
        _scenario(
            "raw_material.expiring",
            days=30,
            subject="{{ delivery.number }} in {{ delivery.days_to_expiry }} days",
        )
        make_delivery(
            delivery_number="DLV-30", suffix="-a", coc_certificate_expiry=today + timedelta(days=30)
        )
        make_delivery(
            delivery_number="DLV-31", suffix="-b", coc_certificate_expiry=today + timedelta(days=31)
        )
    with django_capture_on_commit_callbacks(execute=True):
        assert daily_events_all_tenants(today=today) == {"EuroTrade Goods BV": 1}
    with django_capture_on_commit_callbacks(execute=True):
        daily_events_all_tenants(today=today)  # a second run the same day
    assert _log(world, in_tenant) == [("raw_material.expiring", "DLV-30 in 30 days", "sent")]


def test_inbound_shipment_arrived(world, in_tenant, make_order, django_capture_on_commit_callbacks):
    from apps.logistics import services as logistics

    order = make_order()
    with in_tenant(world["tenant3"]):
        world["purchasing"].email = "buyer@eurotrade.example"
        world["purchasing"].save()
        type(order).objects.filter(pk=order.pk).update(owner=world["purchasing"])
        _scenario(
            "inbound_shipment.arrived",
            subject="{{ shipment.container_number }} arrived with {{ shipment.purchase_orders }}",
            recipients=[{"type": "contact", "role": "order_owners"}],
        )
        shipment = logistics.shipment_create(
            fields={"container_number": "MSCU1234566", "status": "in_transit"}, purchase_orders=[order]
        )
        with django_capture_on_commit_callbacks(execute=True):
            logistics.shipment_transition(shipment=shipment, to_status="arrived")
        (message,) = EmailMessage.objects.all()
    assert message.subject == f"MSCU1234566 arrived with {order.order_number}"
    assert message.to == ["buyer <buyer@eurotrade.example>"] or message.to[0].endswith(
        "<buyer@eurotrade.example>"
    )
