#!/usr/bin/env bash
# `make test`: every check and suite runs, even after one fails, so that the last line adds all of them
# up (scripts/test-totals.py): `total: N passed, N failed`. Exits non-zero when anything failed.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
REPORTS="$ROOT/var/reports"
MAKE="${MAKE:-make}"
rm -rf "$REPORTS" "$ROOT/var/servers" && mkdir -p "$REPORTS"
# A check is counted as one test; a suite by the tests in its report (backend.xml, vitest.xml, e2e.xml,
# schemathesis/*.xml). steps.tsv records each step's exit status, so a suite that fails outside its
# tests (a crash before the report is written, a server that does not start) still counts as failed.
# Each step's wall time goes beside its status (steps.tsv, third column) and is printed as it ends, so a
# run's log says where its time went.
for step in lint types-check check-deploy test-backend test-frontend test-e2e schemathesis; do
  echo "== $step"
  started=$(date +%s)
  # lint: the backend's and the frontend's checks side by side (Makefile, "lint"), each one's output whole
  parallel=()
  [ "$step" = lint ] && parallel=(-j2 --output-sync=target)
  "$MAKE" --no-print-directory -C "$ROOT" "${parallel[@]}" "$step"
  status=$?
  took=$(( $(date +%s) - started ))
  printf '%s\t%s\t%s\n' "$step" "$status" "$took" >> "$REPORTS/steps.tsv"
  echo "== $step: exit $status after ${took} s"
done
exec python3 "$ROOT/scripts/test-totals.py" "$REPORTS"
