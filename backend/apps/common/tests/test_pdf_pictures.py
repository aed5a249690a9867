"""The first page of every PDF the product makes, drawn as a picture and compared with its baseline.

A PDF whose layout breaks (a table running off the page, a lost font, a block drawn on top of another)
still holds all its text, so the tests that read its words pass; its picture does not. Each PDF is made
from the demo data, loaded on a fixed clock with fixed carton codes (config/fixed_clock.py): the same
records, dates, numbers and QR codes on every run, on any day. Its first page is drawn at DPI dots per inch
(PyMuPDF) and compared with apps/common/tests/pdf_pictures/<name>.png: a pixel differs when one of its
colours is off by more than CHANNEL_TOLERANCE, and the picture fails when more than PIXEL_TOLERANCE of
its pixels differ (a little anti-aliasing may move; a line of text may not).

A failing picture writes what it drew and a map of the differing pixels to var/reports/pdf-pictures/.
A PDF that changes on purpose: `make pdf-pictures-update` (PDF_PICTURES_UPDATE=1 on these tests) writes
the new baselines; look at each one before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pymupdf as fitz
import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.utils import translation

from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant
from config import fixed_clock

pytestmark = [pytest.mark.django_db]

BASELINES = Path(__file__).parent / "pdf_pictures"
REPORTS = Path(__file__).resolve().parents[4] / "var" / "reports" / "pdf-pictures"
UPDATE = os.environ.get("PDF_PICTURES_UPDATE") == "1"
DPI = 72
# Labels are small (a 50 x 25 mm label is 142 x 71 pixels at 72 dpi): drawn finer, so a moved line shows.
LABEL_DPI = 150
CHANNEL_TOLERANCE = 40
PIXEL_TOLERANCE = 0.002
# The demo loads at 08:00 UTC of the pictures' day (the browser pictures' day too: playwright.config.ts).
DAY = date(2026, 3, 2)
LOADED_AT = f"{DAY.isoformat()}T08:00:00+00:00"
TRACE_BASE = "https://trace.example.com"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo data on the fixed clock, loaded once for the module in a transaction rolled back at its end,
    so no other test sees it; its files in a folder of its own."""
    media = tmp_path_factory.mktemp("pdf-pictures-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            fixed_clock.start(LOADED_AT, "steps")
            try:
                call_command("load_demo", verbosity=0)
            finally:
                fixed_clock.stop()
            yield {"media": media, "tenant": Tenant.objects.get(pk=3)}
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def in_demo(demo, settings):
    """Inside the demo tenant, its files where the demo saved them, the clock at 09:00 of the demo's day."""
    settings.MEDIA_ROOT = demo["media"]
    fixed_clock.start(f"{DAY.isoformat()}T09:00:00+00:00", "steps")
    try:
        with tenant_context(demo["tenant"]):
            yield demo["tenant"]
    finally:
        fixed_clock.stop()
        translation.deactivate()


# -- the PDFs ------------------------------------------------------------------------------------------


def _invoice(kind: str) -> bytes:
    from apps.salesorders.models import Invoice
    from apps.salesorders.pdf import invoice_pdf

    invoice = Invoice.objects.filter(kind=kind, status="posted").order_by("number").first()
    assert invoice is not None, f"the demo has a posted {kind}"
    return invoice_pdf(invoice)


def _delivery_note() -> bytes:
    from apps.salesorders.models import Shipment
    from apps.salesorders.pdf import delivery_note_pdf

    shipment = Shipment.objects.exclude(lines=None).order_by("shipment_number").first()
    assert shipment is not None, "the demo has a sales shipment"
    return delivery_note_pdf(shipment)


def _labels(template: str) -> bytes:
    from apps.eudr.labels_pdf import labels_pdf_stream
    from apps.eudr.models import CartonLabel
    from apps.eudr.selectors import label_prints

    labels = CartonLabel.objects.order_by("production_batch_code", "batch_sequence", "id")[:2]
    return b"".join(labels_pdf_stream(label_prints(labels), template=template, base_url=TRACE_BASE))


def _dds_summary() -> bytes:
    from apps.eudr.dds.checks import ERROR
    from apps.eudr.dds.package import check_delivery
    from apps.eudr.dds.statement import build_statement
    from apps.eudr.dds.summary_pdf import build_summary_pdf
    from apps.eudr.models import RawMaterialDelivery

    for delivery in RawMaterialDelivery.objects.select_related("parent_vendor").order_by("delivery_number"):
        facts, checks = check_delivery(delivery)
        if not any(check.severity == ERROR for check in checks):
            dds = build_statement(facts, checks=checks, job_id="00000000pictures")
            documents = [f"files/{kind}/{name}" for kind, _file, name in facts.files]
            return build_summary_pdf(facts, dds=dds, checks=checks, documents=documents)
    raise AssertionError("the demo has a raw material delivery ready for its due diligence statement")


def _annual_report(language: str) -> Callable[[], bytes]:
    def make() -> bytes:
        from apps.duediligence.annual_report import annual_report_pdf

        tenant = Tenant.objects.get(pk=3)
        return annual_report_pdf(DAY.year, tenant.legal_name or tenant.name, language=language)

    return make


def _loading_list() -> bytes:
    from apps.logistics.loading_list_pdf import loading_list_pdf
    from apps.logistics.models import Dispatch
    from apps.logistics.selectors import dispatches

    rows = list(
        dispatches(Dispatch.objects.all()).filter(pickup_date=DAY).order_by("carrier__name", "vehicle", "id")
    )
    assert rows, "the demo has pickups on its day"
    tenant = Tenant.objects.get(pk=3)
    return loading_list_pdf(day=DAY, company=tenant.legal_name or tenant.name, dispatches=rows)


def _purchase_order(language: str) -> Callable[[], bytes]:
    def make() -> bytes:
        from apps.purchaseorders.models import PurchaseOrder
        from apps.purchaseorders.pdf import purchase_order_pdf

        order = (
            PurchaseOrder.objects.exclude(status="draft").exclude(lines=None).order_by("order_number").first()
        )
        assert order is not None, "the demo has a confirmed purchase order with lines"
        return purchase_order_pdf(order, language)

    return make


# name: (how the product makes it, the dots per inch of its picture)
PDFS: dict[str, tuple[Callable[[], bytes], int]] = {
    "invoice": (lambda: _invoice("invoice"), DPI),
    "credit-note": (lambda: _invoice("credit_note"), DPI),
    "delivery-note": (_delivery_note, DPI),
    "labels-default": (lambda: _labels("default"), LABEL_DPI),
    "labels-compact": (lambda: _labels("compact"), LABEL_DPI),
    "dds-summary": (_dds_summary, DPI),
    "annual-report-en": (_annual_report("en"), DPI),
    "annual-report-zh": (_annual_report("zh"), DPI),
    "loading-list": (_loading_list, DPI),
    "purchase-order-en": (_purchase_order("en"), DPI),
    "purchase-order-zh": (_purchase_order("zh"), DPI),
}


# -- the pictures --------------------------------------------------------------------------------------


def first_page_png(pdf: bytes, dpi: int) -> bytes:
    with fitz.open(stream=pdf, filetype="pdf") as document:
        return document[0].get_pixmap(dpi=dpi, alpha=False).tobytes("png")


def differing_pixels(drawn: fitz.Pixmap, baseline: fitz.Pixmap) -> tuple[int, bytes]:
    """How many pixels differ by more than CHANNEL_TOLERANCE in a colour, and a map of them (PNG)."""
    n = drawn.n
    a, b = drawn.samples, baseline.samples
    marks = bytearray(b"\xff" * (drawn.width * drawn.height))
    count = 0
    for pixel in range(drawn.width * drawn.height):
        start = pixel * n
        for channel in range(start, start + n):
            if abs(a[channel] - b[channel]) > CHANNEL_TOLERANCE:
                count += 1
                marks[pixel] = 0
                break
    diff = fitz.Pixmap(fitz.csGRAY, drawn.width, drawn.height, bytes(marks), False)
    return count, diff.tobytes("png")


@pytest.mark.parametrize("name", list(PDFS))
def test_the_first_page_looks_as_its_baseline(in_demo, name):
    make, dpi = PDFS[name]
    png = first_page_png(make(), dpi)
    baseline_path = BASELINES / f"{name}.png"
    if UPDATE:
        BASELINES.mkdir(parents=True, exist_ok=True)
        baseline_path.write_bytes(png)
        return
    assert baseline_path.exists(), f"no baseline for {name}: make pdf-pictures-update, look at it, commit it"
    drawn, baseline = fitz.Pixmap(png), fitz.Pixmap(baseline_path.read_bytes())
    if (drawn.width, drawn.height, drawn.n) != (baseline.width, baseline.height, baseline.n):
        REPORTS.mkdir(parents=True, exist_ok=True)
        (REPORTS / f"{name}.png").write_bytes(png)
        pytest.fail(
            f"{name}: the first page is {drawn.width}x{drawn.height}, its baseline "
            f"{baseline.width}x{baseline.height} (drawn: {REPORTS / f'{name}.png'})"
        )
    count, diff = differing_pixels(drawn, baseline)
    ratio = count / (drawn.width * drawn.height)
    if ratio > PIXEL_TOLERANCE:
        REPORTS.mkdir(parents=True, exist_ok=True)
        (REPORTS / f"{name}.png").write_bytes(png)
        (REPORTS / f"{name}-diff.png").write_bytes(diff)
        pytest.fail(
            f"{name}: {count} pixels ({ratio:.2%}) differ from the baseline, more than {PIXEL_TOLERANCE:.2%} "
            f"(drawn: {REPORTS / f'{name}.png'}, differences in black: {REPORTS / f'{name}-diff.png'})"
        )


# The carton labels are a hand-written PDF for label printers, in the standard fonts a printer driver has
# (apps/eudr/labels_pdf.py); every other PDF is a company document and embeds its font.
DOCUMENTS = [name for name in PDFS if not name.startswith("labels-")]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_font_of_a_document_is_embedded(in_demo, name):
    """What PDF/A asks (the Factur-X invoice is PDF/A-3) and what makes a document look the same in every
    reader: no font left for the reader to substitute, on any page."""
    make, _dpi = PDFS[name]
    with fitz.open(stream=make(), filetype="pdf") as document:
        fonts = {
            font[3]: font[1] for page in range(document.page_count) for font in document.get_page_fonts(page)
        }
    assert fonts, f"{name} uses no font"
    assert {base: ext for base, ext in fonts.items() if ext == "n/a"} == {}, f"{name}: fonts not embedded"
    # subsets of the one font: "ABCDEF+NotoSansSC-Regular", "ABCDEF+NotoSansSC-Bold"
    assert {base.split("+")[-1] for base in fonts} <= {"NotoSansSC-Regular", "NotoSansSC-Bold"}, fonts


def test_the_comparison_sees_a_moved_block():
    """The tolerance lets anti-aliasing through but not a layout change: a box moved by a few points."""

    def page(offset: float) -> fitz.Pixmap:
        document = fitz.open()
        sheet = document.new_page(width=595, height=842)
        sheet.draw_rect(fitz.Rect(50 + offset, 50, 250 + offset, 120), color=(0, 0, 0), fill=(0, 0, 0))
        sheet.insert_text((60, 200), "Invoice 2026-0001", fontsize=12)
        return fitz.Pixmap(sheet.get_pixmap(dpi=DPI, alpha=False).tobytes("png"))

    same, _ = differing_pixels(page(0), page(0))
    moved, _ = differing_pixels(page(0), page(6))
    assert same == 0
    assert moved / (page(0).width * page(0).height) > PIXEL_TOLERANCE
