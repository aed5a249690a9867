"""Requests per second of the public trace against serving a static file, on the same running server,
in one run (`make bench`): the ratio is what counts, not the absolute rate of a busy machine.

Usage: python3 scripts/bench-http.py http://127.0.0.1:8799   (a demo server, e.g. scripts/e2e-server.sh)
8 client threads, each with its own keep-alive connection, for SECONDS each. The public trace is
measured three ways: one carton over and over, the demo tenant's first 100 active cartons in turn (what
a per-process cache of a few entries would keep missing), and a revalidation with the carton's ETag
(304); then the trace HTML page. The server's public throttle must allow the rate (e2e-server.sh sets
it). A figure below the goal is reported, not a failure: the ratio depends on the machine's load.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit

CLIENTS = 8
SECONDS = 5.0
GOAL = 0.8  # the trace's rate as a share of the static file's


def request(base, method, path, body=None, headers=None):
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def carton_codes(base: str, count: int = 100) -> list[str]:
    """Codes of the demo tenant's first `count` cartons (the trace answers only active ones)."""
    _, body = request(
        base,
        "POST",
        "/api/users/login/",
        json.dumps({"username": "admin", "password": "demo1234"}),
        {"Content-Type": "application/json"},
    )
    token = json.loads(body)["data"]["access"]
    _, body = request(
        base,
        "GET",
        f"/api/eudr/cartons/?tenant_id=3&page_size={count}",
        headers={"Authorization": f"Bearer {token}"},
    )
    rows = json.loads(body)["data"]["results"]
    return [row["code"] for row in rows if row.get("status", "active") == "active"]


def rate(
    base: str,
    paths: list[str],
    headers: dict[str, str] | None = None,
    expect: int = 200,
) -> float:
    """Requests per second over SECONDS with CLIENTS keep-alive clients, each taking the paths in turn
    (client i starts at the i-th path, so many paths mean many different cartons at once)."""
    parts = urlsplit(base)
    counts = [0] * CLIENTS
    errors = []
    deadline = time.perf_counter() + SECONDS
    sent = {"Accept-Encoding": "gzip, br", **(headers or {})}

    def worker(i):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        n = i
        while time.perf_counter() < deadline:
            conn.request("GET", paths[n % len(paths)], headers=sent)
            n += 1
            response = conn.getresponse()
            response.read()
            if response.status != expect:
                errors.append(response.status)
                return
            counts[i] += 1
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit(f"bench-http: {paths[0]} answered {errors[0]} (expected {expect})")
    return sum(counts) / (time.perf_counter() - start)


def main(base: str) -> None:
    codes = carton_codes(base)
    if not codes:
        sys.exit("bench-http: the demo tenant has no active carton")
    one = f"/api/eudrtrack/{codes[0]}/"
    many = [f"/api/eudrtrack/{code}/" for code in codes]
    status, _ = request(base, "GET", one)
    if status != 200:
        sys.exit(f"bench-http: {one} answered {status}")
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", one)
    first = conn.getresponse()
    first.read()
    etag = first.getheader("ETag") or ""
    conn.close()
    static = rate(base, ["/favicon.svg"])
    figures = (
        # Nothing is cached in the server's processes: every request reads the carton's stored answer.
        ("public trace API, one carton", rate(base, [one])),
        (
            f"public trace API, {len(many)} cartons in turn (no carton scanned twice in a row)",
            rate(base, many),
        ),
        (
            "public trace API, revalidated (If-None-Match, 304)",
            rate(base, [one], {"If-None-Match": etag}, 304),
        ),
        ("trace HTML page", rate(base, [f"/eudrtrace/{codes[0]}"])),
    )
    print(f"static file (/favicon.svg): {static:.0f} req/s (the reference)")
    for what, value in figures:
        ratio = value / static
        met = ratio >= GOAL
        print(
            f"{what}: {value:.0f} req/s vs a static file's {static:.0f} req/s, ratio {ratio:.2f} "
            f"(goal: at least {GOAL}, {'met' if met else 'NOT met'})"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8799")
