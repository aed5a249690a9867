#!/usr/bin/env bash
# The figures of `make bench` that need a running server: the bytes a first visit transfers in Chromium
# (frontend/scripts/transfer-size.mjs) and the public trace's rate against a static file's
# (scripts/bench-http.py), against a demo server of its own (scripts/e2e-server.sh on BENCH_PORT).
#
# - It waits for the server as long as the server is still starting (migrate and the demo data take
#   minutes on a busy machine): until it answers, or until its process has ended (then it fails and
#   shows the end of the server's log). No fixed time limit.
# - It runs the server in a process group of its own and, however it ends (done, failed, Ctrl-C), stops
#   the whole group (the script, migrate or load_demo if still running, gunicorn and its workers) and
#   drops the server's database (cartontrace_e2e_<port>) and its var/e2e-<port> folder.
# - Arguments, if any, are a command run while the server starts (`make bench` gives it the API
#   benchmarks and the bundle budget); its failure counts as a figure's. It gets the server's address and
#   process as BENCH_SERVER_URL and BENCH_SERVER_PID.
# - Exit status: 0 when every figure was measured and within its budget, 1 otherwise.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${BENCH_PORT:-8797}"
BASE="http://127.0.0.1:$PORT"
mkdir -p "$ROOT/var"
LOG="$ROOT/var/bench-server.log"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
PG_URL="${E2E_DATABASE_URL:-${DATABASE_URL:-}}"

if ! python3 -c "import socket, sys; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))" "$PORT" 2>/dev/null; then
  echo "bench: port $PORT is in use; set BENCH_PORT to a free port" >&2
  exit 1
fi

# shellcheck source=scripts/server-group.sh
. "$ROOT/scripts/server-group.sh"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then
    stop_group "$SERVER"
    SERVER=""
  fi
  if [ -n "$PG_URL" ]; then
    (cd "$ROOT/backend" && E2E_PG_URL="$PG_URL" E2E_DB_NAME="cartontrace_e2e_$PORT" "$UV" run --frozen python - <<'PY'
import os
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

parts = urlsplit(os.environ["E2E_PG_URL"])
with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
    conn.execute(
        sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(os.environ["E2E_DB_NAME"]))
    )
PY
    ) || echo "bench: could not drop cartontrace_e2e_$PORT" >&2
  fi
  rm -rf "$ROOT/var/e2e-$PORT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# setsid: the server leads a process group of its own, so the cleanup reaches all of it.
# bench-http.py scans for a minute from one address at hundreds a second: above the test servers' rate
# of 10,000 a minute on a quiet machine, which answered 429 in the middle of the figures. The throttle
# still counts every scan (its cost is part of the figure); it just never refuses one here.
PUBLIC_TRACE_RATE="10000000/min" E2E_PORT="$PORT" setsid bash "$ROOT/scripts/e2e-server.sh" >"$LOG" 2>&1 </dev/null &
SERVER=$!
started=$SECONDS
status=0
# The work given as arguments (`make bench`: the API benchmarks and the bundle budget) runs while the
# server migrates and loads its demo data, which takes minutes on a busy machine: the two overlap
# instead of following each other. Its failure fails the run, after the server's figures. The
# benchmarks of a figure with a goal and its reference wait for the server to answer (BENCH_SERVER_URL,
# bench/conftest.py), so that both are measured beside an idle server, not beside its start-up.
if [ "$#" -gt 0 ]; then
  BENCH_SERVER_URL="$BASE/api/schema/" BENCH_SERVER_PID="$SERVER" "$@" || status=1
fi
echo "bench: waiting for the demo server on $BASE (its log: $LOG)"
wait_for_server "bench: the demo server" "$BASE/api/schema/" "$SERVER" "$LOG"
echo "bench: the demo server answered $((SECONDS - started)) s after it was started"

(cd "$ROOT/frontend" && E2E_BASE_URL="$BASE" node scripts/transfer-size.mjs) || status=1
python3 "$ROOT/scripts/bench-http.py" "$BASE" || status=1
exit $status
