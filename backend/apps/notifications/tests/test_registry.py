"""The events registry (apps/notifications/events.py) as the areas fill it on start: every area's events
are there, every document an event offers is registered by its area, and an attachment is built by the
document registered for the event's model and key."""

from __future__ import annotations

import pytest

from apps.notifications import events as registry


def test_each_emitting_area_registers_its_events():
    by_area: dict[str, set[str]] = {}
    for name, event in registry.EVENTS.items():
        by_area.setdefault(event.model.split(".")[0], set()).add(name)
    assert by_area == {
        "purchaseorders": {"purchase_order.sent", "purchase_order.status_changed"},
        "eudr": {
            "raw_material.submitted",
            "raw_material.expiring",
            "raw_material.expired",
            "cartons.over_cap",
            "cartons.over_cap_approved",
            "eudr.dds_package_ready",
        },
        "logistics": {"inbound_shipment.arrived"},
        "salesorders": {
            "sales_order.confirmed",
            "sales_shipment.shipped",
            "invoice.posted",
            "invoice.overdue",
        },
    }
    assert all(event.available for event in registry.EVENTS.values())


def test_every_document_an_event_offers_is_registered():
    missing = [
        (event.name, key)
        for event in registry.EVENTS.values()
        for key in event.attachments
        if (event.model, key) not in registry.DOCUMENTS
    ]
    assert missing == []


def test_the_date_events_say_which_records_are_due_and_what_days_mean():
    dated = {name for name, event in registry.EVENTS.items() if event.due is not None}
    assert dated == {"raw_material.expiring", "invoice.overdue"}
    assert all(registry.EVENTS[name].uses_days for name in dated)


def test_an_attachment_is_the_document_registered_for_the_model_and_key(monkeypatch):
    built = registry.Attachment("INV-1.pdf", b"%PDF-", "application/pdf")
    seen = []

    def draw(record, extra):
        seen.append((record, extra))
        return built

    monkeypatch.setitem(registry.DOCUMENTS, ("salesorders.Invoice", "invoice_pdf"), draw)
    record = object()
    event = registry.EVENTS["invoice.posted"]
    assert registry.attachment(event, record, "invoice_pdf", {"a": 1}) is built
    assert seen == [(record, {"a": 1})]
    # a key the event does not offer, and an event that offers none, attach nothing
    with pytest.raises(registry.AttachmentUnavailable):
        registry.attachment(event, record, "dds_summary")
    with pytest.raises(registry.AttachmentUnavailable):
        registry.attachment(registry.EVENTS["sales_order.confirmed"], record, "invoice_pdf")
