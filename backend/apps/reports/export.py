"""A report's table as CSV or XLSX, laid out as the report page shows it.

Rows are the group combinations; with a pivot, one column per pivot value and measure. Subtotal rows
follow each group block (XLSX: bold, with outline levels so the groups fold), and the grand total closes
the table. The table is built from the figures the database computed (selectors.report_run); nothing is
added up here.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.http import HttpResponse
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from apps.common.spreadsheet import csv_row, xlsx_append

from .datasets import AGGREGATE_LABELS, GRAIN_LABELS
from .definition import Definition

NO_VALUE = "—"


def _label_of(definition: Definition) -> dict[str, str]:
    labels = {}
    for group in (*definition.group_by, *((definition.pivot,) if definition.pivot else ())):
        label = str(group.dimension.label)
        labels[group.key] = f"{label} ({GRAIN_LABELS[group.grain]})" if group.grain else label
    for m in definition.measures:
        labels[m.key] = f"{m.measure.label} · {AGGREGATE_LABELS[m.agg]}"
    return labels


def report_table(*, result: dict, definition: Definition) -> tuple[list[str], list[tuple[int, list]]]:
    """(header, [(outline level, cells)]): level 0 data, k a subtotal of the first k groups, -1 the total."""
    labels = _label_of(definition)
    group_keys = [g.key for g in definition.group_by]
    measure_keys = [m.key for m in definition.measures]
    pivot_key = definition.pivot.key if definition.pivot else None
    pivot_values = [row[pivot_key] for row in result["pivot_totals"]] if pivot_key else [None]

    def text(value):
        return NO_VALUE if value is None else value

    header = [labels[k] for k in group_keys]
    for value in pivot_values:
        for key in measure_keys:
            header.append(f"{text(value)} · {labels[key]}" if pivot_key else labels[key])

    def merged(rows, keys):
        """{group tuple: {pivot value: row}} in first-seen order."""
        table: dict[tuple, dict] = {}
        for row in rows:
            table.setdefault(tuple(row[k] for k in keys), {})[row[pivot_key] if pivot_key else None] = row
        return table

    def figures(by_pivot: dict) -> list:
        cells = []
        for value in pivot_values:
            row = by_pivot.get(value)
            for key in measure_keys:
                cells.append(_number(row[key]) if row else None)
        return cells

    data = merged(result["rows"], group_keys)
    subtotals = {
        level: merged([s for s in result["subtotals"] if s["level"] == level], group_keys[:level])
        for level in range(1, len(group_keys))
    }
    ordered = sorted(data, key=lambda t: tuple((v is None, str(v)) for v in t)) if subtotals else list(data)

    out: list[tuple[int, list]] = []
    for index, group in enumerate(ordered):
        out.append((0, [text(v) for v in group] + figures(data[group])))
        following = ordered[index + 1] if index + 1 < len(ordered) else None
        for level in range(len(group_keys) - 1, 0, -1):
            if following is None or following[:level] != group[:level]:
                prefix = group[:level]
                cells = [text(v) for v in prefix] + [_("Subtotal")] + [""] * (len(group_keys) - level - 1)
                out.append((level, cells + figures(subtotals[level].get(prefix, {}))))
    totals = {None: result["totals"]} if not pivot_key else {r[pivot_key]: r for r in result["pivot_totals"]}
    total_cells = [_("Total")] + [""] * (len(group_keys) - 1) if group_keys else []
    out.append((-1, total_cells + figures(totals)))
    return header, out


def _number(value):
    if isinstance(value, str):
        try:
            return Decimal(value)
        except ArithmeticError:
            return value
    return value


def report_export(*, result: dict, definition: Definition, fmt: str, filename: str) -> HttpResponse:
    header, rows = report_table(result=result, definition=definition)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(csv_row(header))
        for _level, cells in rows:
            writer.writerow(csv_row(cells))
        response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    else:
        workbook = Workbook()
        sheet = workbook.active
        sheet.title = str(definition.dataset.label)[:31]
        xlsx_append(sheet, header)
        bold = Font(bold=True)
        for cell in sheet[1]:
            cell.font = bold
        depth = len(definition.group_by)
        for level, cells in rows:
            xlsx_append(sheet, cells)
            row = sheet.max_row
            if level != 0:
                for cell in sheet[row]:
                    cell.font = bold
            # Data rows sit deepest; a subtotal of k groups one level above its rows; the total at 0.
            outline = depth if level == 0 else (level if level > 0 else 0)
            if outline and depth > 1:
                sheet.row_dimensions[row].outlineLevel = outline - 1 if level else depth - 1
        sheet.freeze_panes = "A2"
        buffer = io.BytesIO()
        workbook.save(buffer)
        response = HttpResponse(
            buffer.getvalue(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response
