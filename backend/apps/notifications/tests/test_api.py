"""The /api/core/ endpoints: validation, preview, test send, resend, SMTP settings, isolation, query counts."""

from __future__ import annotations

import pytest
from django.db import connection

from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate, SmtpSettings
from apps.users.models import Department

pytestmark = pytest.mark.django_db

BASE = "/api/core"


def _scenario_body(template_id, **extra):
    body = {
        "name": "Tell the vendor",
        "event": "purchase_order.sent",
        "template": template_id,
        "recipients": [{"type": "contact", "role": "parent_vendor_users"}],
        "conditions": [{"field": "order.total", "operator": "gt", "value": "100"}],
        "language": "recipient",
    }
    body.update(extra)
    return body


def test_events_list_their_variables_contacts_and_attachments(world, api):
    response = api(world["admin"], world["tenant3"]).get(f"{BASE}/email-events/")
    assert response.status_code == 200
    events = {e["name"]: e for e in response.json()["data"]}
    for name in (
        "purchase_order.sent",
        "purchase_order.status_changed",
        "raw_material.submitted",
        "raw_material.expiring",
        "raw_material.expired",
        "cartons.over_cap",
        "cartons.over_cap_approved",
        "eudr.dds_package_ready",
        "sales_order.confirmed",
        "sales_shipment.shipped",
        "invoice.posted",
        "invoice.overdue",
        "inbound_shipment.arrived",
    ):
        assert name in events
    assert {"name": "order.number", "description": "Purchase order number"} in events["purchase_order.sent"][
        "variables"
    ]
    assert {a["key"] for a in events["invoice.posted"]["attachments"]} == {
        "invoice_pdf",
        "invoice_ubl",
        "invoice_facturx",
    }
    assert {a["key"] for a in events["sales_shipment.shipped"]["attachments"]} == {"delivery_note"}
    assert events["raw_material.expiring"]["uses_days"]


def test_create_template_and_scenario_then_preview_on_a_real_record(world, api, make_order):
    order = make_order()
    client = api(world["admin"], world["tenant3"])
    response = client.post(
        f"{BASE}/email-templates/",
        {
            "name": "PO",
            "event": "purchase_order.sent",
            "subject_en": "PO {{ order.number }}",
            "subject_zh": "采购订单 {{ order.number }}",
            "body_html_en": "<b>{{ supplier.name }}</b> {{ order.description }}",
            "body_text_en": "Hello {{ supplier.name }}",
        },
    )
    assert response.status_code == 201, response.json()
    template_id = response.json()["data"]["id"]
    response = client.post(f"{BASE}/email-scenarios/", _scenario_body(template_id))
    assert response.status_code == 201, response.json()
    scenario_id = response.json()["data"]["id"]

    response = client.post(
        f"{BASE}/email-scenarios/{scenario_id}/preview/", {"record": order.pk, "language": "zh"}
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["subject"] == f"采购订单 {order.order_number}"
    assert data["record"] == {
        "id": order.pk,
        "label": order.order_number,
        "url": f"/purchase/orders/{order.order_number}",
    }
    assert data["conditions_hold"] is True
    assert [r["email"] for r in data["recipients"]] == []  # the vendor's users have no e-mail yet

    # without a record: the latest one
    response = client.post(f"{BASE}/email-scenarios/{scenario_id}/preview/", {})
    assert response.json()["data"]["record"]["id"] == order.pk


def test_html_is_escaped_but_text_and_subject_are_not(world, api, make_order):
    order = make_order(description="<script>alert(1)</script> & co")
    client = api(world["admin"], world["tenant3"])
    response = client.post(
        f"{BASE}/email-templates/preview/",
        {
            "event": "purchase_order.sent",
            "record": order.pk,
            "subject_en": "{{ order.description }}",
            "body_html_en": "<p>{{ order.description }}</p>",
            "body_text_en": "{{ order.description }}",
        },
    )
    data = response.json()["data"]
    assert data["body_html"] == "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p>"
    assert data["body_text"] == "<script>alert(1)</script> & co"


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ order.__class__ }}",
        "{{ settings.SECRET_KEY }}",
        "{{ range(10) }}",
        "{{ self._TemplateReference__context }}",
        "{{ cycler.__init__.__globals__ }}",
        "{{ order.number.format.__globals__ }}",
    ],
)
def test_a_template_cannot_reach_anything_outside_its_variables(world, api, make_order, source):
    order = make_order()
    client = api(world["admin"], world["tenant3"])
    response = client.post(
        f"{BASE}/email-templates/preview/",
        {
            "event": "purchase_order.sent",
            "record": order.pk,
            "subject_en": "x",
            "body_text_en": source,
        },
    )
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["error"]
    assert data["body_text"] == ""


def test_template_and_scenario_validation(world, api, in_tenant, po_template):
    client = api(world["admin"], world["tenant3"])
    response = client.post(
        f"{BASE}/email-templates/",
        {
            "name": "Bad",
            "event": "no.such",
            "subject_en": "{{ unclosed",
            "body_text_en": "",
        },
    )
    assert response.status_code == 400
    errors = response.json()["data"]
    assert "event" in errors

    response = client.post(
        f"{BASE}/email-templates/",
        {"name": "Bad", "event": "purchase_order.sent", "subject_en": "{{ unclosed"},
    )
    errors = response.json()["data"]
    assert "subject_en" in errors and "body_text_en" in errors

    with in_tenant(world["tenant2"]):
        foreign = EmailTemplate.objects.create(
            name="T2", event="purchase_order.sent", subject_en="x", body_text_en="y"
        )
    bad_bodies = [
        _scenario_body(foreign.pk),
        _scenario_body(po_template.pk, event="invoice.posted"),
        _scenario_body(
            po_template.pk, conditions=[{"field": "tenant.secret", "operator": "eq", "value": "1"}]
        ),
        _scenario_body(
            po_template.pk, conditions=[{"field": "order.total", "operator": "nope", "value": "1"}]
        ),
        _scenario_body(po_template.pk, recipients=[]),
        _scenario_body(po_template.pk, recipients=[{"type": "contact", "role": "customer"}]),
        _scenario_body(po_template.pk, recipients=[{"type": "address", "address": "not an address"}]),
        _scenario_body(po_template.pk, recipients=[{"type": "role", "role": 999999}]),
        _scenario_body(po_template.pk, recipients=[{"type": "role", "role": "x"}]),
        _scenario_body(po_template.pk, recipients=[{"type": "department", "department": 999999}]),
        _scenario_body(po_template.pk, attachments=["invoice_pdf"]),
        _scenario_body(po_template.pk, delay_minutes=-1),
        _scenario_body(po_template.pk, recipients="x"),
        _scenario_body(po_template.pk, conditions={"a": 1}),
        _scenario_body(
            po_template.pk, conditions=[{"field": "order.total", "operator": "eq", "value": {"x": 1}}]
        ),
        _scenario_body(po_template.pk, name=""),
        [1, 2],
    ]
    for body in bad_bodies:
        response = client.post(f"{BASE}/email-scenarios/", body)
        assert response.status_code == 400, (body, response.json())
    with in_tenant(world["tenant3"]):
        assert EmailScenario.objects.count() == 0


def test_scenario_recipients_by_role_and_department(world, api, in_tenant, po_template, roles, make_order):
    from apps.tenancy.models import Membership

    with in_tenant(world["tenant3"]):
        department = Department.objects.create(name="Purchasing dept")
        world["purchasing"].email = "buyer@eurotrade.example"
        world["purchasing"].language = "zh-hans"
        world["purchasing"].save()
        world["sales"].email = "seller@eurotrade.example"
        world["sales"].save()
        Membership.objects.filter(user=world["sales"], tenant=world["tenant3"]).update(department=department)
        role = roles(world["tenant3"], "Purchasing")
    order = make_order()
    client = api(world["admin"], world["tenant3"])
    response = client.post(
        f"{BASE}/email-scenarios/",
        _scenario_body(
            po_template.pk,
            recipients=[
                {"type": "role", "role": role.pk},
                {"type": "department", "department": department.pk},
                {"type": "address", "address": "seller@eurotrade.example"},
            ],
        ),
    )
    assert response.status_code == 201, response.json()
    preview = client.post(
        f"{BASE}/email-scenarios/{response.json()['data']['id']}/preview/", {"record": order.pk}
    ).json()["data"]
    assert [(r["email"], r["language"]) for r in preview["recipients"]] == [
        ("buyer@eurotrade.example", "zh"),
        ("seller@eurotrade.example", "en"),
    ]


def test_send_a_test_to_me_and_resend(
    world, api, in_tenant, make_scenario, make_order, django_capture_on_commit_callbacks
):
    scenario = make_scenario()
    make_order()
    world["admin"].email = "boss@eurotrade.example"
    world["admin"].save()
    client = api(world["admin"], world["tenant3"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"{BASE}/email-scenarios/{scenario.pk}/send-test/", {"language": "en"})
    assert response.status_code == 201, response.json()
    message_id = response.json()["data"]["id"]
    detail = client.get(f"{BASE}/email-log/{message_id}/").json()["data"]
    assert detail["status"] == "sent" and detail["is_test"] is True
    assert (
        detail["to"] == ["Administrator <boss@eurotrade.example>"]
        or detail["to"][0].endswith("<boss@eurotrade.example>")
        or detail["to"] == ["boss@eurotrade.example"]
    )
    assert detail["has_raw"] is True
    eml = client.get(f"{BASE}/email-log/{message_id}/eml/")
    assert eml.status_code == 200 and b"Message-ID: " + detail["message_id"].encode() in b"".join(
        eml.streaming_content
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"{BASE}/email-log/{message_id}/resend/")
    assert response.status_code == 201
    copy = response.json()["data"]
    assert copy["message_id"] != detail["message_id"] and copy["resent_from"] == message_id
    assert client.get(f"{BASE}/email-log/{copy['id']}/").json()["data"]["status"] == "sent"


def test_smtp_settings_password_is_write_only_and_encrypted(world, api, in_tenant, smtp_server):
    client = api(world["admin"], world["tenant3"])
    assert client.get(f"{BASE}/smtp-settings/").status_code == 404
    response = client.put(
        f"{BASE}/smtp-settings/",
        {
            "host": "127.0.0.1",
            "port": smtp_server.port,
            "security": "none",
            "username": "",
            "password": "s3cret-pass",
            "from_email": "mail@eurotrade.example",
        },
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert "password" not in data and data["has_password"] is True
    with connection.cursor() as cursor:
        cursor.execute("SELECT password FROM notifications_smtpsettings")
        (stored,) = cursor.fetchone()
    assert stored and "s3cret-pass" not in stored
    with in_tenant(world["tenant3"]):
        assert SmtpSettings.objects.get().password == "s3cret-pass"
    # a PUT without a password keeps it
    client.put(f"{BASE}/smtp-settings/", {"from_name": "EuroTrade"})
    with in_tenant(world["tenant3"]):
        assert SmtpSettings.objects.get().password == "s3cret-pass"

    # test connection: the stored settings reach the loopback server (no AUTH offered: no user name)
    client.put(f"{BASE}/smtp-settings/", {"clear_password": True})
    response = client.post(f"{BASE}/smtp-settings/test/")
    assert response.json()["data"]["ok"] is True, response.json()
    response = client.post(f"{BASE}/smtp-settings/test/", {"host": "127.0.0.1", "port": 1, "timeout": 2})
    assert response.json()["data"]["ok"] is False

    for body in [{"host": "a b"}, {"port": 70000}, {"from_email": "x"}, {"security": "tls9"}, []]:
        assert client.put(f"{BASE}/smtp-settings/", body).status_code == 400, body
    assert client.delete(f"{BASE}/smtp-settings/").status_code == 200  # the envelope answers 200
    assert client.get(f"{BASE}/smtp-settings/").status_code == 404


def test_another_tenant_sees_and_changes_nothing(
    world, api, in_tenant, make_scenario, make_order, django_capture_on_commit_callbacks
):
    scenario = make_scenario()
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    with in_tenant(world["tenant3"]):
        message = EmailMessage.objects.get()
        SmtpSettings.objects.create(
            host="smtp.eurotrade.example", from_email="a@eurotrade.example", password="p"
        )
    stranger = api(world["other_admin"], world["tenant2"])
    assert stranger.get(f"{BASE}/email-scenarios/").json()["data"]["count"] == 0
    assert stranger.get(f"{BASE}/email-templates/").json()["data"]["count"] == 0
    assert stranger.get(f"{BASE}/email-log/").json()["data"]["count"] == 0
    assert stranger.get(f"{BASE}/smtp-settings/").status_code == 404
    assert stranger.get(f"{BASE}/email-scenarios/{scenario.pk}/").status_code == 404
    assert stranger.patch(f"{BASE}/email-scenarios/{scenario.pk}/", {"enabled": False}).status_code == 404
    assert stranger.delete(f"{BASE}/email-templates/{scenario.template_id}/").status_code == 404
    assert stranger.post(f"{BASE}/email-scenarios/{scenario.pk}/preview/", {}).status_code == 404
    assert stranger.get(f"{BASE}/email-log/{message.pk}/").status_code == 404
    assert stranger.post(f"{BASE}/email-log/{message.pk}/resend/").status_code == 404
    # the tenant's own header cannot be used with the other's membership
    assert api(world["other_admin"], world["tenant3"]).get(f"{BASE}/email-log/").status_code == 403
    # the supplier and warehouse users have no access
    assert api(world["supplier_user_a"], world["tenant3"]).get(f"{BASE}/email-scenarios/").status_code == 403
    assert api(world["warehouse_user"], world["tenant3"]).get(f"{BASE}/email-log/").status_code == 403
    with in_tenant(world["tenant3"]):
        assert EmailScenario.objects.get().enabled is True


def test_a_template_in_use_is_not_deleted(world, api, make_scenario):
    scenario = make_scenario()
    response = api(world["admin"], world["tenant3"]).delete(f"{BASE}/email-templates/{scenario.template_id}/")
    assert response.status_code == 409 and response.json()["error"] == "template_in_use"


@pytest.mark.parametrize("path", ["email-scenarios/", "email-templates/", "email-log/"])
def test_lists_use_a_fixed_number_of_queries(
    world, api, in_tenant, make_scenario, make_order, path, count_queries, django_capture_on_commit_callbacks
):
    client = api(world["admin"], world["tenant3"])
    make_scenario(name="A")
    with django_capture_on_commit_callbacks(execute=True):
        make_order()
    client.get(f"{BASE}/{path}")  # warm the per-process caches (content types, permissions)
    one = count_queries(lambda: client.get(f"{BASE}/{path}"))
    for n in range(4):
        make_scenario(name=f"B{n}")
        with django_capture_on_commit_callbacks(execute=True):
            make_order()
    many = count_queries(lambda: client.get(f"{BASE}/{path}"))
    assert many == one
    assert one <= 12


def test_log_filters_and_search(world, api, make_scenario, make_order, django_capture_on_commit_callbacks):
    make_scenario(recipients=[{"type": "address", "address": "pat@x.example"}])
    with django_capture_on_commit_callbacks(execute=True):
        order = make_order()
    client = api(world["admin"], world["tenant3"])
    assert client.get(f"{BASE}/email-log/", {"status": "sent"}).json()["data"]["count"] == 1
    assert client.get(f"{BASE}/email-log/", {"status": "failed"}).json()["data"]["count"] == 0
    assert client.get(f"{BASE}/email-log/", {"recipient": "pat@"}).json()["data"]["count"] == 1
    assert client.get(f"{BASE}/email-log/", {"search": order.order_number}).json()["data"]["count"] == 1
    assert client.get(f"{BASE}/email-log/", {"status": "bogus"}).status_code == 400
    assert client.get(f"{BASE}/email-log/", {"created_after": "nope"}).status_code == 400
