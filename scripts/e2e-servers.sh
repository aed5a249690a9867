#!/usr/bin/env bash
# The Playwright tests' two servers (frontend/playwright.config.ts starts this), each a fresh demo database
# from scripts/e2e-server.sh, started side by side:
#   - the journeys' server on E2E_PORT (name e2e), on the real clock;
#   - the pictures' server on E2E_PICTURES_PORT (name pictures), on the fixed clock of E2E_PICTURES_DAY
#     (E2E_FIXED_DAY), so that its pages look the same on every run (frontend/e2e/pictures.spec.ts).
# When either stops, the other is stopped too, so a server that cannot start fails the run. A SIGTERM
# (Playwright's gracefulShutdown, sent to the whole process group) reaches both servers, which drop their
# databases; this script waits until they have.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
: "${E2E_PICTURES_PORT:?the pictures server needs E2E_PICTURES_PORT}"
: "${E2E_PICTURES_DAY:?the pictures server needs E2E_PICTURES_DAY (YYYY-MM-DD)}"

bash "$ROOT/scripts/e2e-server.sh" &
MAIN=$!
E2E_PORT="$E2E_PICTURES_PORT" E2E_SERVER_NAME=pictures E2E_FIXED_DAY="$E2E_PICTURES_DAY" \
  bash "$ROOT/scripts/e2e-server.sh" &
PICTURES=$!

signalled=
trap 'signalled=1' TERM INT
wait -n "$MAIN" "$PICTURES"
status=$?
# One server stopped by itself: stop the other (after a signal both already have it).
[ -z "$signalled" ] && kill -TERM "$MAIN" "$PICTURES" 2>/dev/null
while [ -n "$(jobs -pr)" ]; do wait; done
exit "$status"
