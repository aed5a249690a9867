"""Prints each benchmark beside its reference, measured in the same run, as a ratio (`make bench`)."""

from __future__ import annotations

# (figure, reference, what): test names of pytest-benchmark
PAIRS = [
    (
        "test_bench_products_page_of_50",
        "test_bench_products_page_of_50_database_only",
        "products list page (API) vs PostgreSQL's own time for the page's SQL",
    ),
    (
        "test_bench_products_search",
        "test_bench_products_search_database_only",
        "products search over 100,000 rows (API, count and page) vs PostgreSQL's own time for its SQL",
    ),
    (
        "test_bench_products_search_database_only",
        "test_bench_products_search_scan_database_only",
        "the same search in PostgreSQL: through the grams vs the LIKE scan (what it ran before)",
    ),
    (
        "test_bench_products_bulk_insert_10000",
        "test_bench_products_bulk_insert_10000_without_grams",
        "bulk_create of 10,000 products: with their grams vs with the gram triggers disabled",
    ),
    (
        "test_bench_generate_10000_cartons",
        "test_bench_copy_10000_carton_rows_reference",
        "generating 10,000 cartons vs a PostgreSQL COPY of the same rows",
    ),
    (
        "test_bench_report_grouped_100000_moves",
        "test_bench_report_grouped_100000_moves_database_only",
        "a grouped report over 100,000 stock moves (API, with subtotals and totals) vs the same GROUP BY in SQL",
    ),
]
RATES = [("test_bench_export_10000_labels_csv", 10_000, "CSV label export")]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None:
        return
    means = {bench.name: bench.stats.mean for bench in session.benchmarks if bench.stats}
    terminalreporter.section("figures beside their references")
    for figure, reference, what in PAIRS:
        if figure in means and reference in means:
            ratio = means[figure] / means[reference]
            terminalreporter.write_line(
                f"{what}: {means[figure] * 1000:.1f} ms vs {means[reference] * 1000:.1f} ms, ratio {ratio:.1f}"
            )
    for name, labels, what in RATES:
        if name in means:
            terminalreporter.write_line(f"{what}: {labels / means[name]:.0f} labels/s")
