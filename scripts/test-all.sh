#!/usr/bin/env bash
# Every test: lint, types, drift, unit + integration (vitest), e2e (Playwright in Chromium).
# Prints a closing "N passed, N failed" line over all suites; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
set -e
ensure_pnpm
ensure_dependencies
bash scripts/ensure-chromium.sh
set +e

results="$ROOT/.test-results"
rm -rf "$results" && mkdir -p "$results"
status=0
failed_steps=()
step_failed() { status=1; failed_steps+=("$1"); }

say "lint (biome)"
pnpm --silent lint || step_failed lint
say "typecheck (tsc, every package)"
pnpm --silent typecheck || step_failed typecheck
say "unit + integration tests (vitest)"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || step_failed vitest
say "e2e tests (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" bash scripts/e2e.sh --reporter=list,json || step_failed e2e

say "summary"
((${#failed_steps[@]} == 0)) || echo "failed steps: ${failed_steps[*]}"
node scripts/summarize-tests.mjs "$results" || status=1
exit $status
