#!/usr/bin/env bash
# Every test: lint, types, drift, unit + integration (vitest) on SQLite and the database suites
# again on PostgreSQL,
# e2e (Playwright in Chromium) on SQLite plus a smoke run on PostgreSQL. PostgreSQL is a throwaway
# cluster on 127.0.0.1 (scripts/postgres-cluster.sh installs Debian's package when missing),
# stopped and deleted at the end. Prints a closing "N passed, N failed" line over all suites;
# exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
set -e
ensure_pnpm
ensure_dependencies
bash scripts/ensure-chromium.sh
set +e

# The browser journeys that cross every layer, again on PostgreSQL: sign-in, the knowledge loop
# (chat, proposal, approval, retrieval), the REST API, streaming and workflows with schedules.
POSTGRES_SMOKE_SPECS=(tests/auth.spec.ts tests/knowledge-loop.spec.ts tests/rest-api.spec.ts
  tests/streaming.spec.ts tests/workflow-schedule.spec.ts)

# The test folders whose suites use a database (the PostgreSQL run repeats only these).
DATABASE_SUITES=(packages/db packages/control-plane apps/web)

results="$ROOT/.test-results"
rm -rf "$results" && mkdir -p "$results"
status=0
failed_steps=()
step_failed() { status=1; failed_steps+=("$1"); }

say "lint (biome)"
pnpm --silent lint || step_failed lint
say "typecheck (tsc, every package)"
pnpm --silent typecheck || step_failed typecheck
say "unit + integration tests on SQLite (vitest)"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || step_failed vitest
say "e2e tests on SQLite (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" bash scripts/e2e.sh --reporter=list,json || step_failed e2e

say "PostgreSQL: a throwaway cluster on 127.0.0.1"
pg_dir="$(mktemp -d /tmp/solserver-test-pg-XXXXXX)"
stop_postgres() { bash scripts/postgres-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap stop_postgres EXIT
# fsync off: a test cluster that is thrown away needs no durability, and it halves commit time.
if pg_admin="$(PG_FSYNC=off bash scripts/postgres-cluster.sh start "$pg_dir" auto)"; then
  echo "$pg_admin"
  say "unit + integration tests on PostgreSQL (vitest)"
  # Only the suites that touch a database: the pure packages (engine, resolve, gate, checkpoint,
  # breakpoint, contracts) do no I/O, so a second run of theirs would test nothing new.
  SOLSERVER_TEST_POSTGRES_URL="$pg_admin" pnpm exec vitest run --reporter=dot --reporter=json \
    --outputFile.json="$results/vitest-postgres.json" "${DATABASE_SUITES[@]}" || step_failed vitest-postgres
  say "e2e smoke on PostgreSQL (Playwright, Chromium)"
  E2E_SKIP_BUILD=1 E2E_DATABASE_URL="${pg_admin%/postgres}/solserver_e2e_$$" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright-postgres.json" \
    bash scripts/e2e.sh --reporter=list,json "${POSTGRES_SMOKE_SPECS[@]}" || step_failed e2e-postgres
else
  step_failed postgres
fi

say "summary"
((${#failed_steps[@]} == 0)) || echo "failed steps: ${failed_steps[*]}"
node scripts/summarize-tests.mjs "$results" || status=1
exit $status
