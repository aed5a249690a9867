"""The Commission's country benchmark (Art. 29 of Regulation (EU) 2023/1115; Implementing Regulation
(EU) 2025/1093): low, standard or high risk per country of production.

The product ships the list as data (`data/country_benchmark.json`: the act's reference and date, the
countries per level, and the level of a country the list does not name). A newer act is loaded with
`manage.py load_country_benchmark <file>`; the newest loaded list (by the act's date) wins over the
shipped one. Both are installation-wide: the law is the same for every tenant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from .errors import BenchmarkInvalid
from .models import CountryBenchmark, CountryRiskLevel, RiskLevel

SHIPPED = Path(__file__).parent / "data" / "country_benchmark.json"
_CODE = re.compile(r"^[A-Z]{2}$")


@dataclass(frozen=True)
class Benchmark:
    act_reference: str
    act_date: date
    default_level: str
    levels: dict[str, str] = field(default_factory=dict)
    source: str = ""

    def level_of(self, country_code: str) -> str | None:
        code = (country_code or "").strip().upper()
        if not _CODE.match(code):
            return None
        return self.levels.get(code, self.default_level)

    @property
    def label(self) -> str:
        return f"{self.act_reference} ({self.act_date.isoformat()})"


def parse_benchmark(data: Any) -> Benchmark:
    """Checks a benchmark file's content: the act's reference and date, a valid default level, and
    each country (ISO 3166-1 alpha-2) in at most one level."""
    if not isinstance(data, dict):
        raise BenchmarkInvalid(_("The file must hold a JSON object."))
    reference = data.get("act_reference")
    if not isinstance(reference, str) or not reference.strip() or len(reference) > 200:
        raise BenchmarkInvalid(_("The act's reference is missing."))
    try:
        act_date = date.fromisoformat(str(data.get("act_date", "")))
    except ValueError:
        raise BenchmarkInvalid(_("The act's date is missing or not a date (YYYY-MM-DD).")) from None
    default_level = data.get("default_level", RiskLevel.STANDARD)
    if default_level not in RiskLevel.values:
        raise BenchmarkInvalid(_("The default level must be low, standard or high."))
    raw_levels = data.get("levels")
    if not isinstance(raw_levels, dict) or not raw_levels:
        raise BenchmarkInvalid(_("The file lists no countries."))
    levels: dict[str, str] = {}
    for level, codes in raw_levels.items():
        if level not in RiskLevel.values or not isinstance(codes, list):
            raise BenchmarkInvalid(_("Levels must be low, standard or high, each with a list of countries."))
        for code in codes:
            if not isinstance(code, str) or not _CODE.match(code):
                raise BenchmarkInvalid(
                    _("%(code)s is not an ISO 3166-1 alpha-2 country code.") % {"code": str(code)[:20]}
                )
            if code in levels:
                raise BenchmarkInvalid(_("%(code)s is listed twice.") % {"code": code})
            levels[code] = level
    return Benchmark(
        act_reference=reference.strip(), act_date=act_date, default_level=default_level, levels=levels
    )


def shipped() -> Benchmark:
    return parse_benchmark(json.loads(SHIPPED.read_text(encoding="utf-8")))


def current() -> Benchmark:
    """The newest loaded list, else the shipped one."""
    row = CountryBenchmark.objects.prefetch_related("levels").first()
    if row is None:
        return shipped()
    return Benchmark(
        act_reference=row.act_reference,
        act_date=row.act_date,
        default_level=row.default_level,
        levels={level.country_code: level.level for level in row.levels.all()},
        source=row.source,
    )


@transaction.atomic
def benchmark_load(*, data: Any, source: str = "") -> CountryBenchmark:
    """Stores a newer list (validated first: a bad file changes nothing)."""
    parsed = parse_benchmark(data)
    row = CountryBenchmark.objects.create(
        act_reference=parsed.act_reference,
        act_date=parsed.act_date,
        default_level=parsed.default_level,
        source=source[:500],
    )
    CountryRiskLevel.objects.bulk_create(
        CountryRiskLevel(benchmark=row, country_code=code, level=level)
        for code, level in parsed.levels.items()
    )
    return row
