"""Label exports: the PDF's QR codes decode to the public trace URL (rendered with PyMuPDF, decoded with
zxing-cpp), one page per label at label size, CSV rows; 10,000 labels generated in one request and
exported."""

import io

import fitz
import pytest
import zxingcpp
from PIL import Image

from apps.eudr.models import CartonLabel

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"
CARTONS = "/api/eudr/cartons/"
MM = 72 / 25.4


def decode_pages(pdf: bytes, pages: int | None = None) -> list[str]:
    document = fitz.open(stream=pdf, filetype="pdf")
    found = []
    for index, page in enumerate(document):
        if pages is not None and index >= pages:
            break
        pixmap = page.get_pixmap(dpi=200)
        image = Image.open(io.BytesIO(pixmap.tobytes("png")))
        found.extend(result.text for result in zxingcpp.read_barcodes(image))
    return found


@pytest.fixture
def labelled(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        w.delivery = factories.delivery(w.vendor_a, weight="100")
        w.line_a.product.name_zh = "出口纸箱"
        w.line_a.product.save()
        factories.generate(w.delivery, w.line_a, 3, container="MSKU1234567")
        w.codes = list(CartonLabel.objects.order_by("batch_sequence").values_list("code", flat=True))
    return w


@pytest.mark.parametrize(("template", "size_mm"), [("default", (100, 150)), ("compact", (100, 50))])
def test_pdf_qr_decodes_to_the_trace_url(labelled, api, settings, template, size_mm):
    w = labelled
    settings.PUBLIC_BASE_URL = "https://trace.example.com/"
    response = api(w.supplier_a, w.tenant3).get(
        f"{CARTONS}export/",
        {"format": "pdf", "template": template, "raw_material": w.delivery.pk, "ordering": "batch_sequence"},
    )
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    pdf = b"".join(response.streaming_content)
    document = fitz.open(stream=pdf, filetype="pdf")
    assert document.page_count == 3
    width, height = document[0].rect.width, document[0].rect.height
    assert (round(width / MM), round(height / MM)) == size_mm
    text = document[0].get_text()
    assert w.codes[0] in text
    assert "20261121A" in text and w.line_a.order.order_number in text
    assert decode_pages(pdf) == [f"https://trace.example.com/eudrtrace/{code}" for code in w.codes]


@pytest.mark.parametrize("template", ["default", "compact"])
def test_pdf_prints_the_widest_code_whole(labelled, api, in_tenant, template):
    """A code of the widest letters is printed whole (smaller), never cut with "...": a person types it
    when the QR code cannot be read."""
    w = labelled
    widest = "W" * len(w.codes[0])
    with in_tenant(w.tenant3):
        CartonLabel.objects.filter(code=w.codes[0]).update(code=widest)
    response = api(w.supplier_a, w.tenant3).get(
        f"{CARTONS}export/",
        {"format": "pdf", "template": template, "raw_material": w.delivery.pk, "ordering": "batch_sequence"},
    )
    text = fitz.open(stream=b"".join(response.streaming_content), filetype="pdf")[0].get_text()
    assert widest in text
    assert "..." not in text.splitlines()[0]


def test_pdf_shows_chinese_product_names(labelled, api, in_tenant):
    w = labelled
    with in_tenant(w.tenant3):
        w.line_a.product.name = "出口纸箱 600x400"
        w.line_a.product.save()
    response = api(w.purchaser, w.tenant3).get(
        f"{CARTONS}export/", {"format": "pdf", "raw_material": w.delivery.pk}
    )
    pdf = b"".join(response.streaming_content)
    assert "出口纸箱" in fitz.open(stream=pdf, filetype="pdf")[0].get_text()


def test_csv_export_with_filters(labelled, api):
    w = labelled
    response = api(w.purchaser, w.tenant3).get(
        f"{CARTONS}export/", {"format": "csv", "raw_material": w.delivery.pk, "ordering": "batch_sequence"}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode("utf-8-sig").strip().splitlines()
    assert lines[0].startswith("Code,QR URL,Production batch code,Batch sequence")
    assert len(lines) == 4
    assert lines[1].startswith(f"{w.codes[0]},http://testserver/eudrtrace/{w.codes[0]},20261121A,1,")
    assert "MSKU1234567" in lines[1]
    empty = api(w.purchaser, w.tenant3).get(
        f"{CARTONS}export/", {"format": "csv", "production_batch_code": "20990101A"}
    )
    assert len(b"".join(empty.streaming_content).decode("utf-8-sig").strip().splitlines()) == 1


def test_export_rejects_unknown_format_and_template(labelled, api):
    w = labelled
    client = api(w.purchaser, w.tenant3)
    assert client.get(f"{CARTONS}export/", {"format": "docx"}).status_code == 400
    assert client.get(f"{CARTONS}export/", {"format": "pdf", "template": "huge"}).status_code == 400


def test_ten_thousand_cartons_in_one_request_and_export(eudr_world, api, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        delivery = factories.delivery(w.vendor_a, weight="6000")
    client = api(w.supplier_a, w.tenant3)
    response = client.post(
        f"{RAW}{delivery.pk}/generate-cartons/",
        {
            "count": 10_000,
            "production_batch_code": "20261121A",
            "product": w.line_a.product_id,
            "purchase_order_line": w.line_a.pk,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["delivery"]["issued_cartons"] == 10_000
    assert data["delivery"]["weight"]["used_kg"] == "5000.000"
    with in_tenant(w.tenant3):
        assert CartonLabel.objects.filter(raw_material=delivery).count() == 10_000
        assert CartonLabel.objects.values("code").distinct().count() == 10_000
    csv = client.get(f"{CARTONS}export/", {"format": "csv", "raw_material": delivery.pk})
    assert sum(chunk.count(b"\n") for chunk in csv.streaming_content) == 10_001
    pdf = client.get(
        f"{CARTONS}export/", {"format": "pdf", "template": "compact", "raw_material": delivery.pk}
    )
    chunks = 0
    total = bytearray()
    for chunk in pdf.streaming_content:
        chunks += 1
        total.extend(chunk)
    assert chunks > 100  # streamed in pieces, not built whole
    document = fitz.open(stream=bytes(total), filetype="pdf")
    assert document.page_count == 10_000
    assert decode_pages(bytes(total), pages=1)[0].endswith("/eudrtrace/" + document[0].get_text().split()[0])
