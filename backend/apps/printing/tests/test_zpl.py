"""ZPL carton labels: escaping, the QR payload, UTF-8, scaling by dpi and label size."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from apps.eudr.models import CartonLabel
from apps.printing import zpl

pytestmark = pytest.mark.django_db

FIELD_DATA = re.compile(r"\^FD(.*?)\^FS", re.S)


def label_of(w, in_tenant, **changes) -> CartonLabel:
    with in_tenant(w.tenant3):
        label = CartonLabel.objects.select_related("raw_material__parent_vendor", "product").get(
            pk=w.labels[0].pk
        )
    for key, value in changes.items():
        setattr(label, key, value)
    return label


def render(label, template="default", dpi=203, width=100, height=150):
    url = f"https://trace.example.com/eudrtrace/{label.code}"
    layout = zpl.carton_layout(label, url, template=template, dpi=dpi, width_mm=width, height_mm=height)
    return layout, zpl.to_zpl(layout)


@pytest.mark.parametrize("template", zpl.TEMPLATES)
def test_a_value_cannot_inject_zpl(printing_world, in_tenant, template):
    hostile = "M^XZ^XA~JR\\1F"
    label = label_of(printing_world, in_tenant, container=hostile, purchase_order="PO~HS^XZ")
    _, text = render(label, template)
    assert text.count("^XA") == 1 and text.count("^XZ") == 1
    assert "~" not in text
    data = FIELD_DATA.findall(text)
    assert data and all("^" not in d and "~" not in d for d in data)
    printed = [zpl.unescape_field(d) for d in data]
    assert any(hostile in p for p in printed)
    assert any("PO~HS^XZ" in p for p in printed)
    # every data field is read with ^FH, so the escapes are decoded by the printer
    assert text.count("^FD") == text.count("^FH\\^FD")


@pytest.mark.parametrize("template", zpl.TEMPLATES)
def test_qr_payload_is_the_trace_url(printing_world, in_tenant, template):
    import zxingcpp

    label = label_of(printing_world, in_tenant)
    layout, text = render(label, template)
    url = f"https://trace.example.com/eudrtrace/{label.code}"
    qr = re.search(r"\^BQN,2,(\d+)\^FH\\\^FD(.*?)\^FS", text)
    assert qr is not None
    assert 1 <= int(qr.group(1)) <= 10
    assert zpl.unescape_field(qr.group(2)) == f"MA,{url}"
    # The preview's modules are a real QR code of the same URL.
    modules = next(e for e in layout.elements if isinstance(e, zpl.QR)).modules
    size = len(modules) + 8
    image = Image.new("L", (size * 4, size * 4), 255)
    for y, row in enumerate(modules):
        for x, cell in enumerate(row):
            if cell == "1":
                image.paste(0, ((x + 4) * 4, (y + 4) * 4, (x + 5) * 4, (y + 5) * 4))
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [url]


def test_same_information_as_the_pdf_label(printing_world, in_tenant):
    label = label_of(printing_world, in_tenant)
    fields = zpl.label_fields(label)
    _, text = render(label, "default")
    printed = " ".join(zpl.unescape_field(d) for d in FIELD_DATA.findall(text))
    for key in ("code", "article", "batch", "po", "container", "origin", "weight", "supplier"):
        assert fields[key] and fields[key] in printed, key
    _, compact = render(label, "compact", width=100, height=50)
    printed = " ".join(zpl.unescape_field(d) for d in FIELD_DATA.findall(compact))
    for key in ("code", "article", "batch", "po", "container", "weight"):
        assert fields[key] in printed, key


def test_utf8_and_a_cjk_font_for_chinese(printing_world, in_tenant):
    label = label_of(printing_world, in_tenant)
    label.product.name = "出口纸箱 600x400"
    _, text = render(label)
    assert "^CI28" in text
    assert "出口纸箱" in text
    line = next(line for line in text.splitlines() if "出口纸箱" in line)
    assert zpl.CJK_FONT in line


SIZES = {
    "default": [(100, 150), (102, 152), (76, 127)],
    "compact": [(100, 50), (76, 51), (60, 40)],
}


@pytest.mark.parametrize("dpi", [203, 300, 600])
@pytest.mark.parametrize("template", zpl.TEMPLATES)
def test_scaled_to_dpi_and_label_size(printing_world, in_tenant, dpi, template):
    label = label_of(printing_world, in_tenant)
    for width, height in SIZES[template]:
        layout, text = render(label, template, dpi=dpi, width=width, height=height)
        assert f"^PW{round(width * dpi / 25.4)}" in text
        assert f"^LL{round(height * dpi / 25.4)}" in text
        for element in layout.elements:
            assert 0 <= element.x < layout.width and 0 <= element.y < layout.height, (width, height, element)
            if isinstance(element, zpl.Text):
                assert element.x + element.width <= layout.width, element
                assert element.y + element.height <= layout.height, element
        qr = next(e for e in layout.elements if isinstance(e, zpl.QR))
        assert qr.x + (len(qr.modules) + 2) * qr.magnification <= layout.width


def test_higher_resolution_gets_bigger_modules(printing_world, in_tenant):
    label = label_of(printing_world, in_tenant)
    small, _ = render(label, "compact", dpi=203, width=60, height=40)
    large, _ = render(label, "compact", dpi=600, width=60, height=40)
    qr_small = next(e for e in small.elements if isinstance(e, zpl.QR))
    qr_large = next(e for e in large.elements if isinstance(e, zpl.QR))
    assert qr_large.magnification > qr_small.magnification
    text_small = next(e for e in small.elements if isinstance(e, zpl.Text))
    text_large = next(e for e in large.elements if isinstance(e, zpl.Text))
    assert text_large.height > text_small.height


def test_copies_and_copy_note(printing_world, in_tenant):
    label = label_of(printing_world, in_tenant)
    layout = zpl.carton_layout(
        label,
        "https://t/eudrtrace/X",
        template="compact",
        dpi=203,
        width_mm=100,
        height_mm=50,
        copy_note="COPY 2",
    )
    text = zpl.to_zpl(layout, copies=3)
    assert "^PQ3" in text and "COPY 2" in text


def test_escape_round_trip():
    for value in ["plain", "a^b~c\\d", "换行\n", "\x00\x1f", "_under_"]:
        escaped = zpl.escape_field(value)
        assert "^" not in escaped and "~" not in escaped and "\n" not in escaped
        assert zpl.unescape_field(escaped) == value
