#!/usr/bin/env bash
# Browser and HTTP tests: build the app, then Playwright starts `next start` on a fresh database.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/ensure-chromium.sh
# Build in this script, right before the tests: a stale or failed .next makes `next start` fail.
# E2E_SKIP_BUILD=1 reuses the build a run just made (the PostgreSQL smoke run after the SQLite one).
if [[ -z "${E2E_SKIP_BUILD:-}" ]]; then
  pnpm --filter @solserver/web build >/tmp/solserver-e2e-build.log 2>&1 || { cat /tmp/solserver-e2e-build.log; exit 1; }
fi
cd e2e && exec pnpm exec playwright test "$@"
