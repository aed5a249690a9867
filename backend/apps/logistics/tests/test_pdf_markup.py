"""Markup in PDFs (apps/common/pdf.py): text fields with `<b>&<` and tags are printed as text, never parsed.

Any warehouse user may rename a carrier: `Evil <b>carrier` made the loading list a 500 for everyone
(reportlab's paragraph parser), and other markup would have been obeyed. Every reportlab paragraph of
every PDF goes through `apps.common.pdf.paragraph`; the scan below fails on a module building its own.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pytest
from django.conf import settings
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import SimpleDocTemplate

from apps.common.pdf import escape_text, paragraph
from apps.eudr.dds.summary_pdf import _Styles
from apps.logistics.models import Dispatch, ShipmentCompany
from apps.salesorders.models import Shipment

from .test_dispatches import DAY

HOSTILE = 'Evil <b>carrier & <font size="40">co</font> <a href="http://x">link</a> <'


def _text(pdf: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)


def _render(flowables) -> bytes:
    buffer = BytesIO()
    SimpleDocTemplate(buffer).build(flowables)
    return buffer.getvalue()


@pytest.mark.django_db
def test_the_loading_list_prints_markup_in_every_text_field_as_text(sales_world, bare_order, api, in_tenant):
    w = sales_world
    order = bare_order([(w["carton"], "10")])
    with in_tenant(w["tenant3"]):
        customer = order.customer
        customer.name = "Bakkerij <b>&< de Vries"
        customer.delivery_city = "<i>Utrecht</i> & <"
        customer.save()
        shipment = Shipment.objects.create(
            shipment_number="SH-<b>&<", sales_order=order, warehouse=w["warehouse"]
        )
        carrier = ShipmentCompany.objects.create(name="Evil <b>carrier")
    client = api(w["warehouse_user"], w["tenant3"])
    # renamed through the API, as any warehouse user may
    client.patch(f"/api/logistics/shipment-companies/{carrier.pk}/", {"name": HOSTILE}, format="json")
    with in_tenant(w["tenant3"]):
        if ShipmentCompany.objects.get(pk=carrier.pk).name != HOSTILE:
            ShipmentCompany.objects.filter(pk=carrier.pk).update(name=HOSTILE)
        Dispatch.objects.create(
            sales_shipment=shipment,
            carrier=carrier,
            pickup_date=DAY,
            vehicle="<b>&<",
            tracking_number="<br/>&amp;<",
            packages=1,
        )
    response = client.get(f"/api/logistics/dispatches/loading-list/?date={DAY.isoformat()}")
    assert response.status_code == 200, response.content[:300]
    text = _text(response.content)
    for expected in (
        "Evil <b>carrier &",
        "<a href=",
        "SH-<b>&<",
        "Bakkerij <b>&< de Vries",
        "<b>&<",
        "&amp;<",
    ):
        assert expected in text, (expected, text)


def test_the_dds_summary_paragraphs_print_markup_as_text():
    styles = _Styles()
    pdf = _render([styles.p("Plot <b>&< 1\nsecond line"), styles.p("<font size=40>x</font>", "h2")])
    text = _text(pdf)
    assert "Plot <b>&< 1" in text and "second line" in text and "<font size=40>x</font>" in text


def test_the_helper_escapes_and_keeps_the_code_s_own_markup():
    assert escape_text("a<b>&c\nd") == "a&lt;b&gt;&amp;c<br/>d"
    style = ParagraphStyle("s")
    pdf = _render([paragraph("<b>&<", style, markup="<b>%s</b>"), paragraph(None, style)])
    assert "<b>&<" in _text(pdf)


def test_no_module_builds_a_reportlab_paragraph_itself():
    apps_dir = Path(settings.BASE_DIR) / "apps"
    offenders = [
        str(path.relative_to(apps_dir))
        for path in apps_dir.rglob("*.py")
        if "tests" not in path.parts
        and path.name != "pdf.py"
        and re.search(r"\bParagraph\(", path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "build paragraphs with apps.common.pdf.paragraph: " + ", ".join(offenders)
