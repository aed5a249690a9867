"""Import of master data from CSV and XLSX files: a template, a dry run with row errors, an
all-or-nothing commit.

A resource declares an `Importer` (its columns, how each cell is read, the natural key used to find
an existing row) and its ViewSet mixes in `ImportMixin`. Each row is validated by the resource's own
API serializer, so a file row and a form are judged by exactly the same rules.

How to plug a resource in::

    from apps.common.imports import Column, ImportMixin, Importer, boolean, lookup, upper

    class SupplierImporter(Importer):
        model = Supplier
        serializer_class = SupplierSerializer   # validates each row (partial update for existing rows)
        natural_key = "number"                  # a row whose number exists is an update, else a create
        columns = [
            Column("number", "Number", required=True, example="S-1001"),
            Column("name", "Name", required=True, example="Evergreen Carton Factory No.1"),
            Column("parent_vendor", "Parent vendor", required=True,
                   parser=lookup(ParentVendor, "code", "name"), empty=None, example="PV-SEP"),
            Column("country", "Country", parser=upper, example="CN"),
            Column("is_active", "Active", parser=boolean, empty=OMIT, example="yes"),
        ]

        def save_row(self, serializer, *, created):   # optional: write through the area's services
            return supplier_create(data=serializer.validated_data) if created else ...

    class SupplierViewSet(ImportMixin, TenantModelViewSet):
        importer_class = SupplierImporter

which adds to the list route:

- `GET  <list>/import-template/?format=csv|xlsx`: header row + one example row (the `example` values);
- `POST <list>/import/?dry_run=1` (multipart `file`): validates every row, writes nothing, returns
  `{rows_total, rows_valid, rows_invalid, to_create, to_update, errors: [{row, field, column, message}],
  errors_truncated, ignored_columns, dry_run}`;
- `POST <list>/import/`: the same validation, then every row is written in one transaction; if any row
  is bad nothing is written and the answer is 400 `import_rejected` with the same report in `data`.

Rules of the file:

- CSV (UTF-8 with or without BOM; comma, semicolon or tab separated) or XLSX (first sheet); at most
  `MAX_IMPORT_BYTES` (5 MB) and `MAX_IMPORT_ROWS` (10,000) data rows; blank rows are skipped.
- Row 1 holds the headers (matched case-insensitively, also by field name); unknown columns are
  ignored and listed in the report; every required column must be present.
- `row` in an error is the spreadsheet's row number (the header is row 1).
- Updates are partial: a column missing from the file leaves that field unchanged; an empty cell sets the
  column's `empty` value (`""` for text, `None` to clear a number or a reference, `OMIT` to leave it).
- The natural key may appear only once per file.

Permissions: the import actions need the model's add and change permissions; the template needs add.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.db.models import Model
from django.http import HttpResponse
from django.utils.encoding import force_str
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from apps.common.api.export import SPREADSHEET_RESPONSES
from apps.common.api.import_serializers import ImportJobSerializer
from apps.common.errors import CommonErrorCode, ImportFileError, ImportRejected
from apps.common.spreadsheet import csv_row, xlsx_append

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_ROWS = 10_000
MAX_REPORTED_ERRORS = 1000
TEMPLATE_FORMATS = ("csv", "xlsx")


class _Omit:
    def __repr__(self) -> str:
        return "OMIT"


OMIT = _Omit()
"""An empty cell of a column with `empty=OMIT` leaves the field out (the default, or unchanged)."""


class CellError(ValueError):
    """Raised by a parser with the message shown for that cell."""


# Parsers: (text of a non-empty cell, importer) -> value given to the serializer. -----------------


def text(value: str, importer: Importer) -> str:
    return value


def upper(value: str, importer: Importer) -> str:
    return value.upper()


def decimal(value: str, importer: Importer) -> Decimal:
    cleaned = value.replace(" ", "").replace("\u00a0", "")
    if "," in cleaned and "." not in cleaned and cleaned.count(",") == 1:
        cleaned = cleaned.replace(",", ".")  # 1,5 as written in most of Europe
    try:
        number = Decimal(cleaned)
    except InvalidOperation as exc:
        raise CellError(gettext("Enter a number.")) from exc
    if not number.is_finite():
        raise CellError(gettext("Enter a number."))
    return number


def integer(value: str, importer: Importer) -> int:
    number = decimal(value, importer)
    if number != number.to_integral_value():
        raise CellError(gettext("Enter a whole number."))
    return int(number)


TRUE_WORDS = {"yes", "y", "true", "1", "x", "active", "ja", "oui", "si", "sí", "是", "有效"}
FALSE_WORDS = {"no", "n", "false", "0", "inactive", "nein", "nee", "non", "否", "无效"}


def boolean(value: str, importer: Importer) -> bool:
    word = value.strip().casefold()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise CellError(gettext("Enter yes or no."))


def choice(choices) -> Callable[[str, Importer], str]:
    """A model `TextChoices`: the value ("pcs") or its English label ("Pieces"), any case."""

    def parse(value: str, importer: Importer) -> str:
        word = value.strip().casefold()
        for key, label in choices.choices:
            if word in (str(key).casefold(), force_str(label).casefold()):
                return key
        allowed = ", ".join(str(key) for key in choices.values)
        raise CellError(gettext("Choose one of: %(choices)s.") % {"choices": allowed})

    return parse


def lookup(model: type[Model], *fields: str) -> Callable[[str, Importer], Any]:
    """A reference given by one of `fields` (e.g. code, then name; case-insensitive) -> the row's id.

    All rows of `model` in the tenant are read once per import, not once per row.
    """

    def parse(value: str, importer: Importer) -> Any:
        cache_key = (model, fields)
        index = importer._lookups.get(cache_key)
        if index is None:
            index = {}
            for row in model._default_manager.values("pk", *fields):
                for name in reversed(fields):  # the first field wins on a clash
                    if row[name] not in (None, ""):
                        index[str(row[name]).strip().casefold()] = row["pk"]
            importer._lookups[cache_key] = index
        found = index.get(value.strip().casefold())
        if found is None:
            raise CellError(gettext("“%(value)s” was not found.") % {"value": value})
        return found

    return parse


@dataclass(frozen=True)
class Column:
    field: str
    header: str
    required: bool = False
    parser: Callable[[str, Importer], Any] = text
    empty: Any = ""
    example: Any = ""
    aliases: tuple[str, ...] = ()


Progress = Callable[[str, int, int], None]
PROGRESS_BATCH_ROWS = 100
"""Progress is reported every this many rows (and at the start and end of each phase)."""


class _Batched:
    """Calls `progress` at most once per PROGRESS_BATCH_ROWS rows of a phase."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.last: tuple[str, int] | None = None

    def __call__(self, phase: str, done: int, total: int, *, force: bool = False) -> None:
        if self.progress is None:
            return
        if (
            not force
            and self.last is not None
            and self.last[0] == phase
            and done - self.last[1] < PROGRESS_BATCH_ROWS
        ):
            return
        self.last = (phase, done)
        self.progress(phase, done, total)


def _batched(progress: Progress | None) -> _Batched:
    return progress if isinstance(progress, _Batched) else _Batched(progress)


@dataclass
class RowResult:
    row: int
    serializer: serializers.Serializer
    created: bool
    extra: dict


def _normalize_header(value: str) -> str:
    return re.sub(r"[\s_]+", " ", value.replace("*", "")).strip().casefold()


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return format(Decimal(repr(value)), "f")
    if isinstance(value, datetime):
        return value.date().isoformat() if not value.time() else value.isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    text_value = str(value).strip()
    if text_value.startswith("'") and len(text_value) > 1 and text_value[1] in "=+-@":
        text_value = text_value[1:]  # our own exports protect formula-like text with a quote
    return text_value


def read_table(upload) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
    """(headers, iterator of (spreadsheet row number, cells as text)) of a CSV or XLSX upload."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_IMPORT_BYTES:
        raise ImportFileError(
            _("The file is larger than %(limit)s MB. Split it into smaller files.")
            % {"limit": MAX_IMPORT_BYTES // (1024 * 1024)},
            error=CommonErrorCode.IMPORT_FILE_TOO_LARGE,
        )
    raw = upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportFileError(
            _("The file is larger than %(limit)s MB. Split it into smaller files.")
            % {"limit": MAX_IMPORT_BYTES // (1024 * 1024)},
            error=CommonErrorCode.IMPORT_FILE_TOO_LARGE,
        )
    if not raw.strip():
        raise ImportFileError(_("The file is empty."), error=CommonErrorCode.IMPORT_FILE_EMPTY)
    name = (getattr(upload, "name", "") or "").lower()
    if raw[:4] == b"PK\x03\x04" or name.endswith(".xlsx"):
        rows = _xlsx_rows(raw)
    elif raw[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" or name.endswith(".xls"):
        raise ImportFileError(
            _("Old Excel files (.xls) are not supported. Save the file as .xlsx or CSV UTF-8."),
            error=CommonErrorCode.IMPORT_FILE_FORMAT,
        )
    else:
        rows = _csv_rows(raw)

    numbered = ((number, cells) for number, cells in rows if any(cell != "" for cell in cells))
    first = next(numbered, None)
    if first is None:
        raise ImportFileError(_("The file is empty."), error=CommonErrorCode.IMPORT_FILE_EMPTY)
    header_row, headers = first
    if header_row != 1:
        # Headers are expected in the first row; report rows as the spreadsheet numbers them anyway.
        pass

    def limited() -> Iterator[tuple[int, list[str]]]:
        for count, (number, cells) in enumerate(numbered, start=1):
            if count > MAX_IMPORT_ROWS:
                raise ImportFileError(
                    _("The file has more than %(limit)s rows. Split it into smaller files.")
                    % {"limit": f"{MAX_IMPORT_ROWS:,}"},
                    error=CommonErrorCode.IMPORT_TOO_MANY_ROWS,
                )
            yield number, cells

    return headers, limited()


def _csv_rows(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFileError(
            _("The file is not UTF-8 text. In your spreadsheet program save it as “CSV UTF-8”."),
            error=CommonErrorCode.IMPORT_FILE_ENCODING,
        ) from exc
    first_line = content.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first_line.count)
    reader = csv.reader(io.StringIO(content, newline=""), delimiter=delimiter)
    try:
        for number, cells in enumerate(reader, start=1):
            yield number, [_cell_text(cell) for cell in cells]
    except csv.Error as exc:
        raise ImportFileError(
            _("The CSV file could not be read: %(reason)s") % {"reason": str(exc)},
            error=CommonErrorCode.IMPORT_FILE_FORMAT,
        ) from exc


def _xlsx_rows(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    from apps.common.xlsx import XlsxRefused, xlsx_rows

    try:
        rows = xlsx_rows(raw, max_rows=MAX_IMPORT_ROWS * 2 + 1)
    except XlsxRefused as exc:
        raise ImportFileError(exc.message, error=exc.error) from exc
    try:
        for number, values in rows:
            yield number, [_cell_text(value) for value in values]
    except XlsxRefused as exc:
        raise ImportFileError(exc.message, error=exc.error) from exc


def _flatten_errors(detail: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(field path, message) pairs of a DRF error structure."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            path = key if not prefix else f"{prefix}.{key}"
            yield from _flatten_errors(value, path)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                yield from _flatten_errors(value, f"{prefix}.{index}" if prefix else str(index))
            else:
                yield prefix, force_str(value)
    elif isinstance(detail, (str, ErrorDetail)):
        yield prefix, force_str(detail)


class Importer:
    """Declarative importer of one resource (see the module docstring)."""

    model: type[Model]
    serializer_class: type[serializers.Serializer]
    natural_key: str
    columns: list[Column] = []
    resource_name = "records"

    def __init__(self, *, context: dict | None = None) -> None:
        self.context = context or {}
        self._lookups: dict = {}

    # Hooks a resource may override --------------------------------------------------------------

    def build_data(self, values: dict[str, Any], instance: Model | None) -> tuple[dict[str, Any], dict]:
        """(serializer data, extra values kept out of the serializer) of one row's parsed cells."""
        return values, {}

    def validate_extra(self, extra: dict, instance: Model | None) -> dict[str, str]:
        """Errors {field: message} of the extra values (checked with the row)."""
        return {}

    def save_row(self, serializer: serializers.Serializer, *, created: bool, extra: dict) -> Model:
        """Writes one valid row (inside the import's transaction)."""
        return serializer.save()

    # Templates ----------------------------------------------------------------------------------

    @classmethod
    def template_response(cls, fmt: str) -> HttpResponse:
        if fmt not in TEMPLATE_FORMATS:
            raise ImportFileError(
                _("Choose one of: %(choices)s.") % {"choices": ", ".join(TEMPLATE_FORMATS)},
                error=CommonErrorCode.VALIDATION_ERROR,
            )
        headers = [column.header for column in cls.columns]
        example = [column.example for column in cls.columns]
        filename = f"{cls.resource_name}-import-template"
        if fmt == "csv":
            text = io.StringIO()
            writer = csv.writer(text)
            writer.writerow(csv_row(headers))
            writer.writerow(csv_row(example))
            response = HttpResponse("\ufeff" + text.getvalue(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
            return response

        from openpyxl import Workbook
        from openpyxl.styles import Font
        from openpyxl.utils import get_column_letter

        workbook = Workbook()
        sheet = workbook.active
        sheet.title = cls.resource_name[:31]
        xlsx_append(sheet, headers)
        xlsx_append(sheet, example)
        for index, column in enumerate(cls.columns, start=1):
            cell = sheet.cell(row=1, column=index)
            cell.font = Font(bold=True)
            sheet.column_dimensions[get_column_letter(index)].width = max(12, len(column.header) + 4)
            sheet.cell(row=2, column=index).number_format = (
                "@" if isinstance(column.example, str) else "General"
            )
        sheet.freeze_panes = "A2"
        notes = workbook.create_sheet(force_str(_("Columns"))[:31])
        notes.append([force_str(_("Column")), force_str(_("Required")), force_str(_("Example"))])
        for column in cls.columns:
            notes.append(
                [
                    column.header,
                    force_str(_("yes")) if column.required else force_str(_("no")),
                    column.example,
                ]
            )
        buffer = io.BytesIO()
        workbook.save(buffer)
        response = HttpResponse(
            buffer.getvalue(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}.xlsx"'
        return response

    # The run ------------------------------------------------------------------------------------

    def _match_columns(self, headers: list[str]) -> tuple[dict[int, Column], list[str]]:
        by_name: dict[str, Column] = {}
        for column in self.columns:
            for name in (column.header, column.field, *column.aliases):
                by_name[_normalize_header(name)] = column
        matched: dict[int, Column] = {}
        ignored: list[str] = []
        seen: dict[str, str] = {}
        for index, header in enumerate(headers):
            key = _normalize_header(header)
            if not key:
                continue
            found = by_name.get(key)
            if found is None:
                ignored.append(header)
                continue
            column = found
            if column.field in seen:
                raise ImportFileError(
                    _("The column “%(header)s” appears more than once.") % {"header": column.header},
                    error=CommonErrorCode.IMPORT_DUPLICATE_COLUMN,
                )
            seen[column.field] = header
            matched[index] = column
        missing = [column.header for column in self.columns if column.required and column.field not in seen]
        if missing:
            raise ImportFileError(
                _("The file is missing required columns: %(columns)s. Download the template to see them.")
                % {"columns": ", ".join(missing)},
                error=CommonErrorCode.IMPORT_MISSING_COLUMNS,
                data={"missing_columns": missing},
            )
        return matched, ignored

    def _existing(self, keys: list[str]) -> dict[str, Model]:
        found: dict[str, Model] = {}
        unique = list(dict.fromkeys(k for k in keys if k))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            for instance in self.model._default_manager.filter(**{f"{self.natural_key}__in": chunk}):
                found[str(getattr(instance, self.natural_key))] = instance
        return found

    def check_file(self, upload) -> None:
        """The quick checks made before a job is created: size, format, the archive's bounds, the header
        row and its columns. Reads the header row only; rows are counted and bounded by `run`."""
        headers, _rows = read_table(upload)
        self._match_columns(headers)

    def run(self, upload, *, commit: bool, progress: Progress | None = None) -> dict[str, Any]:
        """Reads, validates and (with `commit`) writes every row; `progress(phase, done, total)` is called
        in batches with phase "reading", "validating" or "saving"."""
        report_progress = _batched(progress)
        headers, rows = read_table(upload)
        matched, ignored = self._match_columns(headers)
        key_column = next(c for c in self.columns if c.field == self.natural_key)
        key_index = next(i for i, c in matched.items() if c.field == self.natural_key)

        raw_rows = []
        for row in rows:
            raw_rows.append(row)
            report_progress("reading", len(raw_rows), 0)
        total = len(raw_rows)
        report_progress("validating", 0, total, force=True)
        existing = self._existing(
            [cells[key_index] if key_index < len(cells) else "" for _, cells in raw_rows]
        )

        errors: list[dict[str, Any]] = []
        invalid_rows: set[int] = set()
        valid: list[RowResult] = []
        first_seen: dict[str, int] = {}

        def add_error(row: int, field: str, message: str) -> None:
            invalid_rows.add(row)
            column = next((c.header for c in self.columns if c.field == field.split(".")[0]), "")
            errors.append({"row": row, "field": field, "column": column, "message": message})

        for done, (number, cells) in enumerate(raw_rows, start=1):
            if done > 1:
                report_progress("validating", done - 1, total)
            values: dict[str, Any] = {}
            row_ok = True
            for index, column in matched.items():
                cell = cells[index] if index < len(cells) else ""
                if cell == "":
                    if column.required:
                        add_error(number, column.field, gettext("This field is required."))
                        row_ok = False
                    elif column.empty is not OMIT:
                        values[column.field] = column.empty
                    continue
                try:
                    values[column.field] = column.parser(cell, self)
                except (CellError, DjangoValidationError) as exc:
                    message = exc.messages[0] if isinstance(exc, DjangoValidationError) else str(exc)
                    add_error(number, column.field, message)
                    row_ok = False

            key = str(values.get(self.natural_key, "") or "")
            if key:
                if key in first_seen:
                    add_error(
                        number,
                        self.natural_key,
                        gettext("“%(value)s” already appears in row %(row)s of this file.")
                        % {"value": key, "row": first_seen[key]},
                    )
                    continue
                first_seen[key] = number
            if not row_ok:
                continue

            instance = existing.get(key)
            data, extra = self.build_data(values, instance)
            serializer = self.serializer_class(
                instance=instance, data=data, partial=instance is not None, context=self.context
            )
            extra_errors = self.validate_extra(extra, instance)
            if not serializer.is_valid():
                for field, message in _flatten_errors(serializer.errors):
                    add_error(number, field or key_column.field, message)
            for field, message in extra_errors.items():
                add_error(number, field, message)
            if serializer.errors or extra_errors:
                continue
            valid.append(RowResult(number, serializer, instance is None, extra))
        report_progress("validating", total, total, force=True)

        report: dict[str, Any] = {
            "dry_run": not commit,
            "rows_total": len(raw_rows),
            "rows_valid": len(valid),
            "rows_invalid": len(invalid_rows),
            "to_create": sum(1 for r in valid if r.created),
            "to_update": sum(1 for r in valid if not r.created),
            "created": 0,
            "updated": 0,
            "errors": errors[:MAX_REPORTED_ERRORS],
            "errors_truncated": len(errors) > MAX_REPORTED_ERRORS,
            "ignored_columns": ignored,
        }
        if not commit:
            return report
        if errors:
            raise ImportRejected(
                _("%(count)s of %(total)s rows have errors; nothing was imported.")
                % {"count": len(invalid_rows), "total": len(raw_rows)},
                data=report,
            )
        if not raw_rows:
            raise ImportFileError(_("The file has no data rows."), error=CommonErrorCode.IMPORT_FILE_EMPTY)
        self._commit(valid, report_progress)
        report["created"] = report["to_create"]
        report["updated"] = report["to_update"]
        return report

    @transaction.atomic
    def _commit(self, rows: list[RowResult], report_progress: _Batched) -> None:
        """Writes every row or none: a failure on any row rolls the whole file back."""
        total = len(rows)
        report_progress("saving", 0, total, force=True)
        for done, result in enumerate(rows):
            report_progress("saving", done, total)
            try:
                with transaction.atomic():
                    self.save_row(result.serializer, created=result.created, extra=result.extra)
            except DjangoValidationError as exc:
                detail = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
                errors = [
                    {"row": result.row, "field": field, "column": "", "message": message}
                    for field, messages in detail.items()
                    for message in messages
                ]
                raise ImportRejected(
                    _("Row %(row)s could not be saved; nothing was imported.") % {"row": result.row},
                    data={"errors": errors, "rows_total": len(rows)},
                ) from exc
        report_progress("saving", total, total, force=True)


# The ViewSet side --------------------------------------------------------------------------------

ERROR_ENVELOPE = inline_serializer(
    "ImportErrorEnvelope",
    fields={
        "code": serializers.IntegerField(),
        "message": serializers.CharField(),
        "error": serializers.CharField(),
        "data": serializers.JSONField(allow_null=True),
    },
)

ImportUploadSerializer = inline_serializer(
    name="ImportUpload", fields={"file": serializers.FileField(help_text="CSV (UTF-8) or XLSX")}
)


if TYPE_CHECKING:  # the mixin's methods run on a DRF viewset
    from rest_framework.generics import GenericAPIView as _ViewBase
else:
    _ViewBase = object


class ImportMixin(_ViewBase):
    """Adds `import-template/` and `import/` to a TenantModelViewSet (see the module docstring)."""

    importer_class: type[Importer]

    @property
    def action_permissions(self) -> dict[str, list[str]]:
        model = self.importer_class.model
        label, name = model._meta.app_label, model._meta.model_name
        own = dict(getattr(type(self), "import_extra_action_permissions", {}))
        return {
            **own,
            "import_rows": [f"{label}.add_{name}", f"{label}.change_{name}"],
            "import_template": [f"{label}.add_{name}"],
        }

    def get_importer(self) -> Importer:
        return self.importer_class(context=dict(self.get_serializer_context()))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=list(TEMPLATE_FORMATS), required=True
            ),
        ],
        responses=SPREADSHEET_RESPONSES,
    )
    @action(detail=False, methods=["get"], url_path="import-template", url_name="import-template")
    def import_template(self, request, *args, **kwargs):
        """The import template: a header row and one example row."""
        return self.importer_class.template_response(request.query_params.get("format", "csv"))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "dry_run",
                OpenApiTypes.BOOL,
                OpenApiParameter.QUERY,
                required=False,
                description="1: validate every row and write nothing.",
            ),
        ],
        request={"multipart/form-data": ImportUploadSerializer},
        responses={
            202: ImportJobSerializer,
            400: OpenApiResponse(
                response=ERROR_ENVELOPE,
                description="The file was refused before a job was created (import_file_invalid, "
                "import_file_too_large, import_file_format, import_file_encoding, import_file_empty, "
                "import_missing_columns, import_duplicate_column).",
            ),
            409: OpenApiResponse(
                response=ERROR_ENVELOPE,
                description="import_in_progress: another import of this kind is running; data.job is its id.",
            ),
        },
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        url_name="import",
        parser_classes=[MultiPartParser, FormParser],
    )
    def import_rows(self, request, *args, **kwargs):
        """Checks the file quickly and starts an import job (or a dry run): 202 with the job; poll
        `GET /api/common/imports/{id}/` for its progress, counts and row errors."""
        from apps.common.import_jobs import job_start

        upload = request.FILES.get("file")
        if upload is None:
            raise ImportFileError(
                _("Choose a CSV or XLSX file to import."), error=CommonErrorCode.VALIDATION_ERROR
            )
        dry_run = request.query_params.get("dry_run", "").lower() in ("1", "true", "yes")
        job = job_start(importer=self.get_importer(), upload=upload, dry_run=dry_run, user=request.user)
        return Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)
