#!/usr/bin/env python3
"""The measurement of `make bench-tryton` (scripts/bench-tryton.sh): the products search of the app's API
against Tryton's on the same 100,000 products, as requests per second by 8 concurrent clients.

Usage: bench-tryton-clients.py APP_BASE TENANT_ID TRYTON_BASE TRYTON_DATABASE TRYTON_PASSWORD

Each client is a thread with one keep-alive connection (http.client), sending its requests one after
the other. A request is what a list page needs, the count of matches and the first 50:
- the app: one GET /api/products/?search=TERM&page_size=50&tenant_id=N (count and page in one answer;
  a search counts up to 1,000 matches, SEARCH_COUNT_LIMIT, and says "more than 1,000" above it, so the
  common term's count is that bound, while Tryton counts all 10,000);
- Tryton: the pair of JSON-RPC calls model.product.product.search_count and search_read (limit 50,
  fields code and name) with the domain [('rec_name', 'ilike', '%TERM%')], which Tryton's own product
  search uses (product.product's search_rec_name: code, identifiers, template name and code, ...).
Before the figures each side must find the expected number of products (the app's last page gives its
exact count) and return 50 rows; every measured answer is checked to be the same as the first. Per term and side: one request per client to warm up, then at least 5 s and at least
5 requests per client (rate(): completed requests over the time they took, summed over the clients).
The sides are measured one after the other, never at once. Goal: the app's rate at least 4 times Tryton's for both terms.
Exit status: 0 when every figure was measured (a ratio below the goal is reported, not a failure).
"""

import base64
import http.client
import json
import sys
import threading
import time
from urllib.parse import quote, urlsplit

CLIENTS = 8
DURATION = 5.0  # seconds, at least
MIN_REQUESTS = 5  # per client, at least
LIMIT = 120.0  # seconds, at most
GOAL = 4.0
TERMS = [("selective", "B00123", 100), ("common", "B001", 10_000)]


class Failed(Exception):
    pass


def connect(base: str) -> http.client.HTTPConnection:
    parts = urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)


def call(conn, method, path, body=None, headers=None):
    conn.request(method, path, body, headers or {})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise Failed(f"{method} {path}: HTTP {response.status} {data[:200]!r}")
    return json.loads(data)


class App:
    name = "app"

    def __init__(self, base: str, tenant_id: int):
        self.base, self.tenant_id = base, tenant_id
        conn = connect(base)
        body = call(
            conn,
            "POST",
            "/api/users/login/",
            json.dumps({"username": "admin", "password": "demo1234"}),
            {"Content-Type": "application/json"},
        )
        conn.close()
        self.headers = {"Authorization": f"Bearer {body['data']['access']}"}

    def search(self, conn, term: str) -> tuple[int, int]:
        """(count, rows) of one GET, what a list page reads. Above the search's count bound
        (SEARCH_COUNT_LIMIT, docs/api-contract.md "Lists") the count is the bound, with count_more."""
        data = call(conn, "GET", self.path(term), headers=self.headers)["data"]
        return data["count"], len(data["results"])

    def found(self, conn, term: str) -> tuple[int, tuple[int, int]]:
        """(exact count, the first page's answer): a bounded count is followed to the last page, whose
        count is exact, so that the products found are checked, not the bound. Each page past the bound
        says how many rows exist up to its end, so the next one asked is the page after that."""
        data = call(conn, "GET", self.path(term), headers=self.headers)["data"]
        first = (data["count"], len(data["results"]))
        while data["count_more"]:
            page = data["count"] // 50 + 1
            data = call(conn, "GET", f"{self.path(term)}&page={page}", headers=self.headers)["data"]
        return data["count"], first

    def path(self, term: str) -> str:
        return f"/api/products/?search={quote(term)}&page_size=50&tenant_id={self.tenant_id}"


class Tryton:
    name = "Tryton"

    def __init__(self, base: str, database: str, password: str):
        self.base, self.path = base, f"/{database}/rpc/"
        conn = connect(base)
        body = call(
            conn,
            "POST",
            self.path,
            json.dumps({"id": 0, "method": "common.db.login", "params": ["admin", {"password": password}]}),
            {"Content-Type": "application/json"},
        )
        conn.close()
        user_id, session = body["result"][0], body["result"][1]
        token = base64.b64encode(f"admin:{user_id}:{session}".encode()).decode()
        self.headers = {"Content-Type": "application/json", "Authorization": f"Session {token}"}

    def rpc(self, conn, method: str, params: list):
        body = call(
            conn, "POST", self.path, json.dumps({"id": 0, "method": method, "params": params}), self.headers
        )
        if body.get("error"):
            raise Failed(f"{method}: {body['error']!r:.300}")
        return body["result"]

    def search(self, conn, term: str) -> tuple[int, int]:
        domain = [["rec_name", "ilike", f"%{term}%"]]
        count = self.rpc(conn, "model.product.product.search_count", [domain, 0, None, {}])
        rows = self.rpc(
            conn, "model.product.product.search_read", [domain, 0, 50, None, ["code", "name"], {}]
        )
        if rows and not all(term in row["code"] or term in row["name"] for row in rows):
            raise Failed(f"Tryton: a row without {term}: {rows[:3]!r}")
        return count, len(rows)

    def found(self, conn, term: str) -> tuple[int, tuple[int, int]]:
        """(exact count, the first page's answer): Tryton's count is always exact."""
        answer = self.search(conn, term)
        return answer[0], answer


def rate(side, term: str, answer: tuple[int, int]) -> float:
    """Requests a second of CLIENTS clients, each sending its requests one after the other.

    Each client first sends one request unmeasured (the warm-up: connection, caches, plans). Then all
    measure at once, for at least DURATION seconds and until each has completed MIN_REQUESTS (at
    most LIMIT seconds): a request of several seconds would otherwise leave a handful in the window.
    The rate is each client's completed requests divided by the time they took, summed over the
    clients (for clients without pause between requests, their throughput): a request still running
    at the end neither counts nor costs.
    """
    errors: list[BaseException] = []
    done = [0] * CLIENTS
    busy = [0.0] * CLIENTS
    warmed = threading.Barrier(CLIENTS + 1)
    stop = threading.Event()

    def one(conn) -> None:
        got = side.search(conn, term)
        if got != answer:
            raise Failed(f"{side.name}: {got[0]} matches and {got[1]} rows for {term!r}, expected {answer}")

    def client(index: int) -> None:
        conn = connect(side.base)
        try:
            try:
                one(conn)
            finally:
                warmed.wait()
            while not stop.is_set():
                began = time.monotonic()
                one(conn)
                if not stop.is_set():
                    busy[index] += time.monotonic() - began
                    done[index] += 1
        except BaseException as error:  # reported by the main thread
            errors.append(error)
            stop.set()
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    warmed.wait()
    began = time.monotonic()
    while not stop.is_set():
        elapsed = time.monotonic() - began
        if elapsed >= LIMIT or (elapsed >= DURATION and min(done) >= MIN_REQUESTS):
            stop.set()
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    if errors:
        raise Failed(f"{side.name}, {term!r}: {errors[0]!r}")
    if min(done) == 0:
        raise Failed(f"{side.name}, {term!r}: a client completed no request in {LIMIT:.0f} s")
    return sum(n / t for n, t in zip(done, busy, strict=True))


def main() -> int:
    app_base, tenant_id, tryton_base, database, password = sys.argv[1:6]
    try:
        sides = [App(app_base, int(tenant_id)), Tryton(tryton_base, database, password)]
        answers: dict[tuple[str, str], tuple[int, int]] = {}
        for _, term, expected in TERMS:  # the answers first: both sides find the same products
            for side in sides:
                conn = connect(side.base)
                # the first page's answer is what each measured request must get
                count, answers[side.name, term] = side.found(conn, term)
                conn.close()
                rows = answers[side.name, term][1]
                if (count, rows) != (expected, 50):
                    raise Failed(
                        f"{side.name}: {count} matches and {rows} rows for {term!r}, expected {expected} and 50"
                    )
                shown = answers[side.name, term][0]
                print(
                    f"bench-tryton: {side.name} finds {count} products for {term!r} and returns 50"
                    + (f" (its count stops at {shown}: 'more than {shown:,}')" if shown != count else ""),
                    flush=True,
                )
        print(
            f"bench-tryton: {CLIENTS} clients (threads, keep-alive), one request each to warm up, then at least "
            f"{DURATION:.0f} s and {MIN_REQUESTS} requests each; a request is one GET for the app, the pair "
            "search_count + search_read for Tryton",
            flush=True,
        )
        met_all = True
        for label, term, expected in TERMS:
            app_rate, tryton_rate = (rate(side, term, answers[side.name, term]) for side in sides)
            ratio = app_rate / tryton_rate if tryton_rate else float("inf")
            met = ratio >= GOAL
            met_all = met_all and met
            print(
                f'{label} search "{term}" ({expected:,} matches): app {app_rate:.1f} req/s, '
                f"Tryton {tryton_rate:.1f} req/s, ratio {ratio:.1f} (goal at least {GOAL:.0f}: "
                f"{'met' if met else 'NOT met'})",
                flush=True,
            )
        print(
            f"bench-tryton: goal (at least {GOAL:.0f} times Tryton's rate for both terms): "
            f"{'met' if met_all else 'NOT met'}",
            flush=True,
        )
    except (Failed, OSError, KeyError, ValueError) as error:
        print(f"bench-tryton: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
