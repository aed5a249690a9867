#!/usr/bin/env bash
# Serves the built web app and the API on 127.0.0.1:$E2E_PORT with a fresh demo database, for the
# Playwright tests (frontend/playwright.config.ts starts it) and schemathesis. Builds nothing:
# `make test-e2e` does. Without E2E_PORT (or with 0) it takes a free port; either way it says which
# ("e2e-server: serving on http://127.0.0.1:<port>") and records it with the database it runs on in
# var/servers/<E2E_SERVER_NAME>.{port,database} (default name e2e), where CI's checks read them: a fixed
# port collides with whatever else a busy machine runs.
#
# E2E_FIXED_DAY (YYYY-MM-DD) runs the server on a fixed clock (backend/config/fixed_clock.py), for the
# pictures (frontend/e2e/pictures.spec.ts): the demo data loads at 08:00 UTC of that day with fixed carton
# codes, on a clock that moves a microsecond per read (the same timestamps however long the load takes),
# and the server's clock starts at 09:00 UTC of it and runs: every load has the same dates and codes.
#
# Database: PostgreSQL when E2E_DATABASE_URL (or else DATABASE_URL) is set, so that the real HTTP stack
# runs under row-level security: the database of that URL's server named cartontrace_e2e_<port> is
# dropped and created anew on every start, as the URL's role (an ordinary role with CREATEDB, never a
# superuser: the server refuses to start as one). SQLite under var/e2e-<port>/ when neither is set.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${E2E_PORT:-0}"
if [ "$PORT" = 0 ]; then
  PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
fi
SERVER_NAME="${E2E_SERVER_NAME:-e2e}"
SERVERS_DIR="$ROOT/var/servers"
export APP_VAR_DIR="$ROOT/var/e2e-$PORT"
export SQLITE_PATH="$APP_VAR_DIR/db.sqlite3"
export MEDIA_ROOT="$APP_VAR_DIR/media"
# Rates a test run does not reach; `make bench` raises the public trace's further (it measures hundreds
# of scans a second for a minute from one address).
export LOGIN_RATE="${LOGIN_RATE:-10000/min}" PUBLIC_TRACE_RATE="${PUBLIC_TRACE_RATE:-10000/min}"
export DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost"
# A known signing key, so the Playwright tests can craft a genuinely expired access token
# (frontend/e2e/helpers.ts resignJwt); test servers only.
export DJANGO_SECRET_KEY="${E2E_SECRET_KEY:-e2e-only-signing-key-7d1c4f9a2b6e8035c1d7f4a9b2e6c803}"
PG_URL="${E2E_DATABASE_URL:-${DATABASE_URL:-}}"
unset DATABASE_URL REDIS_URL
rm -rf "$APP_VAR_DIR" && mkdir -p "$APP_VAR_DIR"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
cd "$ROOT/backend"

if [ -n "$PG_URL" ]; then
  DATABASE_URL="$(E2E_PG_URL="$PG_URL" E2E_DB_NAME="cartontrace_e2e_$PORT" "$UV" run --frozen python - <<'PY'
import os
import sys
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

url, name = os.environ["E2E_PG_URL"], os.environ["E2E_DB_NAME"]
parts = urlsplit(url)
admin_url = urlunsplit(parts._replace(path="/postgres"))
with psycopg.connect(admin_url, autocommit=True) as conn:
    superuser, bypass = conn.execute(
        "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if superuser or bypass:
        sys.exit(
            "e2e-server: the database URL's role bypasses row-level security; "
            "use an ordinary role (make pg-role: postgres://cartontrace@127.0.0.1:5432/cartontrace)"
        )
    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
print(urlunsplit(parts._replace(path=f"/{name}")))
PY
)"
  export DATABASE_URL
  echo "postgresql cartontrace_e2e_$PORT" > "$APP_VAR_DIR/database"
else
  echo "sqlite $SQLITE_PATH" > "$APP_VAR_DIR/database"
fi
echo "e2e-server: $(cat "$APP_VAR_DIR/database")"
mkdir -p "$SERVERS_DIR"
echo "$PORT" > "$SERVERS_DIR/$SERVER_NAME.port"
cp "$APP_VAR_DIR/database" "$SERVERS_DIR/$SERVER_NAME.database"
echo "e2e-server: serving on http://127.0.0.1:$PORT"

GUNICORN="" TRACES=""
# Stopped (SIGTERM or SIGINT: playwright.config.ts's gracefulShutdown, make bench, schemathesis.sh), the
# server drops its database: a free port per run would otherwise leave one database per run behind.
stop() {
  for pid in $GUNICORN $TRACES; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in $GUNICORN $TRACES; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$PG_URL" ]; then
    E2E_PG_URL="$PG_URL" E2E_DB_NAME="cartontrace_e2e_$PORT" "$UV" run --frozen python - <<'PY' || true
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
  fi
  rm -f "$SERVERS_DIR/$SERVER_NAME.port"
}
trap stop EXIT
trap 'exit 0' TERM INT

# The EU information system, answered locally (apps/eudr/tests/traces_system.py): statements filed in
# the browser reach it, never the real system. It writes its address once it listens.
"$UV" run --frozen python -m apps.eudr.tests.traces_system --url-file "$APP_VAR_DIR/traces.url" &
TRACES=$!
until [ -s "$APP_VAR_DIR/traces.url" ]; do
  kill -0 "$TRACES" 2>/dev/null || { echo "e2e-server: the local EU system did not start" >&2; exit 1; }
  sleep 0.1
done
TRACES_URL="$(cat "$APP_VAR_DIR/traces.url")"
export EUDR_TRACES_URLS="{\"acceptance\": \"$TRACES_URL\", \"production\": \"$TRACES_URL\"}"
echo "e2e-server: the EU system answers on $TRACES_URL"

DEMO_CLOCK=() SERVER_CLOCK=()
if [ -n "${E2E_FIXED_DAY:-}" ]; then
  # PYTHONHASHSEED too: an order that follows string hashing (a set's) is then the same on every load.
  # A fixed public address too: the trace links and redirect addresses the pages show would otherwise
  # carry the test server's free port.
  DEMO_CLOCK=(env "E2E_FIXED_NOW=${E2E_FIXED_DAY}T08:00:00+00:00" E2E_FIXED_CLOCK=steps PYTHONHASHSEED=0
    PUBLIC_BASE_URL=https://cartontrace.example)
  SERVER_CLOCK=(env "E2E_FIXED_NOW=${E2E_FIXED_DAY}T09:00:00+00:00" PYTHONHASHSEED=0
    PUBLIC_BASE_URL=https://cartontrace.example)
  echo "e2e-server: a fixed clock, ${E2E_FIXED_DAY}"
fi
"$UV" run --frozen python manage.py migrate --no-input -v0
"${DEMO_CLOCK[@]}" "$UV" run --frozen python manage.py load_demo >/dev/null
"$UV" run --frozen python manage.py collectstatic --no-input -v0
"${SERVER_CLOCK[@]}" "$UV" run --frozen gunicorn config.wsgi:application --bind "127.0.0.1:$PORT" --workers 1 --threads 8 \
  --log-level warning &
GUNICORN=$!
wait "$GUNICORN"
