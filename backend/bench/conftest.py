"""Prints each benchmark beside its reference, measured in the same run, as a ratio (`make bench`)."""

from __future__ import annotations

import os


def ratio_text(ratio: float) -> str:
    """Two significant digits below 1 (0.044, not 0.0), two decimals above."""
    return f"{ratio:.2f}" if ratio >= 1 else f"{ratio:.2g}"


def goal_text(ratio: float, goal: float | None) -> str:
    if goal is None:
        return ""
    return f" (goal: at most {goal:g}, {'met' if ratio <= goal else 'NOT met'})"


# (figure, reference, what, goal: the highest ratio allowed, or None): test names of pytest-benchmark
PAIRS = [
    (
        "test_bench_products_page_of_50",
        "test_bench_products_page_of_50_database_only",
        "products list page (API) vs PostgreSQL's own time for the page's SQL",
        3,
    ),
    (
        "test_bench_products_search",
        "test_bench_products_search_database_only",
        "products search over the bench's products (API, count and page) vs PostgreSQL's own time for its SQL",
        3,
    ),
    (
        "test_bench_products_search_database_only",
        "test_bench_products_search_scan_database_only",
        "the same search in PostgreSQL: through the grams vs the LIKE scan (what it ran before)",
        1,
    ),
    (
        "test_bench_products_search_common_database_only",
        "test_bench_products_search_common_scan_database_only",
        "a search for a common term (10,000 matches) in PostgreSQL: the bounded probe of the grams and "
        "the scan it falls back to vs the LIKE scan alone",
        1,
    ),
    (
        "test_bench_products_bulk_insert_10000",
        "test_bench_products_bulk_insert_10000_without_grams",
        "bulk_create of 10,000 products: with their grams vs with the gram triggers disabled",
        None,
    ),
    (
        "test_bench_generate_10000_cartons",
        "test_bench_copy_10000_carton_rows_reference",
        "generating 10,000 cartons vs a PostgreSQL COPY of the same rows",
        None,
    ),
    (
        "test_bench_deliveries_list_50_rows",
        "test_bench_deliveries_list_50_rows_database_only",
        "raw-material deliveries list page of 50 (API) vs PostgreSQL's own time for its SQL",
        3,
    ),
    (
        "test_bench_report_grouped_100000_moves",
        "test_bench_report_grouped_100000_moves_database_only",
        "a grouped report over 100,000 stock moves (API, with subtotals and totals) vs the same GROUP BY in SQL",
        1.5,
    ),
]
# (figure, labels, what, goal in labels/s or None): each rate printed beside the CSV export's, its reference
RATES = [
    ("test_bench_export_10000_labels_csv", 10_000, "CSV label export", None),
    ("test_bench_export_10000_labels_pdf[default]", 10_000, "label PDF, default 100x150 mm", 2000),
    ("test_bench_export_10000_labels_pdf[compact]", 10_000, "label PDF, compact 100x50 mm", 2000),
]
CSV = "test_bench_export_10000_labels_csv"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None:
        return
    means = {bench.name: bench.stats.mean for bench in session.benchmarks if bench.stats}
    terminalreporter.section("figures beside their references")
    rows = int(os.environ.get("BENCH_ROWS", "100000"))
    terminalreporter.write_line(f"the list benchmarks' products: {rows:,} (BENCH_ROWS)")
    for figure, reference, what, goal in PAIRS:
        if figure in means and reference in means:
            ratio = means[figure] / means[reference]
            terminalreporter.write_line(
                f"{what}: {means[figure] * 1000:.1f} ms vs {means[reference] * 1000:.1f} ms, "
                f"ratio {ratio_text(ratio)}{goal_text(ratio, goal)}"
            )
    for name, labels, what, goal in RATES:
        if name not in means:
            continue
        line = f"{what}: {labels / means[name]:.0f} labels/s"
        if name != CSV and CSV in means:
            rate_ratio = means[CSV] / means[name]
            line += f" vs the CSV export's {labels / means[CSV]:.0f} labels/s, ratio {ratio_text(rate_ratio)}"
        if goal:
            met = "met" if labels / means[name] >= goal else "NOT met"
            line += f" (goal: at least {goal} labels/s, {met})"
        terminalreporter.write_line(line)
