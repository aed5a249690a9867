"""The repository explains itself: code and docs cite the specification, the design, the house style and
the regulation's facts as pages of docs/, never a file outside the repository, and every docs/ page they
cite exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
OUTSIDE = re.compile(r"(?<![\w/.-])(?:\.\./shared/)?(?:SPEC|DESIGN|STYLE|EUDR)\.md")
CITED = re.compile(r"docs/([a-z0-9-]+\.md)")
TEXT_SUFFIXES = {
    ".py",
    ".ts",
    ".tsx",
    ".mjs",
    ".js",
    ".md",
    ".yaml",
    ".yml",
    ".toml",
    ".sh",
    ".json",
    ".css",
    ".html",
    ".po",
    ".xsd",
    "",
}


def tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        paths = [ROOT / line for line in out.splitlines()]
    except (OSError, subprocess.CalledProcessError):
        paths = [
            p
            for p in ROOT.rglob("*")
            if p.is_file() and ".git" not in p.parts and "node_modules" not in p.parts
        ]
    return [p for p in paths if p.suffix in TEXT_SUFFIXES and p.is_file()]


def test_nothing_cites_a_file_outside_the_repository():
    offenders = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not offenders, (
        "Cite docs/specification.md, docs/design.md, docs/style.md or docs/regulation.md:\n"
        + "\n".join(offenders[:50])
    )


def test_every_cited_docs_page_exists():
    missing = set()
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for name in CITED.findall(text):
            if not (ROOT / "docs" / name).exists():
                missing.add(f"{path.relative_to(ROOT)} cites docs/{name}")
    assert not missing, "\n".join(sorted(missing))
