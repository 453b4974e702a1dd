#!/usr/bin/env bash
# The documentation's screenshots (docs/screenshots/), from the built app on fresh demo data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/ensure-chromium.sh
pnpm --filter @solserver/web build >/tmp/solserver-screenshots-build.log 2>&1 || { cat /tmp/solserver-screenshots-build.log; exit 1; }
cd e2e && exec pnpm exec playwright test -c playwright.screenshots.config.ts "$@"
