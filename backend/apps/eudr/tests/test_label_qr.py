"""The label QR encoder (`apps/eudr/label_qr.py`): every symbol equal to segno's, bit for bit, for the
same data, level and mask; its own symbols decode (zxing-cpp) at every version; the label PDF keeps
its memory flat however many labels it streams."""

import random
import string
import tracemalloc
from decimal import Decimal

import pytest
import segno
import zxingcpp
from PIL import Image

from apps.eudr import label_qr
from apps.eudr.labels_pdf import LabelPrint, labels_pdf_stream

ALPHABET = string.ascii_letters + string.digits + "/:.-_?=&%"


def _text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def _segno_data(layout: label_qr.QrLayout, payload: bytes) -> bytes:
    """The data codewords segno writes: after a whole 4-bit terminator it pads with a full zero byte even
    on a byte boundary (ISO/IEC 18004 pads only to the boundary; readers ignore what follows the
    terminator), then the pad codewords."""
    data = layout.data_codewords(payload)
    used = 4 + (8 if layout.version <= 9 else 16) + 8 * len(payload)
    if used + 4 > layout.data_len * 8:
        return data
    cut = (used + 4) // 8
    return data[:cut] + (b"\x00" + b"\xec\x11" * layout.data_len)[: layout.data_len - cut]


CASES = [
    (length, level, mask) for length in (1, 14, 32, 56, 57, 90, 150) for level in "LMQH" for mask in range(8)
]
CASES += [(length, "M", 3) for length in (200, 250, 300, 500)]  # versions 9-15


@pytest.mark.parametrize(("length", "level", "mask"), CASES)
def test_symbols_equal_segnos(length, level, mask):
    text = _text(random.Random(length * 31 + mask), length)
    payload = text.encode("latin-1")
    version, chosen = label_qr.choose(len(payload), level)
    expected = segno.make(text, error=level.lower(), mask=mask, mode="byte", micro=False)
    assert (version, chosen) == (expected.version, expected.error.upper())
    layout = label_qr.layout(version, chosen, mask)
    ours = layout.matrix(layout.image_int_from_data(_segno_data(layout, payload)))
    assert ours == [list(row) for row in expected.matrix]


def _decode(layout: label_qr.QrLayout, payload: bytes, scale: int = 4) -> list[str]:
    image = Image.frombytes("1", (layout.stride, layout.side), layout.image(payload))
    image = Image.eval(image.convert("L"), lambda v: 255 - v)  # a set bit is a dark module
    image = image.crop((0, 0, layout.side, layout.side)).resize(
        (layout.side * scale, layout.side * scale), Image.NEAREST
    )
    return [result.text for result in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("length", [1, 20, 56, 61, 62, 63, 100, 213])
def test_own_symbols_decode_at_every_size(length):
    text = _text(random.Random(length), length)
    layout = label_qr.layout_for(length)
    assert layout.version <= label_qr.FAST_VERSIONS
    assert _decode(layout, text.encode("latin-1")) == [text]


@pytest.mark.parametrize("length", [20, 213, 214, 600, 2331])
def test_symbol_image_decodes_with_and_without_the_fast_layout(length):
    """Up to version 10 from the layout; longer payloads (a very long public base URL) through segno,
    same mask, same image format."""
    text = _text(random.Random(length), length)
    side, data = label_qr.symbol_image(text.encode("latin-1"))
    stride = (side + 7) // 8 * 8
    image = Image.frombytes("1", (stride, side), data)
    image = Image.eval(image.convert("L"), lambda v: 255 - v).crop((0, 0, side, side))
    image = image.resize((side * 4, side * 4), Image.NEAREST)
    assert [result.text for result in zxingcpp.read_barcodes(image)] == [text]


def test_label_urls_use_the_fixed_mask_and_level_m_or_better():
    url = "https://trace.example.com/eudrtrace/" + "A" * 20
    layout = label_qr.layout_for(len(url))
    assert (layout.version, layout.level, layout.mask) == (4, "M", label_qr.LABEL_MASK)
    assert _decode(layout, url.encode()) == [url]


def test_data_codewords_follow_the_standard():
    """Mode 0100, count, data, a 4-bit terminator, zero bits to the byte boundary, then 0xEC 0x11."""
    layout = label_qr.layout(1, "H", 0)
    assert layout.data_codewords(b"A") == bytes.fromhex("401410ec11ec11ec11")
    with pytest.raises(ValueError):
        layout.data_codewords(b"A" * 8)
    with pytest.raises(ValueError):
        label_qr.choose(3000)


def _labels(count: int):
    for n in range(count):
        yield LabelPrint(
            code=f"{n:020d}",
            article_number="CT-600",
            production_batch_code="20260101A",
            batch_sequence=n,
            purchase_order="PO-1",
            container=None,
            net_weight_kg=Decimal("0.450"),
            product_name="Export carton",
            country_name="",
            country_code="CN",
            supplier_name="Vendor",
        )


def _peak(count: int) -> int:
    tracemalloc.start()
    try:
        for _chunk in labels_pdf_stream(_labels(count), template="default", base_url="https://t.example"):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_pdf_memory_stays_flat():
    """Ten times the labels may add their page offsets (two integers a page), not their pages."""
    _peak(50)  # layouts and text caches built once
    small, large = _peak(500), _peak(5000)
    assert large - small < 4500 * 40
