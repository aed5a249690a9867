#!/usr/bin/env bash
# Dependency audit of the LOCKED dependencies (backend/uv.lock, frontend/package-lock.json) against the
# public advisory databases (docs/operations.md, "Auditing dependencies"). CI runs it (.ci/run).
#
# - backend: `pip-audit` (when installed) over the requirements exported from uv.lock; advisories from
#   PyPI/OSV (api.osv.dev);
# - frontend: `npm audit --package-lock-only` against the npm registry's advisory endpoint.
#
# Advisory data needs the network. When it cannot be reached (or pip-audit is not installed) the part is
# reported as SKIPPED, in capitals, with the reason: never a silent pass. AUDIT_REQUIRED=1 turns a skip
# into a failure (exit 2). Known vulnerabilities: exit 1.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/var/audit"
mkdir -p "$OUT"
UV="$(command -v uv || echo "$ROOT/.tools/bin/uv")"
status=0
skipped=0

skip() { echo "dependency audit: $1 SKIPPED: $2"; skipped=1; }

reachable() { curl -s -o /dev/null -m 10 -X "${2:-GET}" "$1"; }

# -- backend -------------------------------------------------------------------------------------------
if ! command -v pip-audit >/dev/null 2>&1; then
  skip "backend" "pip-audit is not installed (pipx install pip-audit, then run this again)"
elif ! reachable "https://api.osv.dev/v1/query" POST; then
  skip "backend" "advisory data (api.osv.dev) is not reachable from this machine"
else
  (cd "$ROOT/backend" && "$UV" export --frozen --no-hashes --format requirements-txt --quiet) > "$OUT/requirements.txt"
  if pip-audit --requirement "$OUT/requirements.txt" --no-deps --disable-pip --vulnerability-service osv \
      > "$OUT/backend.txt" 2>&1; then
    echo "dependency audit: backend passed (no known vulnerabilities; $OUT/backend.txt)"
  else
    cat "$OUT/backend.txt"
    if grep -qiE "connection|timed out|resolve|network" "$OUT/backend.txt"; then
      skip "backend" "advisory data could not be read (see $OUT/backend.txt)"
    else
      echo "dependency audit: backend FAILED: known vulnerabilities (above)"; status=1
    fi
  fi
fi

# -- frontend ------------------------------------------------------------------------------------------
if ! reachable "https://registry.npmjs.org/-/npm/v1/security/advisories/bulk" POST; then
  skip "frontend" "advisory data (registry.npmjs.org) is not reachable from this machine"
else
  if (cd "$ROOT/frontend" && npm audit --package-lock-only --audit-level=high) > "$OUT/frontend.txt" 2>&1; then
    echo "dependency audit: frontend passed (no high or critical advisories; $OUT/frontend.txt)"
  else
    cat "$OUT/frontend.txt"
    if grep -qE "ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|audit endpoint returned an error" "$OUT/frontend.txt"; then
      skip "frontend" "advisory data could not be read (see $OUT/frontend.txt)"
    else
      echo "dependency audit: frontend FAILED: high or critical advisories (above)"; status=1
    fi
  fi
fi

if [ "$skipped" = 1 ] && [ "${AUDIT_REQUIRED:-0}" = 1 ] && [ "$status" = 0 ]; then
  echo "dependency audit: AUDIT_REQUIRED=1 and a part was skipped"; status=2
fi
exit "$status"
