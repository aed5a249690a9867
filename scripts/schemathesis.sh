#!/usr/bin/env bash
# Runs schemathesis over every operation of /api/schema/, signed in as the demo admin with tenant 3,
# against a fresh demo server; operations with an id in their path get a real demo row's id, the print
# agent's operations a paired agent's token (scripts/schemathesis_config.py).
# Fails on any server error or response that breaks the schema.
# Sign-out, a password reset and a deactivation end every session of their user (docs/operations.md),
# so run on the admin itself they would leave the rest of the run with a dead token: they are left out
# here and have their own tests (apps/users/tests).
# Schemathesis closes with a pytest-style banner ("=== 3 warnings in 105s ===") that a reader of the log
# would take for a pytest run of no tests; its banners are printed as plain headings instead, and the
# whole output is kept in var/schemathesis-output.log. Its tests are counted from the JUnit report.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# A free port unless SCHEMATHESIS_PORT names one: a fixed port collides with whatever else a busy machine runs.
PORT="${SCHEMATHESIS_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')}"
echo "schemathesis: the demo server serves on http://127.0.0.1:$PORT (log: var/schemathesis-server.log)"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
mkdir -p "$ROOT/var"
export E2E_PORT="$PORT" E2E_SERVER_NAME=schemathesis JWT_ACCESS_MINUTES=240 AXES_ENABLED=false
bash "$ROOT/scripts/e2e-server.sh" > "$ROOT/var/schemathesis-server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
# Migrating and loading the demo take a minute or more on a loaded machine.
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$PORT/api/schema/" >/dev/null 2>&1 && break
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/api/schema/" >/dev/null 2>&1 || {
  echo "schemathesis: the server did not start within 300 s; see var/schemathesis-server.log" >&2
  exit 1
}
TOKEN=$(curl -fs -H 'Content-Type: application/json' -d '{"username":"admin","password":"demo1234"}' \
  "http://127.0.0.1:$PORT/api/users/login/" | python3 -c 'import json,sys;print(json.load(sys.stdin)["data"]["access"])')
# The run's configuration: backend/schemathesis.toml plus the demo's known ids per operation, the print
# agent's token and the admin's (scripts/schemathesis_config.py).
python3 "$ROOT/scripts/schemathesis_config.py" "http://127.0.0.1:$PORT" "$TOKEN" \
  "$ROOT/backend/schemathesis.toml" > "$ROOT/var/schemathesis-run.toml"
cd "$ROOT/backend"
"$UV" run --frozen schemathesis --config-file "$ROOT/var/schemathesis-run.toml" run "http://127.0.0.1:$PORT/api/schema/" \
  --checks not_a_server_error,response_schema_conformance \
  --phases examples,fuzzing,stateful \
  --exclude-path /api/users/logout/ \
  --exclude-path-regex '^/api/users/\{id\}/(reset-password|deactivate)/$' \
  --workers 2 \
  ${SCHEMATHESIS_SEED:+--seed "$SCHEMATHESIS_SEED"} \
  --report junit --report-dir "$ROOT/var/reports/schemathesis" \
  "$@" 2>&1 | tee "$ROOT/var/schemathesis-output.log" | sed -E 's/^=+ (.*[^ =]) =+$/-- \1 --/'
