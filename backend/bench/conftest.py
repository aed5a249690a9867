"""Prints each benchmark beside its reference, measured in the same run, as a ratio of their medians
(`make bench`)."""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request

import pytest


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
        "products list page (API) vs PostgreSQL's own time for the page's SQL (its capped count, its page)",
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
        "a search for a common term (10,000 matches) in PostgreSQL, the term known to be too common: the "
        "scan it falls back to (page and count in one statement) vs the LIKE scan it replaced (count, page)",
        1,
    ),
    (
        "test_bench_products_search_common_first_database_only",
        "test_bench_products_search_common_scan_database_only",
        "the same term's first search in a process: the test of its gram counts (or a bounded probe) and "
        "the scan vs the LIKE scan it replaced",
        None,
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


# A request through the API, measured this many times after this many calls not counted.
API_ROUNDS, API_WARMUP_ROUNDS = 100, 5


@pytest.fixture
def measure_requests(benchmark):
    """Measures a request through the API in API_ROUNDS rounds after API_WARMUP_ROUNDS. pytest-benchmark's
    own calibration times the first call, which compiles statements and fills caches (a tenth of a second
    or more), and then gave the request 5 rounds only: one slow round moved a figure's mean by a quarter
    between two runs alone on a quiet machine (3.27 and 4.23 for the deliveries page)."""

    def measure(request_once):
        return benchmark.pedantic(
            request_once, rounds=API_ROUNDS, warmup_rounds=API_WARMUP_ROUNDS, iterations=1
        )

    return measure


# (benchmark, seconds) it waited for the demo server, printed with the figures
WAITED: list[tuple[str, float]] = []
ANSWERED: list[bool] = []  # once it has answered, it is not asked again
# The benchmarks of every figure with a goal and of its reference.
PAIRED = frozenset(
    name for figure, reference, _, goal in PAIRS if goal is not None for name in (figure, reference)
)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except urllib.error.HTTPError:
        return True  # any HTTP status: the server is up
    except OSError:
        return False


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (OSError, ValueError):
        return False
    return True


@pytest.fixture(autouse=True)
def idle_demo_server(request):
    """Under `make bench`, the demo server of the server figures starts beside the API benchmarks and
    migrates and loads its data for minutes (scripts/bench-server-figures.sh). A figure with a goal and
    its reference are measured once it answers, so that both run beside an idle server rather than one
    of them beside its start-up. No fixed limit: it waits while the server's process is alive."""
    url, pid = os.environ.get("BENCH_SERVER_URL"), os.environ.get("BENCH_SERVER_PID", "")
    if not url or request.node.name not in PAIRED or ANSWERED:
        return
    started = time.monotonic()
    while not _answers(url):
        if pid and not _alive(pid):
            return  # the server failed: the script reports it; the figures are measured anyway
        time.sleep(1)
    ANSWERED.append(True)
    WAITED.append((request.node.name, time.monotonic() - started))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None:
        return
    # Medians: a figure and its reference are each one benchmark of many rounds, and a round slowed by
    # something else on the machine (a collection of Python's garbage, autovacuum) moves a mean more
    # than the change being measured; the median of the rounds does not move with such a round.
    means = {bench.name: bench.stats.median for bench in session.benchmarks if bench.stats}
    terminalreporter.section("figures beside their references")
    rows = int(os.environ.get("BENCH_ROWS", "100000"))
    terminalreporter.write_line(f"the list benchmarks' products: {rows:,} (BENCH_ROWS)")
    for name, seconds in WAITED:
        terminalreporter.write_line(
            f"the figures with a goal waited {seconds:.0f} s for the demo server ({name} first)"
        )
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
