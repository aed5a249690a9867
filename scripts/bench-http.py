"""Requests per second of the public trace against serving a static file, on the same running server,
in one run (`make bench`): the ratio is what counts, not the absolute rate of a busy machine.

Usage: python3 scripts/bench-http.py http://127.0.0.1:8799   (a demo server, e.g. scripts/e2e-server.sh)
8 client threads, each with its own keep-alive connection, for SECONDS each; the carton is the first
of the demo tenant's labels. The server's public throttle must allow the rate (e2e-server.sh sets it).
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


def first_carton_code(base: str) -> str:
    status, body = request(
        base,
        "POST",
        "/api/users/login/",
        json.dumps({"username": "admin", "password": "demo1234"}),
        {"Content-Type": "application/json"},
    )
    token = json.loads(body)["data"]["access"]
    status, body = request(
        base, "GET", "/api/eudr/cartons/?tenant_id=3&page_size=1", headers={"Authorization": f"Bearer {token}"}
    )
    return json.loads(body)["data"]["results"][0]["code"]


def rate(base: str, path: str) -> float:
    parts = urlsplit(base)
    counts = [0] * CLIENTS
    errors = []
    deadline = time.perf_counter() + SECONDS

    def worker(i):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        while time.perf_counter() < deadline:
            conn.request("GET", path, headers={"Accept-Encoding": "gzip, br"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
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
        sys.exit(f"bench-http: {path} answered {errors[0]}")
    return sum(counts) / (time.perf_counter() - start)


def main(base: str) -> None:
    code = first_carton_code(base)
    trace_path = f"/api/eudrtrack/{code}/"
    request(base, "GET", trace_path)  # the first scan fills the cache, as a real first scan does
    static = rate(base, "/favicon.svg")
    trace = rate(base, trace_path)
    page = rate(base, f"/eudrtrace/{code}")
    for what, value in (("public trace API", trace), ("trace HTML page", page)):
        ratio = value / static
        met = "met" if ratio >= GOAL else "NOT met"
        print(
            f"{what}: {value:.0f} req/s vs a static file's {static:.0f} req/s, ratio {ratio:.2f} "
            f"(goal: at least {GOAL}, {met})"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8799")
