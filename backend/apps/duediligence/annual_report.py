"""The annual review of the due diligence system and the annual public report (Art. 12; docs/regulation.md,
docs/duediligence.md "Annual report"): figures of one calendar year from the data, as a PDF in English and
Chinese (one section each).

    annual_figures(year) -> AnnualFigures     (in the current tenant's context)
    annual_report_pdf(year, company) -> bytes

A statement of the year is one whose delivery's records started being kept that year (filed through the
product or its reference recorded: `RetentionHold.started_at`), so the report counts exactly the
statements the five-year retention counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from io import BytesIO

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, SimpleDocTemplate, Spacer, Table

from apps.common.document_pdf import CELL_FONT, FONT, FONT_BOLD, _register_fonts
from apps.common.pdf import paragraph
from apps.duediligence.benchmark import current
from apps.duediligence.models import RetentionHold, RiskAssessment, SubstantiatedConcern
from apps.eudr.models import RawMaterialDelivery


@dataclass
class AnnualFigures:
    year: int
    statements: list[str] = field(default_factory=list)  # reference numbers, in filing order
    statements_filed: int = 0
    statements_recorded: int = 0
    deliveries: int = 0
    countries: dict[str, int] = field(default_factory=dict)  # deliveries per country of the statements
    risk_levels: dict[str, str] = field(default_factory=dict)  # country -> benchmark level
    assessments: dict[str, int] = field(default_factory=dict)  # conclusion -> count
    concerns_raised: int = 0
    concerns_resolved: int = 0


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    tz = timezone.get_current_timezone()
    return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz)


def annual_figures(year: int) -> AnnualFigures:
    start, end = _year_bounds(year)
    holds = RetentionHold.objects.filter(started_at__gte=start, started_at__lt=end).order_by(
        "started_at", "id"
    )
    figures = AnnualFigures(year=year)
    figures.statements = [h.reference_number for h in holds]
    figures.statements_filed = sum(1 for h in holds if h.reason == RetentionHold.Reason.FILED)
    figures.statements_recorded = sum(1 for h in holds if h.reason == RetentionHold.Reason.RECORDED)
    figures.deliveries = RawMaterialDelivery.objects.filter(created_at__gte=start, created_at__lt=end).count()
    countries = Counter(
        code or "—"
        for code in RawMaterialDelivery.objects.filter(pk__in=holds.values("delivery_id")).values_list(
            "country_code", flat=True
        )
    )
    figures.countries = dict(sorted(countries.items()))
    benchmark = current()
    figures.risk_levels = {code: benchmark.level_of(code) or "" for code in figures.countries if code != "—"}
    figures.assessments = dict(
        Counter(
            RiskAssessment.objects.filter(assessed_at__gte=start, assessed_at__lt=end).values_list(
                "conclusion", flat=True
            )
        )
    )
    figures.concerns_raised = SubstantiatedConcern.objects.filter(
        raised_at__gte=start, raised_at__lt=end
    ).count()
    figures.concerns_resolved = SubstantiatedConcern.objects.filter(
        resolved_at__gte=start, resolved_at__lt=end
    ).count()
    return figures


def _section(figures: AnnualFigures, company: str, styles: dict) -> list:
    body, title, head = styles["body"], styles["title"], styles["head"]
    conclusions = dict(RiskAssessment.Conclusion.choices)
    rows = [
        [_("Statements filed through the product"), str(figures.statements_filed)],
        [_("Statement references recorded by hand"), str(figures.statements_recorded)],
        [_("Deliveries received"), str(figures.deliveries)],
        [_("Substantiated concerns raised"), str(figures.concerns_raised)],
        [_("Substantiated concerns resolved"), str(figures.concerns_resolved)],
    ]
    rows += [
        [str(conclusions.get(code, code)), str(count)] for code, count in sorted(figures.assessments.items())
    ]
    story = [
        paragraph(
            _("Due diligence system: annual review and report %(year)s") % {"year": figures.year}, title
        ),
        paragraph(company, body),
        Spacer(0, 3 * mm),
        Table(
            [[paragraph(a, body), paragraph(b, body)] for a, b in rows],
            colWidths=[120 * mm, 40 * mm],
            style=[CELL_FONT],
        ),
        paragraph(_("Countries of production and risk levels"), head),
        Table(
            [
                [
                    paragraph(_("Country"), body),
                    paragraph(_("Risk level"), body),
                    paragraph(_("Statements"), body),
                ]
            ]
            + [
                [
                    paragraph(code, body),
                    paragraph(figures.risk_levels.get(code, ""), body),
                    paragraph(n, body),
                ]
                for code, n in figures.countries.items()
            ],
            colWidths=[60 * mm, 60 * mm, 40 * mm],
            style=[CELL_FONT],
        ),
        paragraph(_("Statements (reference numbers)"), head),
        paragraph(", ".join(figures.statements) or "—", body),
    ]
    return story


def annual_report_pdf(year: int, company: str, language: str | None = None) -> bytes:
    """The report in English then Chinese, or in one of them (`language` "en" or "zh")."""
    figures = annual_figures(year)
    _register_fonts()
    styles = {
        "body": ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12),
        "title": ParagraphStyle("title", fontName=FONT_BOLD, fontSize=15, leading=19, spaceAfter=2 * mm),
        "head": ParagraphStyle("head", fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=4 * mm),
    }
    story: list = []
    languages = {"en": ("en",), "zh": ("zh-hans",)}.get(language or "", ("en", "zh-hans"))
    for index, code in enumerate(languages):
        with translation.override(code):
            if index:
                story.append(PageBreak())
            story += _section(figures, company, styles)
    buffer = BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4, title=f"Due diligence {year}", initialFontName=FONT).build(story)
    return buffer.getvalue()
