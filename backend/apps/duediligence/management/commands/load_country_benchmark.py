"""Loads a newer country benchmark (docs/duediligence.md, "Country benchmark")."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.duediligence.benchmark import benchmark_load
from apps.duediligence.errors import BenchmarkInvalid


class Command(BaseCommand):
    help = "Load a country benchmark list (JSON: act_reference, act_date, default_level, levels)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the JSON file")

    def handle(self, *args, path: str, **options):
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        try:
            row = benchmark_load(data=data, source=Path(path).name)
        except BenchmarkInvalid as exc:
            raise CommandError(str(exc.message)) from exc
        self.stdout.write(f"Loaded {row} with {row.levels.count()} countries.")
