"""How each list benchmark grew from the smaller products table to the larger one (`make bench-1m`): the
medians of two pytest-benchmark JSON reports of backend/bench/test_bench_lists.py, BENCH_ROWS apart.

    python scripts/bench-growth.py SMALL.json SMALL_ROWS LARGE.json LARGE_ROWS

The list page's own SQL has a goal (at most 2 times from 10,000 to 1,000,000 rows: docs/performance.md,
"Lists at every size"); the other figures are printed beside it. A search has none: whatever index answers
it reads the postings of its rarest grams, which grow with the table. Exits 1 when a figure is missing
from a report.
"""

from __future__ import annotations

import json
import sys

# (benchmark, what, goal: the highest growth allowed, or None)
FIGURES = [
    ("test_bench_products_page_of_50_database_only", "the products page's SQL (page 100, its count)", 2),
    ("test_bench_products_search_database_only", "the products search's SQL (100 matches)", None),
    ("test_bench_products_page_of_50", "the products page through the API", None),
    ("test_bench_products_search", "the products search through the API", None),
    (
        "test_bench_products_search_scan_database_only",
        "the same search as a LIKE scan (before the grams)",
        None,
    ),
]


def medians(path: str) -> dict[str, float]:
    with open(path, encoding="utf-8") as report:
        return {bench["name"]: bench["stats"]["median"] for bench in json.load(report)["benchmarks"]}


def main(argv: list[str]) -> int:
    small_path, small_rows, large_path, large_rows = argv[0], int(argv[1]), argv[2], int(argv[3])
    small, large = medians(small_path), medians(large_path)
    print(f"\nlist figures from {small_rows:,} to {large_rows:,} products (medians):")
    missing = False
    for name, what, goal in FIGURES:
        if name not in small or name not in large:
            print(f"{what}: not measured in both runs")
            missing = True
            continue
        growth = large[name] / small[name]
        line = f"{what}: {small[name] * 1000:.2f} ms -> {large[name] * 1000:.2f} ms, {growth:.2f} times"
        if goal is not None:
            line += f" (goal: at most {goal:g}, {'met' if growth <= goal else 'NOT met'})"
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
