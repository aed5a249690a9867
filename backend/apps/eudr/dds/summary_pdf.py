"""summary.pdf: the due diligence package's facts and checks for people (reportlab, A4).

The font is the one every company document embeds (apps/common/document_pdf.py): Noto Sans SC, which sets
Latin and Chinese text (names, the zh interface) alike.
"""

from __future__ import annotations

import io
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle

from apps.common.dates import day_text
from apps.common.document_pdf import CELL_FONT, FONT, _Styles

from .checks import DdsCheck, DdsFacts

# the fonts and styles are shared with the other documents (apps/common/document_pdf.py)


def _table(rows: list[list[Any]], widths: list[float], header: bool = False) -> Table:
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    style = [
        CELL_FONT,
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#d0d7de")),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f4")))
    table.setStyle(TableStyle(style))
    return table


def _represented_rows(statement: dict[str, Any]) -> list[tuple[str, Any]]:
    represented = statement.get("representedOperator")
    if not represented:
        return []
    identifiers = ", ".join(
        f"{i['identifierType'].upper()} {i['identifierValue']}"
        for i in represented["operatorReferenceNumber"]
    )
    address = represented["operatorAddress"]
    one_line = address.get("fullAddress") or ", ".join(
        x for x in (address["street"], f"{address['postalCode']} {address['city']}") if x.strip()
    )
    return [
        (_("Represented operator"), represented["operatorName"]),
        (_("Represented operator's address"), f"{one_line} ({address['country']})"),
        (_("Represented operator's EORI or VAT number"), identifiers),
    ]


def build_summary_pdf(
    facts: DdsFacts, *, dds: dict[str, Any], checks: list[DdsCheck], documents: list[str]
) -> bytes:
    s = _Styles()
    delivery, tenant = facts.delivery, facts.tenant
    statement = dds["statement"]
    vendor = delivery.parent_vendor
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=16 * mm,
        title=_("Due diligence package"),
        author=tenant.legal_name or tenant.name,
        initialFontName=FONT,
    )
    label_w, value_w = 55 * mm, doc.width - 55 * mm
    now = timezone.localtime()

    def facts_table(pairs: list[tuple[str, Any]]) -> Table:
        return _table(
            [[s.p(label), s.p(value if value not in (None, "") else "—")] for label, value in pairs],
            [label_w, value_w],
        )

    story: list[Any] = [
        s.p(_("Due diligence package"), "title"),
        s.p(
            _("Delivery %(number)s · generated %(when)s · reference %(ref)s")
            % {
                "number": delivery.delivery_number or delivery.pk,
                "when": f"{day_text(now)} {now:%H:%M %Z}",
                "ref": statement["internalReferenceNumber"],
            }
        ),
        Spacer(1, 4 * mm),
        s.p(_("Operator"), "h2"),
        facts_table(
            [
                (_("Name"), tenant.legal_name or tenant.name),
                (_("Address"), tenant.address),
                (_("EORI number"), tenant.eori_number),
                (_("VAT number"), tenant.vat_number),
                (_("Activity"), f"{statement['activityType']} · {statement['countryOfActivity']}"),
                (_("Operator role"), dds["operatorRole"]),
                *_represented_rows(statement),
            ]
        ),
        s.p(_("Raw material"), "h2"),
        facts_table(
            [
                (
                    _("Parent vendor"),
                    " / ".join(x for x in (vendor.name, vendor.cname) if x) if vendor else "",
                ),
                (_("Document from"), delivery.document_from),
                (_("Country of production"), f"{delivery.country_name} ({delivery.country_code})"),
                (_("Forest supplier"), delivery.forest_supplier_name),
                (
                    _("FM certification"),
                    " ".join(
                        x
                        for x in (
                            delivery.fm_certification_type,
                            delivery.fm_certificate_number,
                            day_text(delivery.fm_certificate_expiry),
                        )
                        if x
                    ),
                ),
                (
                    _("COC certification"),
                    " ".join(
                        x
                        for x in (
                            delivery.coc_certification,
                            delivery.coc_certificate_number,
                            day_text(delivery.coc_certificate_expiry),
                        )
                        if x
                    ),
                ),
                (
                    _("Harvest period"),
                    f"{delivery.harvest_begin_month or '?'} – {delivery.harvest_end_month or '?'}",
                ),
                (_("Referenced statement"), delivery.upstream_dds_reference),
                (_("Geolocation confidential"), _("Yes") if delivery.geolocation_confidential else _("No")),
                (_("Carton labels"), facts.labels_count),
            ]
        ),
        s.p(_("Commodities"), "h2"),
        _table(
            [[s.p(_("HS heading")), s.p(_("Description of goods")), s.p(_("Net weight (kg)"))]]
            + [
                [
                    s.p(c["hsHeading"]),
                    s.p(c["descriptors"]["descriptionOfGoods"]),
                    s.p(f"{c['descriptors']['goodsMeasure']['netWeight']:,.3f}"),
                ]
                for c in statement["commodities"]
            ],
            [25 * mm, doc.width - 60 * mm, 35 * mm],
            header=True,
        ),
        s.p(_("Species"), "h2"),
        _table(
            [[s.p(_("Scientific name")), s.p(_("Common name"))]]
            + [
                [s.p(x.get("scientificName", "")), s.p(x.get("commonName", ""))]
                for x in statement["commodities"][0]["speciesInfo"]
            ],
            [doc.width / 2, doc.width / 2],
            header=True,
        ),
        s.p(_("Plots"), "h2"),
    ]
    if facts.geo is not None:
        rows = [[s.p("#"), s.p(_("Geometry")), s.p(_("Producer")), s.p(_("Place")), s.p(_("Area (ha)"))]]
        for index, feature in enumerate(facts.geo.feature_collection["features"]):
            props = feature["properties"]
            area = facts.geo.areas_ha[index]
            rows.append(
                [
                    s.p(index + 1),
                    s.p(feature["geometry"]["type"] if feature["geometry"] else "—"),
                    s.p(f"{props.get('ProducerName', '')} {props.get('ProducerCountry', '')}".strip()),
                    s.p(props.get("ProductionPlace", "")),
                    s.p(f"{area:,.4f}" if area is not None else "—"),
                ]
            )
        rows.append([s.p(""), s.p(""), s.p(""), s.p(_("Total")), s.p(f"{facts.geo.total_area_ha:,.4f}")])
        story.append(_table(rows, [10 * mm, 28 * mm, doc.width - 96 * mm, 33 * mm, 25 * mm], header=True))
    else:
        story.append(s.p(_("No geolocation.")))
    story.append(s.p(_("Documents"), "h2"))
    story.extend([s.p(f"• {name}") for name in documents] or [s.p(_("No documents."))])
    story.append(s.p(_("Checks"), "h2"))
    if not checks:
        story.append(s.p(_("All checks passed.")))
    for check in checks:
        marker = _("Error") if check.severity == "error" else _("Warning")
        story.append(s.p(f"{marker}: {check.display()}"))
    doc.build(story)
    return buffer.getvalue()
