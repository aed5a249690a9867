#!/usr/bin/env bash
# Serves the built web app and the API on 127.0.0.1:${E2E_PORT:-8799} with a fresh demo database,
# for the Playwright tests (frontend/playwright.config.ts starts it). Builds nothing: `make test-e2e` does.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${E2E_PORT:-8799}"
export APP_VAR_DIR="$ROOT/var/e2e-$PORT"
export SQLITE_PATH="$APP_VAR_DIR/db.sqlite3"
export MEDIA_ROOT="$APP_VAR_DIR/media"
export LOGIN_RATE="10000/min" PUBLIC_TRACE_RATE="10000/min"
export DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost"
unset DATABASE_URL REDIS_URL
rm -rf "$APP_VAR_DIR" && mkdir -p "$APP_VAR_DIR"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
cd "$ROOT/backend"
"$UV" run --frozen python manage.py migrate --no-input -v0
"$UV" run --frozen python manage.py load_demo >/dev/null
"$UV" run --frozen python manage.py collectstatic --no-input -v0
exec "$UV" run --frozen gunicorn config.wsgi:application --bind "127.0.0.1:$PORT" --workers 1 --threads 8 \
  --log-level warning
