# ruff: noqa: F811  (the purchasing fixtures are imported by name and used as arguments)
"""E-mail fixtures: the purchasing world of tenant 3 (and 2), a real SMTP server on loopback (aiosmtpd) whose
answers a test can script, templates and scenarios."""

from __future__ import annotations

import socket

import pytest
from aiosmtpd.controller import Controller

from apps.notifications.models import EmailScenario, EmailTemplate, SmtpSettings
from apps.purchaseorders.tests.conftest import _fast_passwords, issue_labels, world  # noqa: F401
from apps.purchaseorders.tests.conftest import make_order as confirmed_order  # noqa: F401


class ScriptedHandler:
    """Accepts mail, except that the next DATA commands answer the scripted replies ("451 ...")."""

    def __init__(self) -> None:
        self.received = []
        self.replies: list[str] = []
        self.data_commands = 0
        # take the content, then never answer (until the test ends)
        self.stall_after_data = False
        self.released = None

    async def handle_DATA(self, server, session, envelope):
        import asyncio

        self.data_commands += 1
        if self.stall_after_data:
            self.received.append(envelope)
            self.released = asyncio.Event()
            await self.released.wait()
            return "250 Message accepted for delivery"
        if self.replies:
            return self.replies.pop(0)
        self.received.append(envelope)
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp_server(settings):
    # A company's SMTP host is a tenant address: the outbound policy refuses loopback unless the operator
    # allows a network (apps/common/outbound.py). This local server is reached through that setting.
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    handler = ScriptedHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    handler.port = controller.port
    try:
        yield handler
    finally:
        if handler.released is not None:
            controller.loop.call_soon_threadsafe(handler.released.set)
        controller.stop()


@pytest.fixture
def tenant_smtp(world, in_tenant, smtp_server):
    """Tenant 3 sends through the loopback server."""
    with in_tenant(world["tenant3"]):
        return SmtpSettings.objects.create(
            host="127.0.0.1",
            port=smtp_server.port,
            security="none",
            from_email="orders@eurotrade.example",
            from_name="EuroTrade Goods",
            timeout=5,
        )


@pytest.fixture
def make_order(confirmed_order, world, in_tenant):
    """A confirmed order and the occurrence of `purchase_order.sent` about it (what sending it to the
    supplier emits when a scenario is enabled: apps/purchaseorders/services.py purchase_order_send), the
    event these tests exercise the scenarios with."""
    from apps.notifications.emit import emit

    def make(*args, **kwargs):
        order = confirmed_order(*args, **kwargs)
        with in_tenant(kwargs.get("tenant") or world["tenant3"]):
            emit("purchase_order.sent", record=order)
        return order

    return make


@pytest.fixture
def po_template(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return EmailTemplate.objects.create(
            name="New purchase order",
            event="purchase_order.sent",
            subject_en="Purchase order {{ order.number }} for {{ supplier.name }}",
            subject_zh="采购订单 {{ order.number }}",
            body_html_en="<p>Dear {{ parent_vendor.name }},</p><p>Total {{ order.total }} {{ order.currency }}</p>",
            body_html_zh="<p>{{ parent_vendor.cname }} 您好</p>",
            body_text_en="Dear {{ parent_vendor.name }}, order {{ order.number }} totals {{ order.total }}.",
            body_text_zh="{{ parent_vendor.cname }} 您好, 订单 {{ order.number }}",
        )


@pytest.fixture
def make_scenario(world, in_tenant, po_template):
    def make(**fields):
        values = {
            "name": f"Scenario {EmailScenario.objects.count() + 1}",
            "event": "purchase_order.sent",
            "template": po_template,
            "recipients": [{"type": "address", "address": "buyer@eurotrade.example"}],
            "language": "en",
        }
        values.update(fields)
        return EmailScenario.objects.create(**values)

    def in_tenant3(**fields):
        with in_tenant(world["tenant3"]):
            return make(**fields)

    return in_tenant3
