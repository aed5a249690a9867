#!/usr/bin/env bash
# `make bench-tryton`: the products search of the app's API against Tryton 8's on the same 100,000
# products, in one run (docs/performance.md, "make bench-tryton"). Needs DATABASE_URL: an ordinary
# PostgreSQL role with CREATEDB (make pg-role: postgres://cartontrace@127.0.0.1:5432/cartontrace).
#
# - Tryton (scripts/tryton/requirements.txt, hash-pinned) lives in .tools/tryton-venv, created here and
#   reused while its lock is unchanged; never in the app's environment.
# - Two free ports (bound to port 0): the app's demo server (scripts/e2e-server.sh, database
#   cartontrace_e2e_<port>) and trytond (database cartontrace_tryton_<port>, config under
#   var/tryton-<port>/). The demo server migrates and loads its demo data while Tryton's database is
#   initialised (trytond-admin --all, module product) and filled (scripts/tryton/fill.py).
# - Then the same 100,000 products into the demo tenant (scripts/bench-tryton-fill-app.py), both
#   databases vacuumed and analysed, and the measurement (scripts/bench-tryton-clients.py).
# - However it ends (done, failed, Ctrl-C), both servers' process groups are stopped (TERM, then KILL),
#   both databases dropped, var/tryton-<port> and var/e2e-<port> removed. The logs stay:
#   var/bench-tryton-app.log, var/bench-tryton-trytond.log.
# - Exit status: 0 when every figure was measured (a ratio below the goal is reported, not a
#   failure), 1 otherwise.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
PG_URL="${DATABASE_URL:-}"
VENV="$ROOT/.tools/tryton-venv"
LOCK="$ROOT/scripts/tryton/requirements.txt"
APP_LOG="$ROOT/var/bench-tryton-app.log"
TRYTON_LOG="$ROOT/var/bench-tryton-trytond.log"
TENANT_ID=3  # the demo tenant (scripts/bench-http.py)
started=$SECONDS
say() { echo "bench-tryton: $*"; }
# shellcheck source=scripts/server-group.sh
. "$ROOT/scripts/server-group.sh"

if [ -z "$PG_URL" ]; then
  echo "bench-tryton: set DATABASE_URL to an ordinary PostgreSQL role with CREATEDB, e.g." \
    "DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace (make pg-role)" >&2
  exit 1
fi
mkdir -p "$ROOT/var"
say "machine load at the start:$(uptime | sed 's/.*load average//')"

# Tryton's environment, (re)built when the lock changed.
lock_sum="$(sha256sum "$LOCK" | cut -d' ' -f1)"
if [ "$(cat "$VENV/.lock-sha256" 2>/dev/null)" != "$lock_sum" ]; then
  say "installing Tryton into $VENV from $LOCK"
  rm -rf "$VENV"
  "$UV" venv --quiet --python 3.11 "$VENV" &&
    "$UV" pip sync --quiet --require-hashes --python "$VENV/bin/python" "$LOCK" &&
    echo "$lock_sum" > "$VENV/.lock-sha256" || { echo "bench-tryton: could not install Tryton" >&2; exit 1; }
fi

# Two free ports at once (both sockets open while the second is chosen: two different ports).
read -r APP_PORT TRYTON_PORT < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
APP_BASE="http://127.0.0.1:$APP_PORT"
TRYTON_BASE="http://127.0.0.1:$TRYTON_PORT"
APP_DB="cartontrace_e2e_$APP_PORT"
TRYTON_DB="cartontrace_tryton_$TRYTON_PORT"
TRYTON_DIR="$ROOT/var/tryton-$TRYTON_PORT"
SERVER_NAME="bench-tryton-$APP_PORT"
# Tryton's database URI: the same server and role, its own scheme, no database (trytond -d names it).
TRYTON_URI="$(python3 -c '
import sys
from urllib.parse import urlsplit, urlunsplit
print(urlunsplit(urlsplit(sys.argv[1])._replace(scheme="postgresql", path="/", query="")))' "$PG_URL")"
APP_DB_URL="$(python3 -c '
import sys
from urllib.parse import urlsplit, urlunsplit
print(urlunsplit(urlsplit(sys.argv[1])._replace(path="/" + sys.argv[2])))' "$PG_URL" "$APP_DB")"

APP_SERVER="" TRYTON_SERVER="" STEP=""
cleanup() {
  [ -n "$STEP" ] && stop_group "$STEP"
  [ -n "$TRYTON_SERVER" ] && stop_group "$TRYTON_SERVER"
  [ -n "$APP_SERVER" ] && stop_group "$APP_SERVER"
  STEP="" TRYTON_SERVER="" APP_SERVER=""
  for db in "$TRYTON_DB" "$APP_DB"; do
    psql "$PG_URL" -v ON_ERROR_STOP=1 -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" 2>/dev/null ||
      echo "bench-tryton: could not drop $db" >&2
  done
  rm -rf "$TRYTON_DIR" "$ROOT/var/e2e-$APP_PORT" "$ROOT/var/servers/$SERVER_NAME".*
  say "stopped both servers, dropped $APP_DB and $TRYTON_DB; $((SECONDS - started)) s in all"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "bench-tryton: $*" >&2; exit 1; }
# The long steps run in a process group of their own, waited for: Ctrl-C (or TERM) interrupts the wait at
# once, and the cleanup stops the step's whole group. (A foreground command that handles SIGINT itself,
# as Python's database drivers do during a statement, would otherwise keep the script going.)
step() {
  setsid "$@" </dev/null &
  STEP=$!
  wait "$STEP"
  local status=$?
  STEP=""
  return $status
}

# The app's demo server, in a process group of its own (setsid), as scripts/bench-server-figures.sh.
E2E_PORT="$APP_PORT" E2E_SERVER_NAME="$SERVER_NAME" E2E_DATABASE_URL="$PG_URL" \
  setsid bash "$ROOT/scripts/e2e-server.sh" >"$APP_LOG" 2>&1 </dev/null &
APP_SERVER=$!
say "the demo server starts on $APP_BASE (database $APP_DB, its log: $APP_LOG)"

# Tryton's database while the demo server migrates and loads its demo data.
mkdir -p "$TRYTON_DIR"
python3 -c 'import secrets; print(secrets.token_urlsafe(18))' > "$TRYTON_DIR/admin-password"
cat > "$TRYTON_DIR/trytond.conf" <<EOF
[database]
uri = $TRYTON_URI
list = False
[web]
listen = 127.0.0.1:$TRYTON_PORT
EOF
# Errors only, and no line per request (werkzeug logs each at INFO; the app's gunicorn has no access log).
cat > "$TRYTON_DIR/logging.conf" <<'EOF'
[formatters]
keys=simple
[handlers]
keys=stderr
[loggers]
keys=root,werkzeug
[formatter_simple]
format=%(process)s %(thread)s [%(asctime)s] %(levelname)s %(name)s %(message)s
[handler_stderr]
class=StreamHandler
formatter=simple
args=(sys.stderr,)
[logger_root]
level=WARNING
handlers=stderr
[logger_werkzeug]
level=WARNING
handlers=
qualname=werkzeug
EOF
TRYTON_DB_URL="$(python3 -c '
import sys
from urllib.parse import urlsplit, urlunsplit
print(urlunsplit(urlsplit(sys.argv[1])._replace(path="/" + sys.argv[2])))' "$PG_URL" "$TRYTON_DB")"
# pg_trgm and btree_gin (trusted extensions: the database's owner may create them) before trytond-admin,
# which then builds Tryton's trigram (similarity) indexes, among them on the product codes: Tryton at
# its best for an `ilike '%term%'`.
psql "$PG_URL" -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE $TRYTON_DB" &&
  psql "$TRYTON_DB_URL" -v ON_ERROR_STOP=1 -q -c "CREATE EXTENSION pg_trgm" -c "CREATE EXTENSION btree_gin" ||
  fail "could not create $TRYTON_DB with the extensions pg_trgm and btree_gin"
t=$SECONDS
TRYTONPASSFILE="$TRYTON_DIR/admin-password" step "$VENV/bin/trytond-admin" -c "$TRYTON_DIR/trytond.conf" \
  -d "$TRYTON_DB" --all -u product --activate-dependencies --email admin@example.com \
  >"$TRYTON_LOG" 2>&1 || { tail -n 20 "$TRYTON_LOG" >&2; fail "trytond-admin failed"; }
say "Tryton's database $TRYTON_DB initialised (module product), $((SECONDS - t)) s"
t=$SECONDS
step "$VENV/bin/python" -W ignore::DeprecationWarning "$ROOT/scripts/tryton/fill.py" "$TRYTON_DIR/trytond.conf" \
  "$TRYTON_DB" 100000 || fail "filling Tryton's products failed"
# The tables the products are in, as the app's (VACUUM (ANALYZE) of its products and search grams).
psql "$TRYTON_DB_URL" -v ON_ERROR_STOP=1 -q -c "VACUUM (ANALYZE) product_template" \
  -c "VACUUM (ANALYZE) product_product" -c "VACUUM (ANALYZE) product_cost_price_method" ||
  fail "could not vacuum $TRYTON_DB"
say "Tryton's 100,000 products written and vacuumed, $((SECONDS - t)) s"

# trytond's own server (werkzeug, threaded: a thread per connection, so each of the 8 clients has one;
# trytond has no worker or thread setting for it), in a process group of its own.
setsid "$VENV/bin/trytond" -c "$TRYTON_DIR/trytond.conf" --logconf "$TRYTON_DIR/logging.conf" -d "$TRYTON_DB" \
  >>"$TRYTON_LOG" 2>&1 </dev/null &
TRYTON_SERVER=$!

wait_for_server "bench-tryton: trytond" "$TRYTON_BASE/" "$TRYTON_SERVER" "$TRYTON_LOG"
say "trytond answers on $TRYTON_BASE"
wait_for_server "bench-tryton: the demo server" "$APP_BASE/api/schema/" "$APP_SERVER" "$APP_LOG"
say "the demo server answers on $APP_BASE, $((SECONDS - started)) s after the start"

t=$SECONDS
step env -C "$ROOT/backend" -u REDIS_URL DATABASE_URL="$APP_DB_URL" APP_VAR_DIR="$ROOT/var/e2e-$APP_PORT" \
  DJANGO_SETTINGS_MODULE=config.settings \
  "$UV" run --frozen python ../scripts/bench-tryton-fill-app.py "$TENANT_ID" 100000 ||
  fail "filling the app's products failed"
say "the app's 100,000 products written and vacuumed, $((SECONDS - t)) s"

say "machine load before the figures:$(uptime | sed 's/.*load average//')"
step python3 "$ROOT/scripts/bench-tryton-clients.py" "$APP_BASE" "$TENANT_ID" "$TRYTON_BASE" "$TRYTON_DB" \
  "$(cat "$TRYTON_DIR/admin-password")" || fail "the figures were not measured"
say "machine load after the figures:$(uptime | sed 's/.*load average//')"
exit 0
