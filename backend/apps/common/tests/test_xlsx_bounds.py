"""XLSX uploads are bounded before and while parsing (apps/common/xlsx.py): a zip bomb is refused from its
declared sizes in well under a second with flat memory, and a sheet's rows, columns and cell lengths are
limited while it is streamed."""

import io
import resource
import time
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from apps.common import xlsx

pytestmark = pytest.mark.django_db

PRODUCTS = "/api/products/"


@pytest.fixture
def client(api, tenant3, make_user):
    return api(make_user(tenant3, username="boss"), tenant3)


def zip_bomb(unpacked_mb: int) -> bytes:
    """An XLSX-shaped archive whose sheet unpacks to `unpacked_mb` MB of XML whitespace (~1,000:1)."""
    buffer = io.BytesIO()
    chunk = b" " * (1024 * 1024)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            member.write(b'<worksheet><sheetData><row r="1">')
            for _ in range(unpacked_mb):
                member.write(chunk)
            member.write(b"</row></sheetData></worksheet>")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return zip_bomb(120)  # 120 MB unpacked (over twice the limit), about 120 KB packed


def test_zip_bomb_is_refused_quickly_with_flat_memory(client, bomb):
    assert len(bomb) < 1024 * 1024
    small = SimpleUploadedFile("small.csv", b"Article number,Name\nCT-1,Carton\n")
    started = time.monotonic()
    assert client.post(f"{PRODUCTS}import/?dry_run=1", {"file": small}, format="multipart").status_code == 202
    ordinary = time.monotonic() - started
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    response = client.post(
        f"{PRODUCTS}import/?dry_run=1", {"file": SimpleUploadedFile("bomb.xlsx", bomb)}, format="multipart"
    )
    elapsed = time.monotonic() - started
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == 400 and body["error"] == "import_file_too_large"
    assert "50 MB" in body["message"]
    # As quick as an ordinary small import (the archive's directory is read, nothing unpacked); the
    # margin absorbs a loaded test machine.
    assert elapsed < max(2.0, 3 * ordinary), (elapsed, ordinary)
    assert grown_kb < 50 * 1024, grown_kb  # the process's peak memory hardly moves: nothing was unpacked


def test_every_xlsx_reader_checks_the_archive(bomb):
    started = time.monotonic()
    with pytest.raises(xlsx.XlsxRefused) as refused:
        xlsx.xlsx_rows(bomb)
    assert time.monotonic() - started < 0.5
    assert refused.value.error == "import_file_too_large"
    from apps.eudr import delivery_file

    upload = SimpleUploadedFile("bomb.xlsx", bomb)
    with pytest.raises(ValueError):
        delivery_file.parse_delivery_file(upload)


def workbook(rows, dimension: str | None = None) -> bytes:
    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    raw = buffer.getvalue()
    if dimension is None:
        return raw
    # Rewrite the sheet's declared dimension (openpyxl's write-only mode writes none).
    source = zipfile.ZipFile(io.BytesIO(raw))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetData>", f'<dimension ref="{dimension}"/><sheetData>'.encode(), 1)
            target.writestr(info, data)
    return out.getvalue()


def test_rows_columns_and_cell_length_are_limited():
    too_many_rows = workbook([["x"]] * 50)
    with pytest.raises(xlsx.XlsxRefused) as refused:
        list(xlsx.xlsx_rows(too_many_rows, max_rows=20))
    assert refused.value.error == "import_too_many_rows"

    wide = workbook([["x"] * 300])
    with pytest.raises(xlsx.XlsxRefused) as refused:
        list(xlsx.xlsx_rows(wide))
    assert refused.value.error == "import_too_many_columns"

    long_cell = workbook([["x" * (xlsx.MAX_CELL_CHARS + 1)]])
    with pytest.raises(xlsx.XlsxRefused) as refused:
        list(xlsx.xlsx_rows(long_cell))
    assert refused.value.error == "import_cell_too_long"


def test_a_declared_huge_dimension_does_not_pad_rows():
    raw = workbook([["Article number", "Name"], ["CT-1", "Carton"]], dimension="A1:XFD1048576")
    started = time.monotonic()
    rows = list(xlsx.xlsx_rows(raw))
    assert time.monotonic() - started < 2
    assert rows == [(1, ["Article number", "Name"]), (2, ["CT-1", "Carton"])]


def test_a_sheet_of_many_blank_rows_is_refused_not_walked(client):
    # 30,000 blank rows then one row: counted while streamed, refused at the limit (20,001 for imports).
    buffer = io.BytesIO()
    rows = b"".join(
        b'<row r="%d"><c r="A%d" t="inlineStr"><is><t></t></is></c></row>' % (i, i) for i in range(1, 30_001)
    )
    base = workbook([["Article number", "Name"]])
    source = zipfile.ZipFile(io.BytesIO(base))
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</sheetData>", rows + b"</sheetData>", 1).replace(
                    b'<row r="1">', b'<row r="0">', 1
                )
            target.writestr(info, data)
    response = client.post(
        f"{PRODUCTS}import/?dry_run=1",
        {"file": SimpleUploadedFile("blank.xlsx", buffer.getvalue())},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["error"] in ("import_too_many_rows", "import_file_empty")
