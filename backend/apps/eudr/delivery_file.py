"""The delivery file (CSV or XLSX) a carton factory gets with its paper: parsed to prefill the wizard's
material lines and header fields, and the template to fill in.

One sheet, one row per material. Delivery-level columns (delivery number, country, ...) may be filled on
the first row only or repeated; two different values are reported. Column headers are matched without
regard to case, spaces or the unit in brackets, in English or Chinese ("Weight (kg)" = "weight_kg").
Names of species are separated by ";". Nothing is stored: the result only prefills the form.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal, InvalidOperation
from pathlib import PurePath
from typing import Any

from django.utils.translation import gettext as _

from apps.common.spreadsheet import csv_row, xlsx_append
from apps.eudr.models import MONTH_RE, MaterialType, PulpType

MAX_ROWS = 1000
MAX_BYTES = 5 * 1024 * 1024

HEADER_FIELDS = (
    "delivery_number",
    "document_from",
    "country_code",
    "forest_supplier_name",
    "material_sc_number",
    "harvest_begin_month",
    "harvest_end_month",
)
LINE_FIELDS = ("material_type", "weight_kg", "pulp_type", "pulp_brand", "scientific_names", "common_names")
TEMPLATE_COLUMNS = [
    ("delivery_number", "Delivery number"),
    ("document_from", "Document from"),
    ("country_code", "Country code"),
    ("forest_supplier_name", "Forest supplier"),
    ("material_sc_number", "Material SC number"),
    ("harvest_begin_month", "Harvest begin month"),
    ("harvest_end_month", "Harvest end month"),
    ("material_type", "Material type"),
    ("weight_kg", "Weight (kg)"),
    ("pulp_type", "Pulp type"),
    ("pulp_brand", "Pulp brand"),
    ("scientific_names", "Scientific names"),
    ("common_names", "Common names"),
]
TEMPLATE_EXAMPLE = [
    "DN-2026-0001",
    "Guangxi Forest Paper Co.",
    "CN",
    "Guangxi Gaofeng Forest Farm",
    "SC-778812",
    "2025-03",
    "2025-09",
    "paper",
    "12500",
    "virgin",
    "Sun Paper",
    "Pinus massoniana; Eucalyptus urophylla",
    "Masson pine; eucalyptus",
]

ALIASES = {
    "deliverynumber": "delivery_number",
    "deliveryno": "delivery_number",
    "送货单号": "delivery_number",
    "documentfrom": "document_from",
    "单据来源": "document_from",
    "countrycode": "country_code",
    "country": "country_code",
    "国家代码": "country_code",
    "国家": "country_code",
    "forestsupplier": "forest_supplier_name",
    "forestsuppliername": "forest_supplier_name",
    "森林供应商": "forest_supplier_name",
    "materialscnumber": "material_sc_number",
    "scnumber": "material_sc_number",
    "材料sc号": "material_sc_number",
    "harvestbeginmonth": "harvest_begin_month",
    "采伐开始月份": "harvest_begin_month",
    "harvestendmonth": "harvest_end_month",
    "采伐结束月份": "harvest_end_month",
    "materialtype": "material_type",
    "material": "material_type",
    "材料类型": "material_type",
    "weight": "weight_kg",
    "weightkg": "weight_kg",
    "重量": "weight_kg",
    "重量kg": "weight_kg",
    "pulptype": "pulp_type",
    "纸浆类型": "pulp_type",
    "pulpbrand": "pulp_brand",
    "纸浆品牌": "pulp_brand",
    "scientificnames": "scientific_names",
    "scientificname": "scientific_names",
    "学名": "scientific_names",
    "commonnames": "common_names",
    "commonname": "common_names",
    "俗名": "common_names",
    "通用名": "common_names",
}

MATERIAL_WORDS = {
    **{value: value for value in MaterialType.values},
    **{str(label).lower(): value for value, label in MaterialType.choices},
    "纸": "paper",
    "纸张": "paper",
    "纸浆": "pulp",
    "纸板": "board",
    "其他": "other",
}
PULP_WORDS = {
    **{value: value for value in PulpType.values},
    **{str(label).lower(): value for value, label in PulpType.choices},
    "virgin fiber": "virgin",
    "recycled fiber": "recycled",
    "原生": "virgin",
    "原生纤维": "virgin",
    "回收": "recycled",
    "再生": "recycled",
    "混合": "mixed",
}


def _key(header: Any) -> str | None:
    text = re.sub(r"\(.*?\)|（.*?）", "", str(header or "")).strip().lower()
    text = re.sub(r"[\s_\-./]+", "", text)
    if not text:
        return None
    compact_fields = {field.replace("_", ""): field for field in (*HEADER_FIELDS, *LINE_FIELDS)}
    return compact_fields.get(text) or ALIASES.get(text)


def _rows_from_upload(upload) -> list[list[Any]]:
    extension = PurePath(upload.name or "").suffix.lower()
    raw = upload.read()
    if extension == ".csv":
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            raise ValueError(_("The CSV file is not UTF-8 or GB18030 text."))
        sample = text[:4096]
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        return list(csv.reader(io.StringIO(text), dialect))
    if extension == ".xlsx":
        from apps.common.xlsx import xlsx_rows

        rows = []
        for _number, values in xlsx_rows(raw):  # bounded: apps/common/xlsx.py (XlsxRefused is a ValueError)
            rows.append(list(values))
            if len(rows) > MAX_ROWS + 1:
                break
        return rows
    raise ValueError(_("Upload the delivery file as CSV or XLSX."))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if hasattr(value, "strftime"):
        return value.strftime("%Y-%m")
    return str(value).strip()


def _names(value: Any) -> list[str]:
    return [part.strip() for part in re.split(r"[;；\n]", _text(value)) if part.strip()][:500]


def parse_delivery_file(upload) -> dict[str, Any]:
    """{"header": {field: value}, "lines": [...], "errors": [{"row", "field", "message"}], "rows": n}.
    Row numbers are as a spreadsheet shows them (the header is row 1)."""
    if upload.size > MAX_BYTES:
        raise ValueError(_("The delivery file is larger than 5 MB."))
    rows = _rows_from_upload(upload)
    errors: list[dict[str, Any]] = []
    header: dict[str, str] = {}
    lines: list[dict[str, Any]] = []
    while rows and not any(_text(cell) for cell in rows[0]):
        rows.pop(0)
    if not rows:
        return {
            "header": header,
            "lines": lines,
            "errors": [_error(None, "", _("The file is empty."))],
            "rows": 0,
        }
    columns = [_key(cell) for cell in rows[0]]
    if "material_type" not in columns and "weight_kg" not in columns:
        errors.append(
            _error(1, "", _("No material type or weight column found: use the template's column names."))
        )
        return {"header": header, "lines": lines, "errors": errors, "rows": 0}
    data_rows = rows[1:]
    if len(data_rows) > MAX_ROWS:
        errors.append(_error(None, "", _("Only the first %(n)d rows were read.") % {"n": MAX_ROWS}))
        data_rows = data_rows[:MAX_ROWS]
    count = 0
    for offset, row in enumerate(data_rows, start=2):
        values = {column: row[i] if i < len(row) else None for i, column in enumerate(columns) if column}
        if not any(_text(v) for v in values.values()):
            continue
        count += 1
        for field in HEADER_FIELDS:
            text = _text(values.get(field))
            if field == "country_code":
                text = text.upper()
            if not text:
                continue
            if field in ("harvest_begin_month", "harvest_end_month") and not MONTH_RE.match(text):
                errors.append(_error(offset, field, _("Enter the month as YYYY-MM, e.g. 2024-03.")))
                continue
            if field not in header:
                header[field] = text
            elif header[field] != text:
                errors.append(
                    _error(
                        offset,
                        field,
                        _("A different value than in an earlier row: %(value)s") % {"value": text},
                    )
                )
        line = _line(offset, values, errors)
        if line is not None:
            lines.append(line)
    if "country_code" in header:
        from apps.eudr.geo import countries

        if header["country_code"] not in countries():
            errors.append(
                _error(None, "country_code", _("Enter a two-letter ISO 3166-1 country code, e.g. CN."))
            )
            header.pop("country_code")
    return {"header": header, "lines": lines, "errors": errors, "rows": count}


def _error(row: int | None, field: str, message: str) -> dict[str, Any]:
    return {"row": row, "field": field, "message": str(message)}


def _line(row: int, values: dict[str, Any], errors: list[dict[str, Any]]) -> dict[str, Any] | None:
    from apps.eudr.services import (
        MSG_MATERIAL_TYPE_REQUIRED,
        MSG_PULP_TYPE_REQUIRED,
        MSG_VALID_WEIGHT_REQUIRED,
    )

    if not any(_text(values.get(field)) for field in LINE_FIELDS):
        return None
    material_text = _text(values.get("material_type")).lower()
    material = MATERIAL_WORDS.get(material_text, "")
    if not material:
        errors.append(_error(row, "material_type", MSG_MATERIAL_TYPE_REQUIRED))
    weight_text = _text(values.get("weight_kg")).replace(",", "")
    weight: str | None = None
    try:
        number = Decimal(weight_text)
        if number > 0 and number.is_finite():
            weight = str(number.quantize(Decimal("0.001")))
    except (InvalidOperation, ValueError):
        pass
    if weight is None:
        errors.append(_error(row, "weight_kg", MSG_VALID_WEIGHT_REQUIRED))
    pulp_text = _text(values.get("pulp_type")).lower()
    pulp = PULP_WORDS.get(pulp_text, "")
    if material == MaterialType.PAPER and not pulp:
        errors.append(_error(row, "pulp_type", MSG_PULP_TYPE_REQUIRED))
    return {
        "row": row,
        "material_type": material,
        "weight_kg": weight,
        "pulp_type": pulp,
        "pulp_brand": _text(values.get("pulp_brand"))[:200],
        "scientific_names": _names(values.get("scientific_names")),
        "common_names": _names(values.get("common_names")),
    }


def template_rows() -> tuple[list[str], list[str]]:
    return [label for _, label in TEMPLATE_COLUMNS], TEMPLATE_EXAMPLE


def template_csv() -> bytes:
    headers, example = template_rows()
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(csv_row(headers))
    writer.writerow(csv_row(example))
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def template_xlsx() -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    headers, example = template_rows()
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Delivery"
    xlsx_append(sheet, headers)
    xlsx_append(sheet, example)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for index, header in enumerate(headers, start=1):
        sheet.column_dimensions[sheet.cell(row=1, column=index).column_letter].width = max(
            14, len(header) + 4
        )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
