"""Checks e-invoice files: `manage.py check_einvoice PATH [PATH...]` (docs/sales.md, "Checking an e-invoice
file").

Each file is a UBL 2.1 Invoice or CreditNote, a CII CrossIndustryInvoice or a Factur-X PDF (its embedded
XML read with the `factur-x` package). UBL is checked against the UBL 2.1 XSD and every rule of
`apps.salesorders.en16931` (as our UBL e-invoice is before it leaves); CII against the Factur-X XSD of its
profile and the EN 16931 rules. Per file it prints each finding (the rule and its text) or "valid"; it
exits 0 when every file is valid, 1 otherwise (also for a file that cannot be read or is no e-invoice).
Nothing is fetched from the network.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from apps.salesorders import einvoice_check


class Command(BaseCommand):
    help = (
        "Check e-invoice files (UBL, CII, Factur-X PDF) against the XSD and the EN 16931 rules; "
        "exit 1 when one has findings."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH", help="e-invoice files (.xml or .pdf)")
        parser.add_argument(
            "--language", default="en", choices=["en", "zh-hans"], help="language of the rule texts"
        )

    def handle(self, *args, **options):
        failed = 0
        with translation.override(options["language"]):
            for path in options["paths"]:
                if not self._check(Path(path)):
                    failed += 1
        if failed:
            raise CommandError(f"{failed} of {len(options['paths'])} file(s) not valid.", returncode=1)

    def _check(self, path: Path) -> bool:
        try:
            content = path.read_bytes()
        except OSError as exc:
            self.stdout.write(f"{path}: cannot be read: {exc.strerror or exc}")
            return False
        try:
            result = einvoice_check.check_file(content)
        except einvoice_check.NotAnEInvoice as exc:
            self.stdout.write(f"{path}: not an e-invoice: {exc}")
            return False
        if not result.problems:
            self.stdout.write(f"{path} ({result.syntax}): valid")
            return True
        self.stdout.write(f"{path} ({result.syntax}): {len(result.problems)} finding(s)")
        for problem in result.problems:
            self.stdout.write(f"  {problem.rule}: {problem.message}")
        return False
