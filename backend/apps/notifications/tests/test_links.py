"""Links in the messages lead each recipient to a page they may open: supplier recipients (the supplier,
its parent vendor, their portal users, a fixed address of a portal user) to the supplier portal,
internal recipients to the internal page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from apps.notifications import events as registry
from apps.notifications.models import EmailMessage, EmailTemplate
from apps.users.models import User

pytestmark = pytest.mark.django_db

# The web app's route patterns live in one module (docs/architecture.md, "Web app"); the router takes them.
ROUTE_PATTERNS = (
    Path(django_settings.BASE_DIR).parent / "frontend" / "src" / "shared" / "routing" / "paths.ts"
)


@pytest.fixture
def link_template(world, in_tenant):
    with in_tenant(world["tenant3"]):
        return EmailTemplate.objects.create(
            name="Order link",
            event="purchase_order.sent",
            subject_en="Order {{ order.number }}",
            body_text_en="Open {{ record.url }}",
            body_html_en='<a href="{{ record.url }}">{{ order.number }}</a>',
        )


def _emails(world):
    User.objects.filter(pk=world["supplier_user_a"].pk).update(email="portal@evergreen.example")
    User.objects.filter(pk=world["supplier_user_b"].pk).update(email="portal@bluewave.example")
    User.objects.filter(pk=world["purchasing"].pk).update(email="buyer@eurotrade.example")


def _bodies(world, in_tenant) -> dict[str, tuple[str, str]]:
    with in_tenant(world["tenant3"]):
        return {
            m.to[0].split("<")[-1].rstrip(">"): (m.body_text, m.body_html) for m in EmailMessage.objects.all()
        }


def test_supplier_recipients_get_the_supplier_portal_link_internal_ones_the_internal_page(
    world, in_tenant, make_order, make_scenario, link_template, settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_BASE_URL = "https://ct.example"
    _emails(world)
    with in_tenant(world["tenant3"]):
        world["vendor_a"].email = "sales@evergreen.example"
        world["vendor_a"].save(update_fields=["email"])
    make_scenario(
        template=link_template,
        recipients=[
            {"type": "contact", "role": "parent_vendor_users"},
            {"type": "contact", "role": "parent_vendor"},
            {"type": "address", "address": "Portal@Bluewave.example"},  # a portal user, other case
            {"type": "address", "address": "buyer@eurotrade.example"},  # an internal user
            {"type": "address", "address": "someone@else.example"},  # nobody's: the internal page
        ],
    )
    with django_capture_on_commit_callbacks(execute=True):
        order = make_order(owner=world["purchasing"])
    number = order.order_number
    bodies = _bodies(world, in_tenant)
    supplier_link = f"https://ct.example/supplier/orders/{number}"
    internal_link = f"https://ct.example/purchase/orders/{number}"
    for address in ("portal@evergreen.example", "sales@evergreen.example", "Portal@Bluewave.example"):
        text, html = bodies[address]
        assert text == f"Open {supplier_link}", address
        assert f'href="{supplier_link}"' in html
    for address in ("buyer@eurotrade.example", "someone@else.example"):
        assert bodies[address][0] == f"Open {internal_link}", address
    # the log links into the internal web app whoever received the message
    with in_tenant(world["tenant3"]):
        assert set(EmailMessage.objects.values_list("record_url", flat=True)) == {
            f"/purchase/orders/{number}"
        }


def test_the_supplier_contacts_and_the_owner(
    world, in_tenant, make_order, make_scenario, link_template, django_capture_on_commit_callbacks
):
    _emails(world)
    with in_tenant(world["tenant3"]):
        supplier = world["supplier_a"]
        supplier.email = "office@evergreen-no1.example"
        supplier.contacts = [{"name": "Li Wei", "role": "Sales", "email": "li@evergreen-no1.example"}]
        supplier.save(update_fields=["email", "contacts"])
    make_scenario(
        template=link_template,
        recipients=[{"type": "contact", "role": "supplier"}, {"type": "contact", "role": "owner"}],
    )
    with django_capture_on_commit_callbacks(execute=True):
        order = make_order(owner=world["purchasing"])
    bodies = _bodies(world, in_tenant)
    assert bodies["office@evergreen-no1.example"][0] == f"Open /supplier/orders/{order.order_number}"
    assert bodies["li@evergreen-no1.example"][0] == f"Open /supplier/orders/{order.order_number}"
    assert bodies["buyer@eurotrade.example"][0] == f"Open /purchase/orders/{order.order_number}"


def test_the_supplier_links_are_pages_of_the_supplier_portal():
    """Every event's supplier link matches a route of the web app's supplier layout."""
    routes = set(re.findall(r"^  \w+: '/(supplier/[^']+)',$", ROUTE_PATTERNS.read_text(), re.M))
    assert "supplier/orders/:orderNumber" in routes

    class Record:
        pk = 7
        order_number = "PO-0001"
        container_number = "MSCU1234567"

    for event in registry.EVENTS.values():
        if event.supplier_url is None:
            continue
        path = event.supplier_url(Record()).lstrip("/")
        assert any(re.fullmatch(re.sub(r":\w+", r"[^/]+", route), path) for route in routes), (
            f"{event.name}: /{path} is no page of the supplier portal"
        )
    assert registry.EVENTS["purchase_order.sent"].supplier_url(Record()) == "/supplier/orders/PO-0001"
    assert registry.EVENTS["raw_material.submitted"].supplier_url(Record()) == "/supplier/raw-materials/7"


def test_a_supplier_user_who_entered_a_delivery_gets_the_portal_link(world, in_tenant):
    """created_by of a raw-material delivery can be a supplier user: the portal page, not the internal."""
    user = world["supplier_user_a"]
    user.email = "portal@evergreen.example"
    [recipient] = registry._user_recipients([user])
    assert recipient.audience == registry.SUPPLIER
    [internal] = registry._user_recipients([User(username="x", email="x@eurotrade.example")])
    assert internal.audience == registry.INTERNAL
