"""Reading an uploaded XLSX workbook with bounded time and memory (every XLSX upload goes through here).

An XLSX file is a zip archive: 1 MB on the wire can unpack to gigabytes (a zip bomb), a sheet can declare
a million columns, a cell can hold megabytes. Before anything is parsed, the archive's declared sizes are
checked (Python's zipfile never unpacks a member past its declared size, and a member that claims less
than it holds fails its CRC check); then the first sheet is read in openpyxl's streaming read-only mode,
row by row, with limits on rows (blank ones too), columns and cell length. Every refusal is an
`XlsxRefused` (a ValueError) with a message for the user and a stable `error` key.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _

from apps.common.errors import CommonErrorCode

MAX_UNPACKED_BYTES = 50 * 1024 * 1024
"""The archive's members together, unpacked (a 10,000-row import is a few MB)."""
MAX_MEMBERS = 200
MAX_COLUMNS = 200
MAX_CELL_CHARS = 10_000
MAX_SHEET_ROWS = 100_000
"""Rows read, blank ones included: a sheet of a million empty rows is refused, not walked."""


class XlsxRefused(ValueError):
    def __init__(self, message: str, *, error: str) -> None:
        super().__init__(message)
        self.message = message
        self.error = error


def check_archive(raw: bytes, *, max_unpacked: int = MAX_UNPACKED_BYTES) -> None:
    """Refuses an archive that is not a zip, has too many members, or unpacks to more than
    `max_unpacked` bytes by its own declaration. Reads only the central directory."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise XlsxRefused(
            _("The file is not a readable XLSX workbook."), error=CommonErrorCode.IMPORT_FILE_FORMAT
        ) from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise XlsxRefused(
                _("The file is not a readable XLSX workbook."), error=CommonErrorCode.IMPORT_FILE_FORMAT
            )
        unpacked = sum(max(info.file_size, 0) for info in infos)
    if unpacked > max_unpacked:
        raise XlsxRefused(
            _("The workbook unpacks to more than %(limit)s MB. Split it into smaller files.")
            % {"limit": max_unpacked // (1024 * 1024)},
            error=CommonErrorCode.IMPORT_FILE_TOO_LARGE,
        )


def xlsx_rows(
    raw: bytes,
    *,
    max_rows: int = MAX_SHEET_ROWS,
    max_columns: int = MAX_COLUMNS,
    max_cell_chars: int = MAX_CELL_CHARS,
) -> Iterator[tuple[int, list[Any]]]:
    """(row number, cell values) of the first worksheet, streamed. Raises XlsxRefused (also lazily,
    while iterating) for a damaged file, a workbook without a worksheet, or a limit passed."""
    check_archive(raw)
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged or foreign file
        raise XlsxRefused(
            _("The file is not a readable XLSX workbook."), error=CommonErrorCode.IMPORT_FILE_FORMAT
        ) from exc
    if not workbook.worksheets:
        workbook.close()
        raise XlsxRefused(_("The workbook has no worksheet."), error=CommonErrorCode.IMPORT_FILE_FORMAT)
    sheet = workbook.worksheets[0]
    if hasattr(sheet, "reset_dimensions"):
        # The declared dimension (e.g. A1:XFD1048576) would pad every row to 16,384 cells.
        sheet.reset_dimensions()
    return _rows(workbook, sheet, max_rows, max_columns, max_cell_chars)


def _rows(workbook, sheet, max_rows, max_columns, max_cell_chars) -> Iterator[tuple[int, list[Any]]]:
    try:
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > max_rows:
                raise XlsxRefused(
                    _("The file has more than %(limit)s rows. Split it into smaller files.")
                    % {"limit": f"{max_rows:,}"},
                    error=CommonErrorCode.IMPORT_TOO_MANY_ROWS,
                )
            cells = list(values)
            while cells and cells[-1] in (None, ""):
                cells.pop()
            if len(cells) > max_columns:
                raise XlsxRefused(
                    _("Row %(row)s has more than %(limit)s columns.") % {"row": number, "limit": max_columns},
                    error=CommonErrorCode.IMPORT_TOO_MANY_COLUMNS,
                )
            for cell in cells:
                if isinstance(cell, str) and len(cell) > max_cell_chars:
                    raise XlsxRefused(
                        _("A cell in row %(row)s is longer than %(limit)s characters.")
                        % {"row": number, "limit": f"{max_cell_chars:,}"},
                        error=CommonErrorCode.IMPORT_CELL_TOO_LONG,
                    )
            yield number, cells
    except XlsxRefused:
        raise
    except Exception as exc:  # a member that fails its CRC or its XML while streaming
        raise XlsxRefused(
            _("The file is not a readable XLSX workbook."), error=CommonErrorCode.IMPORT_FILE_FORMAT
        ) from exc
    finally:
        workbook.close()
