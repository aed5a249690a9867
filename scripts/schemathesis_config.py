#!/usr/bin/env python3
"""Writes the schemathesis configuration of one run: backend/schemathesis.toml plus what only the live demo
server knows (scripts/schemathesis.sh calls it once the server is up).

- Known ids: an operation on `/api/x/{id}/...` gets the id of a real row of tenant 3 - the first row of
  its collection `GET /api/x/` - so its cases reach the operation's logic instead of answering 404 for a
  random number. Other path parameters (`{code}`, `{order_number}`, `{name}`) are taken from the same
  row's field of that name, or its `code`/`number`. DELETE keeps generated ids, so the run does not
  delete the demo rows the other operations work on (the stateful phase deletes what it created).
- The print agent's API (`/api/printer/...`, `Authorization: Agent <token>`): a pairing code is made as
  the admin and exchanged for an agent token, used for those operations only.
- The admin's bearer token is written as the run's header, so that the agent operations' own header
  (an operation setting) is not overridden by a command-line header.

Usage: schemathesis_config.py BASE_URL TOKEN BASE_CONFIG > generated.toml. Standard library only.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.error
import urllib.request

TENANT = 3
# Users, roles and their permissions are only read with a known id: a generated PUT on the admin's own
# memberships or on the Administrator role's permissions would cut the rest of the run off.
READ_ONLY = re.compile(r"^/api/users/")


def call(base: str, path: str, token: str, *, method: str = "GET", body: dict | None = None, auth: str = "Bearer"):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"{auth} {token}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)
    except (urllib.error.URLError, ValueError, TimeoutError):
        return None


def first_row(base: str, collection: str, token: str, *, not_id: int | None) -> dict | None:
    """The first row of a collection that is not the signed-in user."""
    body = call(base, f"{collection}?tenant_id={TENANT}&page_size=5", token)
    if not isinstance(body, dict):
        return None
    data = body.get("data")
    rows = data.get("results") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        return None
    for row in rows:
        if isinstance(row, dict) and not (collection == "/api/users/" and row.get("id") == not_id):
            return row
    return None


def toml_string(value: str) -> str:
    return json.dumps(value)


def main() -> int:
    base, token, base_config = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    schema = call(base, "/api/schema/?format=json", token) or {}
    paths: dict = schema.get("paths", {})
    out = [open(base_config, encoding="utf-8").read().rstrip(), ""]
    out.insert(0, f"headers = {{ Authorization = {toml_string('Bearer ' + token)} }}")

    me = ((call(base, "/api/users/me/", token) or {}).get("data") or {}).get("id")
    rows: dict[str, dict | None] = {}
    covered = 0
    for path, methods in sorted(paths.items()):
        names = re.findall(r"\{([a-z_]+)\}", path)
        if not names or path.startswith("/api/printer/"):
            continue
        first = names[0]
        collection = path[: path.index("{" + first + "}")]
        if collection.endswith("by-name/") or collection.endswith("by-number/"):
            collection = collection.rsplit("/", 2)[0] + "/"
        if collection not in rows:
            rows[collection] = first_row(base, collection, token, not_id=me)
        row = rows[collection]
        if row is None:
            continue
        value = row.get(first) if first != "id" else row.get("id")
        if value is None:
            value = row.get("code") or row.get("number") or row.get("name")
        if value is None or len(names) > 1:
            # A second parameter (an attachment, a job) has no listing to take it from: leave it generated.
            continue
        allowed = ("get",) if READ_ONLY.match(path) else ("get", "post", "put", "patch")
        methods_here = sorted(m.upper() for m in methods if m in allowed)
        if not methods_here:
            continue
        covered += 1
        # One filter per block: schemathesis admits an operation that matches ANY of a block's filters,
        # so `include-path` with `include-method` would also catch every other GET; the name
        # ("GET /api/x/{id}/") selects exactly these operations.
        names_here = [f"{method} {path}" for method in methods_here]
        out += [
            "[[operations]]",
            f"include-name = {json.dumps(names_here)}",
            f"parameters = {{ {toml_string('path.' + first)} = {json.dumps(value)} }}",
            "",
        ]

    pairing = call(
        base, f"/api/printing/agents/pairing-code/?tenant_id={TENANT}", token, method="POST",
        body={"name": "Schemathesis agent"},
    )
    code = ((pairing or {}).get("data") or {}).get("code")
    paired = call(base, "/api/printer/pair/", "", method="POST", body={"code": code}) if code else None
    agent_token = ((paired or {}).get("data") or {}).get("token")
    if agent_token:
        out += [
            "[[operations]]",
            'include-path-regex = "^/api/printer/(heartbeat|jobs)"',
            f"headers = {{ Authorization = {toml_string('Agent ' + agent_token)} }}",
            "",
        ]
    print("\n".join(out))
    print(
        f"schemathesis-config: known ids for {covered} paths; print agent token: {'yes' if agent_token else 'no'}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
