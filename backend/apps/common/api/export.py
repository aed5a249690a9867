"""CSV and XLSX export of a list with its current filters, streamed row by row."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from apps.common.spreadsheet import csv_row, safe_text, xlsx_append

EXPORT_FORMATS = ("csv", "xlsx")

CSV_MEDIA_TYPE = "text/csv"
XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF_MEDIA_TYPE = "application/pdf"


def download_responses(*media_types: str) -> dict:
    """The `responses` of a download operation: the media types it really serves, so the schema says what a
    client will get (a file of any type, such as an attachment, is `*/*`)."""
    from drf_spectacular.types import OpenApiTypes

    return {(200, media_type): OpenApiTypes.BINARY for media_type in media_types}


# Every list export and import template: CSV or XLSX by `?format=`.
SPREADSHEET_RESPONSES = download_responses(CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE)
ANY_FILE_RESPONSES = download_responses("*/*")


class _Echo:
    def write(self, value: str) -> str:
        return value


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if timezone.is_aware(value) else value
    if isinstance(value, (date, Decimal, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    # Spreadsheet formula injection: apps/common/spreadsheet.py (one sanitiser for every writer).
    return safe_text(str(value))


def export_response(
    *,
    rows: Iterable[Any],
    columns: Sequence[tuple[str, str | Callable[[Any], Any]]],
    filename: str,
    fmt: str,
) -> HttpResponse | StreamingHttpResponse:
    """columns: (header, attribute path "a.b" or callable(row))."""
    if fmt not in EXPORT_FORMATS:
        raise ValidationError(
            {"format": [_("Choose one of: %(formats)s.") % {"formats": ", ".join(EXPORT_FORMATS)}]}
        )

    def value_of(row: Any, getter: str | Callable[[Any], Any]) -> Any:
        if callable(getter):
            return getter(row)
        value = row
        for part in getter.split("."):
            value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
            if value is None:
                return None
        return value

    headers = [str(header) for header, _getter in columns]

    def records() -> Iterator[list[Any]]:
        for row in rows:
            yield [_cell(value_of(row, getter)) for _header, getter in columns]

    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    if fmt == "csv":
        writer = csv.writer(_Echo())

        def stream() -> Iterator[str]:
            yield "\ufeff"  # BOM so that spreadsheet programs read UTF-8 (Chinese names)
            yield writer.writerow(csv_row(headers))
            for record in records():
                yield writer.writerow(csv_row(record))

        # Read inside the tenant by the middleware (apps/tenancy/streaming.py), like every streamed response.
        response = StreamingHttpResponse(stream(), content_type=f"{CSV_MEDIA_TYPE}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}-{stamp}.csv"'
        return response

    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(filename[:31])
    xlsx_append(sheet, headers)
    for record in records():
        xlsx_append(sheet, record)
    buffer = io.BytesIO()
    workbook.save(buffer)
    workbook_response = HttpResponse(buffer.getvalue(), content_type=XLSX_MEDIA_TYPE)
    workbook_response["Content-Disposition"] = f'attachment; filename="{filename}-{stamp}.xlsx"'
    return workbook_response
