"""Adds every suite of `make test` up, from the reports in var/reports/ and the steps' exit statuses.

Prints one line per suite, then (with CI set) CI's own checks, and last one plain line:
`total: N passed, N failed`. Exits 1 when N failed is not 0.

- checks (lint, types-check, check-deploy): one test each, passed when the step exited 0.
- backend (pytest), frontend (vitest), e2e (Playwright), schemathesis: the testcases of their JUnit
  reports; skipped ones are shown but not added. A suite whose step failed while its report shows no
  failure (no report, a crash, a server that did not start) counts one failed test more.
- CI (the environment variable CI set, as .ci/run does): the PostgreSQL-only backend tests ran, the
  end-to-end tests ran, and both test servers ran on PostgreSQL; each is one check.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

CHECKS = ("lint", "types-check", "check-deploy")
SUITES = (
    ("backend", "test-backend", ("backend.xml",)),
    ("frontend", "test-frontend", ("vitest.xml",)),
    ("e2e", "test-e2e", ("e2e.xml",)),
    ("schemathesis", "schemathesis", ("schemathesis",)),
)


def junit(paths: list[Path]) -> tuple[int, int, int, list[str]]:
    """passed, failed, skipped, names of the testcases that ran."""
    passed = failed = skipped = 0
    names: list[str] = []
    for path in paths:
        files = sorted(path.glob("*.xml")) if path.is_dir() else [path] if path.exists() else []
        for file in files:
            try:
                root = ET.parse(file).getroot()
            except ET.ParseError:
                failed += 1
                print(f"  {file.name}: not a readable JUnit report (counted as one failed test)")
                continue
            for case in root.iter("testcase"):
                if case.find("skipped") is not None:
                    skipped += 1
                    continue
                if case.find("failure") is not None or case.find("error") is not None:
                    failed += 1
                else:
                    passed += 1
                names.append(f"{case.get('classname', '')}.{case.get('name', '')}")
    return passed, failed, skipped, names


def main(reports: Path) -> int:
    steps: dict[str, int] = {}
    seconds: dict[str, int] = {}
    steps_file = reports / "steps.tsv"
    if steps_file.exists():
        for line in steps_file.read_text().splitlines():
            name, status, *took = line.split("\t")
            steps[name] = int(status or 1)
            if took and took[0].isdigit():
                seconds[name] = int(took[0])
    if seconds:
        print("time: " + ", ".join(f"{name} {took // 60}m{took % 60:02d}s" for name, took in seconds.items()))
    total_passed = total_failed = 0

    ran_checks = [c for c in CHECKS if c in steps]
    if ran_checks:
        ok = [c for c in ran_checks if steps[c] == 0]
        bad = [c for c in ran_checks if steps[c] != 0]
        total_passed += len(ok)
        total_failed += len(bad)
        print(f"checks: {len(ok)} passed, {len(bad)} failed" + (f" ({', '.join(bad)})" if bad else ""))

    names_of: dict[str, list[str]] = {}
    for suite, step, files in SUITES:
        passed, failed, skipped, names = junit([reports / f for f in files])
        names_of[suite] = names
        note = ""
        if steps.get(step, 0) != 0 and failed == 0:
            failed += 1
            note = f" (make {step} failed outside its tests: counted as one failed test)"
        if step not in steps and not names:
            continue
        total_passed += passed
        total_failed += failed
        print(f"{suite}: {passed} passed, {failed} failed, {skipped} skipped{note}")

    if os.environ.get("CI"):
        pg = [n for n in names_of["backend"] if "test_rls" in n or "postgres" in n.lower()]
        print(f"ci: PostgreSQL-only backend tests run: {len(pg)}")
        ci_checks = [
            ("the PostgreSQL (row-level security) tests ran", bool(pg)),
            ("the end-to-end tests ran", bool(names_of["e2e"])),
            # The pictures of every route (frontend/e2e/pictures.spec.ts) need a server of their own: a
            # run that skipped them compared no page with its baseline.
            (
                "the route pictures ran",
                any("pictures.spec.ts" in n and "first view of every route" in n for n in names_of["e2e"]),
            ),
        ]
        # Each test server records the database it ran on under its name (scripts/e2e-server.sh), whatever
        # free port it took.
        for name in ("e2e", "schemathesis"):
            record = reports.parent / "servers" / f"{name}.database"
            database = record.read_text().strip() if record.exists() else ""
            print(f"ci: {name} server database: {database or 'not recorded'}")
            ci_checks.append((f"the {name} server ran on PostgreSQL", database.startswith("postgresql")))
        for what, ok in ci_checks:
            if not ok:
                print(f"ci: check failed: {what}")
        total_passed += sum(1 for _, ok in ci_checks if ok)
        total_failed += sum(1 for _, ok in ci_checks if not ok)

    print(f"total: {total_passed} passed, {total_failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "var/reports")))
