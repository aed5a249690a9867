"""Dates in e-mails: a message prints a date variable as people read it in the message's language ("26 Nov
2026", "2026年11月26日"), the same as the web app; the variable itself stays ISO 8601 text, which the
scenario's conditions compare, the preview lists and keys use."""

from datetime import UTC, date, datetime

from django.test import override_settings

from apps.notifications import events as registry
from apps.notifications.demo import TEMPLATES
from apps.notifications.models import EmailTemplate
from apps.notifications.rendering import conditions_hold
from apps.notifications.services import render_template


def _context() -> dict:
    return {
        "invoice": {
            "kind": "invoice",
            "number": "INV-2026-00005",
            "issue_date": registry.date_text(date(2026, 11, 26)),
            "due_date": registry.date_text(date(2026, 12, 26)),
            "total_gross": "14.43",
            "currency": "EUR",
        },
        "company": {"name": "EuroTrade Goods B.V."},
        "customer": {"name": "Küchenwelt GmbH"},
        "order": {"number": "SO-2026-00001", "customer_reference": ""},
        "today": registry.Day(date(2026, 11, 27)),
    }


def _template(**parts: str) -> EmailTemplate:
    return EmailTemplate(name="t", event="invoice.posted", **parts)


def test_a_message_prints_days_in_its_language():
    template = _template(
        subject_en="Due {{ invoice.due_date }}",
        subject_zh="请于 {{ invoice.due_date }} 前付款",
        body_text_en="Sent {{ today }}",
        body_text_zh="{{ today }} 发出",
    )
    english = render_template(template, _context(), "en")
    chinese = render_template(template, _context(), "zh")
    assert (english.subject, english.body_text) == ("Due 26 Dec 2026", "Sent 27 Nov 2026")
    assert (chinese.subject, chinese.body_text) == ("请于 2026年12月26日 前付款", "2026年11月27日 发出")


def test_the_demo_invoice_mail_prints_its_days_for_people():
    parts = {part: text for part, text in TEMPLATES["invoice"].items() if part not in ("name", "event")}
    template = _template(**parts)
    english = render_template(template, _context(), "en")
    assert "of 26 Nov 2026" in english.body_text and "payable by 26 Dec 2026" in english.body_text
    assert "2026-12-26" not in english.body_text and "2026-12-26" not in english.body_html
    chinese = render_template(template, _context(), "zh")
    assert "2026年12月26日" in chinese.body_text and "2026-12-26" not in chinese.body_text


def test_the_variables_stay_iso_for_conditions_and_the_preview():
    context = _context()
    assert context["invoice"]["due_date"] == "2026-12-26"
    assert conditions_hold([{"field": "invoice.due_date", "operator": "lt", "value": "2027-01-01"}], context)
    assert not conditions_hold(
        [{"field": "invoice.due_date", "operator": "gt", "value": "2027-01-01"}], context
    )
    render_template(_template(subject_en="{{ invoice.due_date }}"), context, "en")
    assert context["invoice"]["due_date"] == "2026-12-26"  # rendering changes no variable
    assert registry.date_text(None) == ""


@override_settings(TIME_ZONE="Europe/Amsterdam")
def test_a_moment_is_printed_as_its_local_day():
    shipped = registry.date_text(datetime(2026, 11, 26, 23, 30, tzinfo=UTC))
    assert shipped == "2026-11-26T23:30:00+00:00"
    assert registry.days_as_read({"shipment": {"shipped_at": shipped}}, "en") == {
        "shipment": {"shipped_at": "27 Nov 2026"}
    }
