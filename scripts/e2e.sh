#!/usr/bin/env bash
# Browser and HTTP tests: build the app, then Playwright starts `next start` on a fresh database.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/ensure-chromium.sh
# Build in this script, right before the tests: a stale or failed .next makes `next start` fail.
pnpm --filter @solserver/web build >/tmp/solserver-e2e-build.log 2>&1 || { cat /tmp/solserver-e2e-build.log; exit 1; }
cd e2e && exec pnpm exec playwright test "$@"
